"""``hat-eval ifeval score``: exit codes, printed metrics, result lines, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hat_eval.cli import app

runner = CliRunner()


@pytest.fixture(scope="module")
def data_file(shared_dir: Path) -> Path:
    return shared_dir / "data" / "ifeval" / "input_data.jsonl"


def prompts(data_file: Path, n: int) -> list[dict]:
    return [json.loads(line) for line in data_file.read_text().splitlines()[:n]]


def write(path: Path, rows: list[object]) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows))
    return path


def score(*args: str):  # type: ignore[no-untyped-def]
    return runner.invoke(app, ["ifeval", "score", "--workers", "1", *args])


def test_score_prints_metrics_and_writes_one_line_per_prompt(
    tmp_path: Path, data_file: Path
) -> None:
    rows = prompts(data_file, 4)
    # In reverse order: results come back in the data's order, like the reference's.
    responses = write(
        tmp_path / "r.jsonl",
        [{"prompt": r["prompt"], "response": "Hello world"} for r in reversed(rows)],
    )
    out = tmp_path / "out" / "results.jsonl"
    result = score(
        "--responses", str(responses), "--out", str(out), "--data", str(data_file), "--breakdown"
    )
    assert result.exit_code == 0, result.output
    for label in (
        "prompt-level strict accuracy:",
        "instruction-level strict accuracy:",
        "prompt-level loose accuracy:",
        "instruction-level loose accuracy:",
    ):
        assert label in result.output
    assert "punctuation:no_comma" in result.output
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert [x["key"] for x in lines] == [r["key"] for r in rows]
    assert set(lines[0]) == {
        "key",
        "follow_all_instructions_strict",
        "follow_instruction_list_strict",
        "follow_all_instructions_loose",
        "follow_instruction_list_loose",
    }
    assert lines[1]["follow_instruction_list_strict"] == [True]  # 1001: no comma in it
    for x, r in zip(lines, rows, strict=True):
        assert len(x["follow_instruction_list_loose"]) == len(r["instruction_id_list"])


def test_malformed_line_is_reported_with_its_number(tmp_path: Path, data_file: Path) -> None:
    row = {"prompt": prompts(data_file, 1)[0]["prompt"], "response": "x"}
    responses = write(tmp_path / "r.jsonl", [row, "{oops"])
    result = score(
        "--responses", str(responses), "--out", str(tmp_path / "o.jsonl"), "--data", str(data_file)
    )
    assert result.exit_code == 2
    assert "r.jsonl:2: not valid JSON" in result.output
    assert "Traceback" not in result.output


def test_missing_response_field(tmp_path: Path, data_file: Path) -> None:
    responses = write(tmp_path / "r.jsonl", [{"prompt": "p"}])
    result = score(
        "--responses", str(responses), "--out", str(tmp_path / "o.jsonl"), "--data", str(data_file)
    )
    assert result.exit_code == 2
    assert "r.jsonl:1: field 'response' must be a string" in result.output


def test_prompt_not_in_the_dataset(tmp_path: Path, data_file: Path) -> None:
    responses = write(tmp_path / "r.jsonl", [{"prompt": "What is the price?", "response": "9"}])
    result = score(
        "--responses", str(responses), "--out", str(tmp_path / "o.jsonl"), "--data", str(data_file)
    )
    assert result.exit_code == 2
    assert "r.jsonl:1: prompt 'What is the price?' is not in the IFEval data" in result.output
    assert not (tmp_path / "o.jsonl").exists()


def test_unknown_instruction_id(tmp_path: Path) -> None:
    data = write(
        tmp_path / "d.jsonl",
        [{"key": 7, "prompt": "p", "instruction_id_list": ["punctuation:no_dots"], "kwargs": [{}]}],
    )
    responses = write(tmp_path / "r.jsonl", [{"prompt": "p", "response": "x"}])
    result = score(
        "--responses", str(responses), "--out", str(tmp_path / "o.jsonl"), "--data", str(data)
    )
    assert result.exit_code == 2
    assert "d.jsonl:1: unknown instruction id 'punctuation:no_dots'" in result.output


def test_offline_without_data_names_the_option(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    responses = write(tmp_path / "r.jsonl", [{"prompt": "p", "response": "x"}])
    result = score("--responses", str(responses), "--out", str(tmp_path / "o.jsonl"))
    assert result.exit_code == 2
    assert "ifeval score --data PATH" in result.output


def test_missing_responses_file(tmp_path: Path, data_file: Path) -> None:
    result = score(
        "--responses",
        str(tmp_path / "none.jsonl"),
        "--out",
        str(tmp_path / "o.jsonl"),
        "--data",
        str(data_file),
    )
    assert result.exit_code == 2
    assert "none.jsonl: no such file, expected a JSONL file of responses" in result.output
