"""Trajectories for HSA-SFT: verified by the checks, a fresh harness variant per draw."""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import replace

import pytest

from hat_eval.episode import base_harness, check_answer, episode_context, records_in, system_message
from hat_eval.episode._context import resolve_harness
from hat_eval.harness import render_tools
from hat_eval.suites import suite_episodes
from hat_eval.trainers import _trajectory
from hat_eval.trainers._trajectory import (
    EmptyPoolError,
    Trajectory,
    TrajectoryStream,
    draw_episode,
    rejection,
    run_oracle,
)


@pytest.fixture(scope="module")
def pool() -> list:
    return suite_episodes("livestream", split="train", n=30)


def _stream(pool: list, **kwargs: object) -> TrajectoryStream:
    return TrajectoryStream(pool, **kwargs)  # type: ignore[arg-type]


def _by_case(stream: TrajectoryStream, draws: int) -> dict[str, list[Trajectory]]:
    out: dict[str, list[Trajectory]] = defaultdict(list)
    for d in range(draws):
        t = stream.trajectory(d)
        out[t.episode.case.id].append(t)
    return out


def test_kept_trajectories_pass_the_checks(pool: list) -> None:
    stream = _stream(pool)
    kept = [t for _, t in zip(range(40), stream, strict=False)]
    assert len(kept) == 40
    for t in kept:
        assert t.check.parts["accuracy"] == 1.0
        assert t.check.parts["skill"] == 1.0
        assert t.check.aggregate >= stream.min_aggregate
    stats = stream.last_pass()
    assert stats.kept == 40
    assert stats.drawn == stats.kept + sum(stats.rejected.values())


def test_an_answer_the_checks_fail_is_rejected(pool: list) -> None:
    t = run_oracle(pool[0])
    ep = t.episode
    ctx = episode_context(ep)
    # the oracle's answer with its facts' numbers changed, and without a skill tag
    wrong = "".join("7" if ch.isdigit() else ch for ch in t.answer)
    records = records_in(t.messages)
    check = check_answer(ep.case, ep.gold, wrong, records, ep.fault, ctx.kb)
    assert rejection(t.check) is None
    assert rejection(check) is not None
    untagged = t.answer.split("] ", 1)[1]
    assert rejection(check_answer(ep.case, ep.gold, untagged, records, ep.fault, ctx.kb)) == (
        "skill failed"
    )


def test_stream_counts_and_skips_rejected_draws(
    pool: list, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = _trajectory.oracle_answer
    odd_cases = {e.case.id for i, e in enumerate(pool) if i % 2}

    def sometimes_wrong(episode, ctx):  # type: ignore[no-untyped-def]
        if episode.case.id in odd_cases:
            return f"[skill: {episode.gold.skill}] I am not sure, maybe ask later."
        return real(episode, ctx)

    monkeypatch.setattr(_trajectory, "oracle_answer", sometimes_wrong)
    stream = _stream(pool, fixed_harness=True)
    kept = [t for _, t in zip(range(10), stream, strict=False)]
    assert all(t.episode.case.id not in odd_cases for t in kept)
    stats = stream.last_pass()
    assert sum(stats.rejected.values()) > 0
    assert stats.drawn == stats.kept + sum(stats.rejected.values())


def test_stream_of_only_rejected_draws_stops(pool: list, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_trajectory, "oracle_answer", lambda episode, ctx: "no idea")
    stream = _stream(pool[:5])
    with pytest.raises(EmptyPoolError, match="5 draws in a row"):
        next(iter(stream))
    with pytest.raises(EmptyPoolError, match="empty"):
        next(iter(_stream([])))


def test_tool_names_follow_the_variant_harness(pool: list) -> None:
    stream = _stream(pool)
    renamed_seen = 0
    for d in range(60):
        t = stream.trajectory(d)
        harness, mapping = resolve_harness(t.episode.harness)
        names = {tool.name for tool in harness.tools}
        assert [s["function"]["name"] for s in t.tools] == [tool.name for tool in harness.tools]
        for m in t.messages:
            for call in m.tool_calls:
                assert call.function in names
                default = {x.function: x.name for x in base_harness().tools}
                fn = next(x.function for x in harness.tools if x.name == call.function)
                if mapping.tools.get(default[fn]):
                    assert call.function != default[fn]
                    renamed_seen += 1
    assert renamed_seen > 0  # some draw called a tool its variant renamed


def test_two_draws_of_one_case_differ_in_harness(pool: list) -> None:
    stream = _stream(pool)
    pairs = [ts[:2] for ts in _by_case(stream, 3 * len(pool)).values() if len(ts) >= 2]
    assert len(pairs) >= 10
    prompt_or_tools_differ = 0
    for a, b in pairs:
        assert a.episode.harness.seed != b.episode.harness.seed
        assert a.row() != b.row()
        prompt_or_tools_differ += (a.messages[0].content != b.messages[0].content) or (
            a.tools != b.tools
        )
    assert prompt_or_tools_differ >= len(pairs) // 2


def test_fixed_harness_draws_are_the_default_harness(pool: list) -> None:
    stream = _stream(pool, fixed_harness=True)
    default_tools = tuple(render_tools(base_harness()))
    by_case = _by_case(stream, 2 * len(pool))
    for ts in by_case.values():
        for t in ts:
            assert t.episode.harness.seed is None
            assert t.tools == default_tools
            base = next(e for e in pool if e.case.id == t.episode.case.id)
            assert t.messages[0] == system_message(episode_context(base))
        assert all(t.row() == ts[0].row() for t in ts)


def test_gold_is_retargeted_to_the_variants_skill_id(pool: list) -> None:
    renamed = 0
    for d in range(80):
        ep = draw_episode(pool[d % len(pool)], d)
        if "skill_ids" not in ep.harness.dims:
            continue
        _, mapping = resolve_harness(ep.harness)
        new_id = mapping.skill_id(ep.case.expected_skill)
        assert ep.gold.skill == new_id
        t = run_oracle(ep, draw=d)
        assert t.answer.startswith(f"[skill: {new_id}] ")
        if new_id != ep.case.expected_skill:
            renamed += 1
            harness, _ = resolve_harness(ep.harness)
            assert new_id in {s.id for s in harness.skills}
            assert ep.case.expected_skill not in {s.id for s in harness.skills}
    assert renamed > 0


def test_row_is_trl_conversational_with_tools_as_json(pool: list) -> None:
    ep = next(e for e in pool if e.case.required_calls)
    row = run_oracle(replace(ep)).row()
    roles = [m["role"] for m in row["messages"]]
    assert roles[:3] == ["system", "user", "assistant"]
    assert roles[-1] == "assistant" and "tool" in roles
    assert row["messages"][2]["tool_calls"]
    tools = json.loads(row["tools"])
    assert {t["function"]["name"] for t in tools} == {t.name for t in base_harness().tools}
