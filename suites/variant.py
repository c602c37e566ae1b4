"""Harness-Variant QA: each case under a held-out HSA variant of the harness.

Run with `inspect eval suites/variant.py --model ...`, `inspect eval hat_eval/variant` or
`hat-eval run --suite variant`; task arguments (-T split=, harness=, agent=, n=, seed=) are those
of the registered ``hat_eval/variant``.
"""

from typing import Any

from inspect_ai import Task, task

from hat_eval.suites import suite_task


@task
def variant(**task_args: Any) -> Task:
    """See the module docstring."""
    return suite_task("variant", **task_args)
