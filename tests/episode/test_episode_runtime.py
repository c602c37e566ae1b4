from __future__ import annotations

import json

import pytest

from hat_eval.episode import ToolRuntime
from hat_eval.harness._load import harness_to_dict, parse_harness
from hat_eval.world import FaultPlan, build_kb, generate_cases


@pytest.fixture(scope="module")
def world():  # type: ignore[no-untyped-def]
    kb = build_kb(0)
    case = next(
        c for c in generate_cases(kb, split="test", n=50, seed=3) if c.intent == "stock_size"
    )
    return kb, case


def _harness(default_harness, **hooks):  # type: ignore[no-untyped-def]
    d = harness_to_dict(default_harness)
    for section, values in hooks.items():
        d["hooks"][section].update(values)
    return parse_harness(d)


def test_calls_resolve_through_renamed_tools(default_harness, world) -> None:
    kb, case = world
    d = harness_to_dict(default_harness)
    d["tools"][2]["name"] = "inventory_probe_v2"
    rt = ToolRuntime(parse_harness(d), kb, case.session)
    text, err = rt.call("inventory_probe_v2", {"product_id": case.session.product_on_screen})
    assert not err
    assert json.loads(text)["product_id"] == case.session.product_on_screen
    text, err = rt.call("check_stock", {"product_id": case.session.product_on_screen})
    assert err and "no tool called 'check_stock'" in text
    assert [r.outcome for r in rt.records] == ["ok", "unknown_tool"]
    assert rt.records[0].function == "inventory.check_stock"


def test_bad_arguments_come_back_as_errors(default_harness, world) -> None:
    kb, case = world
    rt = ToolRuntime(default_harness, kb, case.session)
    text, err = rt.call("check_stock", {"product_id": "P9999"})
    assert err and text.startswith("Tool error (input_error): ")
    assert rt.records[0].outcome == "input_error"


@pytest.mark.parametrize(
    ("retries", "times", "outcome", "attempts"),
    [(2, 1, "ok", 2), (2, 2, "ok", 3), (1, 2, "fault:timeout", 2), (0, 1, "fault:timeout", 1)],
)
def test_retry_policy_decides_recovery(
    default_harness, world, retries: int, times: int, outcome: str, attempts: int
) -> None:
    kb, case = world
    h = _harness(
        default_harness, retry={"max_retries": retries, "backoff_s": 0.5, "backoff_multiplier": 2.0}
    )
    fault = FaultPlan("timeout", "inventory.check_stock", times=times)
    rt = ToolRuntime(h, kb, case.session, fault=fault)
    text, err = rt.call("check_stock", {"product_id": case.session.product_on_screen})
    r = rt.records[0]
    assert (r.outcome, r.attempts) == (outcome, attempts)
    assert r.faults == ["timeout"] * min(times, attempts)
    assert err == (outcome != "ok")
    if outcome == "ok":
        assert r.backoff_s == pytest.approx(sum(0.5 * 2**i for i in range(attempts - 1)))
    else:
        assert "timeout" in text
        # the agent itself can call again: the fault has passed by then
        if times <= attempts:
            again, err2 = rt.call("check_stock", {"product_id": case.session.product_on_screen})
            assert not err2


def test_malformed_is_retried_only_when_the_hooks_say_so(default_harness, world) -> None:
    kb, case = world
    fault = FaultPlan("malformed", "inventory.check_stock", times=1)
    args = {"product_id": case.session.product_on_screen}
    plain = ToolRuntime(default_harness, kb, case.session, fault=fault)
    _, err = plain.call("check_stock", args)
    assert err and plain.records[0].outcome == "fault:malformed"
    h = _harness(default_harness, retry={"retry_on": ["timeout", "server_error", "malformed"]})
    retrying = ToolRuntime(h, kb, case.session, fault=fault)
    _, err = retrying.call("check_stock", args)
    assert not err and retrying.records[0].attempts == 2


@pytest.mark.parametrize("fmt", ["json", "text", "xml"])
def test_message_structure_wraps_results(default_harness, world, fmt: str) -> None:
    kb, case = world
    h = _harness(
        default_harness,
        messages={
            "result_format": fmt,
            "result_prefix": "Observation:",
            "error_template": "[{kind}] {message}",
        },
    )
    rt = ToolRuntime(h, kb, case.session)
    text, _ = rt.call("check_stock", {"product_id": case.session.product_on_screen})
    assert text.startswith("Observation: ")
    body = text.removeprefix("Observation: ")
    if fmt == "json":
        assert json.loads(body)["product_id"] == case.session.product_on_screen
    elif fmt == "xml":
        assert body.startswith('<tool_result name="check_stock">{')
    else:
        assert f"product_id: {case.session.product_on_screen}" in body
    err, is_err = rt.call("check_stock", {"product_id": "nope"})
    assert is_err and err.startswith("[input_error] ")


def test_react_records_attach_to_the_tool_message_of_their_call() -> None:
    from inspect_ai.model import ChatMessageAssistant, ChatMessageTool
    from inspect_ai.tool import ToolCall

    from hat_eval.episode import TRACE_KEY, CallRecord, records_in
    from hat_eval.suites._agent import _attach_records

    calls = [
        ToolCall(id="a", function="check_stock", arguments={"product_id": "P1"}),
        ToolCall(id="b", function="check_stock", arguments={"product_id": "P2"}),
    ]
    messages = [
        ChatMessageAssistant(content="", tool_calls=calls),
        ChatMessageTool(content="2 left", tool_call_id="b", function="check_stock"),
        ChatMessageTool(content="none", tool_call_id="a", function="check_stock"),
    ]
    records = [
        CallRecord("check_stock", "inventory.check_stock", {"product_id": "P1"}, "ok"),
        CallRecord("check_stock", "inventory.check_stock", {"product_id": "P2"}, "ok"),
    ]
    _attach_records(messages, records)  # type: ignore[arg-type]
    assert messages[1].metadata[TRACE_KEY]["arguments"] == {"product_id": "P2"}  # type: ignore[index]
    assert messages[2].metadata[TRACE_KEY]["arguments"] == {"product_id": "P1"}  # type: ignore[index]
    assert records_in(messages) == [records[1], records[0]]  # typed, in message order
