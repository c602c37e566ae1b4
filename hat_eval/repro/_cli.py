"""``hat-eval repro``: re-test the reference's claims at a budget, print the tables and verdicts.

The command checks the ``repro`` extra first (:mod:`hat_eval._extras`); this module imports no
TRL.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.table import Table

from hat_eval.cli._common import console, fail, need_extra

if TYPE_CHECKING:
    from ._claims import ClaimVerdict
    from ._e2e_results import E2EResults
    from ._run import ReproResults

BudgetOpt = Annotated[
    str,
    typer.Option(
        "--budget",
        help="cpu-30m: two tiny models trained with HSA-SFT (fixed harness vs HSA) and read "
        "teacher-forced on test transcripts, under 30 minutes on 2 CPU cores; gpu: every arm "
        "(SFT fixed and HSA, +OPD, +HSA-RL and fixed RL) trained and run end to end on "
        "livestream, variant, evolution and IFEval beside the base, one CUDA GPU, sized for "
        "under an hour; full: gpu over --seeds seeds (default 3) with the spread over seeds; "
        "smoke: the cpu-30m pipeline in about a minute; smoke-e2e: the gpu pipeline on a CPU "
        "in a few minutes (smoke budgets are for CI: their numbers mean nothing).",
    ),
]
OutOpt = Annotated[
    Path,
    typer.Option(
        "--out",
        help="Folder for results.json and all the run writes: the base, the checkpoints, and "
        "scores.jsonl (token level) or the suites' logs and the report (end to end).",
    ),
]
SeedsOpt = Annotated[
    int | None,
    typer.Option(
        "--seeds",
        help="Training seeds (0..N-1); each trains every arm again (cpu-30m: about 20 to 27 "
        "minutes a seed on 2 cores). Default 1; full: 3 (at least 2).",
    ),
]
BaseOpt = Annotated[
    Path | None,
    typer.Option(
        "--base",
        help="A checkpoint folder every arm starts from (default: the budget's random Qwen3, "
        "built into OUT/base).",
    ),
]
IFEvalDataOpt = Annotated[
    Path | None,
    typer.Option(
        "--ifeval-data",
        help="End-to-end budgets: IFEval's input_data.jsonl (default: google/IFEval from the "
        "Hub; offline runs need it).",
    ),
]
GeneralDataOpt = Annotated[
    str | None,
    typer.Option(
        "--general-data",
        help="End-to-end budgets: general-instruction prompts for OPD, a local file or folder "
        "(default: the Tulu 3 SFT mixture from the Hub; offline runs need it).",
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
    _print_claims(results.verdicts)


def _estimate(value: float, low: float, high: float, digits: int) -> str:
    if math.isnan(value):
        return "—"
    if math.isnan(low):
        return f"{value:.{digits}f}"
    return f"{value:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]"


COLUMNS_SHOWN = (
    ("livestream", "Live-Stream QA", 1),
    ("variant", "Harness-Variant QA", 1),
    ("sensitivity", "variant − livestream", 1),
    ("evolution", "evolution: error reduction", 3),
    ("ifeval_prompt_level_strict", "IFEval prompt strict", 3),
)
"""Columns of the report's main table the end-to-end summary prints: key, header, digits."""


