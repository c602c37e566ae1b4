"""``hat-eval report``: reports over existing eval logs (no model runs)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from ._common import FAILED, fail, options_command, output_dir, warn


class _BuildByDefault(TyperGroup):
    """``hat-eval report LOG_DIR ...`` runs ``build``; ``hat-eval report paired A B`` stays."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ("--help", "-h"):
            args = ["build", *args]
        return super().parse_args(ctx, args)


report_app = typer.Typer(
    cls=_BuildByDefault,
    help="Reports over existing eval logs: `hat-eval report LOG_DIR... --out DIR` (the "
    "candidates' comparison page), `hat-eval report paired A B`.",
    no_args_is_help=True,
)


@dataclass(frozen=True)
class BuildOptions:
    """Compare candidates (a model with its agent and harness) over their eval logs.

    Writes one self-contained HTML page and a Markdown file: the main table with 95% intervals,
    paired comparisons with a baseline (Holm-adjusted, with the minimum detectable difference),
    pass^k over repeated trials, plots, and the cases that regressed. With --gate, also checks
    every part against the baseline logs and exits 1 on a regression (no --out needed).
    A log in a folder that cannot be read is named in one warning line and skipped.
    """

    log_dirs: Annotated[
        list[Path],
        typer.Argument(help="Folders of eval logs (each run's --log-dir) or .eval files."),
    ]
    out: Annotated[
        Path | None, typer.Option(help="Where report.html, report.md and the plots go.")
    ] = None
    baseline: Annotated[
        str | None,
        typer.Option(
            help="The candidate the others are compared with (its name or model; "
            "default: the first)."
        ),
    ] = None
    calibration: Annotated[
        Path | None, typer.Option(help="A judge calibration.json (judge-human agreement).")
    ] = None
    loadtest: Annotated[
        list[str] | None,
        typer.Option(
            help="A `hat-eval loadtest` --out folder (repeatable): P50/P95 latency and its CDF; "
            "CANDIDATE=DIR also puts it in that candidate's row."
        ),
    ] = None
    gate: Annotated[
        list[Path] | None,
        typer.Option(
            help="Baseline logs (repeatable): exit 1 when any part regressed beyond --margin "
            "with its 95% interval below 0 (the regression check of a harness edit)."
        ),
    ] = None
    margin: Annotated[
        float,
        typer.Option(min=0.0, help="The gate's margin on a 0-1 part (x100 for the aggregate)."),
    ] = 0.02
    allow_mixed: Annotated[
        bool,
        typer.Option("--allow-mixed", help="Show logs of different cases side by side, unpaired."),
    ] = False
    n_boot: Annotated[int, typer.Option(min=1, help="Bootstrap resamples per interval.")] = 2000


def build_reports(options: BuildOptions) -> None:
    """Write the comparison page (printing its candidates, files and notes) and/or run the gate.

    The output folder is claimed before any log is read; a bad input exits 2, a page that was
    built but could not be written exits 1 (kept elsewhere), a failed gate exits 1.
    """
    from hat_eval._outputs import OutputError
    from hat_eval.reports import ReportError, build_report, run_gate

    if options.out is None and not options.gate:
        raise typer.BadParameter("give --out DIR for the page (or --gate LOGS to only check)")
    out = output_dir(options.out) if options.out is not None else None  # before any log is read
    try:
        if out is not None:
            page, files = build_report(
                options.log_dirs,
                out,
                baseline=options.baseline,
                allow_mixed=options.allow_mixed,
                calibration=options.calibration,
                loadtest=options.loadtest or (),
                n_boot=options.n_boot,
                warn=warn,
            )
            typer.echo(
                f"{len(page.rows)} candidates: {', '.join(r.candidate.name for r in page.rows)}"
            )
            typer.echo(f"wrote {files.html} and {files.markdown} ({len(files.images)} plots)")
            for note in page.notes:
                typer.echo(f"note: {note}")
        if options.gate:
            failures = run_gate(
                options.log_dirs,
                options.gate,
                margin=options.margin,
                n_boot=options.n_boot,
                warn=warn,
            )
    except ReportError as err:
        fail(str(err))
    except OutputError as err:  # the page was built, then could not be written: kept elsewhere
        fail(str(err), code=FAILED)
    if options.gate:
        if failures:
            for line in failures:
                typer.echo(f"regression: {line}", err=True)
            fail(f"gate failed: {len(failures)} part(s) regressed", code=1)
        typer.echo("gate passed: no part regressed beyond the margin")


report_app.command("build")(options_command(BuildOptions, build_reports))


@report_app.command()
def paired(
    log_a: Annotated[
        Path,
        typer.Argument(help="An .eval log (e.g. the variant suite), or a folder holding one."),
    ],
    log_b: Annotated[
        Path,
        typer.Argument(help="An .eval log of the same cases (livestream), or a folder of one."),
    ],
    part: Annotated[str, typer.Option(help="Score part to compare.")] = "aggregate",
    n_boot: Annotated[int, typer.Option(min=1, help="Bootstrap resamples.")] = 2000,
    seed: Annotated[int, typer.Option(help="Bootstrap seed.")] = 0,
) -> None:
    """Case-by-case difference A - B with a paired bootstrap 95% interval.

    `hat-eval report paired variant.eval livestream.eval` is the harness-sensitivity of a model:
    the same cases, under variant harnesses and under the default one. A run's --log-dir may
    stand for its log when it holds the log of one suite.
    """
    from inspect_ai.log import read_eval_log

    from hat_eval.reports import paired_difference, unreadable_reason

    logs = []
    for path in (log_a, log_b):
        file = _one_log(path)
        try:
            logs.append(read_eval_log(str(file)))
        except Exception as err:  # Inspect raises several kinds for a file that is not a log
            fail(f"{file}: not a readable Inspect eval log ({unreadable_reason(err)})")
    try:
        d = paired_difference(logs[0], logs[1], part, n_boot=n_boot, seed=seed)
    except ValueError as err:
        fail(f"{log_a} vs {log_b}: {err}")
    typer.echo(
        f"{part}: A {d.mean_a:.3f} - B {d.mean_b:.3f} = {d.diff:+.3f} "
        f"(95% CI {d.low:+.3f} to {d.high:+.3f}) over {d.n} paired cases"
    )


def _one_log(path: Path) -> Path:
    """``path`` itself, or the one log in the folder ``path``; else one line and exit 2."""
    if path.is_file():
        return path
    if not path.is_dir():
        fail(
            f"{path}: no such log or folder; expected an Inspect .eval or .json log file, or a "
            "run's --log-dir holding one"
        )
    from inspect_ai.log import list_eval_logs

    found = [Path(i.name.removeprefix("file://")) for i in list_eval_logs(str(path))]
    if len(found) == 1:
        return found[0]
    if not found:
        fail(f"{path}: a folder without eval logs; expected an .eval log file or a folder with one")
    names = ", ".join(sorted(p.name for p in found)[:3]) + (", ..." if len(found) > 3 else "")
    fail(
        f"{path}: a folder with {len(found)} eval logs ({names}); name one .eval file "
        "(e.g. the variant suite's log) instead of the folder"
    )
