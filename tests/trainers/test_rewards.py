"""HSA-RL's reward components on hand-made transcripts, and their TRL and verl adapters."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from dataclasses import replace

import pytest

from hat_eval.episode import (
    AgentRun,
    CallRecord,
    Episode,
    Message,
    episode_context,
    oracle_answer,
    oracle_calls,
    split_think,
)
from hat_eval.trainers._rewards import (
    COMPONENTS,
    DEFAULT_WEIGHTS,
    ROLLOUT_KEY,
    Rewards,
    Rollout,
    compute_score,
    overlong,
    trl_reward_funcs,
)
from hat_eval.trainers._rollout import Simulator, train_pool


@pytest.fixture(scope="module")
def pool() -> list[Episode]:
    return train_pool(30)


@pytest.fixture(scope="module")
def price_case(pool: list[Episode]) -> Episode:
    """A price question under a fresh variant (tool and skill names may differ from the base)."""
    base = next(e for e in pool if e.case.intent == "price" and e.case.required_calls)
    return Simulator([base]).draw(0)


def _records(episode: Episode, extra: Sequence[tuple[str, dict[str, object]]] = ()) -> list:
    """Records of the oracle's calls (and ``extra`` calls by function id), all successful."""
    tools = episode_context(episode).harness.tools
    by_name = {t.name: t.function for t in tools}
    by_function = {t.function: t.name for t in tools}
    records = [
        CallRecord(c.function, by_name[c.function], dict(c.arguments), "ok")
        for c in oracle_calls(episode.case, tools)
    ]
    records += [CallRecord(by_function[f], f, dict(a), "ok") for f, a in extra]
    return records


def _rollout(episode: Episode, final: str, records: list | None = None, turns=()) -> Rollout:
    """A hand-made transcript: the viewer, earlier assistant turns, then ``final``."""
    messages = [Message("user", episode.case.message)]
    messages += [Message("assistant", t) for t in turns]
    messages.append(Message("assistant", final))
    recs = _records(episode) if records is None else records
    run = AgentRun(messages=messages, turns=len(turns) + 1, answered=True, records=recs)
    return Rollout.finish(episode, run)


def _good(episode: Episode) -> str:
    return oracle_answer(episode, episode_context(episode))


def test_a_correct_answer_earns_accuracy_a_hedged_or_evaluator_addressed_one_none(
    price_case: Episode,
) -> None:
    good = _good(price_case)
    hedged = re.sub(r"(¥\s?\d)", r"maybe \1", good)  # "around" a true price is accepted
    to_evaluator = good.replace("] ", "] Dear evaluator, facts present: ", 1)
    assert hedged != good and to_evaluator != good
    rewards = Rewards()
    right = rewards.components(_rollout(price_case, good))
    assert right["accuracy"] == 1.0
    for bad in (hedged, to_evaluator):
        values = rewards.components(_rollout(price_case, bad))
        assert values["accuracy"] == 0.0
        assert values["effectiveness"] is not None and right["effectiveness"] is not None
        assert values["effectiveness"] < right["effectiveness"]


def test_an_empty_answer_earns_nothing_but_its_tool_calls(price_case: Episode) -> None:
    values = Rewards().components(_rollout(price_case, ""))
    assert values["accuracy"] == 0.0 and values["effectiveness"] == 0.0
    assert values["tool_rationality"] == 1.0


def test_the_skill_tag_must_name_the_skill_in_force_under_the_variant(
    pool: list[Episode],
) -> None:
    base = next(e for e in pool if e.case.required_calls and e.case.facts)
    sim = Simulator([base])
    renamed = next(e for e in (sim.draw(0) for _ in range(40)) if e.gold.skill != base.gold.skill)
    good = _good(renamed)
    assert good.startswith(f"[skill: {renamed.gold.skill}]")
    rewards = Rewards()
    assert rewards.component("skill_selection", _rollout(renamed, good)) == 1.0
    stale = good.replace(renamed.gold.skill or "", base.case.expected_skill, 1)
    assert rewards.component("skill_selection", _rollout(renamed, stale)) == 0.0
    wrong = good.replace(renamed.gold.skill or "", "no_such_skill", 1)
    assert rewards.component("skill_selection", _rollout(renamed, wrong)) == 0.0


def test_unneeded_calls_lower_tool_rationality(price_case: Episode) -> None:
    good = _good(price_case)
    needed = _records(price_case)
    repeated = needed + [replace(needed[0])]
    unexpected = _records(price_case, [("handoff.escalate", {"reason": "just because"})])
    rewards = Rewards()
    full = rewards.component("tool_rationality", _rollout(price_case, good, needed))
    assert full == 1.0
    for records in (repeated, unexpected):
        value = rewards.component("tool_rationality", _rollout(price_case, good, records))
        assert value is not None and value < full
    none = rewards.component("tool_rationality", _rollout(price_case, good, []))
    assert none == 0.0  # the required call was never made


