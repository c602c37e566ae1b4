"""Tool/Prompt Robustness: tool faults crossed with prompt perturbations, metrics per fault.

Run with `inspect eval suites/robustness.py --model ...` or `hat-eval run --suite robustness`.
"""

from inspect_ai import Task, task

from hat_eval.suites import Agent, suite_task
from hat_eval.world import Split


@task
def robustness(
    split: Split = "test",
    harness: str | None = None,
    agent: Agent = "harness",
    n: int | None = None,
    seed: int | None = None,
) -> Task:
    """Tool/Prompt Robustness: tool faults crossed with prompt perturbations, metrics per fault.

    Args:
        split: product split of the cases (train, dev or test).
        harness: harness file (the default live-commerce harness if omitted).
        agent: `harness` (harness-driven agent) or `react` (Inspect's ReAct baseline).
        n: number of cases (the suite's full size if omitted).
        seed: case seed (the suite's fixed seed if omitted).
    """
    return suite_task("robustness", split=split, harness=harness, agent=agent, n=n, seed=seed)
