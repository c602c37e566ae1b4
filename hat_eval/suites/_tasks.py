"""The factory behind the case suites' registered tasks (each suite's ``task.py`` calls it).

One factory makes all three, so their arguments cannot drift apart; each suite's folder names
its scorer, and its ``eval.yaml`` its title and description.
"""

from __future__ import annotations

from collections.abc import Callable

from inspect_ai import Task, task
from inspect_ai.scorer import Scorer

from hat_eval.world import Split

from ._catalog import suite_meta
from ._task import Agent, CaseTaskSpec


def case_suite_task(suite: str, scorer: Callable[[], Scorer]) -> Callable[..., Task]:
    """The registered ``@task`` of case suite ``suite``, scored by ``scorer``."""

    def entry(
        split: Split = "test",
        harness: str | None = None,
        agent: Agent = "harness",
        n: int | None = None,
        seed: int | None = None,
        kb_seed: int = 0,
        max_turns: int = 5,
        disclosure: str | None = None,
        harness_version: str | None = None,
        changelog: str | None = None,
        shop: str | None = None,
        cases: str | None = None,
    ) -> Task:
        return CaseTaskSpec(
            suite,
            split=split,
            harness=harness,
            agent=agent,
            n=n,
            seed=seed,
            kb_seed=kb_seed,
            max_turns=max_turns,
            disclosure=disclosure,
            harness_version=harness_version,
            changelog=changelog,
            shop=shop,
            cases=cases,
        ).task(scorer())

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
