"""The paired bootstrap against hand-derived cases."""

from __future__ import annotations

import math

import pytest

from hat_eval.stats import paired_bootstrap


def test_constant_difference_gives_a_zero_width_interval() -> None:
    # d_i = 2 for every pair: every resample's mean is 2.
    assert paired_bootstrap([3, 5, 9, 4], [1, 3, 7, 2]) == (2.0, 2.0, 2.0)


def test_one_pair() -> None:
    assert paired_bootstrap([0.75], [0.5]) == (0.25, 0.25, 0.25)


def test_two_pairs_by_hand() -> None:
    # d = (0, 1). A resample of two pairs has mean 0 (p = 1/4), 0.5 (p = 1/2) or 1 (p = 1/4),
    # so with 2,000 resamples about 500 means are 0 and about 500 are 1: the 2.5% quantile is
    # 0 and the 97.5% quantile is 1, and the estimate is mean(d) = 0.5.
    assert paired_bootstrap([1, 1], [1, 0]) == (0.5, 0.0, 1.0)


def test_interval_matches_the_normal_approximation() -> None:
    # d alternates 0 and 2 over 400 pairs: mean 1, population sd 1, so the standard error of
    # the mean is 1 / sqrt(400) = 0.05 and a 95% interval is about 1 +- 1.96 * 0.05 = 1 +- 0.098.
    a = [2.0 if i % 2 else 0.0 for i in range(400)]
    mean, low, high = paired_bootstrap(a, [0.0] * 400)
    assert mean == 1.0
    assert math.isclose(low, 1 - 0.098, abs_tol=0.015)
    assert math.isclose(high, 1 + 0.098, abs_tol=0.015)


def test_swapping_the_sides_negates_and_the_seed_fixes_the_interval() -> None:
    a, b = [0.9, 0.4, 0.7, 1.0, 0.2, 0.6], [0.5, 0.4, 0.1, 0.8, 0.3, 0.2]
    mean, low, high = paired_bootstrap(a, b, seed=3)
    assert paired_bootstrap(a, b, seed=3) == (mean, low, high)
    back = paired_bootstrap(b, a, seed=3)
    assert back[0] == pytest.approx(-mean)
    assert back[1] == pytest.approx(-high) and back[2] == pytest.approx(-low)
    assert low <= mean <= high


@pytest.mark.parametrize(
    ("a", "b", "n_boot", "message"),
    [
        ([1.0, 2.0], [1.0], 10, "equal, non-empty"),
        ([], [], 10, "equal, non-empty"),
        ([1.0, math.nan], [1.0, 2.0], 10, "finite"),
        ([1.0], [1.0], 0, "n_boot"),
    ],
)
def test_bad_input(a: list[float], b: list[float], n_boot: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        paired_bootstrap(a, b, n_boot=n_boot)
