"""``run --cases FILE --judge MODEL`` on a team's logged messages without gold: judge-only cases.

The grader is ``mockllm/model`` scripted as in ``test_cli_judge.py`` (every dimension rated the
same), so what the judge decided and what the checks decided can be told apart in the log.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hat_eval.cli import app
from tests.cli.test_cli_judge import Grader, _one_error_line, _scores
from tests.cli.test_cli_judge import scripted_judge as scripted_judge  # noqa: F401 (fixture)

runner = CliRunner()
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "shop"
NOW = "2026-11-11T20:00:00+08:00"


def _logged(tmp_path: Path) -> Path:
    """Three logged messages: only the message, the product on screen and the time."""
    rows = [
        {
            "message": "how much is this tea right now?",
            "session": {"product_on_screen": "T001", "now": NOW},
        },
        {
            "id": "zh-1",
            "message": "这个茶叶多少钱",
            "session": {"product_on_screen": "T001", "now": NOW},
            "intent": "price",
        },
        {
            "message": "hi everyone, love the stream!",
            "session": {"product_on_screen": "T001", "now": NOW},
        },
    ]
    path = tmp_path / "logged.jsonl"
    path.write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
    )
    return path


def test_a_message_without_gold_needs_a_judge_one_line_before_anything_runs(tmp_path: Path) -> None:
    cases = _logged(tmp_path)
    args = ["run", "--shop", str(EXAMPLE), "--cases", str(cases), "--suite", "livestream"]
    res = runner.invoke(app, [*args, "--log-dir", str(tmp_path / "logs")])
    assert res.exit_code == 2
    line = _one_error_line(res)
    assert f"--cases {cases}: 3 of its 3 cases have no gold (first 'line-1')" in line
    assert "add --judge MODEL" in line
    assert not (tmp_path / "logs").exists()


@pytest.mark.parametrize("rating", [5, 1])
def test_judge_only_cases_are_scored_by_the_checks_and_the_judge_and_marked(
    tmp_path: Path,
    scripted_judge: Grader,
    rating: int,  # noqa: F811
) -> None:
    scripted_judge.rating = rating
    cases = _logged(tmp_path)
    logs = tmp_path / "logs"
    args = ["run", "--shop", str(EXAMPLE), "--cases", str(cases), "--suite", "livestream"]
    res = runner.invoke(
        app, [*args, "--model", "hat/reference", "--judge", "mockllm/model", "--log-dir", str(logs)]
    )
    assert res.exit_code == 0, res.output
    scores = _scores(logs)
    assert len(scores) == 3
    for value, md in scores:
        assert md["judge_only"] is True
        by = md["decided_by"]
        assert by["accuracy"] == "judge"  # no gold facts: the judge decides accuracy
        assert value["accuracy"] == (1.0 if rating == 5 else 0.0)
        assert by["safety"] == "checks" and by["constraints"] == "checks"
        assert "tools" not in by and math.isnan(value["tools"])  # no gold calls: not applied
        assert not math.isnan(value["aggregate"])
    assert scripted_judge.calls == 3
    # the skill is the checks' where the team gave the intent (zh-1), not applied where read
    assert sorted("skill" in md["decided_by"] for _, md in scores) == [False, False, True]
    assert sum(math.isnan(v["skill"]) for v, _ in scores) == 2
    assert "3 samples judge-only" in res.output


def test_the_report_says_which_parts_came_from_the_judge(
    tmp_path: Path,
    scripted_judge: Grader,  # noqa: F811
) -> None:
    cases = _logged(tmp_path)
    logs = tmp_path / "logs"
    args = ["run", "--shop", str(EXAMPLE), "--cases", str(cases), "--suite", "livestream"]
    res = runner.invoke(
        app, [*args, "--model", "hat/reference", "--judge", "mockllm/model", "--log-dir", str(logs)]
    )
    assert res.exit_code == 0, res.output
    res = runner.invoke(
        app, ["report", str(logs), "--out", str(tmp_path / "page"), "--n-boot", "20"]
    )
    assert res.exit_code == 0, res.output
    said = " ".join(res.output.split())
    note = "livestream: 3 samples judge-only (no gold; from the judge: accuracy on 3)"
    assert f"note: {note} (hat/reference)" in said
    assert note in (tmp_path / "page" / "report.md").read_text(encoding="utf-8")
