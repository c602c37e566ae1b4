"""The paired bootstrap of a mean difference: two policies scored on the same samples."""

from __future__ import annotations

from collections.abc import Sequence


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
    idx = np.random.default_rng(seed).integers(0, d.size, size=(n_boot, d.size))
    low, high = np.quantile(d[idx].mean(axis=1), [0.025, 0.975])
    return float(d.mean()), float(low), float(high)
