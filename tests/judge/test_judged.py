"""``judged``: a suite scorer whose undecided parts the Agent-as-Judge decides (scripted grader)."""

from __future__ import annotations

import math
from typing import Any

import pytest
from _helpers import DIMS, grader, judge_answer, output, ratings_json
from inspect_ai.scorer import SampleScore, Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState
from inspect_ai.util import registry_info

from hat_eval.episode import Episode
from hat_eval.judge import agent_judge, judged, settle
from hat_eval.judge._judged import JUDGED_KEYS, judge_decisions
from hat_eval.suites._scorers import livestream_scorer, suite_metrics

DECIDED = {"safety": 1.0, "tools": 1.0, "skill": 1.0, "constraints": 1.0}
UNDECIDED_ACCURACY = {
    "accuracy": math.nan,
    **DECIDED,
    "aggregate": math.nan,
    "recovery": math.nan,
    "undecided": 0.2,
    "undecided_accuracy": 1.0,
    "undecided_safety": 0.0,
    "undecided_tools": 0.0,
    "undecided_skill": 0.0,
    "undecided_constraints": 0.0,
    "undecided_aggregate": 1.0,
}
"""A suite score (``AnswerCheck.values()``) of an answer whose accuracy the checks left open."""
WHY = {"accuracy": "chit_chat: engagement is for the judge to rate"}


def test_a_decided_pass_fills_the_part_and_the_aggregate() -> None:
    got = settle(UNDECIDED_ACCURACY, WHY, {"accuracy": 1.0})
    assert got["accuracy"] == 1.0 and got["aggregate"] == pytest.approx(100.0)
    assert got["undecided"] == 0.0
    assert got["undecided_accuracy"] == 0.0 and got["undecided_aggregate"] == 0.0
    assert (got["judged"], got["judged_accuracy"], got["judged_safety"]) == (1.0, 1.0, 0.0)
    assert math.isnan(got["recovery"])  # what the judge does not decide is left as it was


def test_a_decided_fail_gates_safety_and_constraints() -> None:
    got = settle(UNDECIDED_ACCURACY, WHY, {"accuracy": 0.0})
    # 100 * (0.35*0 + 0.20*0 (gated) + 0.20*1 + 0.10*1 + 0.15*0 (gated)) / 1.00
    assert got["aggregate"] == pytest.approx(30.0)


def test_the_aggregate_stays_undecided_while_a_part_is() -> None:
    values = {**UNDECIDED_ACCURACY, "safety": math.nan, "undecided_safety": 1.0, "undecided": 0.4}
    why = {**WHY, "safety": "a claim the rules do not settle"}
    got = settle(values, why, {"accuracy": 1.0})
    assert got["accuracy"] == 1.0 and math.isnan(got["safety"])
    assert math.isnan(got["aggregate"]) and got["undecided_aggregate"] == 1.0
    assert got["undecided"] == pytest.approx(0.2) and got["judged"] == 1.0


def test_nothing_decided_changes_nothing_but_the_judged_keys() -> None:
    got = settle(UNDECIDED_ACCURACY, WHY, {})
    assert {k: v for k, v in got.items() if k not in JUDGED_KEYS}.keys() == (
        UNDECIDED_ACCURACY.keys()
    )
    assert math.isnan(got["aggregate"]) and got["undecided_accuracy"] == 1.0
    assert all(got[k] == 0.0 for k in JUDGED_KEYS)
    # a verdict on a part the checks decided is ignored; a decided aggregate (an evasive
    # answer's 0) is kept
    evasive = {**UNDECIDED_ACCURACY, "aggregate": 0.0, "undecided_aggregate": 0.0}
    assert settle(evasive, WHY, {"safety": 0.0, "accuracy": 1.0})["aggregate"] == 0.0
    assert settle(UNDECIDED_ACCURACY, WHY, {"safety": 0.0})["safety"] == 1.0


def test_judge_decisions_counts_parts_and_failures() -> None:
    def sample(**value: float) -> SampleScore:
        return SampleScore(score=Score(value={**dict.fromkeys(JUDGED_KEYS, 0.0), **value}))

    scores = [
        sample(judged=2.0, judged_accuracy=1.0, judged_safety=1.0),
        sample(judged=1.0, judged_accuracy=1.0),
        sample(judge_failed=1.0),
        sample(),
        SampleScore(score=Score(value={"aggregate": 50.0})),  # not judged at all
    ]
    assert judge_decisions()(scores) == {
        "judged": 3.0,
        "judged_accuracy": 2.0,
        "judged_safety": 1.0,
        "judge_failed": 1.0,
    }


