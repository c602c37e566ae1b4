"""The end-to-end re-test's results: every model's runs, the table's cells and the contrasts."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ._budget import E2EBudget
from ._claims import CLAIMS, ClaimVerdict
from ._contrast import (
    E2E_MEASURES,
    ArmEstimate,
    CaseValues,
    ContrastResult,
    arm_estimate,
    measure_contrast,
    seed_spread,
)
from ._e2e_arms import BASE, E2E_ARMS, StageRecord
from ._e2e_eval import (
    E2E_SUITES,
    model_name,
    suite_limits,
)
from ._run import (
    CONFIDENCE,
    results_head,
)

__all__ = [
    "Cell",
    "E2EResults",
    "ModelRun",
    "contrasts",
    "e2e_contrasts",
    "table_cells",
]


@dataclass(frozen=True)
class ModelRun:
    """One model run on the suites.

    Attributes:
        arm: its arm (``base`` or a trained arm).
        seed: the training seed of its arm (None: the base, trained by no one).
        checkpoint: the folder it was loaded from.
        log_dir: the folder of its Inspect logs.
        seconds: wall seconds of its run on every suite.
    """

    arm: str
    seed: int | None
    checkpoint: str
    log_dir: str
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        """Plain data for ``results.json``."""
        return {
            "arm": self.arm,
            "seed": self.seed,
            "model": model_name(Path(self.checkpoint)),
            "log_dir": self.log_dir,
            "seconds": round(self.seconds, 1),
        }


@dataclass(frozen=True)
class Cell:
    """One model's headline on one column of the report's main table, each seed's run.

    Attributes:
        arm: the model's arm.
        column: the report's column key (``livestream``, ``ifeval_prompt_level_strict``, ...).
        runs: (seed, value, low, high, n) of each run, seeds in order (the base: one, seed
            None); value and interval as the report computes them.
        pooled: for a column an end-to-end measure shows, the measure over every seed's run
            (each case averaged over seeds, then a case-bootstrap interval); None otherwise.
    """

    arm: str
    column: str
    runs: tuple[tuple[int | None, float, float, float, int], ...]
    pooled: ArmEstimate | None = None

    @property
    def mean(self) -> float:
        """The mean value over the runs (NaN when none has one)."""
        kept = [r[1] for r in self.runs if not math.isnan(r[1])]
        return math.fsum(kept) / len(kept) if kept else math.nan

    @property
    def spread(self) -> float:
        """The standard deviation over training seeds (NaN with fewer than two)."""
        return seed_spread([r[1] for r in self.runs])

    def to_dict(self) -> dict[str, Any]:
        """Plain data for ``results.json`` (NaN as null)."""

        def num(x: float) -> float | None:
            return None if math.isnan(x) else x

        out: dict[str, Any] = {
            "arm": self.arm,
            "column": self.column,
            "runs": [
                {"seed": s, "value": num(v), "low": num(lo), "high": num(hi), "n": n}
                for s, v, lo, hi, n in self.runs
            ],
            "mean": num(self.mean),
            "spread": num(self.spread),
        }
        if self.pooled is not None:
            p = self.pooled
            out["pooled"] = {
                "measure": p.measure,
                "value": num(p.value),
                "low": num(p.low),
                "high": num(p.high),
                "n": p.n,
            }
        return out


@dataclass(frozen=True)
class E2EResults:
    """A finished end-to-end run: what was trained, run, measured and concluded."""

    budget: E2EBudget
    seeds: int
    base: str
    base_built: bool
    base_parameters: int | None
    stages: tuple[StageRecord, ...]
    runs: tuple[ModelRun, ...]
    table: tuple[Cell, ...]
    measures: tuple[ContrastResult, ...]
    verdicts: tuple[ClaimVerdict, ...]
    report: dict[str, str]
    timings: dict[str, Any]
    machine: dict[str, Any]
    versions: dict[str, str]
    started_at: str
    data: dict[str, str | None]

    def to_dict(self) -> dict[str, Any]:
        """``results.json``'s content."""
        options = "".join(
            f" {option} {self.data[key]}"
            for option, key in (("--ifeval-data", "ifeval"), ("--general-data", "general"))
            if self.data.get(key)
        )
        return {
            **results_head(
                self.budget.name,
                self.budget.to_dict(),
                self.seeds,
                base=self.base,
                base_built=self.base_built,
                parameters=self.base_parameters,
                started_at=self.started_at,
                options=options,
            ),
            "data": self.data,
            "arms": [
                {"arm": a.id, "stage": a.stage, "start": a.start, "label": a.label}
                for a in E2E_ARMS
            ],
            "stages": [s.to_dict() for s in self.stages],
            "evaluation": {
                "suites": list(E2E_SUITES),
                "split": "test",
                "limits": suite_limits(self.budget.eval),
                "models": [r.to_dict() for r in self.runs],
                "interval": f"{CONFIDENCE:.0%} percentile bootstrap over cases, "
                f"{self.budget.n_boot} resamples; contrasts paired by case",
            },
            "report": self.report,
            "table": [c.to_dict() for c in self.table],
            "measures": [m.to_dict() for m in self.measures],
            "claims": [v.to_dict() for v in self.verdicts],
            "timings": self.timings,
            "machine": self.machine,
            "versions": self.versions,
        }


