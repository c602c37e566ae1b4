"""Agreement statistics: Krippendorff's alpha, Cohen's kappa, Spearman's rho, bootstrap intervals.

Small functions over reliability matrices (rows are annotators, columns items, NaN missing);
:mod:`hat_eval.judge._agreement` applies them per rubric dimension.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from typing import Final, Literal

import numpy as np
import numpy.typing as npt

from hat_eval.stats import bootstrap_indices, percentile_interval

from ._labels import PREFERENCES, RATING_SCALE, Rating

Kind = Literal["rating", "preference"]

FloatArray = npt.NDArray[np.float64]

ALPHA_THRESHOLD: Final = 0.667
"""Krippendorff's lowest acceptable alpha for tentative conclusions (Content Analysis, 2004)."""

_TIE_CODE: Final = float(PREFERENCES.index("tie"))


class AgreementError(ValueError):
    """Nothing can be computed from the two files (no sample and dimension in common)."""


def domain(kind: Kind) -> tuple[float, ...]:
    """The coded values of a dimension: ``RATING_SCALE`` or the indices of ``PREFERENCES``."""
    if kind == "rating":
        return tuple(float(v) for v in RATING_SCALE)
    return tuple(float(i) for i in range(len(PREFERENCES)))


def encode(value: Rating) -> float:
    """A rating as itself, a preference as its index in ``PREFERENCES``."""
    return float(PREFERENCES.index(value)) if isinstance(value, str) else float(value)


def decode(code: float, kind: Kind) -> Rating:
    """The inverse of ``encode``."""
    return PREFERENCES[int(code)] if kind == "preference" else int(code)


def kind_of(value: Rating) -> Kind:
    """``preference`` for ``A``/``B``/``tie``, ``rating`` for an integer."""
    return "preference" if isinstance(value, str) else "rating"


def majority(values: Sequence[float], kind: Kind) -> tuple[float, bool]:
    """The human majority label of one item, and whether the most votes were tied.

    The majority is the most frequent value. Ties between several most frequent values:

    - preferences: the humans did not agree on a winner, so the majority is ``tie``
      (``A`` vs ``B``, and also ``A`` vs ``tie``);
    - ratings: the tied value closest to the median of all the item's ratings, and of two
      equally close the lower one (``[2, 4]`` gives 2; ``[1, 1, 3, 3, 4]`` gives 3).

    An item with a single label has that label as its majority (and no tie).

    Raises:
        ValueError: ``values`` is empty.
    """
    if not values:
        raise ValueError("majority of no labels: every item needs at least one human label")
    counts = Counter(values)
    top = max(counts.values())
    modes = sorted(v for v, c in counts.items() if c == top)
    if len(modes) == 1:
        return modes[0], False
    if kind == "preference":
        return _TIE_CODE, True
    median = float(np.median(values))
    return min(modes, key=lambda v: (abs(v - median), v)), True


def krippendorff_alpha(reliability: FloatArray, kind: Kind) -> float | None:
    """Krippendorff's alpha, ``1 - D_o / D_e``, from the ``krippendorff`` package.

    ``reliability`` is coders x items with ``NaN`` for missing values; the level is ordinal for
    ratings (with the whole 1-5 scale as the value domain, so unused ratings still count as
    steps) and nominal for preferences. Items with fewer than two values are unpairable and do
    not enter ``D_o`` or ``D_e`` (Krippendorff's definition). Undefined, so ``None``, when no
    item has two values or when all pairable values are equal (``D_e = 0``).
    """
    import krippendorff

    present = ~np.isnan(reliability)
    pairable = present.sum(axis=0) >= 2
    if not pairable.any():
        return None
    values = reliability[:, pairable][present[:, pairable]]
    if np.unique(values).size < 2:
        return None
    level: Literal["ordinal", "nominal"] = "ordinal" if kind == "rating" else "nominal"
    with np.errstate(divide="ignore", invalid="ignore"):
        alpha = krippendorff.alpha(
            reliability_data=reliability, level_of_measurement=level, value_domain=domain(kind)
        )
    return float(alpha) if math.isfinite(alpha) else None


def judge_human_alpha(humans: FloatArray, judge: FloatArray, kind: Kind) -> float | None:
    """Krippendorff's alpha between the judge and the humans, over judge-human pairs only.

    Every human label ``humans[a, i]`` makes one unit of two coders, ``(judge[i], humans[a, i])``,
    and ``krippendorff_alpha`` runs on those units: ``D_o`` is the mean judge-human disagreement
    and ``D_e`` comes from the pooled values (the judge's counted once per human it is paired
    with). Human-human pairs do not enter, so many consistent humans cannot hide an unreliable
    judge (as they would if the judge were one more coder beside them), and the value is on the
    scale of ``krippendorff_alpha(humans)``: a judge as reliable as one more human gets about the
    humans' alpha. With a single human it is the plain two-coder alpha.
    """
    present = ~np.isnan(humans)
    annotators, items = np.nonzero(present)
    pairs = np.vstack([judge[items], humans[annotators, items]])
    return krippendorff_alpha(pairs, kind)


