"""hat_eval.stats against hand-derived values, closed forms, enumeration and Inspect."""

from __future__ import annotations

import math
import subprocess
import sys
from collections.abc import Sequence
from itertools import combinations

import numpy as np
import pytest
from inspect_ai.scorer import SampleScore, Score, stderr

from hat_eval.stats import (
    bootstrap_indices,
    case_bootstrap,
    holm,
    mean_stderr,
    min_detectable_difference,
    paired_bootstrap,
    paired_p_value,
    pass_hat_k,
    percentile_interval,
    ratio_stderr,
)


def test_importing_the_package_loads_no_numpy() -> None:
    code = "import sys, hat_eval.stats; print('numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# --- resampling ----------------------------------------------------------------------------


def test_bootstrap_indices_are_the_seeded_generator_rows() -> None:
    idx = bootstrap_indices(7, n_boot=5, seed=4)
    rng = np.random.default_rng(4)
    assert idx.shape == (5, 7)
    for row in idx:  # drawing one resample at a time gives the same resamples
        assert row.tolist() == rng.integers(0, 7, size=7).tolist()
    assert (bootstrap_indices(7, n_boot=5, seed=5) != idx).any()


@pytest.mark.parametrize(("n", "n_boot"), [(0, 10), (3, 0)])
def test_bootstrap_indices_reject_empty_draws(n: int, n_boot: int) -> None:
    with pytest.raises(ValueError, match=f"n={n}, n_boot={n_boot}"):
        bootstrap_indices(n, n_boot=n_boot, seed=0)


def test_percentile_interval_by_hand() -> None:
    # 0..100: Q(q) = 100 q exactly, so the 95% interval is (2.5, 97.5) and the 80% one (10, 90).
    values = list(range(101))
    assert percentile_interval(values) == (2.5, 97.5)
    assert percentile_interval(values, confidence=0.8) == (10.0, 90.0)
    assert percentile_interval([3.0]) == (3.0, 3.0)


@pytest.mark.parametrize(("values", "confidence"), [([], 0.95), ([1.0], 1.0), ([1.0], 0.0)])
def test_percentile_interval_bad_input(values: list[float], confidence: float) -> None:
    with pytest.raises(ValueError):
        percentile_interval(values, confidence=confidence)


# --- case and paired bootstraps --------------------------------------------------------------


def test_case_bootstrap_contains_the_estimate_and_is_seeded() -> None:
    x = np.random.default_rng(2).normal(size=60)

    def mean(idx: Sequence[int]) -> float:
        return float(x[list(idx)].mean())

    est, low, high = case_bootstrap(mean, 60, seed=1)
    assert est == pytest.approx(x.mean())
    assert low < est < high
    # a mean: the interval is about est +- 1.96 sd / sqrt(60)
    assert high - low == pytest.approx(2 * 1.96 * x.std(ddof=1) / math.sqrt(60), rel=0.15)
    assert case_bootstrap(mean, 60, seed=1) == (est, low, high)
    assert case_bootstrap(mean, 60, seed=2) != (est, low, high)


def test_case_bootstrap_leaves_undefined_resamples_out() -> None:
    # defined only when case 0 is drawn; then the statistic is the share of case-0 draws.
    def share_of_zero(idx: Sequence[int]) -> float:
        got = list(idx)
        return got.count(0) / len(got) if 0 in got else math.nan

    est, low, high = case_bootstrap(share_of_zero, 2, n_boot=400, seed=0)
    # two cases: a defined resample holds case 0 once (share 1/2) or twice (share 1)
    assert est == 0.5 and low == 0.5 and high == 1.0
    # never defined: NaN ends, not an error
    assert all(math.isnan(v) for v in case_bootstrap(lambda idx: math.nan, 3, n_boot=10))


