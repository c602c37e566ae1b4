"""``hat-eval harness log`` and ``hat-eval run --suite evolution --harness-version``."""

from __future__ import annotations

import shutil
from pathlib import Path

import yaml
from typer.testing import CliRunner

from hat_eval.cli import app
from hat_eval.suites import suite_recipe
from tests._cli import one_error_line

runner = CliRunner()
SHIPPED = Path(str(suite_recipe("evolution").changelog))


def test_harness_log_prints_one_line_per_version() -> None:
    res = runner.invoke(app, ["harness", "log"])
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert lines[0].startswith("live-commerce: 7 versions")
    assert [ln.split()[0] for ln in lines[1:]] == [f"v{i}" for i in range(1, 8)]
    assert "new_skill" in lines[5] and "coupon_stacking" in lines[5]
    as_json = runner.invoke(app, ["harness", "log", str(SHIPPED), "--json"])
    assert as_json.exit_code == 0 and '"version": "v7"' in as_json.stdout


def test_harness_log_of_a_bad_changelog_is_one_line_exit_2(tmp_path: Path) -> None:
    for f in SHIPPED.parent.glob("*.yaml"):
        shutil.copy(f, tmp_path / f.name)
    path = tmp_path / "CHANGELOG.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["versions"][1]["edit"]["requires"]["intents"] = ["prices"]
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    res = runner.invoke(app, ["harness", "log", str(path)])
    one_error_line(res, f"error: {path}: versions.1.edit.requires.intents.0: 'prices' is not")


def test_run_refuses_a_version_not_in_the_log(tmp_path: Path) -> None:
    res = runner.invoke(
        app, ["run", "--suite", "evolution", "--harness-version", "v9", "--log-dir", str(tmp_path)]
    )
    one_error_line(res, f"error: {SHIPPED}: versions: no version 'v9', expected one of v1")
    assert not list(tmp_path.glob("*.eval"))


def test_harness_version_needs_the_evolution_suite(tmp_path: Path) -> None:
    res = runner.invoke(
        app, ["run", "--suite", "livestream", "--harness-version", "v2", "--log-dir", str(tmp_path)]
    )
    assert res.exit_code == 2
    said = " ".join(res.output.replace("│", " ").split())  # typer's error box, unwrapped
    assert "--harness-version and --changelog apply to the evolution suite, not livestream" in said


def test_run_one_range_prints_the_evolution_report(tmp_path: Path) -> None:
    res = runner.invoke(
        app,
        [
            "run",
            "--suite",
            "evolution",
            "--harness-version",
            "v5..v6",
            "--limit",
            "6",
            "--log-dir",
            str(tmp_path),
        ],
    )
    assert res.exit_code == 0, res.output
    assert "Harness evolution: hat/reference over v5, v6" in res.stdout
    assert "12" in res.stdout  # 6 cases under 2 versions
