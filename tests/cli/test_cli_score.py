from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.log import list_eval_logs, read_eval_log
from typer.testing import CliRunner

from hat_eval.cli import app
from hat_eval.episode import FAULT_OUTCOMES, PARTS, TRACE_KEY, knowledge_base
from hat_eval.suites import suite_episodes
from hat_eval.world import reference_answer
from tests._cli import one_error_line

runner = CliRunner()


def _write(path: Path, rows: list) -> Path:
    """One line a row: a dict as JSON, text and bytes as they are."""
    path.write_bytes(
        b"".join(
            r
            if isinstance(r, bytes)
            else (r if isinstance(r, str) else json.dumps(r, ensure_ascii=False) + "\n").encode()
            for r in rows
        )
    )
    return path


def _score(answers: Path, out: Path, *more: str) -> Any:
    args = ["score", "--suite", "livestream", "--answers", str(answers), "--out", str(out)]
    return runner.invoke(app, [*args, *more])


def _strict(text: str) -> list[dict[str, Any]]:
    """JSONL parsed as a strict parser does: NaN and infinities are refused."""

    def refuse(token: str) -> None:
        raise AssertionError(f"{token} in the output, which strict JSON parsers reject")

    return [json.loads(line, parse_constant=refuse) for line in text.splitlines()]


def _answered(language: str) -> tuple[str, str, list[dict[str, Any]]]:
    """A livestream case in ``language`` that needs a tool: its id, a right answer, its calls."""
    e = next(
        e
        for e in suite_episodes("livestream", n=80)
        if e.case.language == language and e.case.facts and e.case.required_calls
    )
    answer = f"[skill: {e.gold.skill}] " + reference_answer(e.case, knowledge_base(e.kb_seed))
    calls = [{"name": e.gold.tools[c.function], "arguments": c.args} for c in e.case.required_calls]
    return e.id, answer, calls


def test_score_writes_one_line_per_answer_and_the_aggregate(tmp_path: Path) -> None:
    e = suite_episodes("livestream", n=4)
    answers = _write(
        tmp_path / "a.jsonl",
        [{"id": x.id, "answer": "ok"} for x in e[:3]]
        + [{"id": e[3].id, "answer": "hi", "tool_calls": [{"name": "nope", "arguments": {}}]}],
    )
    out = tmp_path / "scored.jsonl"
    res = _score(answers, out)
    assert res.exit_code == 0, res.output
    lines = _strict(out.read_text(encoding="utf-8"))
    assert [x["id"] for x in lines] == [x.id for x in e]
    assert all(x["aggregate"] == 0.0 for x in lines[:3])  # "ok" says nothing
    assert all(x["recovery"] is None for x in lines)  # no fault: null, never NaN
    assert res.output.strip().splitlines()[-1] == "aggregate 0.00 over 4 answers"


def test_out_may_not_be_the_answers_file(tmp_path: Path) -> None:
    """Issue 31, item 1: `--answers a.jsonl --out a.jsonl` overwrote its own input."""
    e = suite_episodes("livestream", n=1)[0]
    answers = _write(tmp_path / "a.jsonl", [{"id": e.id, "answer": "ok"}])
    before = answers.read_bytes()
    res = _score(answers, answers)
    one_error_line(res, "error: --out ", "the same file as --answers", "choose another --out")
    assert answers.read_bytes() == before
    (tmp_path / "d").mkdir()  # relative and absolute spellings of one file are the same file
    res = runner.invoke(
        app,
        [
            *("score", "--suite", "livestream", "--answers", str(answers)),
            *("--out", str(tmp_path / "d" / ".." / "a.jsonl")),
        ],
    )
    one_error_line(res, "error: --out ", "the same file as --answers")
    assert answers.read_bytes() == before


def test_out_is_checked_before_any_answer_is_read(tmp_path: Path) -> None:
    answers = _write(tmp_path / "a.jsonl", ["{broken\n"])
    (tmp_path / "dir").mkdir()
    res = _score(answers, tmp_path / "dir")
    one_error_line(res, "error: --out ", "a folder, expected a file path")


@pytest.mark.parametrize("language", ["en", "zh"])
def test_openai_tool_calls_are_read_and_score_like_ours(tmp_path: Path, language: str) -> None:
    """Issue 31, item 2: OpenAI's tool-call shape crashed with `unhashable type: 'dict'`."""
    case, answer, calls = _answered(language)
    openai = [
        {
            "id": f"call_{i}",
            "type": "function",
            "function": {"name": c["name"], "arguments": json.dumps(c["arguments"])},
        }
        for i, c in enumerate(calls)
    ]
    ours = _write(tmp_path / "ours.jsonl", [{"id": case, "answer": answer, "tool_calls": calls}])
    theirs = _write(
        tmp_path / "theirs.jsonl", [{"id": case, "answer": answer, "tool_calls": openai}]
    )
    res = _score(ours, tmp_path / "ours.out.jsonl")
    assert res.exit_code == 0, res.output
    res = _score(theirs, tmp_path / "theirs.out.jsonl")
    assert res.exit_code == 0, res.output
    expected = _strict((tmp_path / "ours.out.jsonl").read_text(encoding="utf-8"))
    assert _strict((tmp_path / "theirs.out.jsonl").read_text(encoding="utf-8")) == expected
    assert expected[0]["tools"] == 1.0 and expected[0]["accuracy"] == 1.0