def test_paired_bootstrap_by_hand_and_seeded() -> None:
    assert paired_bootstrap([3, 5, 9, 4], [1, 3, 7, 2]) == (2.0, 2.0, 2.0)
    assert paired_bootstrap([1, 1], [1, 0]) == (0.5, 0.0, 1.0)
    a, b = [0.9, 0.4, 0.7, 1.0, 0.2, 0.6], [0.5, 0.4, 0.1, 0.8, 0.3, 0.2]
    mean, low, high = paired_bootstrap(a, b, seed=3)
    assert mean == pytest.approx(0.25) and low <= mean <= high
    assert paired_bootstrap(a, b, seed=3) == (mean, low, high)
    # the resamples are bootstrap_indices: the interval is the quantiles of their means
    d = np.subtract(a, b)
    means = d[bootstrap_indices(6, n_boot=2000, seed=3)].mean(axis=1)
    assert (low, high) == tuple(np.quantile(means, [0.025, 0.975]))


def test_paired_bootstrap_wider_at_higher_confidence() -> None:
    a = np.random.default_rng(0).normal(size=80).tolist()
    _, low95, high95 = paired_bootstrap(a, [0.0] * 80)
    _, low99, high99 = paired_bootstrap(a, [0.0] * 80, confidence=0.99)
    assert low99 < low95 < high95 < high99


# --- p-values -------------------------------------------------------------------------------


def test_paired_p_value_by_hand() -> None:
    # d = (0, 1): resampled means are 0 (p = 1/4), 0.5 or 1, so the share at or below 0 is
    # about 1/4 and p about 1/2.
    p = paired_p_value([1, 1], [1, 0], n_boot=4000)
    assert p == pytest.approx(0.5, abs=0.04)
    # it is exactly twice the share of resampled means <= 0 under the same draws
    means = np.array([0.0, 1.0])[bootstrap_indices(2, n_boot=4000, seed=0)].mean(axis=1)
    assert p == 2 * float((means <= 0).sum()) / 4000
    # all differences equal: no resample on the other side, so the floor 1 / (B + 1)
    assert paired_p_value([3, 5, 9], [1, 3, 7], n_boot=999) == 1 / 1000
    assert paired_p_value([1, 2, 3], [1, 2, 3]) == 1.0  # mean difference exactly 0
    # symmetric in the sides, and capped at 1
    a, b = [0.9, 0.4, 0.7, 1.0, 0.2, 0.6], [0.5, 0.4, 0.1, 0.8, 0.3, 0.2]
    assert paired_p_value(a, b, seed=3) == paired_p_value(b, a, seed=3)
    assert paired_p_value([1, -1, 0.001], [0, 0, 0]) <= 1.0


def test_paired_p_value_agrees_with_the_interval() -> None:
    rng = np.random.default_rng(8)
    for shift, significant in ((0.0, False), (0.8, True)):
        a = (rng.normal(size=100) + shift).tolist()
        _, low, high = paired_bootstrap(a, [0.0] * 100)
        p = paired_p_value(a, [0.0] * 100)
        assert (p < 0.05) is significant and (not low <= 0 <= high) is significant


def test_holm_textbook_example() -> None:
    # m = 4. Sorted: 0.005, 0.01, 0.03, 0.04, times 4, 3, 2, 1: 0.02, 0.03, 0.06, 0.04; the
    # running maximum lifts the last to 0.06. Back in input order:
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    # capped at 1, monotone, ties equal
    assert holm([0.5, 0.4, 0.4]) == pytest.approx([1.0, 1.0, 1.0])
    assert holm([0.02, 0.02, 0.3]) == pytest.approx([0.06, 0.06, 0.3])
    assert holm([0.2]) == [0.2]
    assert holm([]) == []


def test_holm_is_never_below_raw_nor_above_bonferroni() -> None:
    p = np.random.default_rng(3).uniform(size=12).tolist()
    adj = holm(p)
    order = np.argsort(p)
    assert all(p_i <= a_i <= min(1.0, 12 * p_i) for p_i, a_i in zip(p, adj, strict=True))
    assert np.all(np.diff(np.asarray(adj)[order]) >= 0)


