"""Harness Evolution: `inspect eval suites/evolution.py --model ...`.

The task and its arguments (-T split=, agent=, n=, seed=, harness_version=, changelog=) are
those of `hat_eval/evolution` (`hat_eval/suites/evolution/`), which `hat-eval run --suite
evolution` runs.
"""

from typing import Any

from inspect_ai import Task, task

from hat_eval.suites.evolution.task import evolution as registered


@task
def evolution(**task_args: Any) -> Task:
    """See the module docstring."""
    return registered(**task_args)
