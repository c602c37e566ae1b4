"""Agreement between a judge and human annotators: small functions, then one report.

Conventions shared by every function here:

- A dimension is a *rating* dimension (integers on ``RATING_SCALE``, ordinal) or a *preference*
  dimension (``A``/``B``/``tie``, nominal). Values are coded as floats: a rating as itself, a
  preference as its index in ``PREFERENCES``; a missing label is ``NaN``.
- ``humans`` is a reliability matrix, annotators x items (``NaN`` where an annotator did not
  label an item); ``judge`` and ``reference`` are vectors over the same items.
- A statistic that is undefined on its input returns ``None``, never ``NaN`` or a default.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from ._labels import JudgeScore, Label, LabelError
from ._statistics import (
    ALPHA_THRESHOLD,
    AgreementError,
    FloatArray,
    Kind,
    _kappa_from_confusion,
    accuracy,
    bootstrap_intervals,
    cohen_kappa,
    confusion,
    decode,
    domain,
    encode,
    exact_agreement,
    judge_human_alpha,
    kind_of,
    krippendorff_alpha,
    majority,
    spearman,
    within_one_agreement,
)


@dataclass(frozen=True)
class DimensionData:
    """The matched labels of one dimension, coded: the input of ``dimension_agreement``."""

    dimension: str
    kind: Kind
    sample_ids: tuple[str, ...]
    annotators: tuple[str, ...]
    humans: FloatArray
    """Annotators x items, ``NaN`` where an annotator did not label the item."""
    judge: FloatArray
    """The judge's value per item (coded; a raw score before calibration may be fractional)."""

    def pairs(self, items: npt.NDArray[np.intp]) -> tuple[FloatArray, FloatArray]:
        """Every (judge value, human label) pair of the given items."""
        sub = self.humans[:, items]
        rows, cols = np.nonzero(~np.isnan(sub))
        return self.judge[items][cols], sub[rows, cols]


@dataclass(frozen=True)
class DimensionAgreement:
    """The agreement statistics of one dimension and their bootstrap intervals."""

    dimension: str
    kind: Kind
    n_items: int
    n_annotators: int
    n_human_labels: int
    n_single_label_items: int
    n_majority_ties: int
    statistics: Mapping[str, float | None]
    intervals: Mapping[str, tuple[float, float] | None]
    confusion: tuple[tuple[int, ...], ...]
    flagged: bool
    notes: tuple[str, ...]

    def with_intervals(self, names: Iterable[str]) -> dict[str, Any]:
        """The statistics ``names``, each beside its interval as ``<name>_ci`` (None: none)."""
        out: dict[str, Any] = {}
        for name in names:
            out[name] = self.statistics.get(name)
            ci = self.intervals.get(name)
            out[f"{name}_ci"] = list(ci) if ci is not None else None
        return out

    def to_json(self) -> dict[str, Any]:
        """The dimension's entry in ``agreement.json``: each statistic beside its ``_ci``."""
        out: dict[str, Any] = {
            "kind": self.kind,
            "n_items": self.n_items,
            "n_annotators": self.n_annotators,
            "n_human_labels": self.n_human_labels,
            "n_single_label_items": self.n_single_label_items,
            "n_majority_ties": self.n_majority_ties,
        }
        out.update(self.with_intervals(self.statistics))
        out["confusion_matrix"] = {
            "rows": "human majority",
            "columns": "judge",
            "labels": [decode(c, self.kind) for c in domain(self.kind)],
            "counts": [list(row) for row in self.confusion],
        }
        out["flagged"] = self.flagged
        out["notes"] = list(self.notes)
        return out


def _statistics(
    data: DimensionData, reference: FloatArray, idx: npt.NDArray[np.intp], *, fast: bool
) -> dict[str, float | None]:
    """:func:`dimension_agreement`'s statistics over the items ``idx`` (``fast``: in a resample)."""
    kind = data.kind
    humans, judge, ref = data.humans[:, idx], data.judge[idx], reference[idx]
    kappa = (
        _kappa_from_confusion(confusion(judge, ref, kind), kind)
        if fast
        else cohen_kappa(judge, ref, kind)
    )
    out = {
        "krippendorff_alpha_humans": krippendorff_alpha(humans, kind),
        "krippendorff_alpha_judge_humans": judge_human_alpha(humans, judge, kind),
        "cohen_kappa": kappa,
        "accuracy": accuracy(judge, ref),
        "exact_agreement": exact_agreement(judge, humans),
    }
    if kind == "rating":
        out["within_1_agreement"] = within_one_agreement(judge, humans)
        out["spearman"] = spearman(judge, ref)
    return out


