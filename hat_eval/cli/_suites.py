"""``hat-eval suites``: the suites with their sizes and hashes, and one suite's cases."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import TaskID

from ._common import fail, progress

suites_app = typer.Typer(
    help="List the suites with their case counts and dataset hashes (or one suite's cases).",
    invoke_without_command=True,
)


@suites_app.callback()
def suites(
    ctx: typer.Context,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list.")] = False,
    ifeval_data: Annotated[
        Path | None,
        typer.Option("--ifeval-data", help="IFEval input_data.jsonl, to count and hash it."),
    ] = None,
) -> None:
    """List the suites with their case counts and dataset hashes."""
    if ctx.invoked_subcommand is not None:
        return
    from dataclasses import asdict

    from hat_eval.suites import IFEVAL, suite_info, suite_names

    try:  # first, so a bad --ifeval-data fails before any work
        ifeval = suite_info(IFEVAL, ifeval_data)
    except ValueError as err:  # IFEvalError: the data file is missing or malformed
        fail(str(err))
    out = []
    case_suites = [n for n in suite_names() if n != IFEVAL]
    with progress("reading suite datasets", len(case_suites)) as bar:
        for name in case_suites:
            out.append(suite_info(name))
            bar.advance(TaskID(0))
    out.append(ifeval)
    if as_json:
        typer.echo(json.dumps([asdict(s) for s in out], indent=2))
        return
    for s in out:
        typer.echo(f"{s.name:12} {s.cases:>6}  {s.sha256 or '-':64}  {s.description}")
    typer.echo(f"{sum(s.cases for s in out):,} cases in all")


@suites_app.command()
def cases(
    name: Annotated[str, typer.Argument(help="A case suite: livestream, variant or robustness.")],
    jsonl: Annotated[bool, typer.Option("--jsonl", help="One JSON object a line.")] = False,
    out: Annotated[Path | None, typer.Option(help="Write to this file instead of stdout.")] = None,
    limit: Annotated[int | None, typer.Option(min=1, help="The first N cases.")] = None,
) -> None:
    """A suite's cases: id, message, product on screen, harness variant reference and gold.

    Enough to read the gold and write answers against it for `hat-eval score`.
    """
    from hat_eval.episode import case_line
    from hat_eval.suites import case_suites, suite_episodes

    if name not in case_suites():
        raise typer.BadParameter(
            f"{name!r} is not a case suite, expected one of {', '.join(case_suites())}",
            param_hint="NAME",
        )
    lines = [case_line(e) for e in suite_episodes(name, n=limit)]
    if jsonl:
        text = "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines)
    else:
        text = "".join(f"{x['id']:24} {x['intent']:20} {x['message']}\n" for x in lines)
    if out is None:
        typer.echo(text, nl=False)
    else:
        try:
            out.write_text(text, encoding="utf-8")
        except OSError as err:
            fail(f"{out}: cannot write ({err.strerror})")
        typer.echo(f"wrote {len(lines)} cases to {out}")
