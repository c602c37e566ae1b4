"""``hat-eval shop draft-gold`` and ``shop import-gold``: drafted gold, reviewed, then run."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from inspect_ai.log import list_eval_logs, read_eval_log
from typer.testing import CliRunner

from hat_eval.cli import app
from hat_eval.episode import knowledge_base
from hat_eval.world import LiveSession, call_function
from tests._cli import one_error_line

runner = CliRunner()
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "shop"
SESSION = {"product_on_screen": "T001", "now": "2026-11-11T20:00:00+08:00"}
MESSAGES = (
    "how much is this tea right now?",
    "is it in stock?",
    "can I return it if I don't like it?",
    "hello!",
)


def _lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def _logged(tmp_path: Path, rows: list[dict] | None = None) -> Path:
    path = tmp_path / "logged.jsonl"
    rows = rows if rows is not None else [{"message": m, "session": SESSION} for m in MESSAGES]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _draft(tmp_path: Path, *extra: str) -> Path:
    out = tmp_path / "drafts.jsonl"
    args = ["shop", "draft-gold", str(_logged(tmp_path)), "--shop", str(EXAMPLE)]
    res = runner.invoke(app, [*args, "--out", str(out), *extra])
    assert res.exit_code == 0, res.output
    assert '4 drafts, 3 with facts, all "reviewed": false' in res.output
    return out


def test_drafts_propose_the_shops_facts_and_are_all_unreviewed(tmp_path: Path) -> None:
    drafts = _lines(_draft(tmp_path))
    assert [d["intent"] for d in drafts] == ["price", "stock_size", "shipping_returns", "chit_chat"]
    assert all(d["reviewed"] is False and d["details"]["draft"] for d in drafts)
    kb = knowledge_base(0, EXAMPLE.as_posix())
    price = drafts[0]
    (call,) = price["expected_calls"]
    quoted = call_function(kb, LiveSession.from_dict(SESSION), call["function"], call["args"])
    assert isinstance(quoted, dict)
    assert price["facts"][0]["value"] == quoted["final_price"]  # the shop's own price
    window = next(f for f in drafts[2]["facts"] if f["kind"] == "days")
    assert window["value"] == float(kb.returns("food")["window_days"])
    assert drafts[3]["facts"] == []  # chit-chat: no facts, the absolute-claim rules only


def test_run_cases_refuses_an_unreviewed_draft_with_the_fix(tmp_path: Path) -> None:
    drafts = _draft(tmp_path)
    args = ["run", "--shop", str(EXAMPLE), "--cases", str(drafts), "--suite", "livestream"]
    res = runner.invoke(app, [*args, "--log-dir", str(tmp_path / "logs")])
    line = one_error_line(res, f"error: --cases {drafts}:1 (line-1): reviewed: false")
    assert 'expected "reviewed": true' in line
    assert not (tmp_path / "logs").exists()


def test_reviewed_drafts_run_and_the_oracle_plays_their_gold(tmp_path: Path) -> None:
    drafts = _draft(tmp_path)
    rows = [{**d, "reviewed": True} for d in _lines(drafts)]
    drafts.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    logs = tmp_path / "logs"
    args = ["run", "--shop", str(EXAMPLE), "--cases", str(drafts), "--suite", "livestream"]
    res = runner.invoke(app, [*args, "--model", "hat/oracle", "--log-dir", str(logs)])
    assert res.exit_code == 0, res.output
    log = read_eval_log(list_eval_logs(str(logs))[0])
    values = [next(iter(s.scores.values())).value for s in log.samples or [] if s.scores]
    assert len(values) == 4
    decided = [v["aggregate"] for v in values if not math.isnan(v["aggregate"])]
    assert decided and all(a == 100.0 for a in decided), values


def _export(tasks: list[dict], edit: dict | None = None) -> list[dict]:
    """A Label Studio export: task 0 corrected, task 1 cancelled, the rest not annotated."""
    out = []
    for i, task in enumerate(tasks):
        row = json.loads(task["data"]["draft"])
        if i == 0:
            row.update(edit or {})
        text = {"from_name": "gold", "to_name": "message", "type": "textarea"}
        annotation = {"result": [{**text, "value": {"text": [json.dumps(row)]}}]}
        if i == 1:
            annotation["was_cancelled"] = True
        out.append({**task, "annotations": [annotation] if i < 2 else []})
    return out


def test_a_label_studio_round_trip_gives_reviewed_cases(tmp_path: Path) -> None:
    tasks_file = tmp_path / "tasks.json"
    _draft(tmp_path, "--label-studio", str(tasks_file))
    tasks = json.loads(tasks_file.read_text(encoding="utf-8"))
    assert [t["data"]["message"] for t in tasks] == list(MESSAGES)
    assert tasks[0]["data"]["product"].startswith("T001: ")
    export = tmp_path / "export.json"
    export.write_text(json.dumps(_export(tasks, {"id": "checked-1"})), encoding="utf-8")
    out = tmp_path / "cases.jsonl"
    res = runner.invoke(app, ["shop", "import-gold", str(export), "--out", str(out)])
    assert res.exit_code == 0, res.output
    (case,) = _lines(out)  # the cancelled and the unannotated tasks are left out
    assert case["id"] == "checked-1" and case["reviewed"] is True
    args = ["run", "--shop", str(EXAMPLE), "--cases", str(out), "--suite", "livestream"]
    res = runner.invoke(app, [*args, "--model", "hat/oracle", "--log-dir", str(tmp_path / "l")])
    assert res.exit_code == 0, res.output


@pytest.mark.parametrize(
    ("rows", "says"),
    [
        ([{"message": "hi"}], "logged.jsonl:1: session: None, expected {product_on_screen, now}"),
        (
            [{"message": "hi", "session": {**SESSION, "product_on_screen": "P0001"}}],
            "logged.jsonl:1: session.product_on_screen: 'P0001' is not a product of the shop",
        ),
        ([{"session": SESSION}], "logged.jsonl:1: message: missing"),
    ],
)
def test_a_bad_message_line_is_one_line_and_nothing_is_written(
    tmp_path: Path, rows: list[dict], says: str
) -> None:
    out = tmp_path / "drafts.jsonl"
    args = ["shop", "draft-gold", str(_logged(tmp_path, rows)), "--shop", str(EXAMPLE)]
    res = runner.invoke(app, [*args, "--out", str(out)])
    one_error_line(res, "error: ", says, "expected")
    assert not out.exists()


def test_an_export_whose_edit_is_not_json_is_one_line(tmp_path: Path) -> None:
    tasks_file = tmp_path / "tasks.json"
    _draft(tmp_path, "--label-studio", str(tasks_file))
    export = _export(json.loads(tasks_file.read_text(encoding="utf-8")))
    export[0]["annotations"][0]["result"][0]["value"]["text"] = ["{not json"]
    path = tmp_path / "export.json"
    path.write_text(json.dumps(export), encoding="utf-8")
    out = tmp_path / "cases.jsonl"
    res = runner.invoke(app, ["shop", "import-gold", str(path), "--out", str(out)])
    one_error_line(res, f"error: {path}: task 0: gold: not valid JSON", "expected")
    assert not out.exists()