def _notes(
    point: dict[str, float | None],
    per_item: npt.NDArray[np.intp],
    n_ties: int,
    alpha_threshold: float,
) -> list[str]:
    """Why a statistic is undefined, the flag's reason, and the tied majorities."""
    notes = []
    if point["krippendorff_alpha_humans"] is None:
        if (per_item < 2).all():
            notes.append(
                "human-human alpha undefined: every item has a single human label "
                "(a single annotator); the other statistics use that label"
            )
        else:
            notes.append("human-human alpha undefined: all paired human labels are identical")
    alpha_jh = point["krippendorff_alpha_judge_humans"]
    if alpha_jh is None:
        notes.append("judge-human alpha undefined: all judge and human labels are identical")
    elif alpha_jh < alpha_threshold:
        notes.append(f"judge-human alpha {alpha_jh:.3f} is below {alpha_threshold}")
    if point["cohen_kappa"] is None:
        notes.append("kappa undefined: judge and majority use one and the same category")
    if n_ties:
        notes.append(f"{n_ties} item(s) had tied human votes (see majority rules)")
    return notes


def dimension_agreement(
    data: DimensionData,
    *,
    n_boot: int = 1000,
    seed: int = 0,
    confidence: float = 0.95,
    alpha_threshold: float = ALPHA_THRESHOLD,
) -> DimensionAgreement:
    """All the statistics of one dimension, with bootstrap intervals resampling items.

    - ``krippendorff_alpha_humans``: alpha among the humans (``None`` with one annotator per
      item: nothing to pair).
    - ``krippendorff_alpha_judge_humans``: alpha over judge-human pairs (see
      ``judge_human_alpha``).
    - ``cohen_kappa``, ``accuracy``: the judge against the human majority (see ``majority``);
      items with one human label use that label.
    - ``exact_agreement``: the judge against each human label (see ``exact_agreement``); for
      ratings also ``within_1_agreement`` and ``spearman`` (against the majority).

    The dimension is flagged when the judge-human alpha is below ``alpha_threshold`` or
    undefined.
    """
    kind = data.kind
    n_items = data.judge.size
    present = ~np.isnan(data.humans)
    per_item = present.sum(axis=0)
    majorities = [
        majority(list(data.humans[present[:, i], i]), kind) for i in range(data.humans.shape[1])
    ]
    reference = np.array([m for m, _ in majorities], dtype=np.float64)
    n_ties = sum(tied for _, tied in majorities)

    point = _statistics(data, reference, np.arange(n_items), fast=False)
    intervals = bootstrap_intervals(
        lambda idx: _statistics(data, reference, idx, fast=True),
        n_items,
        n_boot=n_boot,
        seed=seed,
        confidence=confidence,
    )
    intervals = {name: (intervals.get(name) if point[name] is not None else None) for name in point}

    alpha_jh = point["krippendorff_alpha_judge_humans"]
    notes = _notes(point, per_item, n_ties, alpha_threshold)
    return DimensionAgreement(
        dimension=data.dimension,
        kind=kind,
        n_items=n_items,
        n_annotators=len(data.annotators),
        n_human_labels=int(present.sum()),
        n_single_label_items=int((per_item == 1).sum()),
        n_majority_ties=n_ties,
        statistics=point,
        intervals=intervals,
        confusion=tuple(
            tuple(int(c) for c in row) for row in confusion(data.judge, reference, kind)
        ),
        flagged=alpha_jh is None or alpha_jh < alpha_threshold,
        notes=tuple(notes),
    )


Key = tuple[str, str]
"""A (sample id, dimension) pair."""


K = TypeVar("K", Label, JudgeScore)
"""A record keyed by sample and dimension, with where it was read: a label or a judge score."""


def by_annotator(labels: Sequence[Label]) -> dict[Key, dict[str, Label]]:
    """The labels by (sample id, dimension), then by annotator.

    Raises:
        LabelError: An annotator labels the same sample and dimension twice.
    """
    human: dict[Key, dict[str, Label]] = defaultdict(dict)
    for label in labels:
        key = (label.sample_id, label.dimension)
        if label.annotator in human[key]:
            first = human[key][label.annotator]
            raise LabelError(
                f"{label.where}: annotator {label.annotator!r} labels sample {label.sample_id!r} "
                f"on {label.dimension!r} a second time (first at {first.where}); keep one"
            )
        human[key][label.annotator] = label
    return human


def one_score_each(scores: Sequence[K]) -> dict[Key, K]:
    """The judge's scores by (sample id, dimension).

    Raises:
        LabelError: The judge scores a sample and dimension twice.
    """
    judged: dict[Key, K] = {}
    for score in scores:
        key = (score.sample_id, score.dimension)
        if key in judged:
            raise LabelError(
                f"{score.where}: a second judge score for sample {score.sample_id!r} on "
                f"{score.dimension!r} (first at {judged[key].where}); the scores file holds one "
                f"score per sample and dimension"
            )
        judged[key] = score
    return judged


