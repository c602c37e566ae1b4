"""What the judge commands print and read: agreement tables, calibration and corpus summaries."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import typer

from ._common import fail, output_dir, warn

if TYPE_CHECKING:
    from hat_eval.judge import (
        AgreementReport,
        Calibration,
        CorpusReport,
        Label,
        Tally,
    )


def _fail_matching(err: ValueError, labels: Path, scores: Path) -> NoReturn:
    """Exit 2 with ``err``; when the files have nothing in common, the message names both."""
    from hat_eval.judge import AgreementError

    fail(f"{err} ({labels} vs {scores})" if isinstance(err, AgreementError) else str(err))


def _warn_unmatched(report: AgreementReport, labels: Path, scores: Path) -> None:
    for pairs, what in (
        (report.unlabelled_scores, f"judge scores in {scores} have no human label in {labels}"),
        (report.unscored_labels, f"human labels in {labels} have no judge score in {scores}"),
    ):
        if pairs:
            sample_id, dimension = pairs[0]
            warn(
                f"{len(pairs)} {what} (e.g. sample_id {sample_id!r}, dimension "
                f"{dimension!r}); they are left out"
            )


def _fmt(value: float | None, ci: tuple[float, float] | None = None) -> str:
    if value is None:
        return "undefined"
    text = f"{value:+.3f}"
    return f"{text} [{ci[0]:+.2f},{ci[1]:+.2f}]" if ci is not None else text


def _print_table(report: AgreementReport) -> None:
    columns = (
        ("alpha humans", "krippendorff_alpha_humans"),
        ("alpha judge+humans", "krippendorff_alpha_judge_humans"),
        ("kappa", "cohen_kappa"),
        ("accuracy", "accuracy"),
        ("spearman", "spearman"),
    )
    width = max([9, *(len(d.dimension) for d in report.dimensions)])
    typer.echo(
        f"{'dimension':{width}} {'n':>4}  " + "  ".join(f"{title:22}" for title, _ in columns)
    )
    for dim in report.dimensions:
        stats, ci = dim.statistics, dim.intervals
        cells = [f"{_fmt(stats[k], ci.get(k)) if k in stats else '-':22}" for _, k in columns]
        flag = "  FLAGGED" if dim.flagged else ""
        typer.echo(f"{dim.dimension:{width}} {dim.n_items:4d}  " + "  ".join(cells) + flag)
        for note in dim.notes:
            typer.echo(f"{'':{width}}   note: {note}")
    if report.flagged:
        typer.echo(
            f"flagged (judge-human alpha below {report.alpha_threshold} or undefined): "
            + ", ".join(report.flagged)
        )


def _outputs(out: Path, cache_dir: Path | None, *inputs: tuple[str, Path | None]) -> Path:
    """``--out`` (and ``--cache-dir``) checked before any grader runs; the folder resolved."""
    named = [(option, path) for option, path in inputs if path is not None]
    if cache_dir is not None:
        output_dir(cache_dir, option="--cache-dir", inputs=named)
    return output_dir(out, inputs=named)


def _labelled_in(labels: list[Label], rubric_dims: list[str], labels_path: Path) -> list[Label]:
    """The labels of rubric dimensions; one warning per dimension left out, exit 2 if none."""
    seen = sorted({label.dimension for label in labels})
    unknown = [d for d in seen if d not in rubric_dims]
    for dimension in unknown:
        warn(
            f"dimension {dimension!r} in {labels_path} is not in the rubric "
            f"({', '.join(rubric_dims)}); its labels are left out"
        )
    kept = [label for label in labels if label.dimension in rubric_dims]
    if not kept:
        fail(
            f"{labels_path}: none of the labelled dimensions ({', '.join(seen)}) is in the rubric "
            f"({', '.join(rubric_dims)}); name the labels' dimensions after the rubric's, or pass "
            "the rubric they were written for with --rubric"
        )
    return kept


def _print_calibration(result: Calibration) -> None:
    width = max([9, *(len(d.dimension) for d in result.dimensions)])
    typer.echo(
        "calibration (held-out folds of items: identity -> chosen map):\n"
        f"{'dimension':{width}} {'n':>4}  {'map':10}  {'alpha judge+humans':26}  "
        f"{'kappa':26}  {'accuracy':22}"
    )
    for dim in result.dimensions:
        cells = []
        for key in ("krippendorff_alpha_judge_humans", "cohen_kappa", "accuracy"):
            before = dim.before.statistics.get(key) if dim.before else None
            after = dim.after.statistics.get(key) if dim.after else None
            cells.append(f"{_fmt(before)} -> {_fmt(after)}")
        flag = "  FLAGGED" if dim.flagged else ""
        typer.echo(
            f"{dim.dimension:{width}} {dim.n_items:4d}  {dim.map.method:10}  {cells[0]:26}  "
            f"{cells[1]:26}  {cells[2]:22}{flag}"
        )
        for note in dim.notes:
            typer.echo(f"{'':{width}}   note: {note}")
    if result.flagged:
        threshold = result.meta.get("alpha_threshold", 0.667)
        typer.echo(
            f"flagged (held-out judge-human alpha below {threshold} after calibration): "
            + ", ".join(result.flagged)
        )


def _print_corpus(report: CorpusReport) -> None:
    width = max([5, *(len(r.group) for r in report.rows)])

    def cell(t: Tally) -> str:
        rate = "  -  " if t.rate is None else f"{t.rate:5.1%}"
        return f"{rate} ({t.agree}/{t.decided}, {t.undecided} und.)"

    typer.echo(
        f"{report.n_answers} answers; agreement with the human pass/fail over decided answers"
        + (f"; the judge failed on {report.judge_failures}" if report.judge_failures else "")
    )
    typer.echo(
        f"{'part':8} {'group':{width}} {'n':>4}  {'checks':26}  {'judge':26}  "
        f"{'checks, then judge':26}  trust"
    )
    for row in report.rows:
        typer.echo(
            f"{row.part:8} {row.group:{width}} {row.n:4d}  {cell(row.tallies['checks']):26}  "
            f"{cell(row.tallies['judge']):26}  {cell(row.tallies['combined']):26}  {row.trust()}"
        )
