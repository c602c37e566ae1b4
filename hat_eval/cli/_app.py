"""The root ``hat-eval`` app: it only wires the command groups together.

The commands of the optional extras' areas (``loadtest``, ``train``, ``repro``) come from those
areas; their modules import no extra's package, so every command is listed by ``--help`` and
each checks its extra when it runs (:mod:`hat_eval._extras`).
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from hat_eval import __version__
from hat_eval.loadtest._cli import loadtest_app
from hat_eval.repro._cli import repro
from hat_eval.trainers._cli import train_app

from ._common import extra_help
from ._harness import harness_app
from ._ifeval import ifeval_app
from ._judge import judge_app
from ._report import report_app
from ._run import run
from ._score import score
from ._study import study_app
from ._suites import suites_app
from ._world import shop_app, world_app

app = typer.Typer(
    name="hat-eval",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"hat-eval {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_print_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Evaluate harness-aware live-commerce agents: harnesses, augmentation, suites, load."""


app.add_typer(harness_app, name="harness")
app.add_typer(ifeval_app, name="ifeval")
app.add_typer(judge_app, name="judge")
app.add_typer(loadtest_app, name="loadtest")
app.add_typer(report_app, name="report")
app.command(help=f"{repro.__doc__} {extra_help('repro')}")(repro)
app.command()(run)
app.add_typer(suites_app, name="suites")
app.command("score")(score)
app.add_typer(study_app, name="study")
app.add_typer(train_app, name="train")
app.add_typer(world_app, name="world")
app.add_typer(shop_app, name="shop")


def main() -> None:
    """Console-script entry point.

    A shipped data file (templates, word banks, lexicons, the shop) that fails its schema is
    one line and exit 2, whichever command read it.
    """
    from hat_eval._datafile import DataFileError

    try:
        app()
    except DataFileError as err:
        print(f"error: {err}", file=sys.stderr)
        raise SystemExit(2) from None
