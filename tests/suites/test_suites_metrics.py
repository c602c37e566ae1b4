"""suite_metrics gives the numbers Inspect's metric-per-key form gives, under its own names."""

from __future__ import annotations

import math
import random

import pytest
from inspect_ai.scorer import SampleScore, Score, grouped, mean, stderr

from hat_eval.suites._scorers import suite_metrics


def _scores(n: int = 60) -> list[SampleScore]:
    rng = random.Random(5)
    out = []
    for i in range(n):
        value = {
            "aggregate": rng.uniform(0, 100),
            "accuracy": math.nan if i % 4 == 0 else rng.random(),
            "recovery": rng.choice([0.0, 1.0]),
        }
        metadata = {
            "intent": rng.choice(["price", "stock_size", "chit_chat"]),
            "dims": rng.choice(["none", "tools", "tools+hooks"]),
            "fault": rng.choice(["timeout", "empty"]),
        }
        out.append(SampleScore(score=Score(value=value), sample_id=i, sample_metadata=metadata))
    return out


def _inspect_per_key(scores: list[SampleScore], key: str, metric) -> object:  # type: ignore[no-untyped-def]
    """What Inspect computes for ``{key: [metric]}``: the metric over that key's scalar scores."""
    view = [
        SampleScore(score=Score(value=s.score.value[key]), sample_metadata=s.sample_metadata)  # type: ignore[index]
        for s in scores
        if not math.isnan(s.score.value[key])  # type: ignore[index]
    ]
    return metric(view)


def test_same_numbers_as_metric_per_key() -> None:
    scores = _scores()
    got = suite_metrics(
        parts=["aggregate", "accuracy", "recovery"],
        aggregate_by=["intent", "dimension"],
        recovery_by=["fault"],
    )(scores)
    for key in ("aggregate", "accuracy", "recovery"):
        assert got[key] == pytest.approx(_inspect_per_key(scores, key, mean()))
        assert got[f"{key}_stderr"] == pytest.approx(_inspect_per_key(scores, key, stderr()))
    intents = _inspect_per_key(scores, "aggregate", grouped(mean(), "intent", all=False))
    faults = _inspect_per_key(scores, "recovery", grouped(mean(), "fault", all=False))
    assert {k: got[f"per_intent_{k}"] for k in intents} == pytest.approx(intents)
    assert {k: got[f"recovery_per_fault_{k}"] for k in faults} == pytest.approx(faults)
    assert not any(k.startswith("accuracy_per_") for k in got)


def test_a_sample_counts_for_each_dimension_applied() -> None:
    scores = _scores()
    got = suite_metrics(parts=["aggregate"], aggregate_by=["dimension"])(scores)
    for dim in ("tools", "hooks", "none"):
        members = [
            s.score.value["aggregate"]  # type: ignore[index]
            for s in scores
            if dim in str(s.sample_metadata["dims"]).split("+")  # type: ignore[index]
        ]
        assert got[f"per_dimension_{dim}"] == pytest.approx(sum(members) / len(members))
    assert {k for k in got if k.startswith("per_dimension_")} == {
        "per_dimension_tools",
        "per_dimension_hooks",
        "per_dimension_none",
    }


def test_a_sample_without_the_group_key_is_a_clear_error() -> None:
    scores = [SampleScore(score=Score(value={"aggregate": 1.0}), sample_metadata={})]
    with pytest.raises(ValueError, match="sample metadata has no 'intent'"):
        suite_metrics(parts=["aggregate"], aggregate_by=["intent"])(scores)


def test_nan_parts_are_not_scored_and_absent_parts_are_left_out() -> None:
    scores = _scores(8)
    got = suite_metrics(parts=["accuracy", "skill"], aggregate_by=[])(scores)
    scored = [
        s.score.value["accuracy"] for s in scores if not math.isnan(s.score.value["accuracy"])
    ]  # type: ignore[index]
    assert got["accuracy"] == pytest.approx(sum(scored) / len(scored))
    assert "skill" not in got


def test_unknown_group_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match=r"unknown groups \['style'\], expected some of"):
        suite_metrics(parts=["aggregate"], aggregate_by=["style"])


def test_part_mean_reduces_epochs_like_inspects_mean() -> None:
    from inspect_ai.scorer._reducer.reducer import mean_score

    from hat_eval.suites._scorers import part_mean

    epochs = [
        Score(value={"aggregate": 80.0, "accuracy": math.nan, "tools": 1.0}, answer="a"),
        Score(value={"aggregate": 40.0, "accuracy": 0.5, "tools": 0.0}, answer="a"),
        Score(value={"aggregate": 30.0, "accuracy": 1.0, "tools": 0.5}, answer="a"),
    ]
    got = part_mean()(epochs)
    want = mean_score()(epochs)
    assert got.value == pytest.approx(want.value)
    assert got.value["accuracy"] == pytest.approx(0.75)  # the NaN epoch is not scored
    assert got.answer == "a"
    one = Score(value={"aggregate": 50.0}, explanation="why")
    assert part_mean()([one]) is one


