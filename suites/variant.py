"""Harness-Variant QA: `inspect eval suites/variant.py --model ...`.

The task and its arguments (-T split=, harness=, agent=, n=, seed=) are those of
`hat_eval/variant` (`hat_eval/suites/variant/`), which `hat-eval run --suite variant` runs.
"""

from typing import Any

from inspect_ai import Task, task

from hat_eval.suites.variant.task import variant as registered


@task
def variant(**task_args: Any) -> Task:
    """See the module docstring."""
    return registered(**task_args)
