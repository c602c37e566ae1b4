"""Each claim's verdict logic on constructed results, and the claims' data."""

from __future__ import annotations

import math

import pytest

from hat_eval.repro import (
    CLAIMS,
    CONTRADICTED,
    CONTRAST,
    MEASURES,
    MIN_PAIRS,
    SUPPORTED,
    UNRESOLVED,
    Claim,
    MeasureResult,
    judge,
    judge_all,
    measure_splits,
)

HIGHER = Claim(
    id="up",
    statement="HSA is higher",
    reference="+1",
    measure="tool_name_accuracy",
    split="variant-renamed",
    contrast=CONTRAST,
    expected="higher",
    budget="cpu-30m",
)
LOWER = Claim(
    id="down",
    statement="HSA's loss is lower",
    reference="-1",
    measure="assistant_loss",
    split="variant",
    contrast=CONTRAST,
    expected="lower",
    budget="cpu-30m",
)


def measured(
    low: float,
    high: float,
    *,
    measure: str = "tool_name_accuracy",
    split: str = "variant-renamed",
    n: int = 50,
) -> MeasureResult:
    diff = (low + high) / 2 if not math.isnan(low) else math.nan
    return MeasureResult(measure, split, CONTRAST, n, 10 * n, 0.3, 0.3 + diff, diff, low, high)


@pytest.mark.parametrize(
    ("claim", "low", "high", "verdict"),
    [
        (HIGHER, 0.035, 0.158, SUPPORTED),  # excludes 0 on the claimed side
        (HIGHER, -0.069, -0.025, CONTRADICTED),  # excludes 0 on the other side
        (HIGHER, -0.01, 0.05, UNRESOLVED),  # holds 0
        (HIGHER, 0.0, 0.05, UNRESOLVED),  # an end at 0 holds it
        (HIGHER, -0.05, 0.0, UNRESOLVED),
        (LOWER, -0.3, -0.1, SUPPORTED),
        (LOWER, 0.1, 0.3, CONTRADICTED),
        (LOWER, -0.1, 0.1, UNRESOLVED),
    ],
)
def test_verdict_reads_the_interval_against_the_claimed_direction(
    claim: Claim, low: float, high: float, verdict: str
) -> None:
    m = measured(low, high, measure=claim.measure, split=claim.split)
    v = judge(claim, [m], budget="cpu-30m")
    assert v.verdict == verdict
    assert v.measured == m
    assert f"[{low:+.3f}, {high:+.3f}] over 50 transcripts" in v.reason
    assert v.to_dict()["evidence"] == {"n": 50, "diff": m.diff, "low": low, "high": high}


def test_a_measure_not_run_is_unresolved_and_names_the_budget_that_runs_it() -> None:
    other = measured(0.1, 0.2, measure="skill_id_accuracy")
    v = judge(HIGHER, [other], budget="cpu-30m")
    assert v.verdict == UNRESOLVED
    assert v.measured is None
    assert v.reason.startswith("not measured at budget cpu-30m")
    assert "evidence" not in v.to_dict()
    # same measure and split, but another contrast: not the claim's measure either
    elsewhere = MeasureResult(
        "tool_name_accuracy", "variant-renamed", "hsa_sft-base", 50, 500, 0.1, 0.3, 0.2, 0.1, 0.3
    )
    assert judge(HIGHER, [elsewhere], budget="gpu").verdict == UNRESOLVED


def test_too_few_pairs_or_no_interval_is_unresolved() -> None:
    few = measured(0.2, 0.4, n=MIN_PAIRS - 1)
    v = judge(HIGHER, [few], budget="cpu-30m")
    assert v.verdict == UNRESOLVED and f"fewer than the {MIN_PAIRS}" in v.reason
    assert judge(HIGHER, [measured(0.2, 0.4, n=MIN_PAIRS)], budget="x").verdict == SUPPORTED
    nan = measured(math.nan, math.nan, n=0)
    assert judge(HIGHER, [nan], budget="cpu-30m").verdict == UNRESOLVED


def test_every_claim_is_unresolved_when_nothing_was_measured() -> None:
    verdicts = judge_all([], budget="cpu-30m")
    assert [v.claim.id for v in verdicts] == [c.id for c in CLAIMS]
    assert {v.verdict for v in verdicts} == {UNRESOLVED}


def test_the_claims_data_is_consistent() -> None:
    ids = [c.id for c in CLAIMS]
    assert len(ids) == len(set(ids))
    probe = set(measure_splits())
    for c in CLAIMS:
        assert c.expected in ("higher", "lower")
        assert c.statement and c.reference
        if c.budget == "cpu-30m":  # what the token-level budget runs is what the probe reports
            assert c.measure in MEASURES and (c.measure, c.split) in probe
            assert c.contrast == CONTRAST
        else:
            assert c.measure not in MEASURES
    # a cpu-30m run's token measures can support the token claims; the end-to-end ones stay open
    token = [measured(0.1, 0.2, measure=m, split=s) for m, s in probe]
    verdicts = {v.claim.id: v.verdict for v in judge_all(token, budget="cpu-30m")}
    for c in CLAIMS:
        assert verdicts[c.id] == (SUPPORTED if c.budget == "cpu-30m" else UNRESOLVED)