def _suite_score(value: dict[str, float], undecided: dict[str, str]) -> Scorer:
    """A scorer standing for a suite scorer: the suites' metrics, one fixed score."""

    @scorer(metrics=[suite_metrics(parts=["aggregate", "accuracy"], aggregate_by=[])])
    def fixed() -> Scorer:
        async def score(state: TaskState, target: Target) -> Score:
            return Score(
                value=dict(value),
                answer="a",
                explanation="checks",
                metadata={"undecided": dict(undecided), "reasons": {}},
            )

        return score

    return fixed()


class Replies:
    """A scripted grader's replies, counting the calls."""

    def __init__(self, score: int) -> None:
        self.score = score
        self.calls = 0

    def __call__(self, *_args: Any) -> Any:
        self.calls += 1
        return output(ratings_json(self.score))


@pytest.mark.parametrize(("rating", "accuracy", "aggregate"), [(5, 1.0, 100.0), (1, 0.0, 30.0)])
def test_the_judge_decides_an_undecided_part_and_the_score_says_so(
    episode: Episode, rating: int, accuracy: float, aggregate: float
) -> None:
    replies = Replies(rating)
    wrapped = judged(
        _suite_score(UNDECIDED_ACCURACY, WHY), agent_judge(model=grader(replies), mode="lookups")
    )
    result = judge_answer(wrapped, episode, "Hi, welcome to the stream!")
    assert replies.calls == 1
    assert isinstance(result.value, dict)
    assert result.value["accuracy"] == accuracy
    assert result.value["aggregate"] == pytest.approx(aggregate)
    assert result.value["undecided_accuracy"] == 0.0 and result.value["judged"] == 1.0
    md = result.metadata or {}
    assert md["judged"] == {"accuracy": float(rating)}  # the rating that decided it
    assert md["undecided"] == {}
    assert md["judge"]["means"] == dict.fromkeys(DIMS, float(rating))
    assert md["judge"]["judge"]["model"] == "mockllm/model"
    assert f"accuracy {accuracy:g} (factual_accuracy rated {rating:.2f})" in str(result.explanation)


def test_a_middle_rating_leaves_the_part_undecided(episode: Episode) -> None:
    wrapped = judged(
        _suite_score(UNDECIDED_ACCURACY, WHY),
        agent_judge(model=grader(Replies(3)), mode="lookups"),
    )
    result = judge_answer(wrapped, episode, "Hi!")
    assert isinstance(result.value, dict)
    assert math.isnan(result.value["accuracy"]) and math.isnan(result.value["aggregate"])
    assert result.value["judged"] == 0.0 and result.value["judge_failed"] == 0.0
    md = result.metadata or {}
    assert md["judged"] == {} and md["undecided"] == WHY
    assert "accuracy still undecided (factual_accuracy rated 3.00)" in str(result.explanation)


def test_a_failed_judgement_is_counted_and_decides_nothing(episode: Episode) -> None:
    wrapped = judged(
        _suite_score(UNDECIDED_ACCURACY, WHY),
        agent_judge(model=grader(["not json"]), mode="lookups", retries=0),
    )
    result = judge_answer(wrapped, episode, "Hi!")
    assert isinstance(result.value, dict)
    assert result.value["judge_failed"] == 1.0 and math.isnan(result.value["accuracy"])
    assert "judge_error" in (result.metadata or {})["judge"]


def test_a_decided_sample_costs_no_grader_call(episode: Episode) -> None:
    replies = Replies(5)
    decided = {**UNDECIDED_ACCURACY, "accuracy": 1.0, "aggregate": 100.0, "undecided": 0.0}
    decided |= {"undecided_accuracy": 0.0, "undecided_aggregate": 0.0}
    wrapped = judged(_suite_score(decided, {}), agent_judge(model=grader(replies)))
    result = judge_answer(wrapped, episode, "x")
    assert replies.calls == 0
    assert result.value == {**decided, **dict.fromkeys(JUDGED_KEYS, 0.0)}
    assert "judged" not in (result.metadata or {})


def test_the_wrapper_reports_the_suite_metrics_and_the_judge_counts() -> None:
    base = livestream_scorer()
    wrapped = judged(base)
    info = registry_info(wrapped)
    assert info.name.endswith("judged")
    metrics = info.metadata["metrics"]
    assert metrics[:-1] == registry_info(base).metadata["metrics"]
    assert registry_info(metrics[-1]).name.endswith("judge_decisions")
