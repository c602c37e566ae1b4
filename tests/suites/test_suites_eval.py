"""End-to-end runs of the suites through Inspect: reference policy, scripted mockllm, ReAct."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.model import ModelOutput, get_model

import hat_eval._registry  # noqa: F401  (registers hat/reference)
from hat_eval.episode import dataset_sha256, records_in
from hat_eval.suites import suite_task
from hat_eval.suites._recipes import suite_rows


def _metrics(log) -> dict[str, float]:  # type: ignore[no-untyped-def]
    (score,) = log.results.scores
    return {name: m.value for name, m in score.metrics.items()}


@pytest.mark.parametrize("suite", ["livestream", "variant", "robustness"])
def test_reference_policy_scores_above_zero_everywhere(suite: str, tmp_path: Path) -> None:
    (log,) = eval(
        suite_task(suite, n=40), model="hat/reference", log_dir=str(tmp_path), display="none"
    )
    assert log.status == "success"
    metrics = _metrics(log)
    expected = {"aggregate", "accuracy", "safety", "tools", "skill", "constraints"}
    assert expected <= set(metrics)
    for name in expected:
        assert metrics[name] > 0, (name, metrics)
    assert 20 < metrics["aggregate"] < 100  # real scores: neither trivial nor perfect
    assert log.eval.metadata["dataset_sha256"] == dataset_sha256(suite_rows(suite, n=40))
    assert log.eval.metadata["cases"] == 40
    if suite == "robustness":
        assert 0 < metrics["recovery"] <= 1
        assert any(k.startswith("recovery_per_fault_") for k in metrics)
        assert any(k.startswith("per_perturbation_") for k in metrics)


def test_task_file_runs_through_inspect_eval(
    tmp_path: Path, repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(repo)
    (log,) = eval(
        "suites/variant.py",
        model="hat/reference",
        task_args={"n": 5},
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success" and log.eval.task.endswith("variant")
    metrics = _metrics(log)
    for prefix in ("per_dims_", "per_intent_", "per_dimension_", "per_held_out_"):
        assert any(k.startswith(prefix) for k in metrics), prefix


def test_harness_agent_uses_the_variant_names_and_hooks(tmp_path: Path) -> None:
    rows = suite_rows("variant", n=200)
    row = next(
        r
        for r in rows
        if r["metadata"]["intent"] == "stock_size"
        and r["metadata"]["gold"]["tools"]["inventory.check_stock"] != "check_stock"
    )
    task = suite_task("variant", n=200)
    task.dataset = task.dataset.filter(lambda s: s.id == row["id"])
    tool = row["metadata"]["gold"]["tools"]["inventory.check_stock"]
    pid = row["metadata"]["case"]["session"]["product_on_screen"]
    skill = row["metadata"]["gold"]["skill"]
    model = get_model(
        "mockllm/model",
        custom_outputs=[
            ModelOutput.for_tool_call("mockllm/model", tool, {"product_id": pid}),
            ModelOutput.for_tool_call("mockllm/model", "check_stock", {"product_id": pid}),
            ModelOutput.from_content("mockllm/model", f"[skill: {skill}] Let me check that."),
        ],
    )
    (log,) = eval(task, model=model, log_dir=str(tmp_path), display="none")
    sample = log.samples[0]
    assert sample.store == {}  # the trace lives in the transcript, not the store
    tool_messages = [m for m in sample.messages if m.role == "tool"]
    records = records_in(tool_messages)
    assert [(r.name, r.function, r.outcome) for r in records] == [
        (tool, "inventory.check_stock", "ok"),
        ("check_stock", None, "unknown_tool"),
    ]
    assert "unknown_tool" in tool_messages[1].text
    system = sample.messages[0].text
    assert f"`{skill}`" in system and f"product id {pid}" in system
    score = sample.scores["variant_scorer"].value
    assert score["skill"] == 1.0
    roles = [m.role for m in sample.messages]
    assert roles[:3] == ["system", "user", "assistant"]


def test_user_role_hooks_put_results_in_a_user_message(tmp_path: Path, default_harness) -> None:
    import yaml

    from hat_eval.harness._load import harness_to_dict

    data = harness_to_dict(default_harness)
    data["hooks"]["messages"].update(
        tool_result_role="user", result_format="xml", result_prefix="Observation:"
    )
    path = tmp_path / "user_role.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    log = _shipping_question(tmp_path, harness=str(path))
    messages = log.samples[0].messages
    assert [m.role for m in messages] == [
        "system",
        "user",
        "assistant",
        "tool",
        "user",
        "assistant",
    ]
    assert messages[3].text == "(result in the next message)"
    assert [r.function for r in records_in(messages)] == ["policy.shipping_returns"]
    assert messages[4].text.startswith("get_shipping_policy: Observation: <tool_result name=")


def _shipping_question(tmp_path: Path, **task_args: Any) -> Any:
    """One shipping question of the livestream suite, answered by a scripted model."""
    rows = suite_rows("livestream", n=100)
    row = next(r for r in rows if r["metadata"]["intent"] == "shipping_returns")
    task = suite_task("livestream", n=100, **task_args)
    task.dataset = task.dataset.filter(lambda s: s.id == row["id"])
    pid = row["metadata"]["case"]["session"]["product_on_screen"]
    model = get_model(
        "mockllm/model",
        custom_outputs=[
            ModelOutput.for_tool_call("mockllm/model", "get_shipping_policy", {"product_id": pid}),
            ModelOutput.from_content("mockllm/model", "[skill: shipping_returns] Ships fast."),
        ],
    )
    (log,) = eval(task, model=model, log_dir=str(tmp_path), display="none")
    return log


def test_react_baseline_runs_the_same_tools(tmp_path: Path) -> None:
    log = _shipping_question(tmp_path, agent="react")
    records = records_in(log.samples[0].messages)
    assert [r.function for r in records] == ["policy.shipping_returns"]
    score = log.samples[0].scores["livestream_scorer"].value
    assert score["skill"] == 1.0 and score["tools"] > 0
