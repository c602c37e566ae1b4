from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from hat_eval.cli import app
from hat_eval.suites import suite_episodes

runner = CliRunner()


def _write(path: Path, rows: list) -> Path:
    path.write_text("".join(r if isinstance(r, str) else json.dumps(r) + "\n" for r in rows))
    return path


def test_score_writes_one_line_per_answer_and_the_aggregate(tmp_path: Path) -> None:
    e = suite_episodes("livestream", n=3)
    answers = _write(
        tmp_path / "a.jsonl",
        [{"id": x.id, "answer": "ok"} for x in e]
        + [{"id": e[0].id, "answer": "hi", "tool_calls": [{"name": "nope", "arguments": {}}]}],
    )
    out = tmp_path / "scored.jsonl"
    res = runner.invoke(
        app, ["score", "--suite", "livestream", "--answers", str(answers), "--out", str(out)]
    )
    assert res.exit_code == 0, res.output
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert [x["id"] for x in lines] == [x.id for x in e] + [e[0].id]
    assert all(x["aggregate"] == 0.0 for x in lines[:3])  # "ok" says nothing
    assert res.output.strip().splitlines()[-1] == "aggregate 0.00 over 4 answers"


def test_bad_input_is_one_line_exit_2(tmp_path: Path) -> None:
    e = suite_episodes("livestream", n=1)[0]
    good = {"id": e.id, "answer": "ok"}
    cases = {
        "unknown id": (
            [good, {"id": "livestream-nope", "answer": "x"}],
            "a.jsonl:2: unknown case id",
        ),
        "not json": ([good, "{oops\n"], "a.jsonl:2: not valid JSON"),
        "no answer": ([{"id": e.id}], "a.jsonl:1: expected an object with 'id'"),
    }
    for name, (rows, message) in cases.items():
        answers = _write(tmp_path / "a.jsonl", rows)
        res = runner.invoke(
            app,
            [
                "score",
                "--suite",
                "livestream",
                "--answers",
                str(answers),
                "--out",
                str(tmp_path / "o"),
            ],
        )
        assert res.exit_code == 2, name
        assert message in res.output, (name, res.output)
        assert len([line for line in res.output.splitlines() if line.strip()]) == 1, res.output
    res = runner.invoke(
        app, ["score", "--suite", "nope", "--answers", str(answers), "--out", str(tmp_path / "o")]
    )
    assert res.exit_code == 2 and "is not a case suite" in res.output


def test_suites_cases_lists_what_answers_are_written_against(tmp_path: Path) -> None:
    res = runner.invoke(app, ["suites", "cases", "variant", "--jsonl", "--limit", "3"])
    assert res.exit_code == 0, res.output
    lines = [json.loads(x) for x in res.output.splitlines()]
    assert [x["id"] for x in lines] == [e.id for e in suite_episodes("variant", n=3)]
    assert {"message", "product_on_screen", "harness", "gold"} <= lines[0].keys()
    assert lines[0]["harness"]["variant"]["dims"]
    out = tmp_path / "cases.jsonl"
    res = runner.invoke(app, ["suites", "cases", "livestream", "--jsonl", "--out", str(out)])
    assert res.exit_code == 0 and len(out.read_text().splitlines()) == 1500
    res = runner.invoke(app, ["suites", "cases", "nope"])
    assert res.exit_code == 2 and "is not a case suite" in res.output
