"""``hat/oracle``, the instrument's ceiling: the gold played back through each case suite.

The oracle makes each case's required calls under the names in force and answers with the
world's reference answer tagged with the skill in force, so it must score near the top wherever
the checks decide. The aggregate is asserted at 95 or more, not 100: the checks are still being
refined, and ``bench/oracle_losses.py`` lists the samples where the oracle loses.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog, EvalSample
from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageTool,
    ChatMessageUser,
    get_model,
)
from inspect_ai.tool import ToolCall

import hat_eval._registry  # noqa: F401  (registers the hat/ models)
from hat_eval._aio import run_blocking
from hat_eval.baselines import OraclePolicy, ReferencePolicy
from hat_eval.baselines._oracle import NoSampleError, faulted_calls
from hat_eval.baselines._provider import HAT_MODELS, hat_model
from hat_eval.episode import TRACE_KEY, base_harness, records_in
from hat_eval.suites import episode_of, suite_task

SUITES = ("livestream", "variant", "robustness")
N = 30


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, EvalLog]:
    """One oracle run over the first ``N`` cases of each case suite."""
    out = inspect_eval(
        [suite_task(s, n=N) for s in SUITES],
        model="hat/oracle",
        display="none",
        log_dir=str(tmp_path_factory.mktemp("oracle")),
        max_connections=100,
    )
    assert [log.status for log in out] == ["success"] * len(SUITES)
    return dict(zip(SUITES, out, strict=True))


def _values(sample: EvalSample) -> dict[str, Any]:
    value = next(iter((sample.scores or {}).values())).value
    assert isinstance(value, dict)
    return value


@pytest.mark.parametrize("suite", SUITES)
def test_the_oracle_scores_near_the_top_where_the_checks_decide(
    suite: str, logs: dict[str, EvalLog]
) -> None:
    samples = logs[suite].samples or []
    assert len(samples) == N
    decided = [_values(s)["aggregate"] for s in samples if not math.isnan(_values(s)["aggregate"])]
    assert len(decided) >= N * 0.8  # chit-chat is undecided by design; the rest is decided
    assert sum(decided) / len(decided) >= 95, decided


@pytest.mark.parametrize("suite", SUITES)
def test_the_oracle_plays_the_gold_under_the_harness_in_force(
    suite: str, logs: dict[str, EvalLog]
) -> None:
    for sample in logs[suite].samples or []:
        episode = episode_of(sample.id, sample.metadata, sample.target)  # type: ignore[arg-type]
        turns = [m for m in sample.messages if isinstance(m, ChatMessageAssistant)]
        first = [c.function for c in turns[0].tool_calls or []]
        required = [episode.gold.tools[c.function] for c in episode.case.required_calls]
        assert first == required, sample.id
        tag = f"[skill: {episode.gold.skill}] " if episode.gold.skill else ""
        assert turns[-1].text.startswith(tag) and not turns[-1].tool_calls, sample.id


def test_on_variant_the_oracle_calls_the_renamed_tools(logs: dict[str, EvalLog]) -> None:
    default = {t.function: t.name for t in base_harness().tools}
    renamed = 0
    for sample in logs["variant"].samples or []:
        episode = episode_of(sample.id, sample.metadata, sample.target)  # type: ignore[arg-type]
        function_of = {name: fn for fn, name in episode.gold.tools.items()}
        calls = [
            c
            for m in sample.messages
            if isinstance(m, ChatMessageAssistant)
            for c in m.tool_calls or []
        ]
        for call in calls:
            assert call.function in function_of, (sample.id, call.function)
            renamed += call.function != default[function_of[call.function]]
        assert all(r.outcome != "unknown_tool" for r in records_in(sample.messages)), sample.id
    assert renamed > 0  # the variants rename tools, and the oracle follows them


def test_on_robustness_the_oracle_retries_until_the_fault_passes(
    logs: dict[str, EvalLog],
) -> None:
    visible = [s for s in logs["robustness"].samples or [] if _values(s).get("fault_visible") == 1]
    assert visible  # some faults reach the agent in the first cases
    for sample in visible:
        assert _values(sample)["recovery"] == 1.0, sample.id


def _tool(call_id: str, outcome: str) -> ChatMessageTool:
    return ChatMessageTool(
        content="...",
        tool_call_id=call_id,
        function="f",
        metadata={TRACE_KEY: {"outcome": outcome}},
    )


def test_faulted_calls_repeats_only_the_calls_whose_fault_reached_the_agent() -> None:
    a = ToolCall(id="call_0", function="check_stock", arguments={"product_id": "P1"})
    b = ToolCall(id="call_1", function="shipping", arguments={"product_id": "P1"})
    first: list[ChatMessage] = [
        ChatMessageUser(content="in stock?"),
        ChatMessageAssistant(content="", tool_calls=[a, b]),
        _tool("call_0", "fault:timeout"),
        _tool("call_1", "ok"),
    ]
    (again,) = faulted_calls(first)
    assert (again.id, again.function, again.arguments) == ("call_2", a.function, a.arguments)
    second: list[ChatMessage] = [
        *first,
        ChatMessageAssistant(content="", tool_calls=[again]),
        _tool("call_2", "ok"),
    ]
    assert faulted_calls(second) == []
    assert faulted_calls(first, retries=0) == []


def test_the_hat_models_are_one_provider() -> None:
    assert set(HAT_MODELS) == {"reference", "memorized", "oracle"}
    assert isinstance(get_model("hat/oracle").api, OraclePolicy)
    assert isinstance(get_model("hat/reference").api, ReferencePolicy)
    with pytest.raises(ValueError, match="hat/reference, hat/memorized, hat/oracle"):
        hat_model("gpt")
    with pytest.raises(ValueError, match="expected hat/oracle"):
        OraclePolicy("reference")


def test_the_oracle_outside_a_sample_says_how_to_run_it() -> None:
    model = get_model("hat/oracle")
    with pytest.raises(NoSampleError, match="hat-eval run --suite livestream --model hat/oracle"):
        run_blocking(model.generate("hello"))  # not asyncio.run: see hat_eval._aio
