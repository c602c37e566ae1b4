"""A tool call whose text did not parse goes back to the model as its parse error."""

from __future__ import annotations

import pytest
from inspect_ai.model import ChatMessageAssistant
from inspect_ai.tool import ToolCall as InspectToolCall

from hat_eval.episode import (
    TRACE_KEY,
    CallRecord,
    Episode,
    EpisodeContext,
    Message,
    ToolCall,
    episode_context,
    run_agent,
)
from hat_eval.episode._checks import tool_rationality
from hat_eval.suites import suite_episodes
from hat_eval.suites._agent import _InspectChat
from tests.episode._helpers import scripted

ERROR = "Error parsing the following tool call arguments:\n\n{'product_id': \n\nExpecting value"


@pytest.fixture(scope="module")
def episode() -> Episode:
    (episode,) = suite_episodes("livestream", split="test", n=1)
    return episode


@pytest.fixture(scope="module")
def episode_ctx(episode: Episode) -> EpisodeContext:
    return episode_context(episode)


def test_the_model_reads_the_parse_error_and_no_unexpected_call_is_counted(
    episode: Episode, episode_ctx: EpisodeContext
) -> None:
    bad = ToolCall("unknown", "unknown", {}, parse_error=ERROR)
    answer = Message("assistant", "Let me check again.")
    generate, seen = scripted([Message("assistant", "", tool_calls=(bad,)), answer])
    run = run_agent(episode_ctx, [Message("user", "in stock?")], generate, seed=1)
    tool = run.messages[3]
    assert tool.role == "tool" and tool.tool_call_id == "unknown"
    assert "your tool call could not be parsed, so it was not run" in tool.content
    assert "Expecting value" in tool.content and "no tool called" not in tool.content
    record = CallRecord.from_dict(tool.metadata[TRACE_KEY])  # type: ignore[index]
    assert record.outcome == "parse_error" and record.function is None
    assert run.records == [record]
    # the model's next turn saw the error
    assert seen[1][-1] is tool
    rationality = tool_rationality(episode.case.expected_calls, run.records)
    assert rationality["unexpected"] == 0.0


def test_an_unknown_tool_name_that_parsed_is_still_an_unexpected_call(
    episode: Episode, episode_ctx: EpisodeContext
) -> None:
    call = ToolCall("c1", "no_such_tool", {})
    generate, _ = scripted(
        [Message("assistant", "", tool_calls=(call,)), Message("assistant", "x")]
    )
    run = run_agent(episode_ctx, [Message("user", "?")], generate, seed=1)
    assert run.records[0].outcome == "unknown_tool"
    assert "there is no tool called 'no_such_tool'" in run.messages[3].content
    assert tool_rationality(episode.case.expected_calls, run.records)["unexpected"] == 1.0


def test_inspect_parse_errors_reach_the_loop() -> None:
    reply = ChatMessageAssistant(
        content="",
        tool_calls=[
            InspectToolCall(id="unknown", function="unknown", arguments={}, parse_error=ERROR)
        ],
    )
    (call,) = _InspectChat.plain(reply).tool_calls
    assert call.parse_error == ERROR and call.function == "unknown"
