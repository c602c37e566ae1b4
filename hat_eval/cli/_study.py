"""``hat-eval study``: a blind human preference study of two candidates (export, analyze)."""

from __future__ import annotations

import csv
import io
import json
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ._common import fail, input_file, output_dir, read_log, save, save_all, warn

if TYPE_CHECKING:
    from hat_eval.judge import StudyReport

study_app = typer.Typer(
    help="A blind human preference study of two candidates: export items, analyze votes.",
    no_args_is_help=True,
)


class StudyFormat(StrEnum):
    """The tasks file written by ``export``."""

    label_studio = "label-studio"
    csv = "csv"


@study_app.command()
def export(
    a: Annotated[Path, typer.Option("--a", help="Inspect log of candidate A.")],
    b: Annotated[Path, typer.Option("--b", help="Inspect log of candidate B (same cases).")],
    out: Annotated[Path, typer.Option(help="Directory for the tasks, the config and key.json.")],
    n: Annotated[int, typer.Option(help="Cases to draw (at most those both logs answered).")] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the draw and of the left/right sides.")] = 0,
    fmt: Annotated[
        StudyFormat,
        typer.Option(
            "--format",
            help="label-studio: tasks.json and label_config.xml; csv: tasks.csv to fill in.",
        ),
    ] = StudyFormat.label_studio,
) -> None:
    """Blind items: the same cases answered by A and B, sides drawn per item, the key apart.

    The tasks hold the case id, the viewer message and the left/right answers only; which side
    is A is written to key.json: keep it away from the raters.
    """
    from hat_eval.judge import LABEL_CONFIG, StudyError, draw_study, key_json, pair_samples
    from hat_eval.judge import task_rows as rows_of

    if n < 1:
        raise typer.BadParameter(f"{n} must be at least 1 (the number of cases)", param_hint="--n")
    out = output_dir(out, inputs=[("--a", a), ("--b", b)])  # before any log is read
    log_a, log_b = read_log(a), read_log(b)
    try:
        placed = draw_study(pair_samples(log_a, log_b), n, seed)
    except StudyError as err:
        fail(f"{a} vs {b}: {err}")
    rows = rows_of(placed)
    meta = {
        "a": {"log": str(a), "model": str(log_a.eval.model), "task": str(log_a.eval.task)},
        "b": {"log": str(b), "model": str(log_b.eval.model), "task": str(log_b.eval.task)},
        "seed": seed,
        "n": n,
        "format": fmt.value,
    }
    files: dict[str, str | bytes] = {}
    if fmt is StudyFormat.label_studio:
        files["tasks.json"] = json.dumps([{"data": r} for r in rows], indent=2) + "\n"
        files["label_config.xml"] = LABEL_CONFIG
    else:
        buffer = io.StringIO(newline="")
        columns = ["sample_id", "message", "left", "right", "preference", "annotator"]
        writer = csv.DictWriter(buffer, fieldnames=columns)
        writer.writeheader()
        writer.writerows({**r, "preference": "", "annotator": ""} for r in rows)
        files["tasks.csv"] = buffer.getvalue()
    files["key.json"] = json.dumps(key_json(placed, meta), indent=2) + "\n"
    written = save_all(out, files)
    left = sum(p.a_side == "left" for p in placed)
    typer.echo(
        f"{len(placed)} items (A on the left in {left}, on the right in {len(placed) - left}); "
        f"wrote {', '.join(str(p) for p in written)}"
    )
    typer.echo(f"keep {written[-1]} away from the raters: it names the candidates")


@study_app.command()
def analyze(
    labels: Annotated[
        Path,
        input_file(
            "The votes: a Label Studio JSON export, or CSV with sample_id, preference "
            "(left, right or tie), annotator."
        ),
    ],
    key: Annotated[Path, input_file("The key.json of the export.")],
    judge: Annotated[
        Path | None,
        input_file("The judge's verdicts: CSV or JSONL with sample_id, preference (A, B or tie)."),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(help="Directory to write study.json into (default: print the JSON)."),
    ] = None,
) -> None:
    """Win rate of A over B (Wilson 95% interval), ties, sign test, rater and judge agreement."""
    from hat_eval.judge import (
        LabelError,
        StudyError,
        analyze_study,
        read_judge,
        read_key,
        read_votes,
    )

    if out is not None:  # before any vote is read
        inputs = [("--labels", labels), ("--key", key)] + ([("--judge", judge)] if judge else [])
        out = output_dir(out, inputs=inputs)
    try:
        entries = read_key(key)
        votes = read_votes(labels)
        verdicts = read_judge(judge) if judge is not None else None
        report = analyze_study(votes, entries, verdicts)
    except StudyError as err:
        fail(f"{labels} vs {key}: {err}")
    except LabelError as err:
        fail(str(err))
    if report.unknown_items:
        warn(
            f"{len(report.unknown_items)} labelled items are not in {key} (e.g. "
            f"{report.unknown_items[0]!r}); they are left out"
        )
    doc = json.dumps(report.to_json(), indent=2) + "\n"
    if out is None:
        typer.echo(doc, nl=False)
        _print_table(report, err=True)
        return
    _print_table(report, err=False)
    target = save(out / "study.json", doc)
    typer.echo(f"wrote {target}")


def _fmt(value: float | None) -> str:
    return "undefined" if value is None else f"{value:.3f}"


def _print_table(report: StudyReport, *, err: bool) -> None:
    ci = report.win_rate_a_ci
    lines = [
        f"items {report.n_items}  votes {report.n_votes}  annotators {report.n_annotators}",
        f"A wins {report.wins_a}  B wins {report.wins_b}  ties {report.ties}",
        f"win rate A (ties out)  {_fmt(report.win_rate_a)}"
        + (f"  95% Wilson [{ci[0]:.3f}, {ci[1]:.3f}]" if ci else ""),
        f"tie share              {_fmt(report.tie_share)}",
        f"sign test p            {_fmt(report.sign_test_p)}",
        f"raters: unanimous      {_fmt(report.unanimous_share)}  "
        f"(of {report.n_multi_rated} multi-rated items)",
        f"raters: alpha nominal  {_fmt(report.krippendorff_alpha)}",
    ]
    if report.judge is not None:
        lines.append(
            f"judge vs majority      {_fmt(report.judge['agreement_with_human_majority'])}  "
            f"kappa {_fmt(report.judge['cohen_kappa'])}  (over {report.judge['n_items']} items)"
        )
    lines += [f"note: {note}" for note in report.notes]
    for line in lines:
        typer.echo(line, err=err)
