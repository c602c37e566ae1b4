"""``hat-eval report``: reports over existing eval logs (no model runs)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ._common import fail

report_app = typer.Typer(help="Reports over existing eval logs.", no_args_is_help=True)


@report_app.command()
def paired(
    log_a: Annotated[Path, typer.Argument(help="An .eval log (e.g. the variant suite).")],
    log_b: Annotated[Path, typer.Argument(help="An .eval log of the same cases (livestream).")],
    part: Annotated[str, typer.Option(help="Score part to compare.")] = "aggregate",
    n_boot: Annotated[int, typer.Option(min=1, help="Bootstrap resamples.")] = 2000,
    seed: Annotated[int, typer.Option(help="Bootstrap seed.")] = 0,
) -> None:
    """Case-by-case difference A - B with a paired bootstrap 95% interval.

    `hat-eval report paired variant.eval livestream.eval` is the harness-sensitivity of a model:
    the same cases, under variant harnesses and under the default one.
    """
    from inspect_ai.log import read_eval_log

    from hat_eval.reports import paired_difference

    logs = []
    for path in (log_a, log_b):
        if not path.is_file():
            fail(f"{path}: no such log; expected an Inspect .eval or .json log file")
        try:
            logs.append(read_eval_log(str(path)))
        except Exception as err:  # Inspect raises several kinds for a file that is not a log
            fail(f"{path}: not an Inspect eval log ({type(err).__name__}: {err})")
    try:
        d = paired_difference(logs[0], logs[1], part, n_boot=n_boot, seed=seed)
    except ValueError as err:
        fail(f"{log_a} vs {log_b}: {err}")
    typer.echo(
        f"{part}: A {d.mean_a:.3f} - B {d.mean_b:.3f} = {d.diff:+.3f} "
        f"(95% CI {d.low:+.3f} to {d.high:+.3f}) over {d.n} paired cases"
    )
