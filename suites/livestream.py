"""Live-Stream QA: `inspect eval suites/livestream.py --model ...`.

The task and its arguments (-T split=, harness=, agent=, n=, seed=) are those of
`hat_eval/livestream` (`hat_eval/suites/livestream/`), which `hat-eval run --suite livestream` runs.
"""

from typing import Any

from inspect_ai import Task, task

from hat_eval.suites.livestream.task import livestream as registered


@task
def livestream(**task_args: Any) -> Task:
    """See the module docstring."""
    return registered(**task_args)
