"""Live-Stream QA: viewer questions under the default live-commerce harness.

Run with `inspect eval suites/livestream.py --model ...` or `hat-eval run --suite livestream`.
"""

from inspect_ai import Task, task

from hat_eval.suites import Agent, suite_task
from hat_eval.world import Split


@task
def livestream(
    split: Split = "test",
    harness: str | None = None,
    agent: Agent = "harness",
    n: int | None = None,
    seed: int | None = None,
) -> Task:
    """Live-Stream QA: viewer questions under the default live-commerce harness.

    Args:
        split: product split of the cases (train, dev or test).
        harness: harness file (the default live-commerce harness if omitted).
        agent: `harness` (harness-driven agent) or `react` (Inspect's ReAct baseline).
        n: number of cases (the suite's full size if omitted).
        seed: case seed (the suite's fixed seed if omitted).
    """
    return suite_task("livestream", split=split, harness=harness, agent=agent, n=n, seed=seed)
