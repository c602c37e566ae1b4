"""Standard errors: of a mean, and of a ratio of sums."""

from __future__ import annotations

import math
from collections.abc import Sequence


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
