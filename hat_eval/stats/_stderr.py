"""Standard errors: of a mean, of a ratio of sums, and of a mean when samples share a cluster."""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence


def clustered_stderr(values: Sequence[float], clusters: Sequence[Hashable]) -> float:
    """Cluster-robust standard error of ``mean(values)``, as Inspect's ``stderr(cluster=...)``.

    Samples sharing a cluster id (one case scored under several harness variants, say) are
    not independent, so the plain ``sd / sqrt(N)`` understates the error. With ``N`` values,
    their mean ``x̄``, and ``C`` clusters ``c`` holding the values ``x_i, i ∈ c``:

        SE = sqrt( C / (C - 1) * Σ_c ( Σ_{i ∈ c} (x_i - x̄) )² ) / N.

    This is the sandwich estimator of Miller, "Adding Error Bars to Evals" (arXiv 2411.00640,
    appendix A) with the finite-cluster correction ``C / (C - 1)``, the formula of Inspect's
    ``inspect_ai.scorer.stderr(cluster=...)``, computed the same way (NumPy means and sums), so
    the two agree. With every sample in a cluster of its own it equals the ordinary
    ``sd(ddof=1) / sqrt(N)``.

    Edge cases: fewer than 2 clusters give ``0.0``, Inspect's convention (the between-cluster
    spread cannot be estimated from one cluster: do not read it as certainty).

    Raises:
        ValueError: ``values`` is empty, the two sequences differ in length, a value is not
            finite, or a cluster id is ``None`` or NaN.
    """
    import numpy as np  # loaded on use: importing hat_eval.stats stays light

    if len(values) == 0 or len(values) != len(clusters):
        raise ValueError(
            f"clustered_stderr needs one cluster id per value and at least one value; got "
            f"{len(values)} values and {len(clusters)} cluster ids"
        )
    groups: dict[Hashable, list[float]] = {}
    for i, (value, cluster) in enumerate(zip(values, clusters, strict=True)):
        if cluster is None or (isinstance(cluster, float) and math.isnan(cluster)):
            raise ValueError(
                f"cluster id {i} is {cluster!r}: every value needs a cluster id (its case id, say)"
            )
        if not math.isfinite(value):
            raise ValueError(f"value {i} ({value}) must be finite; drop or impute it first")
        groups.setdefault(cluster, []).append(float(value))
    if len(groups) < 2:
        return 0.0
    arrays = [np.asarray(group, dtype=float) for group in groups.values()]
    mean = float(np.mean(np.concatenate(arrays)))
    between = 0.0
    for array in arrays:
        between += float((array - mean).sum()) ** 2
    c = len(arrays)
    return float(np.sqrt(between * c / (c - 1)) / len(values))


def ratio_stderr(followed: Sequence[float], totals: Sequence[float]) -> float:
    r"""Standard error of a ratio of sums, prompts as clusters.

    For prompts :math:`i = 1..m` with :math:`y_i` instructions followed out of :math:`n_i`,
    the accuracy is :math:`R = \sum y_i / \sum n_i` and its delta-method (cluster-robust)
    standard error is

    .. math:: SE(R) = \frac{\sqrt{\frac{m}{m-1} \sum_i (y_i - R\,n_i)^2}}{\sum_i n_i}.

    With every :math:`n_i = 1` (prompt-level accuracy) this is the usual
    :math:`s / \sqrt{m}` of a mean, with :math:`s` the sample standard deviation: the value
    Inspect's ``stderr()`` gives. Instructions of one prompt share one response, so they are
    not independent; the cluster form does not pretend they are.

    Edge cases: fewer than two prompts, or no instructions, give ``0.0``.
    """
    m = len(followed)
    total = float(sum(totals))
    if m < 2 or total == 0:
        return 0.0
    r = sum(followed) / total
    ss = sum((y - r * n) ** 2 for y, n in zip(followed, totals, strict=True))
    return math.sqrt(m / (m - 1) * ss) / total


def mean_stderr(values: Sequence[float]) -> float:
    """Inspect's ``stderr()``: the sample standard deviation (n - 1) over sqrt(n); 0 below 2.

    :func:`ratio_stderr` with every total 1.
    """
    return ratio_stderr(values, [1.0] * len(values))
