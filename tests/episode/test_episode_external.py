from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

import pytest
from inspect_ai.tool import ToolCall

from hat_eval.episode import (
    AnswerFileError,
    CallRecord,
    Episode,
    ToolRuntime,
    answer_records,
    case_line,
    check_answer,
    episode_context,
    knowledge_base,
    oracle_answer,
    oracle_calls,
    read_answer_file,
    score_answers,
)
from hat_eval.episode._external import read_answers
from hat_eval.suites import suite_episodes
from hat_eval.world import reference_answer


@pytest.fixture(scope="module")
def episodes() -> dict[str, Episode]:
    return {e.id: e for e in suite_episodes("variant", n=40)}


@pytest.fixture(scope="module")
def robust() -> dict[str, Episode]:
    return {e.id: e for e in suite_episodes("robustness", n=300)}


def _good(e: Episode) -> tuple[str, list[dict[str, Any]]]:
    kb = knowledge_base(e.kb_seed)
    calls = [
        {"name": e.gold.tools[c.function], "arguments": c.args, "outcome": "ok"}
        for c in e.case.expected_calls
    ]
    return f"[skill: {e.gold.skill}] " + reference_answer(e.case, kb), calls


def _line(**row: Any) -> str:
    return json.dumps(row, ensure_ascii=False)


def test_answers_made_elsewhere_score_like_the_suites(episodes) -> None:
    e, f, g = [e for e in episodes.values() if e.case.facts and e.case.required_calls][:3]
    good, calls = _good(e)
    lines = [
        _line(id=e.id, answer=good, tool_calls=calls),
        _line(id=f.id, answer="ok"),
        _line(id=g.id, answer=_good(g)[0], tool_calls=[{"name": "no_such_tool"}]),
    ]
    out = list(score_answers(read_answers(lines, "a.jsonl"), episodes))
    assert [o["id"] for o in out] == [e.id, f.id, g.id]  # one line per input line, in order
    assert out[0]["tools"] == 1.0 and out[0]["aggregate"] > out[1]["aggregate"] == 0.0
    assert out[1]["accuracy"] == 0.0 and "accuracy" in out[1]["reasons"]
    assert out[2]["tools"] < 1.0  # an unknown tool name is an unexpected call, not an error
    assert set(out[0]) >= {"accuracy", "safety", "tools", "skill", "constraints", "undecided"}


def test_a_case_line_holds_what_an_answer_is_written_against(episodes) -> None:
    e = next(iter(episodes.values()))
    line = case_line(e)
    assert line["id"] == e.id and line["message"] == e.case.message
    assert line["harness"]["variant"]["seed"] == e.harness.seed
    assert json.loads(json.dumps(line, ensure_ascii=False)) == line


