"""Tool/Prompt Robustness: tool faults crossed with prompt perturbations, metrics per fault.

Run with `inspect eval suites/robustness.py --model ...`, `inspect eval hat_eval/robustness` or
`hat-eval run --suite robustness`; task arguments (-T split=, harness=, agent=, n=, seed=) are those
of the registered ``hat_eval/robustness``.
"""

from typing import Any

from inspect_ai import Task, task

from hat_eval.suites import suite_task


@task
def robustness(**task_args: Any) -> Task:
    """See the module docstring."""
    return suite_task("robustness", **task_args)