def confusion(judge: FloatArray, reference: FloatArray, kind: Kind) -> npt.NDArray[np.int64]:
    """Counts ``C[r, j]`` of items with reference (human majority) ``r`` and judge value ``j``.

    Rows and columns follow ``domain(kind)``.
    """
    codes = np.asarray(domain(kind))
    k = codes.size
    rows = np.searchsorted(codes, reference)
    cols = np.searchsorted(codes, judge)
    return np.bincount(rows * k + cols, minlength=k * k).reshape(k, k).astype(np.int64)


def cohen_kappa(judge: FloatArray, reference: FloatArray, kind: Kind) -> float | None:
    """Cohen's kappa of the judge against the human majority, from scikit-learn.

    ``kappa = 1 - sum(w * O) / sum(w * E)`` with ``O`` the observed confusion proportions,
    ``E`` the outer product of their margins (agreement by chance) and ``w`` the disagreement
    weights: quadratic ``(i - j)^2`` over the 1-5 scale for ratings, ``1`` off the diagonal for
    preferences. Undefined, so ``None``, when chance disagreement is zero (both raters used a
    single, identical category) or there are no items.
    """
    from sklearn.metrics import cohen_kappa_score

    if judge.size == 0 or _kappa_from_confusion(confusion(judge, reference, kind), kind) is None:
        return None
    kappa = cohen_kappa_score(
        judge,
        reference,
        labels=list(domain(kind)),
        weights="quadratic" if kind == "rating" else None,
    )
    return float(kappa) if math.isfinite(kappa) else None


def _kappa_from_confusion(counts: npt.NDArray[np.int64], kind: Kind) -> float | None:
    """The formula of ``cohen_kappa`` on a confusion matrix; fast enough for the bootstrap.

    scikit-learn's ``cohen_kappa_score`` validates its input on every call (milliseconds), which
    dominates thousands of bootstrap resamples; the tests check both give the same value.
    """
    total = counts.sum()
    if total == 0:
        return None
    k = counts.shape[0]
    observed = counts / total
    expected = np.outer(observed.sum(axis=1), observed.sum(axis=0))
    idx = np.arange(k)
    weights = (idx[:, None] - idx[None, :]) ** 2.0 if kind == "rating" else 1.0 - np.eye(k)
    chance = float((weights * expected).sum())
    if chance <= 0:
        return None
    return 1.0 - float((weights * observed).sum()) / chance


def spearman(judge: FloatArray, reference: FloatArray) -> float | None:
    """Spearman's rho (scipy) between judge and human majority ratings; mid-ranks for ties.

    Undefined, so ``None``, with fewer than three items or when either side is constant.
    """
    from scipy.stats import spearmanr  # type: ignore[import-untyped]

    if judge.size < 3 or np.ptp(judge) == 0 or np.ptp(reference) == 0:
        return None
    rho = spearmanr(judge, reference).statistic
    return float(rho) if math.isfinite(rho) else None


def accuracy(judge: FloatArray, reference: FloatArray) -> float | None:
    """The share of items where the judge equals the human majority (``None`` for no items)."""
    return float(np.mean(judge == reference)) if judge.size else None


def exact_agreement(judge: FloatArray, humans: FloatArray) -> float | None:
    """Per item, the share of its human labels equal to the judge's; then the mean over items.

    Each item weighs the same however many humans labelled it. ``None`` for no items.
    """
    return _per_item_mean(np.abs(humans - judge[None, :]) == 0, humans)


def within_one_agreement(judge: FloatArray, humans: FloatArray) -> float | None:
    """As ``exact_agreement``, counting a human rating within 1 of the judge's as agreeing."""
    return _per_item_mean(np.abs(humans - judge[None, :]) <= 1, humans)


def _per_item_mean(hits: npt.NDArray[np.bool_], humans: FloatArray) -> float | None:
    present = ~np.isnan(humans)
    n = present.sum(axis=0)
    if not (n > 0).any():
        return None
    share = (hits & present).sum(axis=0)[n > 0] / n[n > 0]
    return float(share.mean())


def bootstrap_intervals(
    statistic: Callable[[npt.NDArray[np.intp]], Mapping[str, float | None]],
    n_items: int,
    *,
    n_boot: int = 1000,
    seed: int = 0,
    confidence: float = 0.95,
) -> dict[str, tuple[float, float] | None]:
    """Percentile bootstrap intervals, resampling items with replacement.

    Each of ``n_boot`` resamples draws ``n_items`` item indices uniformly with replacement
    (a row of :func:`hat_eval.stats.bootstrap_indices` seeded with ``seed``) and evaluates
    ``statistic`` on them; an item drawn twice counts twice, and its labels (humans and judge)
    travel together. The interval of a statistic is the ``(1 - confidence) / 2`` and
    ``(1 + confidence) / 2`` quantiles of its defined resample values
    (:func:`hat_eval.stats.percentile_interval`). A statistic undefined in more than half of
    the resamples (say alpha on resamples that hold no pairable item) gets ``None``; the result
    is empty with ``n_boot = 0`` or no items.
    """
    if n_boot <= 0 or n_items == 0:
        return {}
    draws: defaultdict[str, list[float]] = defaultdict(list)  # a name undefined everywhere too
    for idx in bootstrap_indices(n_items, n_boot=n_boot, seed=seed):
        for name, value in statistic(idx).items():
            draws[name] += [] if value is None else [value]
    return {
        name: percentile_interval(values, confidence=confidence)
        if len(values) * 2 >= n_boot
        else None
        for name, values in sorted(draws.items())
    }