@pytest.mark.parametrize(
    ("row", "match"),
    [
        ("{not json", r"a\.jsonl:2: not valid JSON \(.*\), expected one JSON object per line"),
        ({"id": "x"}, r"a\.jsonl:2: field answer: missing, expected the answer's text"),
        ({"id": "nope", "answer": "hi"}, r"a\.jsonl:2: field id: unknown case id 'nope'"),
        # issue 31, item 3: the wrong types the reader used to take
        ({"answer": 42}, r"a\.jsonl:2: field answer: got the number 42, expected the answer's"),
        (
            {"answer": "hi", "tool_calls": [{"name": 7}]},
            r"a\.jsonl:2: field tool_calls\.0\.name: got the number 7, expected the tool's name",
        ),
        (
            {"answer": "hi", "tool_calls": [{"name": {"tool": "x"}}]},
            r"field tool_calls\.0\.name: got an object \{\"tool\": \"x\"\}, expected the tool's",
        ),
        (
            {"answer": "hi", "tool_calls": [{"name": "get_product_details", "arguments": "P1"}]},
            r"field tool_calls\.0\.arguments: got the text 'P1', which is not a JSON object; "
            r"expected a JSON object or its JSON text",
        ),
        (
            {"answer": "hi", "tool_calls": [{"type": "function", "function": {"name": 3}}]},
            r"field tool_calls\.0\.function\.name: got the number 3, expected the tool's name",
        ),
        (
            {"answer": "hi", "tool_calls": [{"function": {"name": "x", "arguments": "[1]"}}]},
            r"field tool_calls\.0\.function\.arguments: got the text '\[1\]', which is not",
        ),
        (
            {"answer": "hi", "tool_calls": [{"name": "x", "outcome": "error"}]},
            r"field tool_calls\.0\.outcome: got the text 'error', expected one of ok, ",
        ),
        (
            {"answer": "hi", "tool_calls": [{"name": "x", "faults": ["partial", "bad"]}]},
            r"field tool_calls\.0\.faults\.1: got the text 'bad', expected one of timeout, ",
        ),
        (
            {"answer": "hi", "tool_calls": [{"name": "x", "faults": ["slow", "slow"]}]},
            r"field tool_calls\.0\.faults: 2 faults in 1 attempts; expected at most one",
        ),
        (
            {"answer": "hi", "tool_calls": [{"name": "x", "attempts": True}]},
            r"field tool_calls\.0\.attempts: got the boolean true, expected how many times",
        ),
        (
            {"answer": "hi", "tool_calls": [{"name": "x", "outcom": "ok"}]},
            r"field tool_calls\.0\.outcom: unknown field, expected only name, function, ",
        ),
        ({"answer": "hi", "tool_calls": {}}, r"field tool_calls: got an object \{\}, expected"),
        ({"answer": "hi", "tool_calls": [{}]}, r"field tool_calls\.0\.name: missing"),
    ],
)
def test_bad_lines_name_the_file_line_and_field(episodes, row: Any, match: str) -> None:
    first = next(iter(episodes))
    if isinstance(row, dict):
        row = _line(**{"id": list(episodes)[1], **row})
    with pytest.raises(AnswerFileError, match=match) as err:
        read_answers([_line(id=first, answer="hi"), row], "a.jsonl", case_ids=episodes)
    assert "\n" not in str(err.value)


def test_a_case_answered_twice_is_a_bad_line_and_skip_bad_goes_on(episodes) -> None:
    a, b = list(episodes)[:2]
    lines = [
        _line(id=a, answer="hi"),
        _line(id=a, answer="again"),
        "[1, 2]",
        _line(id=b, answer=42),
        _line(id="nope", answer="x"),
        _line(id=b, answer="你好"),
    ]
    with pytest.raises(AnswerFileError, match=r"a\.jsonl:2: field id: case id .* again \(first"):
        read_answers(lines, "a.jsonl", case_ids=episodes)
    bad: list[str] = []
    read = read_answers(lines, "a.jsonl", case_ids=episodes, on_bad=lambda e: bad.append(str(e)))
    assert [(x.id, x.answer, x.where) for x in read] == [
        (a, "hi", "a.jsonl:1"),
        (b, "你好", "a.jsonl:6"),
    ]
    assert [m.split(": ")[0] for m in bad] == [f"a.jsonl:{n}" for n in (2, 3, 4, 5)]


