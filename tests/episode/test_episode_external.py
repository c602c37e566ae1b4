from __future__ import annotations

import json

import pytest

from hat_eval.episode import (
    AnswerFileError,
    case_line,
    knowledge_base,
    read_answers,
    score_answers,
)
from hat_eval.suites import suite_episodes
from hat_eval.world import reference_answer


@pytest.fixture(scope="module")
def episodes():
    return {e.id: e for e in suite_episodes("variant", n=40)}


def test_answers_made_elsewhere_score_like_the_suites(episodes) -> None:
    e = next(e for e in episodes.values() if e.case.facts and e.case.required_calls)
    kb = knowledge_base(e.kb_seed)
    calls = [
        {"name": e.gold.tools[c.function], "arguments": c.args, "outcome": "ok"}
        for c in e.case.expected_calls
    ]
    good = f"[skill: {e.gold.skill}] " + reference_answer(e.case, kb)
    lines = [
        json.dumps({"id": e.id, "answer": good, "tool_calls": calls}),
        json.dumps({"id": e.id, "answer": "ok"}),
        json.dumps({"id": e.id, "answer": good, "tool_calls": [{"name": "no_such_tool"}]}),
    ]
    out = list(score_answers(read_answers(lines, "a.jsonl"), episodes))
    assert [o["id"] for o in out] == [e.id] * 3  # one line per input line, in order
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
    ("line", "match"),
    [
        ("{not json", r"a\.jsonl:2: not valid JSON \(.*\), expected one JSON object per line"),
        (json.dumps({"id": "x"}), r"a.jsonl:2: expected an object with 'id'"),
        (json.dumps({"id": "nope", "answer": "hi"}), r"a.jsonl:2: unknown case id 'nope'"),
    ],
)
def test_bad_lines_name_the_file_and_line(episodes, line: str, match: str) -> None:
    first = json.dumps({"id": next(iter(episodes)), "answer": "hi"})
    with pytest.raises(AnswerFileError, match=match):
        list(score_answers(read_answers([first, line], "a.jsonl"), episodes))
