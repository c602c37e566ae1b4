"""Each claim's verdict logic on constructed results, token level and end to end; the claims."""

from __future__ import annotations

import math

import pytest

from hat_eval.repro._budget import E2E_BUDGETS
from hat_eval.repro._claims import (
    CLAIMS,
    CONTRADICTED,
    MIN_PAIRS,
    SUPPORTED,
    UNRESOLVED,
    Claim,
    judge,
    judge_all,
)
from hat_eval.repro._contrast import E2E_MEASURES, E2E_SPLIT, ContrastResult, contrast_arms
from hat_eval.repro._e2e_arms import E2E_ARM_IDS
from hat_eval.repro._probe import CONTRAST, MEASURES, MeasureResult, measure_splits

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
        else:  # an end-to-end claim: a measure the suites give, a contrast of evaluated models
            assert c.measure in E2E_MEASURES and c.split == E2E_SPLIT
            assert set(contrast_arms(c.contrast)) <= set(E2E_ARM_IDS), c.contrast
            assert c.budget in E2E_BUDGETS
    # a cpu-30m run's token measures can support the token claims; the end-to-end ones stay open
    token = [measured(0.1, 0.2, measure=m, split=s) for m, s in probe]
    verdicts = {v.claim.id: v.verdict for v in judge_all(token, budget="cpu-30m")}
    for c in CLAIMS:
        assert verdicts[c.id] == (SUPPORTED if c.budget == "cpu-30m" else UNRESOLVED)


def test_the_issue_end_to_end_claims_are_all_there() -> None:
    """Each end-to-end claim of the issue is one claim, read on the models the issue names."""
    e2e = {(c.measure, c.contrast, c.expected) for c in CLAIMS if c.measure in E2E_MEASURES}
    hat, fixed = "hsa_sft+opd+rl", "fixed_sft"
    assert ("livestream_score", f"{hat}-base", "higher") in e2e
    assert ("variant_score", f"{hat}-base", "higher") in e2e
    assert ("ifeval_prompt_strict", f"{fixed}-base", "lower") in e2e  # the drop after fixed SFT
    assert ("ifeval_prompt_strict", f"{fixed}+opd-{fixed}", "higher") in e2e  # OPD recovers
    assert (  # ... more after fixed-harness SFT than after HSA-SFT
        "ifeval_prompt_strict",
        "(fixed_sft+opd-fixed_sft)-(hsa_sft+opd-hsa_sft)",
        "higher",
    ) in e2e
    assert (  # HSA matters more in SFT than in RL
        "variant_score",
        "(hsa_sft-fixed_sft)-(hsa_sft+opd+rl-hsa_sft+opd+fixed_rl)",
        "higher",
    ) in e2e
    assert ("evolution_error_reduction", f"{hat}-{fixed}", "higher") in e2e


def contrast_result(
    claim: Claim, low: float, high: float, *, n: int = 40, seeds: tuple[float, ...] = ()
) -> ContrastResult:
    diff = (low + high) / 2
    arms = tuple((a, 0.5) for a in contrast_arms(claim.contrast))
    return ContrastResult(
        claim.measure, claim.split, claim.contrast, n, arms, (diff,), diff, low, high, seeds
    )


E2E_CLAIMS = [c for c in CLAIMS if c.measure in E2E_MEASURES]


@pytest.mark.parametrize("claim", E2E_CLAIMS, ids=[c.id for c in E2E_CLAIMS])
def test_each_end_to_end_claims_verdict_reads_its_contrast(claim: Claim) -> None:
    side = 1 if claim.expected == "higher" else -1
    claimed = contrast_result(claim, *sorted((side * 2.0, side * 9.0)))
    other = contrast_result(claim, *sorted((-side * 2.0, -side * 9.0)))
    both = contrast_result(claim, -3.0, 4.0)
    few = contrast_result(claim, *sorted((side * 2.0, side * 9.0)), n=MIN_PAIRS - 1)
    assert judge(claim, [claimed], budget="gpu").verdict == SUPPORTED
    assert judge(claim, [other], budget="gpu").verdict == CONTRADICTED
    assert judge(claim, [both], budget="gpu").verdict == UNRESOLVED
    v = judge(claim, [few], budget="smoke-e2e")
    assert v.verdict == UNRESOLVED and f"{MIN_PAIRS - 1} paired cases, fewer than" in v.reason
    # the numbers behind a verdict are the contrast's, over cases
    v = judge(claim, [claimed], budget="gpu")
    assert f"over {claimed.n} cases" in v.reason
    assert v.to_dict()["evidence"] == {
        "n": claimed.n,
        "diff": claimed.diff,
        "low": claimed.low,
        "high": claimed.high,
    }
    # another claim's contrast on the same measure is not this claim's
    elsewhere = ContrastResult(claim.measure, claim.split, "x-y", 40, (), (5.0,), 5.0, 2.0, 9.0)
    assert judge(claim, [elsewhere], budget="gpu").verdict == UNRESOLVED


def test_an_end_to_end_run_leaves_the_token_claims_open_and_says_which_budget() -> None:
    results = [contrast_result(c, 2.0, 9.0) for c in E2E_CLAIMS]
    for v in judge_all(results, budget="gpu"):
        if v.claim.budget == "cpu-30m":
            assert v.verdict == UNRESOLVED and "needs --budget cpu-30m" in v.reason
        else:
            assert v.measured is not None