def print_e2e_results(results: E2EResults) -> None:
    """Each model's headlines, each claim's contrast, and the verdicts, as tables."""
    from ._e2e_arms import E2E_ARM_IDS

    several = results.seeds > 1
    over = "; each case averaged over seeds, ± the sd over seeds" if several else ""
    table = Table(
        title=f"End to end, {results.budget.name}: each model's headline with its 95% interval "
        f"over cases ({results.seeds} seed(s){over})"
    )
    table.add_column("model")
    for _, header, _ in COLUMNS_SHOWN:
        table.add_column(header, justify="right")
    cells = {(c.arm, c.column): c for c in results.table}
    for arm in E2E_ARM_IDS:
        row = [arm]
        for key, _, digits in COLUMNS_SHOWN:
            cell = cells.get((arm, key))
            if cell is None:
                row.append("—")
            elif len(cell.runs) == 1:
                _, value, low, high, _ = cell.runs[0]
                row.append(_estimate(value, low, high, digits))
            elif cell.pooled is not None:
                p = cell.pooled
                row.append(
                    f"{_estimate(p.value, p.low, p.high, digits)} ± {_num(cell.spread, digits)}"
                )
            else:
                row.append(f"{_num(cell.mean, digits)} ± {_num(cell.spread, digits)}")
        table.add_row(*row)
    console.print(table)
    measures = Table(title="The claims' contrasts (paired by case, 95% bootstrap interval)")
    for col in ("measure", "contrast", "n", "difference", "95% interval", "per seed"):
        measures.add_column(col, justify="left" if col in ("measure", "contrast") else "right")
    for m in results.measures:
        measures.add_row(
            m.measure,
            m.contrast,
            str(m.n),
            _num(m.diff, sign=True),
            f"[{_num(m.low, sign=True)}, {_num(m.high, sign=True)}]",
            ", ".join(_num(x, sign=True) for x in m.per_seed) if several else "—",
        )
    console.print(measures)
    _print_claims(results.verdicts)
    console.print(f"report: {results.report['html']}", markup=False)


def _print_claims(verdicts: Sequence[ClaimVerdict]) -> None:
    claims = Table(title="The reference's claims")
    for col in ("claim", "expected", "verdict", "numbers behind it"):
        claims.add_column(col)
    for v in verdicts:
        claims.add_row(v.claim.id, v.claim.expected, v.verdict, v.reason)
    console.print(claims)


def repro(
    budget: BudgetOpt,
    out: OutOpt,
    seeds: SeedsOpt = None,
    base: BaseOpt = None,
    ifeval_data: IFEvalDataOpt = None,
    general_data: GeneralDataOpt = None,
) -> None:
    """Re-test the reference's claims: train, measure, and give each claim a verdict."""
    need_extra("repro")
    from hat_eval.trainers import TrainError

    from ._budget import E2EBudget, ReproError, budget_spec, get_budget, resolve_seeds
    from ._e2e import run_e2e
    from ._run import RESULTS_FILE, check_base, check_out, run_repro

    # bound to the stream stderr is now: the run sends the trainers' and Inspect's output to
    # log files by redirecting sys.stderr, and its progress lines must still reach the terminal
    progress = Console(file=sys.stderr, soft_wrap=True, highlight=False)

    def echo(line: str) -> None:
        progress.print(line, markup=False)

    try:
        named = budget_spec(budget)
        n = resolve_seeds(named, seeds)
        if base is not None:
            check_base(base)
        if not isinstance(named, E2EBudget):
            for option, value in (("--ifeval-data", ifeval_data), ("--general-data", general_data)):
                if value is not None:
                    raise ReproError(
                        f"{option} {value}: --budget {budget} runs no suite end to end; "
                        f"{option} applies to gpu, full and smoke-e2e"
                    )
        check_out(out, budget, n)
        import torch

        spec = get_budget(budget, cuda=torch.cuda.is_available())
        if isinstance(spec, E2EBudget):
            e2e = run_e2e(
                spec,
                out,
                seeds=n,
                base=base,
                ifeval_data=ifeval_data,
                general_data=general_data,
                echo=echo,
                poll_s=60.0 if spec.needs_cuda else 20.0,
            )
            print_e2e_results(e2e)
            total = e2e.timings["total_s"]
        else:
            results = run_repro(
                spec,
                out,
                seeds=n,
                base=base,
                echo=echo,
                poll_s=30.0 if spec.max_steps > 20 else 2.0,
            )
            print_results(results)
            total = results.timings["total_s"]
    except (ReproError, TrainError) as e:
        fail(str(e))
    minutes, seconds = divmod(int(total), 60)
    console.print(f"{out / RESULTS_FILE} written ({minutes} min {seconds:02d} s)", markup=False)
