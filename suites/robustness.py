"""Tool/Prompt Robustness: `inspect eval suites/robustness.py --model ...`.

The task and its arguments (-T split=, harness=, agent=, n=, seed=) are those of
`hat_eval/robustness` (`hat_eval/suites/robustness/`), which `hat-eval run --suite robustness` runs.
"""

from typing import Any

from inspect_ai import Task, task

from hat_eval.suites.robustness.task import robustness as registered


@task
def robustness(**task_args: Any) -> Task:
    """See the module docstring."""
    return registered(**task_args)
