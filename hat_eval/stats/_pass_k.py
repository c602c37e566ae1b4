"""Unbiased pass^k from ``c`` successes in ``n`` trials of one case."""

from __future__ import annotations

import math


def pass_hat_k(n: int, c: int, k: int) -> float:
    """τ-bench's pass^k: the chance that ``k`` trials of a case *all* succeed.

    From ``c`` successes in ``n >= k`` trials of one case, the unbiased estimator is

        pass^k = C(c, k) / C(n, k),

    the share of the ``C(n, k)`` ways to pick ``k`` of the ``n`` trials in which all ``k``
    picked trials succeeded (Yao et al., τ-bench, 2024). It is unbiased for ``p^k`` when the
    trials are independent with success probability ``p``; average it over cases for a
    suite's pass^k. Computed from exact integer binomials, then one division.

    Edge cases: ``c < k`` gives 0, ``c = n`` gives 1, ``k = 1`` gives ``c / n``.

    Raises:
        ValueError: ``n < 1``, ``c`` is outside ``0..n``, or ``k`` is outside ``1..n``.
    """
    if n < 1 or not 0 <= c <= n:
        raise ValueError(
            f"need n >= 1 trials and 0 <= c <= n successes, got n={n}, c={c}: count the "
            "successes among the case's own trials"
        )
    if not 1 <= k <= n:
        raise ValueError(
            f"k ({k}) must be between 1 and n ({n}): pass^k chooses k of the n "
            "trials, so run at least k trials per case or lower k"
        )
    return math.comb(c, k) / math.comb(n, k)