def test_part_mean_refuses_scalar_scores() -> None:
    from hat_eval.suites._scorers import part_mean

    with pytest.raises(ValueError, match="expected the suites' dict scores"):
        part_mean()([Score(value=1.0), Score(value=0.0)])


def _checked(
    aggregate: float, accuracy: float, intent: str, *, undecided: bool = False
) -> SampleScore:
    """A suite score as ``AnswerCheck.values()`` gives it (accuracy NaN when undecided)."""
    value = {
        "aggregate": aggregate,
        "accuracy": accuracy,
        "safety": 1.0,
        "undecided": 0.2 if undecided else 0.0,
        "undecided_accuracy": float(undecided),
        "undecided_safety": 0.0,
        "undecided_aggregate": float(undecided),
    }
    return SampleScore(score=Score(value=value), sample_metadata={"intent": intent})


UNDECIDED_SCORES = [
    _checked(100.0, 1.0, "price"),
    _checked(math.nan, math.nan, "chit_chat", undecided=True),
    _checked(40.0, 0.0, "price"),
    _checked(math.nan, math.nan, "price", undecided=True),
]
"""Two decided samples (aggregate 100 and 40) and two with accuracy, so the aggregate, open."""


def test_undecided_parts_are_left_out_of_the_mean_not_counted_as_zero() -> None:
    got = suite_metrics(
        parts=["aggregate", "accuracy", "safety"],
        aggregate_by=["intent"],
        shares=["undecided_aggregate", "undecided_accuracy", "undecided_safety"],
    )(UNDECIDED_SCORES)
    assert got["aggregate"] == pytest.approx(70.0)  # (100 + 40) / 2, not 140 / 4 = 35
    assert got["accuracy"] == pytest.approx(0.5)  # (1 + 0) / 2, not 0.25
    # stderr over the decided two: sd(100, 40) = 42.43, / sqrt(2) = 30
    assert got["aggregate_stderr"] == pytest.approx(30.0)
    assert got["safety"] == 1.0  # decided everywhere
    assert got["per_intent_price"] == pytest.approx(70.0)
    assert "per_intent_chit_chat" not in got  # no decided aggregate in that group


def test_each_parts_undecided_share_is_a_metric() -> None:
    got = suite_metrics(
        parts=["aggregate"],
        aggregate_by=[],
        shares=["undecided_aggregate", "undecided_accuracy", "undecided_safety", "undecided_x"],
    )(UNDECIDED_SCORES)
    assert got["undecided_accuracy"] == 0.5 and got["undecided_aggregate"] == 0.5
    assert got["undecided_safety"] == 0.0
    assert "undecided_x" not in got  # a share no score has is left out
    assert not any(k.startswith("undecided_") and k.endswith("_stderr") for k in got)


def test_the_suites_report_every_parts_undecided_share() -> None:
    from inspect_ai.util import registry_info

    from hat_eval.episode import PARTS
    from hat_eval.suites._scorers import livestream_scorer

    (metric,) = registry_info(livestream_scorer()).metadata["metrics"]
    value = {p: 1.0 for p in PARTS} | {f"undecided_{p}": 0.0 for p in PARTS}
    value |= {"aggregate": 100.0, "undecided": 0.0, "undecided_aggregate": 0.0}
    got = metric([SampleScore(score=Score(value=value), sample_metadata={"intent": "price"})])
    assert {f"undecided_{p}" for p in (*PARTS, "aggregate")} <= got.keys()


def test_hook_rejections_are_summed_per_hook_and_recovery_averaged() -> None:
    values = [
        {"aggregate": 50.0, "hook_rejections_tool_arguments": 2.0, "hook_recovered": 1.0},
        {"aggregate": 60.0, "hook_rejections_tool_arguments": 0.0, "hook_recovered": math.nan},
        {
            "aggregate": 70.0,
            "hook_rejections_tool_arguments": 1.0,
            "hook_rejections_factual_risk": 1.0,
            "hook_recovered": 0.0,
        },
    ]
    scores = [SampleScore(score=Score(value=v), sample_id=i) for i, v in enumerate(values)]
    got = suite_metrics(parts=["aggregate"], aggregate_by=[])(scores)
    assert got["hook_rejections_tool_arguments"] == 3.0
    assert got["hook_rejections_factual_risk"] == 1.0
    assert got["hook_recovered"] == 0.5  # the episode without a rejection is not counted
    plain = suite_metrics(parts=["aggregate"], aggregate_by=[])(_scores(5))
    assert not any(k.startswith("hook_") for k in plain)
