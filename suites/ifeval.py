"""IFEval: ``inspect eval suites/ifeval.py --model ... -T data=PATH``.

``ifeval`` asks the 541 prompts bare; ``ifeval_harness`` asks them after the live-commerce
harness's system prompt. The tasks and their arguments (-T data=, harness=, limit=) are the
registered ``hat_eval/ifeval`` and ``hat_eval/ifeval_harness`` (``hat_eval/suites/ifeval/``).
"""

from typing import Any

from inspect_ai import Task, task

from hat_eval.suites.ifeval import task as registered


@task
def ifeval(**task_args: Any) -> Task:
    """IFEval, bare."""
    return registered.ifeval(**task_args)


@task
def ifeval_harness(**task_args: Any) -> Task:
    """IFEval after a harness's system prompt."""
    return registered.ifeval_harness(**task_args)
