"""A binomial proportion's interval and the sign test of paired preferences."""

from __future__ import annotations

import math
from typing import Final

Z_95: Final = 1.959963984540054
"""The standard normal quantile ``Phi^-1(0.975)`` of a two-sided 95% interval."""


def wilson_interval(successes: int, n: int, z: float = Z_95) -> tuple[float, float] | None:
    """Wilson's score interval of a binomial proportion ``p = successes / n``.

    ``(p + z^2/(2n) -/+ z * sqrt(p(1-p)/n + z^2/(4n^2))) / (1 + z^2/n)`` with ``z = 1.96`` for
    95%: the proportions ``q`` whose score test ``|p - q| / sqrt(q(1-q)/n) <= z`` does not reject.
    Unlike the Wald interval it stays inside [0, 1] and is not empty at ``p`` = 0 or 1.
    Undefined, so ``None``, for ``n = 0``.
    """
    if n <= 0:
        return None
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def sign_test(wins_a: int, wins_b: int) -> float | None:
    """The two-sided exact sign test of ``H0: P(A beats B) = 1/2``, ties left out.

    With ``n = wins_a + wins_b`` and ``k = wins_a``, ``scipy.stats.binomtest(k, n, 0.5)``: for
    ``p = 1/2`` the binomial is symmetric, so the p-value is ``min(1, 2 * P(X <= min(k, n - k)))``
    with ``X ~ Binomial(n, 1/2)``, i.e. ``2 * sum_{i<=min(k,n-k)} C(n, i) / 2^n`` capped at 1.
    Undefined, so ``None``, when every item is a tie (``n = 0``).
    """
    from scipy.stats import binomtest  # type: ignore[import-untyped]

    n = wins_a + wins_b
    if n == 0:
        return None
    return float(binomtest(wins_a, n, 0.5, alternative="two-sided").pvalue)
