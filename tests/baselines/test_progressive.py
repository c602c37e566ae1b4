"""The built-in policies under progressive skill disclosure (``--disclosure progressive``).

Under the default progressive harness the prompt lists the skills and a tool loads them: the
reference policy must find that tool (by the prompt's name for it, else by its description),
load the skill it picks in its first turn and score the skill part about as well as it does
inline; the oracle loads the gold skill and stays at the top; ``hat/memorized`` plays the
default progressive harness's names, so under variants it loads no skill in force.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessageSystem, ChatMessageUser
from inspect_ai.tool import ToolInfo, ToolParam, ToolParams

import hat_eval._registry  # noqa: F401  (registers the hat/ models)
from hat_eval.baselines._plan import skill_load
from hat_eval.baselines._read import _default_surface, find_loader, read_prompt, read_turn
from hat_eval.episode import base_harness, episode_context, oracle_answer, oracle_calls, records_in
from hat_eval.episode._runtime import skill_loads
from hat_eval.harness import SKILL_LOADER, default_harness_path
from hat_eval.suites import episode_of, suite_episodes, suite_task

N = 40
MODELS = ["hat/reference", "hat/memorized", "hat/oracle"]


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str, str], EvalLog]:
    """(suite, disclosure, model) -> the log of the first ``N`` cases."""
    out = {}
    for suite in ("livestream", "variant"):
        for disclosure in ("inline", "progressive"):
            for log in inspect_eval(
                suite_task(suite, n=N, disclosure=disclosure),
                model=MODELS,
                display="none",
                log_dir=str(tmp_path_factory.mktemp("progressive")),
                max_connections=100,
            ):
                assert log.status == "success"
                out[suite, disclosure, log.eval.model] = log
    return out


def _values(log: EvalLog) -> dict[str, dict[str, Any]]:
    return {str(s.id): next(iter((s.scores or {}).values())).value for s in log.samples or []}


def _mean(log: EvalLog, part: str) -> float:
    xs = [v[part] for v in _values(log).values() if not math.isnan(v[part])]
    return sum(xs) / len(xs)


@pytest.mark.slow
@pytest.mark.parametrize("suite", ["livestream", "variant"])
def test_reference_chooses_skills_as_well_by_loading_them(
    suite: str, logs: dict[tuple[str, str, str], EvalLog]
) -> None:
    inline = logs[suite, "inline", "hat/reference"]
    progressive = logs[suite, "progressive", "hat/reference"]
    assert _mean(progressive, "skill") >= _mean(inline, "skill") - 0.05
    assert _mean(progressive, "skill") >= 0.6
    assert abs(_mean(progressive, "aggregate") - _mean(inline, "aggregate")) < 5
    for sample in progressive.samples or []:
        episode = episode_of(sample.id, sample.metadata, sample.target)  # type: ignore[arg-type]
        loads = skill_loads(records_in(sample.messages))
        assert len(loads) == 1, sample.id  # one load, made under the loader's name in force
        assert loads[0].name == episode.gold.tools[SKILL_LOADER]
        assert not sample.output.completion.startswith("[skill:"), sample.id
        # the first turn loads alongside the world calls (a load is not counted as one)
        first = next(m for m in sample.messages if m.role == "assistant")
        assert first.tool_calls and first.tool_calls[0].function == loads[0].name


@pytest.mark.slow
@pytest.mark.parametrize("suite", ["livestream", "variant"])
def test_the_oracle_loads_the_gold_skill_and_stays_at_the_top(
    suite: str, logs: dict[tuple[str, str, str], EvalLog]
) -> None:
    log = logs[suite, "progressive", "hat/oracle"]
    assert _mean(log, "aggregate") >= 95 and _mean(log, "skill") == 1.0
    for sample in log.samples or []:
        episode = episode_of(sample.id, sample.metadata, sample.target)  # type: ignore[arg-type]
        loads = skill_loads(records_in(sample.messages))
        assert [r.arguments for r in loads] == [{"skill_id": episode.gold.skill}], sample.id


@pytest.mark.slow
def test_memorized_is_reference_on_the_default_and_loses_skills_on_variants(
    logs: dict[tuple[str, str, str], EvalLog],
) -> None:
    ref = _values(logs["livestream", "progressive", "hat/reference"])
    mem = _values(logs["livestream", "progressive", "hat/memorized"])
    assert ref.keys() == mem.keys()
    for sid in ref:
        same = all(
            (math.isnan(ref[sid][k]) and math.isnan(mem[sid][k])) or ref[sid][k] == mem[sid][k]
            for k in ref[sid]
        )
        assert same, sid
    variant_ref = logs["variant", "progressive", "hat/reference"]
    variant_mem = logs["variant", "progressive", "hat/memorized"]
    assert _mean(variant_ref, "skill") - _mean(variant_mem, "skill") >= 0.1


def _system(disclosure: str) -> ChatMessageSystem:
    prompt, _ = _default_surface(disclosure)  # type: ignore[arg-type]
    screen = "On screen: Test Mug (product id P0042). Current time: now."
    return ChatMessageSystem(content=f"{prompt}\n\n## Live now\n{screen}")


def test_the_prompt_lists_skills_to_load_and_names_the_loader() -> None:
    inline = read_prompt(_default_surface("inline")[0])
    progressive = read_prompt(_default_surface("progressive")[0])
    assert inline.disclosure == "inline" and inline.loader is None
    assert progressive.disclosure == "progressive" and progressive.loader == "load_skill"
    assert list(progressive.skills) == list(inline.skills)
    assert set(progressive.skill_types.values()) == {"reply"}


def _loader_tool(name: str, description: str) -> ToolInfo:
    return ToolInfo(
        name=name,
        description=description,
        parameters=ToolParams(properties={"sid": ToolParam(type="string")}, required=["sid"]),
    )


def test_a_renamed_loader_is_found_by_its_description() -> None:
    _, tools = _default_surface("progressive")
    world = [t for t in tools if t.name != "load_skill"]
    loader = _loader_tool("fetch_playbook", "Loads the full rules of one skill, by its id.")
    assert find_loader([*world, loader], "load_skill") is loader  # the prompt's name is stale
    assert find_loader([*world, loader], "fetch_playbook") is loader
    assert find_loader(world, None) is None
    messages = [_system("progressive"), ChatMessageUser(content="how much is this mug?")]
    turn = read_turn(messages, [*world, loader])
    assert turn.tools[SKILL_LOADER] == "fetch_playbook" and turn.load_param == "sid"
    assert turn.tools["pricing.final_price"] == "calculate_final_price"
    assert skill_load(turn, ["price"]) == [(SKILL_LOADER, {"sid": "price_promotion"})]


def test_no_load_under_inline_disclosure_and_none_after_the_first() -> None:
    messages = [_system("inline"), ChatMessageUser(content="how much is this mug?")]
    turn = read_turn(messages, list(_default_surface("inline")[1]))
    assert SKILL_LOADER not in turn.tools and skill_load(turn, ["price"]) == []
    messages = [_system("progressive"), ChatMessageUser(content="how much is this mug?")]
    turn = read_turn(messages, list(_default_surface("progressive")[1]))
    assert skill_load(turn, ["price"]) == [(SKILL_LOADER, {"skill_id": "price_promotion"})]
    turn.loads = 1
    assert skill_load(turn, ["price"]) == []


def test_the_sft_oracle_loads_the_gold_skill_first_under_progressive() -> None:
    progressive = str(default_harness_path("progressive"))
    for harness in (None, progressive):
        for episode in suite_episodes("variant", n=6, harness=harness):
            ctx = episode_context(episode)
            calls = oracle_calls(episode.case, ctx.harness.tools, skill=episode.gold.skill)
            required = [episode.gold.tools[c.function] for c in episode.case.required_calls]
            answer = oracle_answer(episode, ctx)
            if harness is None:
                assert [c.function for c in calls] == required
                assert answer.startswith(f"[skill: {episode.gold.skill}]")
                continue
            load = episode.gold.tools[SKILL_LOADER]
            assert [c.function for c in calls] == [load, *required]
            assert calls[0].arguments == {"skill_id": episode.gold.skill}
            assert [c.id for c in calls] == [f"call_{i}" for i in range(len(calls))]
            assert not answer.startswith("[skill:")
    assert base_harness(progressive).skill_disclosure == "progressive"


def test_an_sft_trajectory_under_progressive_disclosure_loads_and_is_verified() -> None:
    from hat_eval.trainers._trajectory import run_oracle

    for episode in suite_episodes(
        "livestream", n=4, harness=str(default_harness_path("progressive"))
    ):
        trajectory = run_oracle(episode)
        first = next(m for m in trajectory.messages if m.role == "assistant")
        assert first.tool_calls[0].function == episode.gold.tools[SKILL_LOADER], episode.id
        assert trajectory.check.parts["skill"] == 1.0, episode.id
