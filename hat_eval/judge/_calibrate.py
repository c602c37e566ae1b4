"""Calibration of the judge's ratings to the human scale, one map per rubric dimension.

A judge can agree with humans on the order of answers and still sit off their scale (always one
point too generous, say). A *calibration map* takes the judge's raw score on a dimension (a mean
over ``k`` samples may be fractional) to an integer on ``RATING_SCALE``. Three kinds, simplest
first (``METHODS``):

- ``identity``: the raw score rounded half up and clipped to the scale (no fit);
- ``thresholds``: a monotone step function whose cut points are fitted by dynamic programming to
  minimise the squared distance to every human label (the disagreement that quadratic-weighted
  kappa and ordinal alpha penalise), the best non-decreasing assignment of scale points to the
  judge's distinct scores;
- ``isotonic``: scikit-learn's ``IsotonicRegression`` (non-decreasing, bounded to the scale) fitted
  to the same (judge score, human label) pairs, its prediction rounded half up.

The kind is chosen per dimension by k-fold cross-validation *on items* (an item's human labels
never straddle folds): each kind is fitted on k-1 folds and predicts the held-out fold; its score
in a fold is the judge-human Krippendorff alpha of the held-out predictions
(``judge_human_alpha``). The simplest kind whose mean fold alpha is within one standard error of
the best kind's mean is kept (the one-standard-error rule), so an unbiased judge keeps
``identity`` unless a map helps by more than the folds' noise. The chosen kind is then fitted on
all items. The report states the held-out agreement before (identity) and after (chosen map),
with the full statistics of ``dimension_agreement`` on the out-of-fold predictions.

A calibration file (``calibration.json``) holds the maps; :func:`load_calibration` reads it and
``agent_judge(calibration=...)`` applies it to every score.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final

import numpy as np

from hat_eval.stats import mean_stderr

from ._agreement import (
    DimensionAgreement,
    DimensionData,
    by_annotator,
    dimension_agreement,
    dimension_data,
    one_score_each,
)
from ._calibration_map import (
    _HIGH,
    _LOW,
    CALIBRATION_VERSION,
    METHODS,
    CalibrationError,
    CalibrationMap,
    FloatArray,
    Method,
    fit_map,
    to_scale,
)
from ._labels import RATING_SCALE, JudgeScore, Label, LabelError, read_rows, required_field
from ._statistics import (
    ALPHA_THRESHOLD,
    AgreementError,
    judge_human_alpha,
)

CALIBRATION_FILE: Final = "calibration.json"


def rating_data(labels: Sequence[Label], scores: Sequence[JudgeScore]) -> list[DimensionData]:
    """Match human rating labels with raw judge scores, per dimension (``judge``: the raw scores).

    Preference labels (``A``/``B``/``tie``) are left out: a calibration map is for ratings.
    Only (sample, dimension) pairs present in both are kept.

    Raises:
        LabelError: An annotator labels a sample and dimension twice, or the judge scores one
            twice.
        AgreementError: No rating dimension has a sample in both.
    """
    human = by_annotator([label for label in labels if not isinstance(label.rating, str)])
    judged = one_score_each(scores)
    common = sorted(k for k in set(human) & set(judged) if not math.isnan(judged[k].score))
    if not common:
        raise AgreementError(
            "no rated sample and dimension is in both the labels and the judge's scores: "
            "the sample ids or dimension names do not match (or every score failed)"
        )
    return dimension_data(human, common, lambda _: "rating", lambda key: judged[key].score)


@dataclass(frozen=True)
class MethodCV:
    """One kind of map under cross-validation: its judge-human alpha on each held-out fold."""

    method: Method
    fold_alpha: tuple[float | None, ...]

    @property
    def defined(self) -> list[float]:
        """The folds where alpha is defined."""
        return [a for a in self.fold_alpha if a is not None]

    @property
    def mean(self) -> float | None:
        """Mean alpha over the folds where it is defined (None if none)."""
        return float(np.mean(self.defined)) if self.defined else None

    @property
    def stderr(self) -> float | None:
        """Standard error of that mean, ``sd / sqrt(n)`` (None with fewer than two folds)."""
        return mean_stderr(self.defined) if len(self.defined) >= 2 else None

    def to_json(self) -> dict[str, Any]:
        """The kind's entry in the report."""
        return {"fold_alpha": list(self.fold_alpha), "mean": self.mean, "stderr": self.stderr}


@dataclass(frozen=True)
class DimensionCalibration:
    """The outcome for one dimension: the chosen map, the candidates, held-out agreement."""

    dimension: str
    map: CalibrationMap
    n_items: int
    flagged: bool
    notes: tuple[str, ...]
    n_folds: int = 0
    candidates: tuple[MethodCV, ...] = ()
    before: DimensionAgreement | None = None
    """Held-out agreement of the identity map (None when too few items to cross-validate)."""
    after: DimensionAgreement | None = None
    """Held-out agreement of the chosen kind of map."""

    def to_json(self) -> dict[str, Any]:
        """The dimension's entry in ``calibration.json``."""
        held_out = {
            name: None if result is None else result.with_intervals(_SUMMARY_KEYS)
            for name, result in (("before", self.before), ("after", self.after))
        }
        return {
            **self.map.to_json(),
            "n_items": self.n_items,
            "n_folds": self.n_folds,
            "cross_validation": {c.method: c.to_json() for c in self.candidates},
            "held_out": held_out,
            "flagged": self.flagged,
            "notes": list(self.notes),
        }


