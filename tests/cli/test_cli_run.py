from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from hat_eval.cli import app
from hat_eval.harness import harness_to_dict

runner = CliRunner()


def _one_error_line(res) -> str:  # type: ignore[no-untyped-def]
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, res.stderr
    assert "Traceback" not in res.output
    return lines[0]


def test_unknown_suite(tmp_path: Path) -> None:
    res = runner.invoke(app, ["run", "--suite", "trivia", "--log-dir", str(tmp_path)])
    assert res.exit_code == 2
    assert "trivia" in res.output and "livestream" in res.output


def test_missing_checkpoint_directory(tmp_path: Path) -> None:
    res = runner.invoke(app, ["run", "--model", str(tmp_path / "ckpt"), "--log-dir", str(tmp_path)])
    assert res.exit_code == 2
    assert "no such checkpoint directory" in _one_error_line(res)


def test_checkpoint_without_tokenizer_or_template(tmp_path: Path) -> None:
    ckpt = tmp_path / "ckpt"
    ckpt.mkdir()
    (ckpt / "config.json").write_text("{}")
    res = runner.invoke(app, ["run", "--model", str(ckpt), "--log-dir", str(tmp_path)])
    assert res.exit_code == 2 and "no tokenizer" in _one_error_line(res)
    (ckpt / "tokenizer_config.json").write_text(json.dumps({"model_max_length": 8}))
    (ckpt / "tokenizer.json").write_text("{}")
    res = runner.invoke(app, ["run", "--model", str(ckpt), "--log-dir", str(tmp_path)])
    assert res.exit_code == 2 and "no chat template" in _one_error_line(res)


def test_harness_missing_a_needed_function(tmp_path: Path, default_harness) -> None:
    data = harness_to_dict(default_harness)
    data["tools"] = [t for t in data["tools"] if t["function"] != "pricing.final_price"]
    bad = tmp_path / "h.yaml"
    bad.write_text(yaml.safe_dump(data))
    res = runner.invoke(
        app,
        [
            "run",
            "--suite",
            "livestream",
            "--harness",
            str(bad),
            "--log-dir",
            str(tmp_path / "logs"),
        ],
    )
    assert res.exit_code == 2
    line = _one_error_line(res)
    assert "pricing.final_price" in line and str(bad.resolve()) in line


def test_bad_harness_file(tmp_path: Path) -> None:
    bad = tmp_path / "h.yaml"
    bad.write_text("name: [unclosed\n")
    res = runner.invoke(app, ["run", "--harness", str(bad), "--log-dir", str(tmp_path)])
    assert res.exit_code == 2 and "invalid YAML" in _one_error_line(res)


@pytest.mark.parametrize("engine", ["tpu"])
def test_bad_engine(tmp_path: Path, engine: str) -> None:
    res = runner.invoke(
        app, ["run", "--engine", engine, "--model", "mockllm/model", "--log-dir", str(tmp_path)]
    )
    assert res.exit_code == 2


def test_ifeval_without_data_offline_says_what_to_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    res = runner.invoke(app, ["run", "--suite", "ifeval", "--log-dir", str(tmp_path)])
    assert res.exit_code == 2
    assert "--ifeval-data PATH" in _one_error_line(res)


def test_ifeval_with_a_missing_data_file(tmp_path: Path) -> None:
    missing = tmp_path / "nope.jsonl"
    res = runner.invoke(
        app, ["run", "--suite", "ifeval", "--ifeval-data", str(missing), "--log-dir", str(tmp_path)]
    )
    assert res.exit_code == 2 and str(missing) in _one_error_line(res)
    res = runner.invoke(app, ["suites", "--ifeval-data", str(missing)])
    assert res.exit_code == 2 and str(missing) in _one_error_line(res)
