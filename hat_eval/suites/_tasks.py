"""The case suites as registered Inspect tasks: ``inspect eval hat_eval/variant`` finds these.

One factory makes all three, so their arguments cannot drift apart; the task entry files under
the top-level ``suites/`` folder (``inspect eval suites/variant.py``) call the same builder.
"""

from __future__ import annotations

from collections.abc import Callable

from inspect_ai import Task, task

from hat_eval.episode import SPECS
from hat_eval.world import Split

from ._task import Agent, suite_task


def _suite_task_entry(suite: str) -> Callable[..., Task]:
    def entry(
        split: Split = "test",
        harness: str | None = None,
        agent: Agent = "harness",
        n: int | None = None,
        seed: int | None = None,
    ) -> Task:
        return suite_task(suite, split=split, harness=harness, agent=agent, n=n, seed=seed)

    entry.__name__ = entry.__qualname__ = suite
    entry.__doc__ = f"""{SPECS[suite].description[:1].upper()}{SPECS[suite].description[1:]}.

    Args:
        split: product split of the cases (train, dev or test).
        harness: harness file (the default live-commerce harness if omitted).
        agent: `harness` (harness-driven agent) or `react` (Inspect's ReAct baseline).
        n: number of cases (the suite's full size if omitted).
        seed: case seed (the suite's fixed seed if omitted).
    """
    return task(name=suite)(entry)


livestream = _suite_task_entry("livestream")
variant = _suite_task_entry("variant")
robustness = _suite_task_entry("robustness")
