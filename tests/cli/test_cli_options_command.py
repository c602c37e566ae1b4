"""``options_command``: a typer command whose options are a dataclass's fields, written once."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

import typer
from typer.testing import CliRunner

from hat_eval.cli._common import options_command


@dataclass(frozen=True)
class _Greet:
    """Greet NAME, --times times."""

    name: Annotated[str, typer.Argument(help="Who to greet.")]
    times: Annotated[int, typer.Option(min=1, help="How often.")] = 1
    loud: Annotated[bool, typer.Option("--loud", help="Upper case.")] = False


def _app(got: list[_Greet]) -> typer.Typer:
    app = typer.Typer()
    app.command("greet")(options_command(_Greet, got.append))
    app.command("other")(lambda: None)  # two commands, so "greet" is named on the line
    return app


def test_the_command_gets_the_record_of_its_options_with_the_fields_defaults() -> None:
    got: list[_Greet] = []
    runner = CliRunner()
    assert runner.invoke(_app(got), ["greet", "ada"]).exit_code == 0
    assert runner.invoke(_app(got), ["greet", "bob", "--times", "3", "--loud"]).exit_code == 0
    assert got == [_Greet("ada"), _Greet("bob", times=3, loud=True)]


def test_help_and_checks_come_from_the_fields_and_the_docstring() -> None:
    got: list[_Greet] = []
    runner = CliRunner()
    shown = runner.invoke(_app(got), ["greet", "--help"], env={"COLUMNS": "120"}).output
    assert "Greet NAME, --times times." in shown
    for text in ("Who to greet.", "--times", "How often.", "--loud", "Upper case."):
        assert text in shown
    bad = runner.invoke(_app(got), ["greet", "ada", "--times", "0"])
    assert bad.exit_code == 2 and got == []
