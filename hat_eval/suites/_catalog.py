"""The suites hat-eval has, in one place: names, descriptions, sizes, hashes and how to build each.

The three case suites come from the episode sets (:data:`hat_eval.episode.SPECS`); IFEval from
its own package. ``hat-eval run`` and ``hat-eval suites`` derive everything from here.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from hat_eval.episode import SPECS

if TYPE_CHECKING:
    from inspect_ai import Task

IFEVAL = "ifeval"
SUITE_NAMES: tuple[str, ...] = (*SPECS, IFEVAL)
"""Every suite, in the order ``--suite all`` runs them."""


@dataclass(frozen=True)
class RunOptions:
    """What a user chooses for a run; each suite takes the options that apply to it.

    Attributes:
        limit: cases per suite (all if None).
        harness: harness file (the default if None); IFEval puts its system prompt first.
        seed: case seed of the case suites (their fixed seed if None).
        agent: ``harness`` or ``react`` (case suites).
        ifeval_data: a local IFEval ``input_data.jsonl`` (the Hub's if None).
    """

    limit: int | None = None
    harness: str | None = None
    seed: int | None = None
    agent: str = "harness"
    ifeval_data: Path | None = None


@dataclass(frozen=True)
class SuiteInfo:
    """One row of ``hat-eval suites``."""

    name: str
    cases: int
    sha256: str | None
    description: str


def check_suite(name: str) -> None:
    """Raise ``ValueError`` unless ``name`` is a suite."""
    if name not in SUITE_NAMES:
        raise ValueError(f"{name!r} is not a suite, expected one of {', '.join(SUITE_NAMES)}")


def make_task(name: str, options: RunOptions) -> Task:
    """The Inspect task of suite ``name`` under ``options``.

    Raises:
        ValueError: an unknown suite or agent, a harness missing a needed tool, or IFEval data
            that cannot be read (:class:`~hat_eval.suites.ifeval.IFEvalError`).
    """
    check_suite(name)
    if name == IFEVAL:
        from .ifeval import ifeval_task

        return ifeval_task(data=options.ifeval_data, harness=options.harness, limit=options.limit)
    from ._task import suite_task

    return suite_task(
        name,
        harness=options.harness,
        agent=options.agent,  # type: ignore[arg-type]
        n=options.limit,
        seed=options.seed,
    )


def suite_info(name: str, ifeval_data: Path | None = None) -> SuiteInfo:
    """Case count and dataset sha256 of suite ``name`` (IFEval's hash needs ``ifeval_data``)."""
    check_suite(name)
    if name == IFEVAL:
        from .ifeval import suite_entry

        entry = suite_entry(ifeval_data)
        return SuiteInfo(name, entry["cases"], entry["sha256"], entry["description"])
    from hat_eval.episode import build_rows, dataset_sha256

    rows = build_rows(name)
    return SuiteInfo(name, len(rows), dataset_sha256(rows), SPECS[name].description)
