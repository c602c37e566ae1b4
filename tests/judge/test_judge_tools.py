"""The judge as an agent: its read-only knowledge-base tools, bounded tool turns and claims."""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Callable
from typing import Any

import pytest
from _helpers import DIMS, judge_answer, output, ratings_json, run_async
from _helpers import grader as scripted
from inspect_ai.model import (
    ChatMessage,
    ChatMessageTool,
    GenerateConfig,
    ModelOutput,
)
from inspect_ai.scorer import Score
from inspect_ai.tool import ToolInfo

from hat_eval.episode import Episode, episode_context, knowledge_base
from hat_eval.harness import load_harness
from hat_eval.judge import agent_judge, load_rubric
from hat_eval.judge._judge_cache import cache_key
from hat_eval.judge._rubric import JudgeOutputError, parse_judgement
from hat_eval.judge._tools import READ_ONLY_FUNCTIONS, kb_tools
from hat_eval.world import call_function

Reply = Callable[[list[ChatMessage], list[ToolInfo], Any, GenerateConfig], ModelOutput]


def reply(score: int = 4, claims: list[dict[str, Any]] | None = None) -> ModelOutput:
    return output(ratings_json(score, claims=claims))


def call(tool: str, **args: Any) -> ModelOutput:
    return ModelOutput.for_tool_call("mockllm/model", tool, args)


def sku_of(episode: Episode) -> str:
    (priced,) = [c for c in episode.case.expected_calls if c.function == "pricing.final_price"]
    return str(priced.args["sku"])


def run_judge(scorer: Any, episode: Episode, answer: str = "[skill: price] 188.91 yuan") -> Score:
    return judge_answer(scorer, episode, answer)


class LookThenRate:
    """Turn 1: look up the final price and the product; turn 2: rate, citing the lookup."""

    def __init__(self, sku: str, product: str) -> None:
        self.sku, self.product = sku, product
        self.seen: list[list[ChatMessage]] = []
        self.tools: list[list[str]] = []
        self.choices: list[Any] = []

    def __call__(
        self, input: list[ChatMessage], tools: list[ToolInfo], choice: Any, config: GenerateConfig
    ) -> ModelOutput:
        self.seen.append(list(input))
        self.tools.append([t.name for t in tools])
        self.choices.append(choice)
        if len(self.seen) == 1:
            first = call("calculate_final_price", sku=self.sku)
            second = call("get_product_details", product_id=self.product)
            assert first.message.tool_calls and second.message.tool_calls
            first.message.tool_calls += second.message.tool_calls
            return first
        results = [m for m in input if isinstance(m, ChatMessageTool)]
        price = json.loads(results[0].text)["final_price"]
        claims = [
            {"claim": f"costs {price}", "verdict": "supported", "evidence": "pricing.final_price"},
            {"claim": "ships today", "verdict": "unverifiable", "evidence": None},
            {"claim": "free gift", "verdict": "contradicted", "evidence": "calculate_final_price"},
        ]
        return reply(4, claims)


def test_tools_are_the_read_only_lookups_under_the_harness_names(episode: Episode) -> None:
    tools = kb_tools(episode)
    harness = load_harness(None)
    expected = [harness.tool_for(f) for f in READ_ONLY_FUNCTIONS]
    assert [t.name for t in tools.tools] == [t.name for t in expected if t is not None]
    assert "escalate_to_human" not in tools.names  # acting, not looking up
    assert tools.names["pricing.final_price"] == tools.names["calculate_final_price"]