def test_openai_and_inspect_tool_calls_score_like_the_projects_own(episodes, tmp_path) -> None:
    cases = [e for e in episodes.values() if e.case.facts and e.case.required_calls]
    assert {e.case.language for e in cases} >= {"en"}
    zh = next(e for e in suite_episodes("livestream", n=60) if e.case.language == "zh")
    both = {**episodes, zh.id: zh}
    ours, theirs, message = [], [], []
    for e in [*cases[:4], zh]:
        answer, calls = _good(e)
        ours.append(_line(id=e.id, answer=answer, tool_calls=calls))
        openai = [
            {
                "id": f"call_{i}",
                "type": "function",
                "function": {"name": c["name"], "arguments": json.dumps(c["arguments"])},
            }
            for i, c in enumerate(calls)
        ]
        theirs.append(_line(id=e.id, answer=answer, tool_calls=openai))
        # arguments as an object, as some OpenAI-compatible servers send them
        inline = [
            {
                **c,
                "function": {**c["function"], "arguments": json.loads(c["function"]["arguments"])},
            }
            for c in openai
        ]
        message.append(_line(id=e.id, answer=answer, tool_calls=inline))
    path = tmp_path / "openai.jsonl"
    inspect = [
        _line(
            id=e.id,
            answer=_good(e)[0],
            tool_calls=[
                asdict(ToolCall(id=f"c{i}", function=c["name"], arguments=c["arguments"]))
                for i, c in enumerate(_good(e)[1])
            ],
        )
        for e in [*cases[:4], zh]
    ]
    path.write_text("\n".join(theirs) + "\n", encoding="utf-8")
    expected = list(score_answers(read_answers(ours, "a.jsonl"), both))
    assert list(score_answers(read_answer_file(path), both)) == expected
    assert list(score_answers(read_answers(message, "m.jsonl"), both)) == expected
    assert list(score_answers(read_answers(inspect, "i.jsonl"), both)) == expected
    assert expected[-1]["id"] == zh.id and expected[-1]["tools"] == 1.0


def test_old_lines_read_exactly_as_before(episodes) -> None:
    e = next(e for e in episodes.values() if e.case.required_calls)
    fid = e.case.required_calls[0].function
    name = e.gold.tools[fid]
    line = read_answers(
        [
            _line(
                id=e.id,
                answer="hi",
                tool_calls=[
                    {"name": name, "arguments": {"product_id": "P0001"}},
                    {"function": fid, "arguments": '{"product_id": "P0002"}', "outcome": "ok"},
                    {"function": name, "outcome": "fault:timeout"},
                    {"name": "not_a_tool", "outcome": "ok"},
                    {"name": name, "arguments": None, "outcome": "input_error"},
                ],
            )
        ],
        "a.jsonl",
    )[0]
    assert answer_records(e, line.tool_calls) == [
        CallRecord(name, fid, {"product_id": "P0001"}, "ok"),
        CallRecord(fid, fid, {"product_id": "P0002"}, "ok"),
        CallRecord(name, fid, {}, "fault:timeout"),
        CallRecord("not_a_tool", None, {}, "unknown_tool"),
        CallRecord(name, fid, {}, "input_error"),
    ]
    # mappings (the old API) are read through the same model
    assert answer_records(e, [{"name": name}]) == [CallRecord(name, fid, {}, "ok")]
    with pytest.raises(AnswerFileError, match=r"field tool_calls\.0\.name: got the number 1"):
        answer_records(e, [{"name": 1}])


def test_output_numbers_are_strict_json_with_null_for_undecided(episodes) -> None:
    e = next(iter(episodes.values()))
    out = next(score_answers(read_answers([_line(id=e.id, answer="ok")], "a.jsonl"), episodes))
    assert out["recovery"] is None and out["fault"] is None  # NaN recovery, no fault: null
    json.dumps(out, allow_nan=False)


def _score_one(e: Episode, answer: str, calls: Any, eps: dict[str, Episode]) -> dict[str, Any]:
    return next(
        score_answers(read_answers([_line(id=e.id, answer=answer, tool_calls=calls)], "a"), eps)
    )


def _log(e: Episode) -> tuple[list[Any], list[str], ToolRuntime]:
    """The oracle's calls run through the runtime, with the episode's fault: what a log holds."""
    ctx = episode_context(e)
    runtime = ToolRuntime(ctx.harness, ctx.kb, ctx.session, fault=ctx.fault, seed=0)
    calls = oracle_calls(e.case, ctx.harness.tools, skill=e.gold.skill)
    texts = [runtime.call(c.function, c.arguments)[0] for c in calls]
    return list(calls), texts, runtime


def test_the_whole_call_record_reads_back_as_the_log_holds_it(robust) -> None:
    """Issue 30: outcome, faults, attempts, backoff given -> the record the log holds."""
    seen = set()
    for e in robust.values():
        if e.fault is None or e.fault.kind in seen:
            continue
        seen.add(e.fault.kind)
        calls, _, runtime = _log(e)
        given = [r.to_dict() for r in runtime.records]
        assert answer_records(e, given) == runtime.records, e.id
    assert len(seen) == 7


