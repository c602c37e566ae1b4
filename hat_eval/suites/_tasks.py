"""The factory behind the case suites' registered tasks (each suite's ``task.py`` calls it).

One factory makes all three, so their arguments cannot drift apart; each suite's folder names
its scorer, and its ``eval.yaml`` its title and description.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable
from typing import Any

from inspect_ai import Task, task
from inspect_ai.scorer import Scorer

from ._catalog import suite_meta
from ._task import CaseTaskSpec

POSITIONAL = inspect.Parameter.POSITIONAL_OR_KEYWORD


def case_suite_task(suite: str, scorer: Callable[[], Scorer]) -> Callable[..., Task]:
    """The registered ``@task`` of case suite ``suite``, scored by ``scorer``."""

    def entry(*args: Any, **kwargs: Any) -> Task:
        return CaseTaskSpec(suite, *args, **kwargs).task(scorer())

    # the task's parameters are the spec's fields (Inspect reads them off the signature)
    entry.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [
            inspect.Parameter(f.name, POSITIONAL, default=f.default, annotation=f.type)
            for f in dataclasses.fields(CaseTaskSpec)
            if f.name != "suite"
        ],
        return_annotation=Task,
    )
    meta = suite_meta(suite)
    entry.__name__ = entry.__qualname__ = suite
    entry.__doc__ = f"""{meta.title}: {meta.description}.

    Args:
        split: product split of the cases (train, dev or test).
        harness: harness file (the default live-commerce harness if omitted).
        agent: `harness` (harness-driven agent) or `react` (Inspect's ReAct baseline).
        n: number of cases (the suite's full size if omitted).
        seed: case seed (the suite's fixed seed if omitted).
        kb_seed: seed of the product knowledge base.
        max_turns: most model calls per viewer message for the harness agent.
        disclosure: `inline` or `progressive` skills: the default harness of that form (inline
            if omitted); with `harness`, it must be that file's skill_disclosure.
        shop: a shop folder (data pack) to draw the cases from and run against (the built-in
            shop if omitted).
        cases: a cases file (viewer messages with gold, the case schema) to run instead of
            generated cases.
    """
    return task(name=suite)(entry)
