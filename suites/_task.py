"""The one builder behind the suites' ``@task`` functions."""

from __future__ import annotations

import hashlib
from typing import Literal

from inspect_ai import Epochs, Task
from inspect_ai.dataset import MemoryDataset

from hat_eval.harness import default_harness_path, dump_harness

from ._agent import harness_agent, react_baseline
from ._context import base_harness, to_sample
from ._dataset import DATASET_VERSION, SPECS, Split, build_rows, dataset_sha256
from ._scorers import livestream_scorer, part_mean, robustness_scorer, variant_scorer

Agent = Literal["harness", "react"]

REQUIRED_FUNCTIONS: tuple[str, ...] = (
    "catalog.search",
    "catalog.get_product",
    "inventory.check_stock",
    "pricing.final_price",
    "policy.shipping_returns",
    "compliance.check_claim",
    "handoff.escalate",
)
"""Function ids the suites' gold calls use: a harness must bind a tool to each."""


def check_harness_functions(harness: str | None) -> None:
    """Raise ``ValueError`` naming the first function the suites need that no tool binds."""
    h = base_harness(harness)
    bound = {t.function for t in h.tools}
    for fn in REQUIRED_FUNCTIONS:
        if fn not in bound:
            raise ValueError(
                f"{harness or default_harness_path()}: tools: no tool is bound to function "
                f"{fn!r}, which the suites need; expected a tool with `function: {fn}`"
            )


def suite_task(
    suite: str,
    *,
    split: Split = "test",
    harness: str | None = None,
    agent: Agent = "harness",
    n: int | None = None,
    seed: int | None = None,
    kb_seed: int = 0,
    max_turns: int = 5,
) -> Task:
    """An Inspect task for one suite.

    Args:
        suite: ``livestream``, ``variant`` or ``robustness``.
        split: the product split the cases come from (``test`` for evaluation).
        harness: harness file to run under (the default live-commerce harness if None).
        agent: ``harness`` (the harness-driven agent) or ``react`` (Inspect's ReAct baseline).
        n: number of cases (the suite's size by default).
        seed: case seed (the suite's fixed seed by default).
        kb_seed: seed of the product knowledge base.
        max_turns: most model calls per viewer message for the harness agent.
    """
    if agent not in ("harness", "react"):
        raise ValueError(f"agent {agent!r} is unknown, expected 'harness' or 'react'")
    check_harness_functions(harness)
    rows = build_rows(suite, split=split, n=n, harness=harness, kb_seed=kb_seed, seed=seed)
    samples = [to_sample(r) for r in rows]
    solver = (
        harness_agent(harness=harness, max_turns=max_turns)
        if agent == "harness"
        else react_baseline(harness=harness)
    )
    scorer = {
        "livestream": livestream_scorer,
        "variant": variant_scorer,
        "robustness": robustness_scorer,
    }[suite]()
    harness_text = dump_harness(base_harness(harness))
    return Task(
        name=suite,
        dataset=MemoryDataset(samples, name=f"hat-eval-{suite}-{split}"),
        solver=solver,
        scorer=scorer,
        epochs=Epochs(1, part_mean()),
        version=DATASET_VERSION,
        metadata={
            "suite": suite,
            "split": split,
            "cases": len(rows),
            "dataset_sha256": dataset_sha256(rows),
            "dataset_version": DATASET_VERSION,
            "case_seed": SPECS[suite].seed if seed is None else seed,
            "kb_seed": kb_seed,
            "agent": agent,
            "harness": harness or str(default_harness_path()),
            "harness_sha256": hashlib.sha256(harness_text.encode("utf-8")).hexdigest(),
        },
    )
