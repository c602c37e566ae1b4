"""Percentile bootstraps over cases: the one place hat-eval draws resamples.

Every resampling statistic in the package draws its case indices here, with
``numpy.random.default_rng(seed).integers(0, n, size=(n_boot, n))``, and reads its interval here,
with :func:`percentile_interval`. One seed therefore gives one set of resamples whichever module
asks for it, and a paired interval and its p-value (:func:`~hat_eval.stats.paired_p_value`) are
read off the same resampled means.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

_LEVEL_DECIMALS = 12
"""Quantile levels are rounded to this many decimals, so 0.95 reads exactly the 2.5% quantile."""


def bootstrap_indices(n: int, *, n_boot: int, seed: int) -> npt.NDArray[np.int64]:
    """``n_boot`` resamples of ``n`` case indices drawn uniformly with replacement.

    Row ``r`` is the ``r``-th resample: ``n`` indices in ``0..n-1``, each case drawn with
    probability ``1/n`` independently, so a case may appear several times or not at all. The
    draws are ``numpy.random.default_rng(seed).integers(0, n, size=(n_boot, n))``; row ``r``
    equals the ``r``-th of ``n_boot`` successive ``rng.integers(0, n, size=n)`` calls on a
    generator seeded the same way, so code that drew resamples one at a time gets the same ones.

    Raises:
        ValueError: ``n`` or ``n_boot`` is below 1.
    """
    import numpy as np  # loaded on use: importing hat_eval.stats stays light

    if n < 1 or n_boot < 1:
        raise ValueError(
            f"a bootstrap needs at least one case and one resample, got n={n}, n_boot={n_boot}: "
            "pass a non-empty sample and n_boot >= 1"
        )
    return np.random.default_rng(seed).integers(0, n, size=(n_boot, n))


def percentile_interval(values: Any, *, confidence: float = 0.95) -> tuple[float, float]:
    """The percentile interval of bootstrap ``values``: their two tail quantiles.

    With ``t = (1 - confidence) / 2`` the interval is ``(Q(t), Q(1 - t))``, ``Q`` being NumPy's
    default quantile (linear interpolation between order statistics: for sorted values
    ``x_0..x_{m-1}``, ``Q(q) = x_i + f (x_{i+1} - x_i)`` with ``i + f = q (m - 1)``). ``t`` is
    rounded to 12 decimals, so ``confidence=0.95`` reads exactly the 2.5% and 97.5% quantiles
    rather than a level one rounding error above 2.5%.

    Edge cases: one value, or all values equal, gives a zero-width interval. NaN is not left
    out here (a NaN value makes both ends NaN): drop undefined resamples first, as
    :func:`case_bootstrap` does.

    Raises:
        ValueError: ``values`` is empty, or ``confidence`` is not strictly between 0 and 1.
    """
    import numpy as np

    if not 0.0 < confidence < 1.0:
        raise ValueError(
            f"confidence ({confidence}) must be strictly between 0 and 1, e.g. 0.95 for a 95% "
            "interval"
        )
    x = np.asarray(values, dtype=float)
    if x.size == 0:
        raise ValueError("a percentile interval needs at least one bootstrap value, got none")
    tail = round((1.0 - confidence) / 2.0, _LEVEL_DECIMALS)
    low, high = np.quantile(x, [tail, 1.0 - tail])
    return float(low), float(high)


def case_bootstrap(
    statistic: Callable[[Sequence[int]], float],
    n: int,
    *,
    n_boot: int = 2000,
    seed: int = 0,
    confidence: float = 0.95,
) -> tuple[float, float, float]:
    """A statistic of ``n`` cases and its percentile-bootstrap interval (95% by default).

    ``statistic`` takes the indices of the cases to use (with repeats, as a list of ints) and
    returns a number, NaN where the resample leaves it undefined (a rate with no case in its
    denominator). The estimate is ``statistic(range(n))``. Each of ``n_boot`` resamples is a
    row of :func:`bootstrap_indices`; resamples giving NaN are left out, and the interval is
    :func:`percentile_interval` of the rest. Cases are resampled whole, so every measure of one
    case (its answers under several harness versions, say) stays together.

    Edge cases: with no defined resample both ends are NaN; with one case every resample is
    that case, so the interval has zero width.

    Returns:
        ``(estimate on all cases, low, high)``.

    Raises:
        ValueError: ``n`` or ``n_boot`` is below 1, or ``confidence`` is not in (0, 1).
    """
    draws = bootstrap_indices(n, n_boot=n_boot, seed=seed)
    estimate = statistic(range(n))
    values = [statistic(row) for row in draws.tolist()]
    kept = [v for v in values if not math.isnan(v)]
    if not kept:
        return estimate, math.nan, math.nan
    low, high = percentile_interval(kept, confidence=confidence)
    return estimate, low, high


def _paired_differences(a: Sequence[float], b: Sequence[float]) -> npt.NDArray[np.float64]:
    """``d_i = a_i - b_i`` for paired scores, checked: equal lengths, non-empty, finite.

    Raises:
        ValueError: ``a`` and ``b`` differ in length or are empty, or a value is not finite.
    """
    import numpy as np

    x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if x.ndim != 1 or x.shape != y.shape or x.size == 0:
        raise ValueError(
            f"paired scores must be two equal, non-empty sequences; got lengths {x.size} and "
            f"{y.size}: pass one score per case on each side, in the same case order"
        )
    if not (np.isfinite(x).all() and np.isfinite(y).all()):
        raise ValueError("paired scores must be finite; drop or impute NaN parts first")
    return x - y


def _resampled_means(
    d: npt.NDArray[np.float64], *, n_boot: int, seed: int
) -> npt.NDArray[np.float64]:
    """``mean(d)`` over each of ``n_boot`` resamples of the pairs (rows of the draws)."""
    return d[bootstrap_indices(d.size, n_boot=n_boot, seed=seed)].mean(axis=1)


def paired_bootstrap(
    a: Sequence[float],
    b: Sequence[float],
    *,
    n_boot: int = 2000,
    seed: int = 0,
    confidence: float = 0.95,
) -> tuple[float, float, float]:
    """The mean paired difference ``a - b`` and its percentile-bootstrap interval (95%).

    Pair ``i`` is sample ``i`` scored twice (``a[i]`` and ``b[i]``, e.g. two policies on the
    same case), and ``d_i = a_i - b_i``. The estimate is ``mean(d)``. The interval resamples
    the ``n`` pairs with replacement ``n_boot`` times (:func:`bootstrap_indices`, seeded with
    ``seed``, so the same inputs give the same interval), takes ``mean(d)`` over each resample,
    and returns the ``(1 - confidence) / 2`` and ``(1 + confidence) / 2`` quantiles of those
    means (:func:`percentile_interval`; 2.5% and 97.5% by default).
    Resampling pairs, not the two columns separately, keeps each case's difficulty in both
    scores, so it cancels in ``d_i``.

    Edge cases: one pair, or all differences equal, gives a zero-width interval at ``mean(d)``.
    The interval is a Monte Carlo estimate: another seed moves its ends slightly.

    Returns:
        ``(mean_diff, low, high)``.

    Raises:
        ValueError: ``a`` and ``b`` differ in length or are empty, a value is not finite
            (drop or impute NaN parts first), ``n_boot`` is below 1, or ``confidence`` is not
            in (0, 1).
    """
    d = _paired_differences(a, b)
    means = _resampled_means(d, n_boot=n_boot, seed=seed)
    low, high = percentile_interval(means, confidence=confidence)
    return float(d.mean()), low, high
