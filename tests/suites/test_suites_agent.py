"""The harness agent's prompt and tool specs: what the model is given, made once per harness."""

from __future__ import annotations

import copy
from dataclasses import replace
from pathlib import Path

import yaml
from inspect_ai import eval
from inspect_ai.log import ModelEvent, resolve_sample_attachments
from inspect_ai.model import ChatMessageAssistant, ModelOutput, get_model
from inspect_ai.tool import ToolInfo

from hat_eval.episode import Message, episode_context, hook_records_in, run_agent
from hat_eval.episode._agent import harness_prompt
from hat_eval.harness import Harness, render_system_prompt, render_tools
from hat_eval.harness._load import harness_to_dict, parse_harness
from hat_eval.hsa import AugmentationPolicy
from hat_eval.suites import suite_episodes, suite_task
from hat_eval.suites._agent import ToolSpec, _InspectChat, tool_infos


def test_tool_spec_deep_copy_is_equal_and_independent(default_harness: Harness) -> None:
    spec = tool_infos(default_harness)[2]
    twin = copy.deepcopy(spec)
    assert isinstance(twin, ToolSpec) and twin == spec and twin is not spec
    assert twin.parameters is not spec.parameters
    first = next(iter(twin.parameters.properties))
    twin.parameters.properties[first].description = "changed"
    twin.parameters.required.append("extra")
    assert spec.parameters.properties[first].description != "changed"
    assert "extra" not in spec.parameters.required
    # Inspect's own copy path gives the same
    assert spec.model_copy(deep=True) == spec


def test_tool_specs_are_the_harness_tools(default_harness: Harness) -> None:
    specs = tool_infos(default_harness)
    schemas = render_tools(default_harness)
    assert [s.name for s in specs] == [t.name for t in default_harness.tools]
    for spec, schema in zip(specs, schemas, strict=True):
        assert spec.description == schema["function"]["description"]
        params = spec.parameters.model_dump(exclude_none=True)
        assert params["properties"].keys() == schema["function"]["parameters"]["properties"].keys()
        assert params.get("required", []) == list(
            schema["function"]["parameters"].get("required", [])
        )


def test_prompt_and_tools_are_made_once_per_harness(default_harness: Harness) -> None:
    prompt, tools = harness_prompt(default_harness), tool_infos(default_harness)
    assert harness_prompt(default_harness) is prompt and tool_infos(default_harness) is tools
    assert prompt == render_system_prompt(default_harness)
    variant = AugmentationPolicy(dims=("tools",), default_probability=1.0, min_dims=1).augment(
        default_harness, 3
    )
    v_tools = tool_infos(variant.harness)
    assert [t.name for t in v_tools] == [t.name for t in variant.harness.tools]
    assert [t.name for t in v_tools] != [t.name for t in tools]


def test_the_model_is_given_the_harness_tools(tmp_path: Path, default_harness: Harness) -> None:
    (log,) = eval(
        suite_task("livestream", n=2), model="mockllm/model", log_dir=str(tmp_path), display="none"
    )
    assert log.status == "success" and log.samples
    expected = [ToolInfo.model_validate(t.model_dump()) for t in tool_infos(default_harness)]
    for sample in log.samples:
        sample = resolve_sample_attachments(sample)
        (event,) = [e for e in sample.events if isinstance(e, ModelEvent)]
        assert [ToolInfo.model_validate(t.model_dump()) for t in event.tools] == expected


def test_hook_verdicts_reach_the_inspect_transcript(default_harness: Harness) -> None:
    data = harness_to_dict(default_harness)
    data["hooks"]["checks"] = [{"trigger": "factual_risk"}]
    (episode,) = suite_episodes("livestream", split="test", n=1)
    ctx = replace(episode_context(episode), harness=parse_harness(data))
    chat = _InspectChat()
    replies = [
        ChatMessageAssistant(content="It cures gum disease."),
        ChatMessageAssistant(content="Lovely pick."),
    ]
    turns = iter(replies)
    run = run_agent(ctx, [Message("user", "x")], lambda m, t: chat.plain(next(turns)), seed=1)
    inspected = [chat.inspect(m) for m in run.messages]
    assert [r.verdict for r in run.hooks] == ["reject", "pass"]
    assert hook_records_in(inspected) == run.hooks
    assert inspected[-1] is replies[1] and inspected[-2].role == "user"


def test_a_suite_under_checking_hooks_logs_and_scores_the_verdicts(
    tmp_path: Path, default_harness: Harness
) -> None:
    data = harness_to_dict(default_harness)
    data["hooks"]["checks"] = [{"trigger": "factual_risk", "budget": 1}]
    path = tmp_path / "hooks.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    outputs = [
        ModelOutput.from_content("mockllm/model", "It cures gum disease."),
        ModelOutput.from_content("mockllm/model", "A lovely everyday pick."),
    ]
    model = get_model("mockllm/model", custom_outputs=outputs)
    (log,) = eval(
        suite_task("livestream", n=1, harness=str(path)),
        model=model,
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success" and log.samples and log.results
    (sample,) = log.samples
    records = hook_records_in(sample.messages)
    assert [(r.hook, r.verdict) for r in records] == [
        ("factual_risk", "reject"),
        ("factual_risk", "pass"),
    ]
    (score,) = sample.scores.values()  # type: ignore[union-attr]
    assert score.value["hook_rejections_factual_risk"] == 1.0  # type: ignore[index]
    # the second reply passed the hook but fails its task (no facts for the viewer): no
    # recovery, as the robustness suite's recovery counts it (a summary must not say "100%
    # recovered" beside a recovery of 0)
    assert score.value["accuracy"] == 0.0  # type: ignore[index]
    assert score.value["hook_recovered"] == 0.0  # type: ignore[index]
    metrics = log.results.scores[0].metrics
    assert metrics["hook_rejections_factual_risk"].value == 1.0
    assert metrics["hook_recovered"].value == 0.0
