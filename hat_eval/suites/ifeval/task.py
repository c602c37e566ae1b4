"""IFEval as Inspect tasks: ``inspect eval hat_eval/ifeval --model ... -T data=PATH``.

The entry file ``suites/ifeval.py`` runs the same tasks from a checkout.

``ifeval`` asks the 541 prompts bare; ``ifeval_harness`` asks them after the live-commerce
harness's system prompt, to measure what harness context costs general instruction following.
"""

from __future__ import annotations

from inspect_ai import Task, task

from hat_eval.suites.ifeval._task import DEFAULT_HARNESS, build_ifeval


@task
def ifeval(data: str | None = None, harness: str | None = None, limit: int | None = None) -> Task:
    """IFEval: prompt- and instruction-level accuracy, strict and loose.

    Args:
        data: A local ``input_data.jsonl``; ``google/IFEval`` from the Hub when omitted.
        harness: A harness file (or ``default``) whose system prompt precedes each prompt.
        limit: The first ``limit`` prompts (all when omitted).
    """
    return build_ifeval(data=data, harness=harness, limit=limit)


@task
def ifeval_harness(
    data: str | None = None, harness: str = DEFAULT_HARNESS, limit: int | None = None
) -> Task:
    """IFEval under a harness's system prompt (the embedded live-commerce one by default).

    Args:
        data: A local ``input_data.jsonl``; ``google/IFEval`` from the Hub when omitted.
        harness: A harness file, or ``default``.
        limit: The first ``limit`` prompts (all when omitted).
    """
    return build_ifeval(data=data, harness=harness, limit=limit)
