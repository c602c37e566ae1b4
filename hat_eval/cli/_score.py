"""``hat-eval score``: score answers produced outside Inspect with the suites' checks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from ._common import fail


def score(
    suite: Annotated[
        str, typer.Option(help="The case suite the answers answer (livestream, ...).")
    ],
    answers: Annotated[
        Path,
        typer.Option(
            help='JSONL, one {"id": case id, "answer": text, "tool_calls": [...]} a line.',
        ),
    ],
    out: Annotated[Path, typer.Option(help="Where the scored lines go (JSONL, same order).")],
) -> None:
    """Score answers made elsewhere (production transcripts, another framework).

    Each input line holds a case id (as `hat-eval suites cases NAME --jsonl` lists them), the
    answer, and the tool calls made (`function` id or the tool `name` under the case's harness,
    `arguments`, `outcome`). Each output line holds the case id, the score parts under the
    suites' names, the undecided parts and a reason per failed part.
    """
    from hat_eval.episode import SPECS, AnswerFileError, build_episodes, read_answers, score_answers

    if suite not in SPECS:
        raise typer.BadParameter(
            f"{suite!r} is not a case suite, expected one of {', '.join(SPECS)}",
            param_hint="--suite",
        )
    try:
        lines = answers.read_text(encoding="utf-8").splitlines()
    except OSError as err:
        fail(f"{answers}: cannot read ({err.strerror}); expected a JSONL file of answers")
    try:
        parsed = read_answers(lines, str(answers))
        episodes = {e.id: e for e in build_episodes(suite)}
        results = list(score_answers(parsed, episodes))
    except AnswerFileError as err:
        fail(str(err))
    if not results:
        fail(f"{answers}: no answers; expected one JSON object a line")
    out.write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in results), encoding="utf-8"
    )
    mean = sum(r["aggregate"] for r in results) / len(results)
    typer.echo(f"wrote {out}")
    typer.echo(f"aggregate {mean:.2f} over {len(results)} answers")
