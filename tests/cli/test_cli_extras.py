"""The optional extras: each extra's commands say in one line what to install when it is missing."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from itertools import takewhile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hat_eval._extras import EXTRAS, missing_extra
from hat_eval.cli import app
from tests._cli import one_error_line

REPO = Path(__file__).resolve().parents[2]
runner = CliRunner()

# area -> the argument lists of its commands, each otherwise good enough to start work
COMMANDS: dict[str, list[list[str]]] = {
    "loadtest": [
        ["loadtest", "--host", "http://127.0.0.1:9", "--model", "m"],
        ["loadtest", "mtp", "--baseline", "http://127.0.0.1:9"]
        + ["--candidate", "http://127.0.0.1:9", "--model", "m"],
    ],
    "trainers": [["train", stage, "--config", "{config}"] for stage in ("sft", "opd", "rl")],
    "repro": [["repro", "--budget", "smoke"]],
}
CASES = [(area, args) for area, commands in COMMANDS.items() for args in commands]


def _hide(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """Make ``name`` look uninstalled: ``find_spec`` answers None for a ``None`` module entry."""
    monkeypatch.setitem(sys.modules, name, None)


def test_every_extra_area_has_its_commands_tested() -> None:
    assert set(COMMANDS) == set(EXTRAS)
    for area, commands in COMMANDS.items():
        assert {EXTRAS[area].command.split()[1]} == {args[0] for args in commands}


@pytest.mark.parametrize(("area", "args"), CASES, ids=[" ".join(a[:2]) for _, a in CASES])
def test_a_missing_extra_is_one_line_exit_2_before_any_work(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, area: str, args: list[str]
) -> None:
    extra = EXTRAS[area]
    hidden = extra.imports[-1]
    _hide(monkeypatch, hidden)
    config = tmp_path / "stage.yaml"
    config.write_text("max_steps: 1\n")
    out = tmp_path / "out"
    argv = [a.replace("{config}", str(config)) for a in args] + ["--out", str(out)]
    res = runner.invoke(app, argv)
    line = one_error_line(res, "error: ", f"{hidden} not installed", extra.install)
    assert f"needs the {extra.name} extra" in line
    assert not out.exists()


@pytest.mark.parametrize("area", sorted(COMMANDS))
def test_help_works_without_the_extra(monkeypatch: pytest.MonkeyPatch, area: str) -> None:
    for name in EXTRAS[area].imports:
        _hide(monkeypatch, name)
    for args in COMMANDS[area]:
        path = list(takewhile(lambda a: not a.startswith("--"), args))
        assert runner.invoke(app, [*path, "--help"]).exit_code == 0, path
    res = runner.invoke(app, [COMMANDS[area][0][0], "--help"])
    assert res.exit_code == 0, res.output
    assert f"hat-eval[{EXTRAS[area].name}]" in res.output


def test_missing_extra_names_every_missing_package(monkeypatch: pytest.MonkeyPatch) -> None:
    assert missing_extra("trainers") is None  # the dev environment has every extra
    for name in ("trl", "peft"):
        _hide(monkeypatch, name)
    assert missing_extra("trainers") == (
        "hat-eval train needs the train extra (trl, peft not installed): "
        "pip install 'hat-eval[train]'"
    )
    assert missing_extra("repro") is not None and missing_extra("loadtest") is None


def _requirement_names(extras: dict[str, list[str]], name: str) -> set[str]:
    """The distribution names extra ``name`` installs, through ``hat-eval[other]`` too."""
    names: set[str] = set()
    for req in extras[name]:
        m = re.match(r"([A-Za-z0-9_.-]+)(?:\[([^\]]+)\])?", req)
        assert m is not None, req
        if m.group(1) == "hat-eval":
            for other in m.group(2).split(","):
                names |= _requirement_names(extras, other.strip())
        else:
            names.add(m.group(1).lower().replace("_", "-"))
    return names


def test_pyproject_declares_each_extra_with_the_packages_its_area_imports() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    for area, extra in EXTRAS.items():
        assert (REPO / "hat_eval" / area / "__init__.py").is_file()
        assert extra.name in extras, f"pyproject.toml has no [{extra.name}] extra"
        assert set(extra.imports) <= _requirement_names(extras, extra.name), extra.name


def test_the_cli_registers_every_command_without_importing_an_extra() -> None:
    heavy = sorted({name for extra in EXTRAS.values() for name in extra.imports})
    code = (
        "import sys, typer.main; from hat_eval.cli import app; "
        "names = set(typer.main.get_command(app).commands); "
        f"print(sorted(names & {{'loadtest', 'train', 'repro'}})); "
        f"print([m for m in {heavy!r} if m in sys.modules])"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert out == ["['loadtest', 'repro', 'train']", "[]"]


def test_the_install_docs_name_every_extra_and_its_command() -> None:
    text = (REPO / "docs" / "running.md").read_text(encoding="utf-8")
    for area, extra in EXTRAS.items():
        assert f'pip install "hat-eval[{extra.name}]"' in text, extra.name
        assert f"`{extra.command}`" in text and f"`hat_eval/{area}/`" in text, area
