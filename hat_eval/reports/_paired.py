"""Bootstrap intervals over cases: a paired mean difference, or any statistic of the cases."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any


def _draws(n: int, n_boot: int, seed: int) -> Any:
    """``n_boot`` resamples of ``n`` case indices with replacement (one row each)."""
    import numpy as np

    return np.random.default_rng(seed).integers(0, n, size=(n_boot, n))


def case_bootstrap(
    statistic: Callable[[Sequence[int]], float], n: int, *, n_boot: int = 2000, seed: int = 0
) -> tuple[float, float, float]:
    """A statistic of ``n`` cases and its percentile-bootstrap 95% interval.

    ``statistic`` takes the indices of the cases to use (with repeats) and returns a number,
    NaN where the resample leaves it undefined (a rate with no case in its denominator):
    resamples giving NaN are left out of the interval. Cases are resampled whole, so every
    measure of one case (its answers under several harness versions, say) stays together.

    Returns:
        ``(estimate on all cases, low, high)``; NaN ends when no resample is defined.

    Raises:
        ValueError: ``n`` or ``n_boot`` is below 1.
    """
    import numpy as np

    if n < 1 or n_boot < 1:
        raise ValueError(f"need at least one case and one resample, got n={n}, n_boot={n_boot}")
    estimate = statistic(range(n))
    values = [statistic(row) for row in _draws(n, n_boot, seed).tolist()]
    kept = [v for v in values if not math.isnan(v)]
    if not kept:
        return estimate, math.nan, math.nan
    low, high = np.quantile(kept, [0.025, 0.975])
    return estimate, float(low), float(high)


def paired_bootstrap(
    a: Sequence[float], b: Sequence[float], *, n_boot: int = 2000, seed: int = 0
) -> tuple[float, float, float]:
    """The mean paired difference ``a - b`` and its percentile-bootstrap 95% interval.

    Pair ``i`` is sample ``i`` scored twice (``a[i]`` and ``b[i]``, e.g. two policies on the
    same case), and ``d_i = a_i - b_i``. The estimate is ``mean(d)``. The interval resamples
    the ``n`` pairs with replacement ``n_boot`` times (a NumPy generator seeded with ``seed``,
    so the same inputs give the same interval), takes ``mean(d)`` over each resample, and
    returns the 2.5% and 97.5% quantiles of those means (NumPy's linear interpolation).
    Resampling pairs, not the two columns separately, keeps each case's difficulty in both
    scores, so it cancels in ``d_i``.

    Edge cases: one pair, or all differences equal, gives a zero-width interval at ``mean(d)``.
    The interval is a Monte Carlo estimate: another seed moves its ends slightly.

    Returns:
        ``(mean_diff, low, high)``.

    Raises:
        ValueError: ``a`` and ``b`` differ in length or are empty, a value is not finite
            (drop or impute NaN parts first), or ``n_boot`` is below 1.
    """
    import numpy as np  # loaded on use: importing hat_eval.reports stays light

    x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if x.ndim != 1 or x.shape != y.shape or x.size == 0:
        raise ValueError(
            f"paired scores must be two equal, non-empty sequences; got lengths {x.size} and "
            f"{y.size}"
        )
    if not (np.isfinite(x).all() and np.isfinite(y).all()):
        raise ValueError("paired scores must be finite; drop or impute NaN parts first")
    if n_boot < 1:
        raise ValueError(f"n_boot ({n_boot}) must be at least 1")
    d = x - y
    idx = _draws(d.size, n_boot, seed)
    low, high = np.quantile(d[idx].mean(axis=1), [0.025, 0.975])
    return float(d.mean()), float(low), float(high)
