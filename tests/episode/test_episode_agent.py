"""The transport-free agent loop: turns, tool calls through the runtime, hooks' message shape."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import replace

import pytest

from hat_eval.episode import (
    TRACE_KEY,
    CallRecord,
    EpisodeContext,
    Message,
    ToolCall,
    ToolRuntime,
    episode_context,
    run_agent,
    run_agent_async,
    stable_seed,
)
from hat_eval.episode._agent import harness_prompt, live_context
from hat_eval.harness import Tool
from hat_eval.harness._load import harness_to_dict, parse_harness
from hat_eval.suites import suite_episodes
from tests.episode._helpers import scripted


@pytest.fixture(scope="module")
def episode_ctx() -> tuple[str, EpisodeContext]:
    (episode,) = suite_episodes("livestream", split="test", n=1)
    return episode.id, episode_context(episode)


def stock_call(ctx: EpisodeContext, i: int = 0) -> ToolCall:
    tool = next(t for t in ctx.harness.tools if t.function == "inventory.check_stock")
    return ToolCall(f"c{i}", tool.name, {"product_id": ctx.session.product_on_screen})


def test_a_tool_turn_then_an_answer(episode_ctx: tuple[str, EpisodeContext]) -> None:
    eid, ctx = episode_ctx
    call = stock_call(ctx)
    answer = Message("assistant", "In stock!")
    generate, seen = scripted([Message("assistant", "", tool_calls=(call,)), answer])
    viewer = Message("user", "is it in stock?")
    run = run_agent(ctx, [viewer], generate, seed=stable_seed(eid))
    expected, _ = ToolRuntime(
        ctx.harness, ctx.kb, ctx.session, fault=ctx.fault, seed=stable_seed(eid)
    ).call(call.function, call.arguments)
    system, user, assistant, tool, final = run.messages
    assert system == Message(
        "system", harness_prompt(ctx.harness) + "\n\n" + live_context(ctx.session, ctx.kb)
    )
    assert user is viewer and final is answer and run.answer is answer
    assert tool.role == "tool" and tool.content == expected
    assert (tool.tool_call_id, tool.function) == (call.id, call.function)
    record = CallRecord.from_dict(tool.metadata[TRACE_KEY])  # type: ignore[index]
    assert record == run.records[0] and record.function == "inventory.check_stock"
    assert run.turns == 2 and run.answered and len(run.tool_s) == 1
    # the model saw the transcript as it stood at each turn
    assert [len(m) for m in seen] == [2, 4]


def test_results_in_a_user_message_when_the_hooks_say_so(
    episode_ctx: tuple[str, EpisodeContext],
) -> None:
    eid, ctx = episode_ctx
    d = harness_to_dict(ctx.harness)
    d["hooks"]["messages"]["tool_result_role"] = "user"
    user_ctx = replace(ctx, harness=parse_harness(d))
    calls = (stock_call(user_ctx, 0), stock_call(user_ctx, 1))
    generate, _ = scripted([Message("assistant", "", tool_calls=calls), Message("assistant", "ok")])
    run = run_agent(user_ctx, [Message("user", "stock?")], generate, seed=stable_seed(eid))
    roles = [m.role for m in run.messages]
    assert roles == ["system", "user", "assistant", "tool", "tool", "user", "assistant"]
    acks, results = run.messages[3:5], run.messages[5]
    assert [m.content for m in acks] == ["(result in the next message)"] * 2
    assert [m.tool_call_id for m in acks] == ["c0", "c1"]
    assert all(TRACE_KEY in (m.metadata or {}) for m in acks)
    parts = results.content.split("\n\n")
    assert len(parts) == 2 and all(p.startswith(f"{calls[0].function}: ") for p in parts)


def test_max_turns_ends_a_run_without_an_answer(episode_ctx: tuple[str, EpisodeContext]) -> None:
    eid, ctx = episode_ctx
    replies = [Message("assistant", "", tool_calls=(stock_call(ctx, i),)) for i in range(3)]
    generate, seen = scripted(replies)
    run = run_agent(ctx, [Message("user", "?")], generate, seed=stable_seed(eid), max_turns=3)
    assert run.turns == 3 and not run.answered and run.answer is None
    assert len(seen) == 3 and len(run.records) == 3 and run.messages[-1].role == "tool"


def test_sync_and_async_drivers_and_the_executor_agree(
    episode_ctx: tuple[str, EpisodeContext],
) -> None:
    eid, ctx = episode_ctx
    replies = [
        Message("assistant", "", tool_calls=(stock_call(ctx),)),
        Message("assistant", "done"),
    ]
    generate, _ = scripted(replies)
    ran: list[int] = []

    def execute(fn):  # type: ignore[no-untyped-def]
        ran.append(1)
        return fn()

    sync = run_agent(ctx, [Message("user", "?")], generate, seed=1, execute=execute)

    async def agenerate(messages: Sequence[Message], tools: Sequence[Tool]) -> Message:
        return replies[sum(m.role == "assistant" for m in messages)]

    run = asyncio.run(run_agent_async(ctx, [Message("user", "?")], agenerate, seed=1))
    assert run.messages == sync.messages and ran == [1]


def test_a_transport_error_propagates(episode_ctx: tuple[str, EpisodeContext]) -> None:
    _, ctx = episode_ctx

    def generate(messages: Sequence[Message], tools: Sequence[Tool]) -> Message:
        raise ConnectionError("down")

    with pytest.raises(ConnectionError, match="down"):
        run_agent(ctx, [Message("user", "?")], generate, seed=0)