def test_a_bad_line_after_good_ones_writes_nothing(tmp_path: Path) -> None:
    """Issue 31, item 2: one bad line after good ones left no output and a traceback."""
    e = suite_episodes("livestream", n=3)
    out = tmp_path / "scored.jsonl"
    out.write_text("earlier results\n", encoding="utf-8")
    rows: list[Any] = [{"id": x.id, "answer": "ok"} for x in e[:2]]
    rows.append({"id": e[2].id, "answer": "hi", "tool_calls": [{"function": {"name": {}}}]})
    res = _score(_write(tmp_path / "a.jsonl", rows), out)
    one_error_line(res, "error: ", "a.jsonl:3: field tool_calls.0.function.name: got an object")
    assert out.read_text(encoding="utf-8") == "earlier results\n"  # untouched


@pytest.mark.parametrize(
    ("bad", "says"),
    [
        ({"answer": 42}, "a.jsonl:2: field answer: got the number 42, expected"),
        (
            {"answer": "你好", "tool_calls": [{"name": 3}]},
            "a.jsonl:2: field tool_calls.0.name: got the number 3, expected the tool's name",
        ),
        (
            {"answer": "hi", "tool_calls": [{"name": {"n": "check_stock"}}]},
            "a.jsonl:2: field tool_calls.0.name: got an object",
        ),
        (
            {"answer": "hi", "tool_calls": [{"name": "check_stock", "arguments": "P0001"}]},
            "a.jsonl:2: field tool_calls.0.arguments: got the text 'P0001', which is not a JSON "
            "object; expected a JSON object or its JSON text",
        ),
        (
            {"answer": "hi", "tool_calls": [{"name": "check_stock", "attempts": 0}]},
            "a.jsonl:2: field tool_calls.0.attempts: got the number 0, expected how many times",
        ),
        (
            {"answer": "hi", "tool_calls": [{"name": "check_stock", "backoff_s": -1}]},
            "a.jsonl:2: field tool_calls.0.backoff_s: got the number -1",
        ),
        ("not json\n", "a.jsonl:2: not valid JSON"),
        ({"answer": "again", "same": True}, "a.jsonl:2: field same: unknown field"),
    ],
)
def test_wrong_types_are_one_line_exit_2(tmp_path: Path, bad: Any, says: str) -> None:
    """Issue 31, item 3: wrong types were taken silently."""
    e = suite_episodes("livestream", n=2)
    if isinstance(bad, dict):
        bad = {"id": e[1].id, **bad}
    res = _score(
        _write(tmp_path / "a.jsonl", [{"id": e[0].id, "answer": "ok"}, bad]), tmp_path / "o"
    )
    one_error_line(res, "error: ", says)
    assert not (tmp_path / "o").exists()


def test_a_case_id_twice_is_a_bad_line(tmp_path: Path) -> None:
    e = suite_episodes("livestream", n=1)[0]
    rows = [{"id": e.id, "answer": "ok"}, {"id": e.id, "answer": "又一次"}]
    res = _score(_write(tmp_path / "a.jsonl", rows), tmp_path / "o")
    one_error_line(res, "error: ", f"a.jsonl:2: field id: case id '{e.id}' again (first on line 1)")


def test_skip_bad_reports_each_bad_line_and_scores_the_rest(tmp_path: Path) -> None:
    e = suite_episodes("livestream", n=3)
    rows: list[Any] = [
        {"id": e[0].id, "answer": "ok"},
        "{oops\n",
        {"id": e[1].id, "answer": 42},
        {"id": e[0].id, "answer": "twice"},
        {"id": "livestream-nope", "answer": "x"},
        b'{"id": "\xff\xfe"}\n',
        {
            "id": e[2].id,
            "answer": "好的",
            "tool_calls": [
                {"type": "function", "function": {"name": "check_stock", "arguments": "{}"}}
            ],
        },  # fmt: skip
    ]
    answers = _write(tmp_path / "a.jsonl", rows)
    out = tmp_path / "o.jsonl"
    res = _score(answers, out, "--skip-bad")
    assert res.exit_code == 0, res.output
    bad = [ln for ln in res.stderr.splitlines() if ln.startswith("skipped: ")]
    assert [ln.split(": ")[1] for ln in bad] == [f"{answers}:{n}" for n in (2, 3, 4, 5, 6)]
    assert "Traceback" not in res.output
    assert [x["id"] for x in _strict(out.read_text(encoding="utf-8"))] == [e[0].id, e[2].id]
    assert "skipped 5 bad lines" in res.stdout
    res = _score(_write(tmp_path / "b.jsonl", ["{oops\n", "[]\n"]), out, "--skip-bad")
    assert res.exit_code == 2 and "all 2 lines bad" in res.stderr.splitlines()[-1]


