"""Live-Stream QA: viewer questions under the default live-commerce harness.

Run with `inspect eval suites/livestream.py --model ...`, `inspect eval hat_eval/livestream` or
`hat-eval run --suite livestream`; task arguments (-T split=, harness=, agent=, n=, seed=) are those
of the registered ``hat_eval/livestream``.
"""

from typing import Any

from inspect_ai import Task, task

from hat_eval.suites import suite_task


@task
def livestream(**task_args: Any) -> Task:
    """See the module docstring."""
    return suite_task("livestream", **task_args)
