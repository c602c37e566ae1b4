"""Hypothesis tests: a paired bootstrap p-value, and Holm's correction for many of them."""

from __future__ import annotations

import math
from collections.abc import Sequence

from ._bootstrap import _paired_differences, _resampled_means


def paired_p_value(
    a: Sequence[float], b: Sequence[float], *, n_boot: int = 2000, seed: int = 0
) -> float:
    """Two-sided bootstrap p-value of ``mean(a - b) = 0`` for paired scores.

    With ``d_i = a_i - b_i`` and the same ``n_boot`` resampled means ``m*_1..m*_B`` as
    :func:`~hat_eval.stats.paired_bootstrap` with the same ``seed`` (so the p-value and the
    interval are read off one bootstrap distribution), the p-value is

        p = min(1, max(2 * s, 1 / (B + 1))),

    where ``s`` is the share of resampled means on the other side of 0 from the estimate
    ``mean(d)``: ``#{m*_r <= 0} / B`` when ``mean(d) > 0``, ``#{m*_r >= 0} / B`` when
    ``mean(d) < 0`` (a resampled mean of exactly 0 counts against the effect). Doubling makes
    it two-sided; the floor ``1 / (B + 1)`` is the smallest p-value ``B`` resamples can back,
    so no difference reads as ``p = 0``.

    Edge cases: ``mean(d) = 0`` gives ``p = 1``; all differences equal and non-zero (or one
    non-zero pair) give the floor ``1 / (B + 1)``. The p-value is a Monte Carlo estimate:
    another seed moves it by about ``sqrt(p (1 - p) / B)``.

    Raises:
        ValueError: ``a`` and ``b`` differ in length or are empty, a value is not finite
            (drop or impute NaN parts first), or ``n_boot`` is below 1.
    """
    d = _paired_differences(a, b)
    means = _resampled_means(d, n_boot=n_boot, seed=seed)
    estimate = float(d.mean())
    if estimate == 0.0:
        return 1.0
    other_side = (means <= 0.0) if estimate > 0.0 else (means >= 0.0)
    share = float(other_side.sum()) / n_boot
    return min(1.0, max(2.0 * share, 1.0 / (n_boot + 1)))


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm–Bonferroni adjusted p-values, in the order given.

    Sort the ``m`` p-values ascending, ``p_(1) <= ... <= p_(m)``. The adjusted value of the
    ``i``-th smallest is

        p~_(i) = min(1, max_{j <= i} (m - j + 1) p_(j)),

    the step-down procedure of Holm (1979): rejecting every hypothesis with ``p~ <= alpha``
    controls the family-wise error rate at ``alpha`` under any dependence between the tests.
    The running maximum makes the adjusted values monotone in the raw ones (a smaller raw
    p-value never gets a larger adjusted one), and they are capped at 1. Ties keep their input
    order and get the same adjusted value.

    Edge cases: no p-values give ``[]``; one p-value is returned as it is.

    Raises:
        ValueError: A p-value is NaN or outside ``[0, 1]``.
    """
    bad = [(i, p) for i, p in enumerate(p_values) if math.isnan(p) or not 0.0 <= p <= 1.0]
    if bad:
        i, p = bad[0]
        raise ValueError(
            f"p-value {i} ({p}) must be in [0, 1]: pass raw p-values, one per hypothesis"
        )
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted
