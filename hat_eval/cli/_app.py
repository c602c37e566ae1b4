"""The root ``hat-eval`` app: it only wires the command groups together."""

from __future__ import annotations

import typer

from ._harness import harness_app

app = typer.Typer(
    name="hat-eval",
    help="Evaluate harness-aware live-commerce agents: harnesses, augmentation, suites, load.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(harness_app, name="harness")


def main() -> None:
    """Console-script entry point."""
    app()