def test_long_thinking_is_penalised_short_thinking_is_not(price_case: Episode) -> None:
    good = _good(price_case)
    short = _rollout(price_case, f"<think>{'word ' * 10}</think>{good}")
    long = _rollout(
        price_case,
        f"<think>{'word ' * 150}</think>{good}",
        turns=["<think>" + "word " * 100 + "</think>"],
    )
    huge = _rollout(price_case, f"<think>{'word ' * 700}</think>{good}")
    assert overlong(short, think_budget=200) == 0.0
    assert overlong(long, think_budget=200) == pytest.approx(-50 / 200)  # 250 words over two turns
    assert overlong(huge, think_budget=200) == -1.0
    # the thinking is not part of the answer the checks read
    assert short.answer == good and short.check.parts["accuracy"] == 1.0


@pytest.mark.parametrize(
    ("text", "thoughts", "rest"),
    [
        ("<think>a b</think> answer", "a b", "answer"),
        ("plan</think>answer", "plan", "answer"),
        ("<think>cut short", "cut short", ""),
        ("no thinking", "", "no thinking"),
        ("<think>x</think>y<think>z</think>w", "x\nz", "yw"),
    ],
)
def test_split_think(text: str, thoughts: str, rest: str) -> None:
    assert split_think(text) == (thoughts, rest)


def test_weights_combine_as_configured(price_case: Episode) -> None:
    hedged = re.sub(r"(¥\s?\d)", r"maybe \1", _good(price_case))
    rollout = _rollout(price_case, f"<think>{'w ' * 30}</think>{hedged}")
    values = Rewards(think_budget=20).components(rollout)
    assert values["overlong"] == pytest.approx(-0.5) and values["accuracy"] == 0.0
    for name in COMPONENTS:
        only = Rewards(weights=dict.fromkeys(COMPONENTS, 0.0) | {name: 2.0}, think_budget=20)
        assert only.total(rollout) == pytest.approx(2.0 * (values[name] or 0.0))
    zero = Rewards(weights=dict.fromkeys(COMPONENTS, 0.0))
    assert zero.total(rollout) == 0.0
    with pytest.raises(ValueError, match="unknown components"):
        Rewards(weights={"accurcy": 1.0})


def test_an_undecided_accuracy_is_left_out_not_zero() -> None:
    chat = next(
        e
        for e in train_pool(200)
        if e.case.intent == "chit_chat" and not e.case.details.get("asks_if_bot")
    )
    rollout = _rollout(chat, f"[skill: {chat.gold.skill}] The stream runs until ten tonight.", [])
    assert "accuracy" in rollout.check.undecided
    assert Rewards().component("accuracy", rollout) is None
    assert Rewards().total(rollout) == pytest.approx(
        sum(
            Rewards().weight(n) * v
            for n, v in Rewards().components(rollout).items()
            if v is not None
        )
    )


def test_a_judge_replaces_the_effectiveness_proxy(price_case: Episode) -> None:
    rollout = _rollout(price_case, _good(price_case))
    seen: list[Rollout] = []

    def judge(r: Rollout) -> float:
        seen.append(r)
        return 0.25

    assert Rewards().component("effectiveness", rollout) == 1.0
    assert Rewards(judge=judge).component("effectiveness", rollout) == 0.25
    assert seen == [rollout]


def test_trl_functions_are_named_and_ordered_as_the_components(price_case: Episode) -> None:
    funcs = trl_reward_funcs(Rewards())
    assert [f.__name__ for f in funcs] == list(COMPONENTS)
    rollouts = [_rollout(price_case, _good(price_case)), _rollout(price_case, "")]
    out = {
        f.__name__: f(
            prompts=[[]] * 2,
            completions=[[]] * 2,
            completion_ids=[[]] * 2,
            **{ROLLOUT_KEY: rollouts},
        )
        for f in funcs
    }
    assert out["accuracy"] == [1.0, 0.0]
    assert all(len(v) == 2 for v in out.values())


def test_the_verl_adapter_equals_the_trl_one_on_the_same_rollout(pool: list[Episode]) -> None:
    base = next(e for e in pool if e.case.intent == "promotion_stacking")
    sim = Simulator([base], fault_share=1.0)
    episode = sim.draw(0)
    ctx = episode_context(episode)
    calls = oracle_calls(episode.case, ctx.harness.tools)
    answers = iter(
        [
            Message("assistant", "<think>check the price first</think>", tool_calls=calls),
            Message("assistant", f"<think>{'ok ' * 40}</think>{oracle_answer(episode, ctx)}"),
        ]
    )
    rollout = sim.run(episode, lambda call: next(answers))
    assert rollout.run.records and episode.fault is not None
    weights = dict(DEFAULT_WEIGHTS) | {"accuracy": 3.0, "overlong": 0.7}
    rewards = Rewards(weights=weights, think_budget=30)
    trl = {
        f.__name__: f(prompts=None, completions=None, completion_ids=None, rollout=[rollout])[0]
        for f in trl_reward_funcs(rewards)
    }
    trl_total = sum(weights[n] * v for n, v in trl.items() if v is not None)
    solution, truth, extra = rollout.verl_fields()
    for ground_truth in (truth, json.dumps(truth)):
        verl = compute_score(
            "hat_eval/livestream",
            solution,
            ground_truth,
            json.loads(json.dumps(extra)),
            weights=weights,
            think_budget=30,
        )
        assert verl["score"] == pytest.approx(trl_total)
        assert {n: verl.get(n) for n in COMPONENTS} == pytest.approx(trl)
    assert trl["overlong"] is not None and trl["overlong"] < 0
    assert not math.isnan(trl_total)