def test_grader_calls_run_against_the_episode_kb_and_reach_it(episode: Episode) -> None:
    other_world = dataclasses.replace(episode, kb_seed=1)  # same case, another knowledge base
    product = episode.case.session.product_on_screen
    for ep in (episode, other_world):
        grader = LookThenRate(sku_of(ep), product)
        result = run_judge(agent_judge(model=scripted(grader)), ep)
        ctx = episode_context(ep)
        expected = call_function(ctx.kb, ctx.session, "pricing.final_price", {"sku": sku_of(ep)})
        results = [m for m in grader.seen[1] if isinstance(m, ChatMessageTool)]
        assert [m.function for m in results] == ["calculate_final_price", "get_product_details"]
        assert json.loads(results[0].text) == expected
        assert json.loads(results[1].text)["name"] == ctx.kb.product(product)["name"]  # type: ignore[index]
        assert ctx.kb is knowledge_base(ep.kb_seed)
        # the grader was offered the tools while it had turns left
        assert "calculate_final_price" in grader.tools[0] and grader.choices[0] == "auto"
        md = result.metadata or {}
        assert md["judge"]["tool_calls"] == 2 and md["judge"]["calls"] == 2
        assert md["judge"]["mode"] == "agent" and md["judge"]["total_tokens"] > 0
        assert [c["function"] for c in md["judge_tool_calls"]] == [
            "pricing.final_price",
            "catalog.get_product",
        ]
        assert md["claims"][0][0] == {
            "claim": f"costs {expected['final_price']}",  # type: ignore[call-overload]
            "verdict": "supported",
            "evidence": "calculate_final_price",  # a function id is normalised to the tool name
        }
        assert md["claim_counts"] == {"supported": 1, "contradicted": 1, "unverifiable": 1}
        assert isinstance(result.value, dict) and result.value["factual_accuracy"] == 4.0
        assert json.loads(json.dumps(md)) == md  # the log can hold it as it is
    # the two worlds differ, so the results above came from each episode's own kb
    prices = [
        call_function(
            knowledge_base(s), episode.case.session, "catalog.get_product", {"product_id": product}
        )
        for s in (0, 1)
    ]
    assert prices[0] != prices[1]


def test_tools_do_not_change_the_world(episode: Episode) -> None:
    kb = episode_context(episode).kb
    before = list(kb.iterdump())
    tools = kb_tools(episode)
    sku = sku_of(episode)
    product = episode.case.session.product_on_screen
    calls = {
        "get_live_session": {},
        "search_products": {"query": "diapers"},
        "get_product_details": {"product_id": product},
        "check_stock": {"product_id": product},
        "calculate_final_price": {"sku": sku, "quantity": 3},
        "get_shipping_policy": {"product_id": product},
        "check_claim": {"product_id": product, "claim": "the best diaper ever"},
    }
    assert set(calls) == {t.name for t in tools.tools}
    for tool in tools.tools:
        text = run_async(tool.tool(**calls[tool.name]))
        assert json.loads(text)
    assert list(kb.iterdump()) == before
    assert [c.tool for c in tools.calls] == [t.name for t in tools.tools]


def test_a_bad_tool_call_shows_the_world_error(episode: Episode) -> None:
    seen: list[list[ChatMessage]] = []

    def grader(input: list[ChatMessage], *_: Any) -> ModelOutput:
        seen.append(list(input))
        if len(seen) == 1:
            return call("calculate_final_price", sku="NOPE-1")
        return reply(2, [])

    result = run_judge(agent_judge(model=scripted(grader)), episode)
    (tool_message,) = [m for m in seen[1] if isinstance(m, ChatMessageTool)]
    assert tool_message.error is not None and "NOPE-1" in tool_message.error.message
    (record,) = (result.metadata or {})["judge_tool_calls"]
    assert record["arguments"] == {"sku": "NOPE-1"} and "NOPE-1" in record["error"]


def test_tool_turns_are_bounded(episode: Episode) -> None:
    choices: list[Any] = []

    def polite(input: list[ChatMessage], tools: Any, choice: Any, _: Any) -> ModelOutput:
        choices.append(choice)
        if choice == "none":
            return reply(3, [])
        return call("get_live_session")

    result = run_judge(agent_judge(model=scripted(polite), max_tool_turns=2), episode)
    assert choices == ["auto", "auto", "none"]
    md = result.metadata or {}
    assert md["judge"]["tool_calls"] == 2 and md["judge"]["calls"] == 3
    assert isinstance(result.value, dict) and result.value["compliance"] == 3.0

    def stubborn(*_: Any) -> ModelOutput:  # keeps calling tools after its turns are spent
        return call("get_live_session")

    failed = run_judge(agent_judge(model=scripted(stubborn), max_tool_turns=1, retries=1), episode)
    md = failed.metadata or {}
    assert md["judge"]["tool_calls"] == 1 and md["judge"]["calls"] == 3
    assert "a tool call after the tool turns (1) were spent" in md["judge_error"]
    assert isinstance(failed.value, dict) and all(math.isnan(v) for v in failed.value.values())


