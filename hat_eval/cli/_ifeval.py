"""``hat-eval ifeval score``: score a responses file exactly as the IFEval reference does."""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Annotated

import typer

from ._common import fail, output_file, save_by

ifeval_app = typer.Typer(
    help="IFEval: score responses with the reference's checkers.", no_args_is_help=True
)


@ifeval_app.command()
def score(
    responses: Annotated[
        Path,
        typer.Option(
            help="JSONL, one object per line with 'prompt' and 'response' (the reference's "
            "input_response_data_*.jsonl)."
        ),
    ],
    out: Annotated[
        Path,
        typer.Option(
            help="Write one JSON line per prompt: key (or prompt) and the strict and loose results."
        ),
    ],
    data: Annotated[
        Path | None,
        typer.Option(
            help="IFEval prompts (input_data.jsonl); google/IFEval from the Hub when omitted."
        ),
    ] = None,
    workers: Annotated[
        int, typer.Option(min=0, help="Processes to score with; 0 for one per CPU core.")
    ] = 0,
    breakdown: Annotated[
        bool,
        typer.Option("--breakdown", help="Also print the accuracy per instruction and category."),
    ] = False,
) -> None:
    """Print the four IFEval accuracies of a responses file and write per-prompt results."""
    from hat_eval.suites.ifeval import (
        IFEvalError,
        load_ifeval,
        score_responses,
        summarize,
        write_results,
    )

    inputs = [("--responses", responses)] + ([("--data", data)] if data is not None else [])
    out = output_file(out, inputs=inputs)  # before any scoring
    # The reference's checkers log every undetectable language to the root logger.
    logging.getLogger().setLevel(logging.CRITICAL)
    try:
        examples = load_ifeval(data)
        verdicts = score_responses(examples, responses, workers=workers or os.cpu_count() or 1)
    except IFEvalError as err:
        fail(str(err))
    save_by(out, lambda path: write_results(verdicts, path))
    report = summarize(verdicts)
    typer.echo(f"{report.prompts} prompts, {report.instructions} instructions")
    for key, value in report.metrics.items():  # METRICS order: prompt_level_strict_acc, ...
        label = (
            key.removesuffix("_acc").replace("inst_", "instruction_").replace("_level_", "-level ")
        )
        typer.echo(f"{label + ' accuracy:':35} {value:.4f} (± {report.stderr[key]:.4f})")
    if breakdown:
        for title, table in (
            ("instruction", report.by_instruction),
            ("category", report.by_category),
        ):
            typer.echo(f"\n{title:45} {'n':>4} {'strict':>7} {'loose':>7}")
            for name, acc in table.items():
                typer.echo(f"{name:45} {acc.total:4d} {acc.strict_acc:7.4f} {acc.loose_acc:7.4f}")
    typer.echo(f"wrote {len(verdicts)} lines to {out}")
