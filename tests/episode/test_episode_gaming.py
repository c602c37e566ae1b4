"""Answers that game the checks score low on every suite: no cheap hack of the instrument."""

from __future__ import annotations

import math
import statistics

import pytest

from hat_eval.episode import check_answer, knowledge_base
from hat_eval.suites import suite_episodes

EVASIVE = ("ok", "Thanks for watching!", "", "[skill: engagement] Let me check on that!")


@pytest.mark.parametrize("suite", ["livestream", "variant", "robustness"])
def test_constant_answers_score_under_15(suite: str) -> None:
    kb = knowledge_base(0)
    episodes = suite_episodes(suite, n=300)
    for answer in (*EVASIVE, "Hello viewer, this hoodie is in stock and costs 199 yuan."):
        values = [check_answer(e.case, e.gold, answer, [], e.fault, kb).aggregate for e in episodes]
        decided = [v for v in values if not math.isnan(v)]
        # an undecided aggregate is left out of the mean: gaming must not hide in it either
        assert len(decided) >= 0.9 * len(values), (suite, answer, len(decided))
        aggregate = statistics.fmean(decided)
        limit = 0.0 if answer in EVASIVE else 15.0
        assert aggregate <= limit, (suite, answer, aggregate)
