from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from hat_eval.cli import app
from hat_eval.cli._run import parse_model_args
from hat_eval.harness._load import harness_to_dict
from hat_eval.runner._prepare import generation_model_args, resolve_model

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


def test_model_that_is_neither_a_folder_nor_a_model_string(tmp_path: Path) -> None:
    res = runner.invoke(app, ["run", "--model", "nope_dir", "--log-dir", str(tmp_path)])
    assert res.exit_code == 2
    line = _one_error_line(res)
    assert "nope_dir" in line and "no such directory" in line and "provider/model" in line
    res = runner.invoke(app, ["run", "--model", "ckpt_typo/", "--log-dir", str(tmp_path)])
    assert res.exit_code == 2
    line = _one_error_line(res)
    assert "ckpt_typo/" in line and "'ckpt_typo' is not an Inspect model provider" in line
    assert "openai-api" in line


@pytest.mark.parametrize("weights", [None, "model.safetensors", "pytorch_model-00001-of-00002.bin"])
def test_checkpoint_without_weights(
    tmp_path: Path, tiny_checkpoint: Path, weights: str | None
) -> None:
    ckpt = tmp_path / "ckpt"
    shutil.copytree(tiny_checkpoint, ckpt, ignore=shutil.ignore_patterns("*.safetensors"))
    if weights is None:
        res = runner.invoke(app, ["run", "--model", str(ckpt), "--log-dir", str(tmp_path)])
        assert res.exit_code == 2
        line = _one_error_line(res)
        assert str(ckpt) in line and "no weights" in line and "*.safetensors" in line
        return
    (ckpt / weights).write_bytes(b"")
    resolve_model(str(ckpt), "hf")  # passes the checks: the weights are there


def test_checkpoint_without_tokenizer_or_template(tmp_path: Path) -> None:
    ckpt = tmp_path / "ckpt"
    ckpt.mkdir()
    (ckpt / "config.json").write_text("{}")
    (ckpt / "model.safetensors").write_bytes(b"")
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


def test_bad_disclosure_is_one_line(tmp_path: Path, default_harness) -> None:
    def said(res) -> str:  # type: ignore[no-untyped-def]
        assert res.exit_code == 2
        return " ".join(res.output.replace("│", " ").split())  # typer's error box, unwrapped

    base = ["run", "--log-dir", str(tmp_path), "--disclosure"]
    res = runner.invoke(app, [*base, "lazy"])
    assert "'lazy' is unknown, expected one of inline, progressive" in said(res)
    res = runner.invoke(app, [*base, "progressive", "--suite", "ifeval"])
    assert "ifeval has no skills to disclose" in said(res)
    inline = tmp_path / "inline.yaml"
    inline.write_text(yaml.safe_dump(harness_to_dict(default_harness)))
    res = runner.invoke(app, [*base, "progressive", "--harness", str(inline)])
    assert "skill_disclosure is inline, but disclosure progressive" in said(res)


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


def test_model_args_parse_as_inspect_eval_does() -> None:
    assert parse_model_args(["do_sample=false", "top-k=5", "name=a=b", "empty="]) == {
        "do_sample": False,
        "top_k": 5,
        "name": "a=b",
        "empty": "",
    }
    assert parse_model_args(None) == {}


@pytest.mark.parametrize("pair", ["do_sample", "=1", "x=[unclosed"])
def test_bad_model_arg_is_one_line(tmp_path: Path, pair: str) -> None:
    res = runner.invoke(
        app, ["run", "--model", "mockllm/model", "-M", pair, "--log-dir", str(tmp_path)]
    )
    assert res.exit_code == 2
    assert pair in res.stderr and "-M" in res.stderr and "Traceback" not in res.output


@pytest.mark.parametrize(
    ("model", "given", "temperature", "expected"),
    [
        ("hf/ckpt", {}, None, {"do_sample": False}),
        ("hf/ckpt", {}, 0.0, {"do_sample": False}),
        ("hf/ckpt", {}, 0.7, {"do_sample": True}),
        ("hf/ckpt", {"do_sample": True}, None, {"do_sample": True}),
        ("vllm/ckpt", {}, None, {}),
        ("openai-api/local/tiny", {"x": 1}, 0.0, {"x": 1}),
    ],
)
def test_hf_checkpoints_decode_greedily_unless_sampling_is_asked(
    model: str, given: dict[str, object], temperature: float | None, expected: dict[str, object]
) -> None:
    assert generation_model_args(model, given, temperature) == expected


def test_version() -> None:
    from hat_eval import __version__

    res = runner.invoke(app, ["--version"])
    assert res.exit_code == 0 and res.stdout.strip() == f"hat-eval {__version__}"


def test_run_help_is_not_cut_at_80_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("TERMINAL_WIDTH", "80")
    res = runner.invoke(app, ["run", "--help"])
    assert res.exit_code == 0
    assert "…" not in res.stdout and "--model-arg" in res.stdout
    assert max(len(line) for line in res.stdout.splitlines()) <= 80


def test_epochs_below_one_is_refused_before_anything_runs(tmp_path: Path) -> None:
    res = runner.invoke(app, ["run", "--epochs", "0", "--log-dir", str(tmp_path / "logs")])
    assert res.exit_code == 2
    said = " ".join(res.output.replace("│", " ").split())  # typer's error box, unwrapped
    assert "Invalid value for '--epochs': Input should be greater than or equal to 1" in said
    assert not (tmp_path / "logs").exists()
