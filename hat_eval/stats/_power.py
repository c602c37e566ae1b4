"""How small a difference a paired comparison of ``n`` cases can detect."""

from __future__ import annotations

import math
from statistics import NormalDist


def min_detectable_difference(
    sd_diff: float, n: int, *, alpha: float = 0.05, power: float = 0.8
) -> float:
    """The smallest true mean paired difference a two-sided test detects with ``power``.

    For ``n`` paired differences ``d_i`` with standard deviation ``σ = sd_diff``, the mean
    ``d̄`` is approximately normal with standard error ``σ / sqrt(n)``. A two-sided test of
    ``mean(d) = 0`` at level ``alpha`` rejects when ``|d̄| > z_{1-α/2} σ / sqrt(n)``; against a
    true difference ``δ > 0`` it does so with probability about ``Φ(δ sqrt(n) / σ -
    z_{1-α/2})`` (ignoring the far tail). Setting that to ``power`` and solving for ``δ``:

        MDD = (z_{1-α/2} + z_{power}) σ / sqrt(n),

    with ``z_q = Φ⁻¹(q)`` from :class:`statistics.NormalDist`. At the defaults ``z_{0.975} +
    z_{0.8} ≈ 1.960 + 0.842 = 2.802``, so 100 cases with ``σ = 1`` detect about 0.28.

    Edge cases: ``sd_diff = 0`` gives 0 (identical differences are detected at any size). The
    normal approximation ignores the uncertainty of ``σ``: for ``n`` below about 30 a t-based
    answer is somewhat larger. ``σ`` is the spread of the *differences*, smaller than either
    score's own when cases vary in difficulty (estimate it from a pilot run's pairs).

    Raises:
        ValueError: ``sd_diff`` is negative or not finite, ``n`` is below 1, or ``alpha`` or
            ``power`` is not strictly between 0 and 1.
    """
    if not (math.isfinite(sd_diff) and sd_diff >= 0.0):
        raise ValueError(
            f"sd_diff ({sd_diff}) must be a finite standard deviation >= 0 of the paired "
            "differences"
        )
    if n < 1:
        raise ValueError(f"n ({n}) must be at least 1: the number of paired cases")
    for name, value in (("alpha", alpha), ("power", power)):
        if not 0.0 < value < 1.0:
            raise ValueError(
                f"{name} ({value}) must be strictly between 0 and 1, e.g. alpha=0.05, power=0.8"
            )
    normal = NormalDist()
    z = normal.inv_cdf(1.0 - alpha / 2.0) + normal.inv_cdf(power)
    return z * sd_diff / math.sqrt(n)
