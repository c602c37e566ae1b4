"""IFEval as Inspect tasks: ``inspect eval suites/ifeval.py --model ... -T data=PATH``.

``ifeval`` asks the 541 prompts bare; ``ifeval_harness`` asks them after the live-commerce
harness's system prompt, to measure what harness context costs general instruction following.
"""

from __future__ import annotations

from inspect_ai import Task, task

from hat_eval.suites.ifeval import DEFAULT_HARNESS, build_ifeval


@task
def ifeval(data: str | None = None, harness: str | None = None) -> Task:
    """IFEval, bare (the registered ``hat_eval/ifeval``; its arguments are documented there)."""
    return build_ifeval(data=data, harness=harness)


@task
def ifeval_harness(data: str | None = None, harness: str = DEFAULT_HARNESS) -> Task:
    """IFEval after a harness's system prompt (the registered ``hat_eval/ifeval_harness``)."""
    return build_ifeval(data=data, harness=harness)
