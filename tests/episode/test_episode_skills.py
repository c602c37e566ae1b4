"""Progressive skill disclosure in the episode: the loader the runtime serves, the agent loop,
and skill selection read from the loads."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import pytest

from hat_eval.episode import (
    TRACE_KEY,
    CallRecord,
    Message,
    ToolCall,
    ToolRuntime,
    check_answer,
    gold_for,
    harness_sha256,
    knowledge_base,
    run_agent,
)
from hat_eval.episode._record import Gold, HarnessRef
from hat_eval.episode._runtime import skill_loads
from hat_eval.harness import SKILL_LOADER, Harness, default_harness_path, load_harness, skill_body
from hat_eval.harness._load import harness_to_dict, parse_harness
from hat_eval.world import Case, generate_cases
from tests.episode._helpers import context, scripted

PROGRESSIVE = str(default_harness_path("progressive"))


@pytest.fixture(scope="module")
def harness() -> Harness:
    return load_harness(PROGRESSIVE)


@pytest.fixture(scope="module")
def case() -> Case:
    cases = generate_cases(knowledge_base(0), split="test", n=60, seed=11)
    return next(c for c in cases if c.expected_skill == "price_promotion")


def load(skill_id: str, i: int = 0, tool: str = "load_skill") -> Message:
    return Message("assistant", "", tool_calls=(ToolCall(f"l{i}", tool, {"skill_id": skill_id}),))


def test_the_runtime_serves_the_loader_from_the_harness(harness: Harness, case: Case) -> None:
    rt = ToolRuntime(harness, knowledge_base(0), case.session)
    text, error = rt.call("load_skill", {"skill_id": "stock_size"})
    assert not error and text == skill_body(harness.skill("stock_size"))
    assert rt.records[-1] == CallRecord(
        "load_skill", SKILL_LOADER, {"skill_id": "stock_size"}, "ok", skill_type="reply"
    )
    assert rt.records[-1].to_dict()["skill_type"] == "reply"
    text, error = rt.call("load_skill", {"skill_id": "haggling"})
    assert error and "there is no skill 'haggling'" in text and "price_promotion" in text
    assert rt.records[-1].outcome == "input_error" and rt.records[-1].skill_type is None
    for bad in ({}, {"skill_id": 3}, {"skill_id": "stock_size", "more": 1}):
        text, error = rt.call("load_skill", bad)
        assert error and "takes one argument, 'skill_id'" in text
    assert [r.outcome for r in rt.records[2:]] == ["input_error"] * 3
    assert skill_loads(rt.records) == rt.records[:1]
    # a plain call's record has no skill_type key (transcripts of world calls are unchanged)
    rt.call("get_live_session", {})
    assert "skill_type" not in rt.records[-1].to_dict()
    assert CallRecord.from_dict(rt.records[0].to_dict()) == rt.records[0]


def test_the_loaded_skill_body_reaches_the_model(harness: Harness, case: Case) -> None:
    ctx = context(harness, case)
    answer = Message("assistant", "It is ¥169 today.")
    generate, seen = scripted([load("price_promotion"), answer])
    run = run_agent(ctx, [Message("user", case.message)], generate, seed=1)
    body = skill_body(harness.skill("price_promotion"))
    system = seen[0][0].content
    assert "`price_promotion` (reply)" in system and body not in system  # listed, not loaded
    tool = seen[1][-1]
    assert tool.role == "tool" and tool.function == "load_skill" and tool.content == body
    assert CallRecord.from_dict(tool.metadata[TRACE_KEY]).skill_type == "reply"  # type: ignore[index]
    assert run.answer is answer and [r.function for r in run.records] == [SKILL_LOADER]


def test_results_in_a_user_message_carry_the_body_too(harness: Harness, case: Case) -> None:
    data = harness_to_dict(harness)
    data["hooks"]["messages"] = {**data["hooks"]["messages"], "tool_result_role": "user"}
    h = parse_harness(data)
    generate, seen = scripted([load("engagement"), Message("assistant", "Hi!")])
    run_agent(context(h, case), [Message("user", "hi")], generate, seed=1)
    assert seen[1][-1].role == "user" and skill_body(h.skill("engagement")) in seen[1][-1].content


def records(*loads: tuple[str, str], extra: Sequence[CallRecord] = ()) -> list[CallRecord]:
    out = [
        CallRecord("load_skill", SKILL_LOADER, {"skill_id": s}, "ok", skill_type=t)
        for s, t in loads
    ]
    return [*out, *extra]


def test_skill_selection_is_read_from_loads(harness: Harness, case: Case) -> None:
    gold = gold_for(case, HarnessRef(PROGRESSIVE, harness_sha256(PROGRESSIVE)))
    assert gold.tools[SKILL_LOADER] == "load_skill" and gold.skill == "price_promotion"
    kb = knowledge_base(0)

    def skill(answer: str, recs: list[CallRecord]) -> float:
        return check_answer(case, gold, answer, recs, None, kb).parts["skill"]

    right, wrong = ("price_promotion", "reply"), ("stock_size", "reply")
    assert skill("It is ¥169.", records(right)) == 1.0
    assert skill("[skill: stock_size] It is ¥169.", records(right)) == 1.0  # the tag is ignored
    assert skill("[skill: price_promotion] It is ¥169.", []) == 0.0  # nothing loaded
    assert skill("It is ¥169.", records(wrong)) == 0.0
    assert skill("It is ¥169.", records(wrong, right)) == 0.0  # every reply skill loaded counts
    assert skill("It is ¥169.", records(right, right)) == 1.0
    assert skill("It is ¥169.", records(("stock_size", "strategy"), right)) == 1.0
    failed = CallRecord("load_skill", SKILL_LOADER, {"skill_id": "x"}, "input_error")
    assert skill("It is ¥169.", [failed, *records(right)]) == 1.0
    assert skill("It is ¥169.", [failed]) == 0.0
    reason = check_answer(case, gold, "x", records(wrong), None, kb).reasons["skill"]
    assert reason == "reply skills loaded ['stock_size'], expected 'price_promotion'"


def test_loads_are_not_world_calls(harness: Harness, case: Case) -> None:
    """The tool part and the tool-call limit see the same calls with or without the loads."""
    gold = gold_for(case, HarnessRef(PROGRESSIVE, harness_sha256(PROGRESSIVE)))
    rt = ToolRuntime(harness, knowledge_base(0), case.session)
    for c in case.required_calls:
        rt.call(gold.tools[c.function], dict(c.args))
    world = list(rt.records)
    answer = "It is ¥169 today."
    plain = check_answer(case, gold, answer, world, None, knowledge_base(0))
    loads = records(*[("price_promotion", "reply")] * 6)  # more loads than max_tool_calls
    loaded = check_answer(case, gold, answer, [*loads, *world], None, knowledge_base(0))
    assert "max_tool_calls" in case.constraints and plain.parts["tools"] == 1.0
    assert {**loaded.parts, "skill": 0.0} == plain.parts  # counted, the loads would cost both
    assert loaded.parts["skill"] == 1.0 and plain.parts["skill"] == 0.0


def test_inline_gold_scores_the_tag_as_before(case: Case) -> None:
    gold = gold_for(case, HarnessRef(None, harness_sha256(None)))
    assert SKILL_LOADER not in gold.tools
    kb = knowledge_base(0)
    tagged = check_answer(case, gold, "[skill: price_promotion] It is ¥169.", [], None, kb)
    assert tagged.parts["skill"] == 1.0
    assert tagged.reasons.get("skill") is None
    untagged = check_answer(case, gold, "It is ¥169.", records(("price_promotion", "reply")))
    assert untagged.parts["skill"] == 0.0
    assert untagged.reasons["skill"] == "skill tag None, expected 'price_promotion'"
    assert replace(gold, tools={}) == Gold(gold.skill, gold.skills, gold.constraints)