@pytest.mark.parametrize("bad", [-0.1, 1.2, math.nan])
def test_holm_rejects_non_probabilities(bad: float) -> None:
    with pytest.raises(ValueError, match=r"p-value 1 \(.*\) must be in \[0, 1\]"):
        holm([0.1, bad])


# --- standard error of a mean ----------------------------------------------------------------


def test_mean_stderr_equals_inspects_stderr() -> None:
    """The suites' per-part standard error is Inspect's ``stderr()`` and the unit-weight ratio."""
    values = [1.0, 0.0, 1.0, 1.0, 0.5, 0.0, 1.0]
    scores = [SampleScore(score=Score(value=v), sample_id=i) for i, v in enumerate(values)]
    inspect = float(stderr()(scores))  # type: ignore[arg-type]
    assert mean_stderr(values) == pytest.approx(inspect, rel=1e-12)
    assert mean_stderr(values) == pytest.approx(ratio_stderr(values, [1.0] * len(values)))
    assert mean_stderr([1.0]) == 0.0  # below two values: Inspect's 0


# --- minimum detectable difference ------------------------------------------------------------


def test_min_detectable_difference_closed_form() -> None:
    z975, z80, z90, z995 = (
        1.959963984540054,
        0.8416212335729143,
        1.2815515655446004,
        2.5758293035489,
    )
    assert min_detectable_difference(1.0, 100) == pytest.approx((z975 + z80) / 10, rel=1e-12)
    assert min_detectable_difference(0.3, 49, alpha=0.01, power=0.9) == pytest.approx(
        (z995 + z90) * 0.3 / 7, rel=1e-12
    )
    assert min_detectable_difference(0.0, 10) == 0.0
    # four times the cases halve the detectable difference
    assert min_detectable_difference(2.0, 400) == pytest.approx(
        min_detectable_difference(2.0, 100) / 2
    )


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"sd_diff": -1.0, "n": 10}, r"sd_diff \(-1.0\)"),
        ({"sd_diff": math.nan, "n": 10}, r"sd_diff \(nan\)"),
        ({"sd_diff": 1.0, "n": 0}, r"n \(0\) must be at least 1"),
        ({"sd_diff": 1.0, "n": 10, "alpha": 0.0}, r"alpha \(0.0\)"),
        ({"sd_diff": 1.0, "n": 10, "power": 1.0}, r"power \(1.0\)"),
    ],
)
def test_min_detectable_difference_bad_input(kwargs: dict[str, float], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        min_detectable_difference(**kwargs)  # type: ignore[arg-type]


# --- pass^k -------------------------------------------------------------------------------------


def _enumerated(n: int, c: int, k: int) -> float:
    """Over every k-subset of n trials (the first c successes): the share where all pass."""
    subsets = list(combinations(range(n), k))
    return sum(all(t < c for t in s) for s in subsets) / len(subsets)


@pytest.mark.parametrize("n", range(1, 7))
def test_pass_k_against_enumeration(n: int) -> None:
    for c in range(n + 1):
        for k in range(1, n + 1):
            assert pass_hat_k(n, c, k) == pytest.approx(_enumerated(n, c, k), abs=1e-12), (n, c, k)


def test_pass_k_by_hand() -> None:
    # 4 trials, 2 successes, k = 2: one of the C(4, 2) = 6 pairs is both successes, one both
    # failures.
    assert pass_hat_k(4, 2, 2) == pytest.approx(1 / 6)
    assert pass_hat_k(8, 3, 1) == 3 / 8
    assert pass_hat_k(5, 5, 5) == 1.0 and pass_hat_k(5, 4, 5) == 0.0


@pytest.mark.parametrize(
    ("n", "c", "k", "message"),
    [
        (3, 1, 4, r"k \(4\) must be between 1 and n \(3\)"),
        (3, 1, 0, r"k \(0\) must be between 1 and n \(3\)"),
        (3, 4, 2, "n=3, c=4"),
        (3, -1, 2, "n=3, c=-1"),
        (0, 0, 1, "n=0, c=0"),
    ],
)
def test_pass_k_bad_input(n: int, c: int, k: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        pass_hat_k(n, c, k)