def test_a_returned_result_shows_the_fault_it_carries(robust) -> None:
    """Issue 30: a cut-off, emptied, malformed or drifted result is the fault it is.

    Each call is given with its name, arguments and the text it returned only (no outcome, no
    faults): where the call's one attempt met a fault the result shows, the record read is the
    log's record, and the answer scores as it does from the log.
    """
    kinds: dict[str, int] = {}
    for e in robust.values():
        if e.fault is None or e.fault.kind in ("timeout", "server_error", "slow"):
            continue
        calls, texts, runtime = _log(e)
        given = [
            {"name": c.function, "arguments": c.arguments, "result": t}
            for c, t in zip(calls, texts, strict=True)
        ]
        read = answer_records(e, given)
        for r, g in zip(runtime.records, read, strict=True):
            if r.attempts == 1:  # a retried call's earlier attempts leave no result to read
                assert g == r, (e.id, r, g)
                kinds[r.faults[0] if r.faults else "clean"] = 1
        ctx = episode_context(e)
        answer = oracle_answer(e, ctx)
        scored = _score_one(e, answer, given, robust)
        log = check_answer(e.case, e.gold, answer, runtime.records, e.fault, ctx.kb)
        if all(r.attempts == 1 for r in runtime.records):
            assert scored["fault"] == log.fault, e.id
    assert set(kinds) == {"clean", "malformed", "partial", "empty", "schema_drift"}


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_drifted_result_no_longer_reads_as_a_clean_one(robust, language: str) -> None:
    """The old shape (outcome only) hid the fault; the result shows it, as the log does."""
    e = next(
        e
        for e in robust.values()
        if e.fault is not None
        and e.fault.kind in ("schema_drift", "partial")
        and e.case.language == language
        and any(r.faults for r in _log(e)[2].records)
    )
    calls, texts, runtime = _log(e)
    answer = oracle_answer(e, episode_context(e))
    old = [{"name": c.function, "arguments": c.arguments, "outcome": "ok"} for c in calls]
    new = [{**o, "result": t} for o, t in zip(old, texts, strict=True)]
    scored_old, scored_new = (_score_one(e, answer, c, robust) for c in (old, new))
    assert scored_old["fault"] == "not_reached" and scored_old["recovery"] is None
    assert scored_new["fault"] == "silent" and scored_new["recovery"] in (0.0, 1.0)
    log = check_answer(e.case, e.gold, answer, runtime.records, e.fault, knowledge_base(e.kb_seed))
    assert scored_new["fault"] == log.fault and scored_new["recovery"] == log.recovery


def test_a_result_given_as_a_value_or_as_prose(robust) -> None:
    """A result as a JSON value reads like its text; prose a framework's tool wrote is no fault."""
    e = next(
        e
        for e in robust.values()
        if e.fault is not None
        and e.fault.kind == "schema_drift"
        and episode_context(e).harness.hooks.messages.result_format == "json"
        and any(r.faults for r in _log(e)[2].records)
    )
    calls, texts, runtime = _log(e)
    i = next(i for i, r in enumerate(runtime.records) if r.faults == ["schema_drift"])
    call = {"name": calls[i].function, "arguments": calls[i].arguments}
    drifted = json.loads(texts[i].removeprefix(runtime.messages.result_prefix).strip())
    (as_value,) = answer_records(e, [{**call, "result": drifted}])
    assert as_value == runtime.records[i]
    for prose in ("价格是99元", "The price is ¥99.", ""):
        (read,) = answer_records(e, [{**call, "result": prose}])
        assert read.faults == [] and read.outcome == "ok", prose
    # a call that failed: its result is the error text, read as the outcome says
    (failed,) = answer_records(e, [{**call, "outcome": "fault:timeout", "result": "{"}])
    assert failed.outcome == "fault:timeout" and failed.faults == []