def test_agent_mode_asks_for_claims_and_names_the_tools(episode: Episode) -> None:
    prompts: list[str] = []

    def grader(input: list[ChatMessage], *_: Any) -> ModelOutput:
        prompts.append(input[0].text)
        return reply(4, [])

    answer = "[skill: price] A good price today."
    run_judge(agent_judge(model=scripted(grader)), episode, answer)
    run_judge(agent_judge(model=scripted(grader), mode="lookups"), episode, answer)
    agent, shown = prompts
    assert "calculate_final_price" in agent and '"claims"' in agent
    assert '"required":["ratings","claims"]' in agent
    # no precomputed price in agent mode: the grader has to look it up
    assert "188.91" not in agent and "188.91" in shown
    assert "calculate_final_price" not in shown and '"required":["ratings"]' in shown


def test_missing_claims_are_retried_then_recorded(episode: Episode) -> None:
    seen: list[list[ChatMessage]] = []

    def grader(input: list[ChatMessage], *_: Any) -> ModelOutput:
        seen.append(list(input))
        return reply(5) if len(seen) < 3 else reply(5, [])

    ok = run_judge(agent_judge(model=scripted(grader)), episode)
    assert "field claims is missing" in seen[1][-1].text
    assert (ok.metadata or {})["judge"]["calls"] == 3 and "judge_error" not in (ok.metadata or {})

    always_bad = ["no json", reply(5).completion, '{"ratings": {}}']
    outputs = [ModelOutput.from_content("mockllm/model", t) for t in always_bad]
    bad_grader = scripted(outputs)
    failed = run_judge(agent_judge(model=bad_grader, retries=2), episode)
    md = failed.metadata or {}
    assert md["judge"]["calls"] == 3
    assert "no valid reply in 3 attempts" in md["judge_error"]
    assert "missing" in md["judge_error"]  # the last error: '{"ratings": {}}' lacks dimensions
    assert isinstance(failed.value, dict) and all(math.isnan(v) for v in failed.value.values())


def test_claims_must_cite_a_tool_the_grader_had() -> None:
    tools = {"calculate_final_price": "calculate_final_price"}
    text = reply(4, [{"claim": "x", "verdict": "supported", "evidence": "web_search"}]).completion
    with pytest.raises(JudgeOutputError, match="cites evidence 'web_search'"):
        parse_judgement(text, DIMS, claims_required=True, tools=tools)
    undecided = reply(4, [{"claim": "x", "verdict": "unverifiable"}]).completion
    assert parse_judgement(undecided, DIMS, tools=tools).claims == [
        parse_judgement(undecided, DIMS).claims[0]  # type: ignore[index]
    ]
    bad_verdict = reply(4, [{"claim": "x", "verdict": "probably"}]).completion
    with pytest.raises(JudgeOutputError, match="claims.0.verdict"):
        parse_judgement(bad_verdict, DIMS)
    # the first version's replies (no claims) still parse outside agent mode
    assert parse_judgement(reply(4).completion, DIMS).claims is None


def test_modes_do_not_share_cache_entries() -> None:
    rubric = load_rubric()
    lookups_key = cache_key(rubric, "a", "c", "m", "g", 1)
    assert cache_key(rubric, "a", "c", "m", "g", 1, "lookups") == lookups_key
    assert cache_key(rubric, "a", "c", "m", "g", 1, "agent") != lookups_key
    assert cache_key(rubric, "a", "c", "m", "g", 1, "agent", 2) != cache_key(
        rubric, "a", "c", "m", "g", 1, "agent", 3
    )


def test_bad_settings_name_the_fix() -> None:
    with pytest.raises(ValueError, match="mode 'tools' is not one of agent, lookups"):
        agent_judge(mode="tools")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"max_tool_turns \(0\) must be at least 1"):
        agent_judge(max_tool_turns=0)
    agent_judge(mode="lookups", max_tool_turns=0)  # no tools: no turns needed