def dimension_data(
    human: Mapping[Key, Mapping[str, Label]],
    keys: Sequence[Key],
    kind: Callable[[str], Kind],
    judge: Callable[[Key], float],
) -> list[DimensionData]:
    """Per dimension of ``keys`` (sorted): its humans' matrix beside the ``judge`` values.

    The matrix is annotators x sample ids (both sorted) of the coded labels (``encode``) that
    ``human`` (from :func:`by_annotator`) holds for ``keys``, ``NaN`` where an annotator did not
    label the sample; ``kind`` gives each dimension's kind.
    """
    by_dimension: defaultdict[str, list[str]] = defaultdict(list)
    for sample_id, dimension in sorted(keys):
        by_dimension[dimension].append(sample_id)
    out = []
    for dimension, sample_ids in sorted(by_dimension.items()):
        annotators = sorted({a for s in sample_ids for a in human[(s, dimension)]})
        row = {a: i for i, a in enumerate(annotators)}
        matrix = np.full((len(annotators), len(sample_ids)), np.nan)
        for j, sample_id in enumerate(sample_ids):
            for annotator, label in human[(sample_id, dimension)].items():
                matrix[row[annotator], j] = encode(label.rating)
        values = np.array([judge((s, dimension)) for s in sample_ids])
        out.append(
            DimensionData(
                dimension, kind(dimension), tuple(sample_ids), tuple(annotators), matrix, values
            )
        )
    return out


@dataclass(frozen=True)
class Matched:
    """Human labels and judge scores grouped by dimension, and what did not match."""

    dimensions: tuple[DimensionData, ...]
    unlabelled_scores: tuple[tuple[str, str], ...]
    """(sample id, dimension) pairs the judge scored but no human labelled."""
    unscored_labels: tuple[tuple[str, str], ...]
    """(sample id, dimension) pairs humans labelled but the judge did not score."""


def match(labels: Sequence[Label], scores: Sequence[Label]) -> Matched:
    """Group the labels by dimension and keep the (sample, dimension) pairs both files hold.

    Raises:
        LabelError: An annotator labels the same sample and dimension twice; the judge scores
            a sample and dimension twice; a dimension mixes ratings and preferences.
        AgreementError: No sample and dimension is in both files.
    """
    human = by_annotator(labels)
    judged = one_score_each(scores)

    kinds: dict[str, tuple[Kind, Label]] = {}
    for label in [*labels, *scores]:
        kind = kind_of(label.rating)
        seen = kinds.setdefault(label.dimension, (kind, label))
        if seen[0] != kind:
            raise LabelError(
                f"{label.where}: dimension {label.dimension!r} mixes ratings and preferences "
                f"({label.rating!r} here, {seen[1].rating!r} at {seen[1].where}); a dimension "
                f"is rated 1-5 or judged A/B/tie, not both"
            )

    common = sorted(set(human) & set(judged))
    if not common:
        raise AgreementError(
            "no sample and dimension is in both files: the scores' sample ids or dimension "
            "names do not match the labels'"
        )
    dimensions = dimension_data(
        human, common, lambda d: kinds[d][0], lambda key: encode(judged[key].rating)
    )
    return Matched(
        dimensions=tuple(dimensions),
        unlabelled_scores=tuple(sorted(set(judged) - set(human))),
        unscored_labels=tuple(sorted(set(human) - set(judged))),
    )


@dataclass(frozen=True)
class AgreementReport:
    """The agreement of a judge with human labels, per dimension (``agreement.json``)."""

    dimensions: tuple[DimensionAgreement, ...]
    unlabelled_scores: tuple[tuple[str, str], ...]
    unscored_labels: tuple[tuple[str, str], ...]
    n_boot: int
    seed: int
    confidence: float
    alpha_threshold: float

    @property
    def flagged(self) -> tuple[str, ...]:
        """The dimensions whose judge-human alpha is below the threshold or undefined."""
        return tuple(d.dimension for d in self.dimensions if d.flagged)

    def to_json(self) -> dict[str, Any]:
        """The report as JSON: settings, flagged dimensions, then one entry per dimension."""
        return {
            "bootstrap": {
                "resamples": self.n_boot,
                "seed": self.seed,
                "confidence": self.confidence,
                "method": "percentile, resampling items",
            },
            "alpha_threshold": self.alpha_threshold,
            "flagged": list(self.flagged),
            "unlabelled_scores": len(self.unlabelled_scores),
            "unscored_labels": len(self.unscored_labels),
            "dimensions": {d.dimension: d.to_json() for d in self.dimensions},
        }


def agreement(
    labels: Sequence[Label],
    scores: Sequence[Label],
    *,
    n_boot: int = 1000,
    seed: int = 0,
    confidence: float = 0.95,
    alpha_threshold: float = ALPHA_THRESHOLD,
) -> AgreementReport:
    """Match human ``labels`` with judge ``scores`` and compute every dimension's agreement.

    Only (sample, dimension) pairs present in both are used; the others are listed in the
    report. Each dimension's bootstrap uses the same ``seed``.

    Raises:
        LabelError: Duplicate or mixed labels (see ``match``).
        AgreementError: Nothing in common between the two.
    """
    matched = match(labels, scores)
    results = tuple(
        dimension_agreement(
            data, n_boot=n_boot, seed=seed, confidence=confidence, alpha_threshold=alpha_threshold
        )
        for data in matched.dimensions
    )
    return AgreementReport(
        dimensions=results,
        unlabelled_scores=matched.unlabelled_scores,
        unscored_labels=matched.unscored_labels,
        n_boot=n_boot,
        seed=seed,
        confidence=confidence,
        alpha_threshold=alpha_threshold,
    )