_SUMMARY_KEYS = (
    "krippendorff_alpha_judge_humans",
    "cohen_kappa",
    "accuracy",
    "exact_agreement",
    "within_1_agreement",
    "spearman",
)


def select_method(candidates: Sequence[MethodCV]) -> Method:
    """The simplest kind whose mean fold alpha is within one standard error of the best mean.

    Kinds with no defined fold are out; with none left, ``identity``.
    """
    scored = [(c.method, mean, c.stderr) for c in candidates if (mean := c.mean) is not None]
    if not scored:
        return "identity"
    _, best_mean, best_stderr = max(scored, key=lambda s: s[1])
    bar = best_mean - (best_stderr or 0.0)  # the best itself clears it
    return next(m for m in METHODS if any(s[0] == m and s[1] >= bar for s in scored))


def calibrate_dimension(
    data: DimensionData,
    *,
    n_folds: int = 5,
    seed: int = 0,
    n_boot: int = 1000,
    alpha_threshold: float = ALPHA_THRESHOLD,
) -> DimensionCalibration:
    """Choose a dimension's map by cross-validation on items and fit it on all of them.

    With fewer than ``2 * 2`` items nothing is cross-validated: the map is ``identity`` and the
    held-out agreement is ``None`` (with a note). Otherwise ``min(n_folds, n_items // 2)`` folds,
    each at least two items.
    """
    n = data.judge.size
    notes: list[str] = []
    folds_n = min(n_folds, n // 2)
    if folds_n < 2:
        notes.append(f"{n} item(s): too few to cross-validate (at least 4 needed); identity kept")
        kept = CalibrationMap(data.dimension, "identity")
        return DimensionCalibration(data.dimension, kept, n, True, tuple(notes))
    if folds_n < n_folds:
        notes.append(f"{n} items: {folds_n} folds instead of {n_folds}")
    order = np.random.default_rng(seed).permutation(n)  # folds of near-equal size, seeded
    folds = [np.sort(f).astype(np.intp) for f in np.array_split(order, folds_n)]
    everything = np.arange(n, dtype=np.intp)
    predictions: dict[Method, FloatArray] = {}  # each kind's out-of-fold predictions
    candidates = []  # and its held-out alpha per fold
    for method in METHODS:
        predicted = np.full(n, np.nan)
        per_fold: list[float | None] = []
        for test in folds:
            x, y = data.pairs(np.setdiff1d(everything, test))
            fitted = fit_map(data.dimension, method, x, y)
            predicted[test] = [fitted.apply(float(s)) for s in data.judge[test]]
            per_fold.append(judge_human_alpha(data.humans[:, test], predicted[test], "rating"))
        predictions[method] = predicted
        candidates.append(MethodCV(method, tuple(per_fold)))
    chosen = select_method(candidates)
    x, y = data.pairs(everything)
    final = fit_map(data.dimension, chosen, x, y)

    def held_out(method: Method) -> DimensionAgreement:
        return dimension_agreement(
            replace(data, judge=predictions[method]),
            n_boot=n_boot,
            seed=seed,
            alpha_threshold=alpha_threshold,
        )

    before = held_out("identity")
    after = held_out(chosen)
    alpha = after.statistics.get("krippendorff_alpha_judge_humans")
    flagged = alpha is None or alpha < alpha_threshold
    if alpha is None:
        notes.append("held-out judge-human alpha is undefined after calibration")
    elif flagged:
        notes.append(
            f"held-out judge-human alpha {alpha:.3f} after calibration is below "
            f"{alpha_threshold}: do not trust the judge alone on this dimension"
        )
    notes.extend(n for n in after.notes if n.startswith("human-human alpha undefined"))
    return DimensionCalibration(
        data.dimension, final, n, flagged, tuple(notes), folds_n, tuple(candidates), before, after
    )


@dataclass(frozen=True)
class Calibration:
    """Calibration maps by dimension, and how they were chosen (``calibration.json``)."""

    maps: Mapping[str, CalibrationMap]
    dimensions: tuple[DimensionCalibration, ...] = ()
    meta: Mapping[str, Any] = field(default_factory=dict)

    @property
    def flagged(self) -> tuple[str, ...]:
        """Dimensions whose held-out judge-human alpha after calibration is below the bar."""
        return tuple(d.dimension for d in self.dimensions if d.flagged)

    def apply(self, ratings: Mapping[str, float]) -> dict[str, float]:
        """Each rating through its dimension's map; dimensions without a map pass unchanged."""
        return {d: (self.maps[d].apply(v) if d in self.maps else v) for d, v in ratings.items()}

    def to_json(self) -> dict[str, Any]:
        """The calibration file: version, scale, settings, flagged dimensions, then the maps."""
        by_name = {d.dimension: d for d in self.dimensions}
        return {
            "version": CALIBRATION_VERSION,
            "scale": [RATING_SCALE[0], RATING_SCALE[-1]],
            **self.meta,
            "flagged": list(self.flagged),
            "dimensions": {
                name: (by_name[name].to_json() if name in by_name else m.to_json())
                for name, m in sorted(self.maps.items())
            },
        }


def calibrate(
    data: Sequence[DimensionData],
    *,
    n_folds: int = 5,
    seed: int = 0,
    n_boot: int = 1000,
    alpha_threshold: float = ALPHA_THRESHOLD,
    meta: Mapping[str, Any] | None = None,
) -> Calibration:
    """:func:`calibrate_dimension` for every dimension, gathered into one :class:`Calibration`."""
    results = tuple(
        calibrate_dimension(
            d, n_folds=n_folds, seed=seed, n_boot=n_boot, alpha_threshold=alpha_threshold
        )
        for d in data
    )
    settings = {
        "folds": n_folds,
        "seed": seed,
        "selection": "simplest map within one standard error of the best mean held-out "
        "judge-human Krippendorff alpha (ordinal) over folds of items",
        "alpha_threshold": alpha_threshold,
        **(meta or {}),
    }
    return Calibration({r.dimension: r.map for r in results}, results, settings)


def load_calibration(path: str | Path) -> Calibration:
    """Read a calibration file written by ``hat-eval judge calibrate``.

    Raises:
        CalibrationError: The file cannot be read, or a field does not fit (the message names
            the file and the field).
    """
    where = str(path)
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as err:
        raise CalibrationError(f"{where}: cannot read the calibration file ({err})") from err
    except json.JSONDecodeError as err:
        raise CalibrationError(f"{where}: not valid JSON (line {err.lineno}: {err.msg})") from err
    if not isinstance(doc, dict) or not isinstance(doc.get("dimensions"), dict):
        raise CalibrationError(
            f"{where}: not a calibration file (expected an object with 'dimensions'; use the "
            f"{CALIBRATION_FILE} that `hat-eval judge calibrate` wrote)"
        )
    if doc.get("version") != CALIBRATION_VERSION:
        raise CalibrationError(
            f"{where}: version {doc.get('version')!r} is not {CALIBRATION_VERSION}; "
            "re-run `hat-eval judge calibrate` with this hat-eval"
        )
    maps = {
        str(name): CalibrationMap.from_json(str(name), entry, where)
        for name, entry in doc["dimensions"].items()
    }
    meta = {k: v for k, v in doc.items() if k not in ("dimensions", "version", "scale")}
    return Calibration(maps, (), meta)


def read_judge_scores(path: Path) -> list[JudgeScore]:
    """Raw judge scores: CSV or JSONL with ``sample_id, dimension`` and ``score`` (or ``rating``).

    A score is a number on the scale's range (``1 <= s <= 5``; a mean over k samples may be
    fractional); ``nan`` or an empty cell is a failed judgement and is left out.
    ``hat-eval judge calibrate`` writes such a file (``judge_scores.jsonl``) beside its report.

    Raises:
        LabelError: An unknown format, a missing field, or a score off the range, naming the
            file and line.
    """
    rows = read_rows(path, "scores", "sample_id, dimension, score")
    out = []
    for where, row in rows:
        sample_id = required_field(row, "sample_id", where)
        dimension = required_field(row, "dimension", where)
        raw = row.get("score", row.get("rating"))
        try:
            score = math.nan if raw is None or str(raw).strip() == "" else float(raw)
        except (TypeError, ValueError):
            score = None
        if score is None or (not math.isnan(score) and not _LOW <= score <= _HIGH):
            raise LabelError(
                f"{where}: score {raw!r} is outside the scale (a number from "
                f"{RATING_SCALE[0]} to {RATING_SCALE[-1]}, or empty for a failed judgement)"
            )
        if math.isnan(score):
            continue
        out.append(JudgeScore(sample_id, dimension, score, where))
    if not out:
        raise LabelError(f"{path}: no judge scores in the file")
    return out


def scores_jsonl(scores: Sequence[JudgeScore]) -> str:
    """The scores as JSONL (``sample_id, dimension, score``), as :func:`read_judge_scores` reads."""
    return "".join(
        json.dumps({"sample_id": s.sample_id, "dimension": s.dimension, "score": s.score}) + "\n"
        for s in scores
    )


def as_labels(scores: Sequence[JudgeScore]) -> list[Label]:
    """The scores as the judge's ``Label`` records, rounded half up to the scale (``to_scale``)."""
    return [
        Label(s.sample_id, s.dimension, int(to_scale(s.score)), "judge", s.where) for s in scores
    ]
