"""Judge-only samples: what the checks keep and what is left to the judge."""

from __future__ import annotations

import math

from hat_eval.episode import PARTS
from hat_eval.judge._judge_only import JUDGE_ONLY_REASON, decided_by, open_for_judge


def _values(**parts: float) -> dict[str, float]:
    values = dict.fromkeys(PARTS, 1.0)
    values.update(parts)
    values["aggregate"] = 100.0
    return values


def test_accuracy_the_checks_passed_is_left_to_the_judge() -> None:
    values, undecided = open_for_judge(_values(), {})
    assert math.isnan(values["accuracy"]) and undecided == {"accuracy": JUDGE_ONLY_REASON}
    assert math.isnan(values["aggregate"]) and values["undecided_aggregate"] == 1.0
    assert math.isnan(values["tools"]) and "tools" not in undecided  # no gold calls
    by = decided_by(values, undecided, {})
    assert "accuracy" not in by and "tools" not in by and by["safety"] == "checks"


def test_accuracy_the_checks_failed_stays_theirs_and_the_aggregate_is_decided() -> None:
    values, undecided = open_for_judge(_values(accuracy=0.0, tools=0.0), {})
    assert values["accuracy"] == 0.0 and undecided == {}
    assert not math.isnan(values["aggregate"]) and values["aggregate"] < 100
    assert decided_by(values, undecided, {})["accuracy"] == "checks"


def test_a_part_the_judge_settled_is_marked_as_the_judges() -> None:
    values, undecided = open_for_judge(_values(), {})
    values["accuracy"] = 1.0
    assert decided_by(values, {}, {"accuracy": 5.0})["accuracy"] == "judge"


def test_a_read_intent_leaves_the_skill_unscored() -> None:
    values, undecided = open_for_judge(_values(skill=0.0), {}, intent_read=True)
    assert math.isnan(values["skill"]) and "skill" not in undecided
    assert "skill" not in decided_by(values, undecided, {})