def e2e_contrasts() -> list[tuple[str, str]]:
    """(measure, contrast) of every claim an end-to-end run measures, each once, in claim order."""
    return list(dict.fromkeys((c.measure, c.contrast) for c in CLAIMS if c.measure in E2E_MEASURES))


def contrasts(
    scores: Sequence[dict[str, dict[str, CaseValues]]], *, n_boot: int
) -> list[ContrastResult]:
    """Every claim's contrast from each seed's scores (arm -> measure -> case -> values)."""
    out = []
    for measure, contrast in e2e_contrasts():
        per_seed = [{arm: by[measure] for arm, by in seed.items()} for seed in scores]
        out.append(
            measure_contrast(
                measure, contrast, per_seed, n_boot=n_boot, seed=0, confidence=CONFIDENCE
            )
        )
    return out


def table_cells(
    rows: Any,
    runs: Sequence[ModelRun],
    scores: Sequence[dict[str, dict[str, CaseValues]]],
    *,
    n_boot: int,
) -> list[Cell]:
    """The report's main table regrouped by arm: each column's estimate for each seed's run.

    Columns keep the report's order (a row's cells come in its main table's column order); a
    column an end-to-end measure shows also gets the measure pooled over seeds
    (:func:`~hat_eval.repro._contrast.arm_estimate`; the base's from its one run).
    """
    by_model = {model_name(Path(r.checkpoint)): r for r in runs}
    cells: dict[tuple[str, str], list[tuple[int | None, float, float, float, int]]] = {}
    for row in rows:
        run = by_model.get(row.candidate.model)
        if run is None:
            continue
        for key, e in row.cells.items():
            cells.setdefault((run.arm, key), []).append((run.seed, e.value, e.low, e.high, e.n))
    measures = {m.column: m.name for m in E2E_MEASURES.values()}
    arms = [BASE, *(a.id for a in E2E_ARMS)]
    out = []
    for (arm, column), found in sorted(cells.items(), key=lambda kv: arms.index(kv[0][0])):
        pooled = None
        if column in measures:
            seeds = [{arm: seed[arm][measures[column]]} for seed in scores]
            pooled = arm_estimate(
                measures[column],
                arm,
                seeds[:1] if arm == BASE else seeds,
                n_boot=n_boot,
                confidence=CONFIDENCE,
            )
        runs_of = tuple(sorted(found, key=lambda r: -1 if r[0] is None else r[0]))
        out.append(Cell(arm, column, runs_of, pooled))
    return out
