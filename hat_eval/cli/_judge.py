"""``hat-eval judge agreement``: the judge's agreement with human labels, from two files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ._common import err_console, fail

if TYPE_CHECKING:
    from hat_eval.judge import AgreementReport

judge_app = typer.Typer(
    help="The Agent-as-Judge: its agreement with human labels.", no_args_is_help=True
)

_FILE_HELP = (
    "CSV or JSONL with columns sample_id, dimension, rating, annotator (rating 1-5, or A, B, tie "
    "for a pairwise dimension), or a Label Studio JSON export (.json)."
)


@judge_app.command()
def agreement(
    labels: Annotated[
        Path, typer.Option(exists=True, dir_okay=False, help=f"Human labels. {_FILE_HELP}")
    ],
    scores: Annotated[
        Path,
        typer.Option(
            exists=True,
            dir_okay=False,
            help="The judge's scores, one per sample and dimension, in the same formats "
            "(the annotator column is optional).",
        ),
    ],
    out: Annotated[Path, typer.Option(help="Directory to write agreement.json into.")],
    n_boot: Annotated[
        int,
        typer.Option(
            min=0, help="Bootstrap resamples of the items for the 95% intervals (0: none)."
        ),
    ] = 1000,
    seed: Annotated[int, typer.Option(help="Seed of the bootstrap.")] = 0,
    alpha_threshold: Annotated[
        float,
        typer.Option(
            min=0.0, max=1.0, help="Flag dimensions whose judge-human Krippendorff alpha is below."
        ),
    ] = 0.667,
) -> None:
    """Krippendorff's alpha, Cohen's kappa, Spearman's rho and accuracy of the judge vs humans."""
    from hat_eval.judge import AgreementError, LabelError, read_labels
    from hat_eval.judge import agreement as compute

    try:
        human = read_labels(labels)
        judged = read_labels(scores, default_annotator="judge")
        report = compute(human, judged, n_boot=n_boot, seed=seed, alpha_threshold=alpha_threshold)
    except (LabelError, AgreementError) as err:
        fail(f"{err} ({labels} vs {scores})" if isinstance(err, AgreementError) else str(err))

    _warn_unmatched(report, labels, scores)
    target = out / "agreement.json"
    try:
        out.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(report.to_json(), indent=2) + "\n", encoding="utf-8")
    except OSError as err:
        fail(f"{target}: cannot write the report ({err})")
    _print_table(report)
    typer.echo(f"wrote {target}")


def _warn_unmatched(report: AgreementReport, labels: Path, scores: Path) -> None:
    for pairs, what in (
        (report.unlabelled_scores, f"judge scores in {scores} have no human label in {labels}"),
        (report.unscored_labels, f"human labels in {labels} have no judge score in {scores}"),
    ):
        if pairs:
            sample_id, dimension = pairs[0]
            err_console.print(
                f"warning: {len(pairs)} {what} (e.g. sample_id {sample_id!r}, dimension "
                f"{dimension!r}); they are left out",
                markup=False,
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
        cells = []
        for _, key in columns:
            if key not in dim.statistics:
                cells.append(f"{'-':22}")
            else:
                cells.append(f"{_fmt(dim.statistics[key], dim.intervals.get(key)):22}")
        flag = "  FLAGGED" if dim.flagged else ""
        typer.echo(f"{dim.dimension:{width}} {dim.n_items:4d}  " + "  ".join(cells) + flag)
        for note in dim.notes:
            typer.echo(f"{'':{width}}   note: {note}")
    if report.flagged:
        typer.echo(
            f"flagged (judge-human alpha below {report.alpha_threshold} or undefined): "
            + ", ".join(report.flagged)
        )
