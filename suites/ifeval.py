"""IFEval as Inspect tasks: ``inspect eval suites/ifeval.py --model ... -T data=PATH``.

``ifeval`` asks the 541 prompts bare; ``ifeval_harness`` asks them after the live-commerce
harness's system prompt. Arguments (-T data=, harness=) as the registered ``hat_eval/ifeval``.
"""

from typing import Any

from inspect_ai import Task, task

from hat_eval.suites.ifeval import DEFAULT_HARNESS, build_ifeval


@task
def ifeval(**task_args: Any) -> Task:
    """IFEval, bare."""
    return build_ifeval(**task_args)


@task
def ifeval_harness(**task_args: Any) -> Task:
    """IFEval after a harness's system prompt (the default live-commerce one unless given)."""
    return build_ifeval(**{"harness": DEFAULT_HARNESS, **task_args})
