"""``hat-eval repro``: re-test the reference's claims at a budget, print the table and verdicts."""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from ._common import console, err_console, fail

if TYPE_CHECKING:
    from hat_eval.repro import ReproResults

BudgetOpt = Annotated[
    str,
    typer.Option(
        "--budget",
        help="cpu-30m: two tiny models trained with HSA-SFT (fixed harness vs HSA) and read "
        "teacher-forced on test transcripts, under 30 minutes on 2 CPU cores; gpu: end to end "
        "on one GPU (not built yet); full: gpu over several seeds (not built yet); smoke: the "
        "cpu-30m pipeline in about a minute (CI; its numbers mean nothing).",
    ),
]
OutOpt = Annotated[
    Path,
    typer.Option(
        "--out", help="Folder for results.json, scores.jsonl, the base and the checkpoints."
    ),
]
SeedsOpt = Annotated[
    int,
    typer.Option(
        "--seeds",
        help="Training seeds (0..N-1); each trains both models again (cpu-30m: about 20 "
        "to 27 minutes a seed on 2 cores).",
    ),
]
BaseOpt = Annotated[
    Path | None,
    typer.Option(
        "--base",
        help="A checkpoint folder both models start from (default: the budget's tiny random "
        "Qwen3, built into OUT/base).",
    ),
]


def _num(x: float | None, digits: int = 3, sign: bool = False) -> str:
    if x is None or math.isnan(x):
        return "—"
    return f"{x:+.{digits}f}" if sign else f"{x:.{digits}f}"


def print_results(results: ReproResults) -> None:
    """The measures (HSA minus fixed, with intervals) and the claims' verdicts, as tables."""
    budget = results.budget
    table = Table(
        title=f"Teacher-forced probe, {budget.name}: HSA-SFT minus fixed-harness SFT "
        f"(95% paired bootstrap over test transcripts, {results.seeds} seed(s))"
    )
    for col in ("measure", "split", "n", "fixed", "HSA", "HSA − fixed", "95% interval"):
        table.add_column(col, justify="left" if col in ("measure", "split") else "right")
    for m in results.measures:
        table.add_row(
            m.measure,
            m.split,
            str(m.n),
            _num(m.fixed),
            _num(m.hsa),
            _num(m.diff, sign=True),
            f"[{_num(m.low, sign=True)}, {_num(m.high, sign=True)}]",
        )
    console.print(table)
    claims = Table(title="The reference's claims")
    for col in ("claim", "expected", "verdict", "numbers behind it"):
        claims.add_column(col)
    for v in results.verdicts:
        claims.add_row(v.claim.id, v.claim.expected, v.verdict, v.reason)
    console.print(claims)


def repro(
    budget: BudgetOpt,
    out: OutOpt,
    seeds: SeedsOpt = 1,
    base: BaseOpt = None,
) -> None:
    """Re-test the reference's claims: train, probe, and give each claim a verdict."""
    from hat_eval.repro import (
        RESULTS_FILE,
        ReproError,
        check_base,
        check_budget_name,
        check_out,
        get_budget,
        run_repro,
    )
    from hat_eval.trainers import TrainError, require_train_extra

    try:
        check_budget_name(budget)
        if seeds < 1:
            raise ReproError(f"--seeds ({seeds}) must be >= 1: the number of training seeds")
        if base is not None:
            check_base(base)
        check_out(out, budget, seeds)
        import torch

        spec = get_budget(budget, cuda=torch.cuda.is_available())
        require_train_extra()
        results = run_repro(
            spec,
            out,
            seeds=seeds,
            base=base,
            echo=lambda line: err_console.print(line, markup=False),
            poll_s=30.0 if spec.max_steps > 20 else 2.0,
        )
    except (ReproError, TrainError) as e:
        fail(str(e))
    print_results(results)
    minutes, seconds = divmod(int(results.timings["total_s"]), 60)
    console.print(f"{out / RESULTS_FILE} written ({minutes} min {seconds:02d} s)", markup=False)