def test_unknown_suite_and_unknown_id(tmp_path: Path) -> None:
    e = suite_episodes("livestream", n=1)[0]
    answers = _write(
        tmp_path / "a.jsonl", [{"id": e.id, "answer": "ok"}, {"id": "livestream-x", "answer": "x"}]
    )
    res = _score(answers, tmp_path / "o")
    one_error_line(res, "error: ", "a.jsonl:2: field id: unknown case id 'livestream-x'")
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


def test_a_logs_call_records_score_as_the_log_does(tmp_path: Path) -> None:
    """Issue 30: the whole record a log holds for each call (outcome, faults, attempts, backoff,
    the text returned) scores an answer made elsewhere as the suite scored it in the log."""
    res = runner.invoke(
        app, ["run", "--suite", "robustness", "--limit", "24", "--log-dir", str(tmp_path / "l")]
    )
    assert res.exit_code == 0, res.output
    (info,) = list_eval_logs(str(tmp_path / "l"))
    rows, logged = [], {}
    for sample in read_eval_log(info.name).samples or []:
        calls = [
            {**m.metadata[TRACE_KEY], "result": m.text}
            for m in sample.messages
            if TRACE_KEY in (m.metadata or {})
        ]
        rows.append({"id": str(sample.id), "answer": sample.output.completion, "tool_calls": calls})
        (score,) = (sample.scores or {}).values()
        logged[str(sample.id)] = score.value
    out = tmp_path / "scored.jsonl"
    res = runner.invoke(
        app,
        [
            *(
                "score",
                "--suite",
                "robustness",
                "--answers",
                str(_write(tmp_path / "a.jsonl", rows)),
            ),
            *("--out", str(out)),
        ],
    )
    assert res.exit_code == 0, res.output
    faults = set()
    for line in _strict(out.read_text(encoding="utf-8")):
        want = logged[line["id"]]
        if any(k.startswith("hook_") for k in want):
            continue  # a hook's misfire is the hook layer's record, not a call's
        for key in (*PARTS, "aggregate", "recovery"):
            value = want[key]
            assert line[key] == (None if value != value else value), (line["id"], key)
        shown = [o for o in FAULT_OUTCOMES if want.get(f"fault_{o}") == 1.0]
        assert line["fault"] == (shown[0] if shown else None), line["id"]
        faults.add(line["fault"])
    assert {"visible", "silent"} <= faults  # the records carried faults, seen and silent


def test_results_are_kept_when_out_fails_after_the_work(tmp_path: Path, monkeypatch) -> None:
    import hat_eval._outputs as outputs

    e = suite_episodes("livestream", n=2)
    answers = _write(tmp_path / "a.jsonl", [{"id": x.id, "answer": "好的"} for x in e])

    def full(*_: Any, **__: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(outputs, "write_text_atomic", full)
    res = _score(answers, tmp_path / "o.jsonl")
    assert res.exit_code == 1, res.output  # not bad input: the disk failed after the work
    (line,) = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert line.startswith("error: --out ") and "(No space left on device)" in line, line
    fallback = Path(line.rsplit("saved to ", 1)[1].removesuffix(" instead"))
    assert [x["id"] for x in _strict(fallback.read_text(encoding="utf-8"))] == [x.id for x in e]
    fallback.unlink()
    assert not (tmp_path / "o.jsonl").exists()


def test_an_empty_answers_file_is_one_line(tmp_path: Path) -> None:
    res = _score(_write(tmp_path / "a.jsonl", ["\n", "  \n"]), tmp_path / "o")
    one_error_line(res, "error: ", "a.jsonl: no answers; expected one JSON object a line")


def test_the_judges_bounds_reach_its_grader_before_any_answer_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import typer

    from hat_eval.runner import _prepare

    seen: dict[str, Any] = {}

    def resolve(judge: str, **bounds: Any) -> None:
        seen.update(bounds, judge=judge)
        raise typer.Exit(3)  # stop here: nothing further is needed

    monkeypatch.setattr(_prepare, "resolve_judge", resolve)
    args = ["score", "--suite", "livestream", "--answers", str(tmp_path / "missing.jsonl")]
    args += ["--out", str(tmp_path / "r.jsonl"), "--judge", "ckpt/"]
    args += ["--judge-max-tokens", "96", "--request-timeout", "7", "--max-retries", "0"]
    res = runner.invoke(app, args)
    assert res.exit_code == 3, res.output
    assert seen == {"judge": "ckpt/", "max_tokens": 96, "request_timeout": 7, "max_retries": 0}
