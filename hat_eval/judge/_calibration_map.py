"""A calibration map and its fits: the judge's raw score to an integer on the human scale.

The three kinds (``identity``, ``thresholds`` by dynamic programming, ``isotonic``) are
described in :mod:`hat_eval.judge._calibrate`, which chooses among them by cross-validation.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from dataclasses import dataclass
from typing import Any, Final, Literal, get_args

import numpy as np
import numpy.typing as npt

from ._labels import RATING_SCALE

Method = Literal["identity", "thresholds", "isotonic"]

METHODS: Final[tuple[Method, ...]] = get_args(Method)
"""The kinds of map, simplest first (the order the one-standard-error rule prefers)."""

CALIBRATION_VERSION: Final = 1

FloatArray = npt.NDArray[np.float64]

_LOW, _HIGH = float(RATING_SCALE[0]), float(RATING_SCALE[-1])


class CalibrationError(ValueError):
    """A calibration file or a scores file that cannot be used; the message names the field."""


def to_scale(value: float) -> float:
    """``value`` rounded half up and clipped to ``RATING_SCALE`` (NaN stays NaN).

    ``3.5`` gives 4, ``2.49`` gives 2, ``7`` gives 5, ``0.2`` gives 1.
    """
    if math.isnan(value):
        return math.nan
    return float(min(_HIGH, max(_LOW, math.floor(value + 0.5))))


@dataclass(frozen=True)
class CalibrationMap:
    """One dimension's map from the judge's raw score to the human scale.

    ``identity`` uses no parameters. ``thresholds`` maps a score ``s`` to
    ``values[bisect_right(edges, s)]`` (``len(values) == len(edges) + 1``). ``isotonic`` maps it
    to ``to_scale(interp(s, x, y))``: linear between the fitted knots, constant beyond them, as
    scikit-learn's ``IsotonicRegression.predict`` with ``out_of_bounds="clip"``.
    """

    dimension: str
    method: Method
    edges: tuple[float, ...] = ()
    values: tuple[float, ...] = ()
    x: tuple[float, ...] = ()
    y: tuple[float, ...] = ()

    def apply(self, score: float) -> float:
        """The calibrated rating of a raw score (NaN, a failed judgement, stays NaN)."""
        if math.isnan(score):
            return math.nan
        if self.method == "thresholds":
            return self.values[bisect_right(self.edges, score)]
        if self.method == "isotonic":
            return to_scale(float(np.interp(score, self.x, self.y)))
        return to_scale(score)

    def to_json(self) -> dict[str, Any]:
        """The map's entry in ``calibration.json`` (method and its parameters)."""
        if self.method == "thresholds":
            return {"method": self.method, "edges": list(self.edges), "values": list(self.values)}
        if self.method == "isotonic":
            return {"method": self.method, "x": list(self.x), "y": list(self.y)}
        return {"method": self.method}

    @classmethod
    def from_json(cls, dimension: str, data: object, where: str) -> CalibrationMap:
        """Read and check one map; ``where`` names the file for errors.

        Raises:
            CalibrationError: An unknown method, or parameters that do not define a monotone map.
        """
        if not isinstance(data, dict):
            raise CalibrationError(f"{where}: dimensions.{dimension} must be an object")
        method = data.get("method")
        if method not in METHODS:
            raise CalibrationError(
                f"{where}: dimensions.{dimension}.method is {method!r}; use one of "
                f"{', '.join(METHODS)}"
            )

        def numbers(name: str) -> tuple[float, ...]:
            raw = data.get(name)
            if not isinstance(raw, list) or not all(
                isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
                for v in raw
            ):
                raise CalibrationError(
                    f"{where}: dimensions.{dimension}.{name} must be a list of finite numbers "
                    f"for method {method!r}"
                )
            return tuple(float(v) for v in raw)

        def non_decreasing(name: str, values: tuple[float, ...]) -> None:
            if any(b < a for a, b in zip(values, values[1:], strict=False)):
                raise CalibrationError(
                    f"{where}: dimensions.{dimension}.{name} {list(values)} must be "
                    "non-decreasing (a calibration map keeps the judge's order)"
                )

        if method == "thresholds":
            edges, values = numbers("edges"), numbers("values")
            if len(values) != len(edges) + 1:
                raise CalibrationError(
                    f"{where}: dimensions.{dimension} has {len(edges)} edges and {len(values)} "
                    f"values; a step function needs one value more than edges"
                )
            non_decreasing("edges", edges)
            non_decreasing("values", values)
            off = [v for v in values if v not in tuple(float(r) for r in RATING_SCALE)]
            if off:
                raise CalibrationError(
                    f"{where}: dimensions.{dimension}.values holds {off[0]:g}, off the scale "
                    f"{RATING_SCALE[0]}-{RATING_SCALE[-1]}"
                )
            return cls(dimension, "thresholds", edges=edges, values=values)
        if method == "isotonic":
            x, y = numbers("x"), numbers("y")
            if not x or len(x) != len(y):
                raise CalibrationError(
                    f"{where}: dimensions.{dimension} needs as many x as y knots (got "
                    f"{len(x)} and {len(y)}, at least one)"
                )
            non_decreasing("x", x)
            non_decreasing("y", y)
            return cls(dimension, "isotonic", x=x, y=y)
        return cls(dimension, "identity")


def fit_thresholds(dimension: str, x: FloatArray, y: FloatArray) -> CalibrationMap:
    """The best non-decreasing step map from judge scores ``x`` to human labels ``y``.

    Each distinct judge score ``u_j`` (ascending) gets a scale point ``c_j`` with
    ``c_1 <= c_2 <= ...``, minimising ``sum_i (c(x_i) - y_i)^2`` over all the pairs, by dynamic
    programming over (distinct score, scale point): ``best[j][c] = cost_j(c) +
    min_{c' <= c} best[j-1][c']`` with ``cost_j(c) = n_j c^2 - 2 c S_j + Q_j`` from the count,
    sum and sum of squares of the labels at ``u_j``. Ties between equal costs go to the lower
    point. The edges are the midpoints between consecutive distinct scores where the point
    changes, so a score never seen maps to the point of its nearer seen neighbourhood.

    Raises:
        ValueError: No pairs.
    """
    if x.size == 0:
        raise ValueError(f"{dimension}: no (judge score, human label) pairs to fit")
    order = np.argsort(x, kind="stable")
    xs, ys = x[order], y[order]
    distinct, starts = np.unique(xs, return_index=True)
    stops = [*starts[1:], xs.size]
    scale = np.asarray(RATING_SCALE, dtype=np.float64)
    m, k = distinct.size, scale.size
    cost = np.empty((m, k))
    for j, (a, b) in enumerate(zip(starts, stops, strict=True)):
        group = ys[a:b]
        cost[j] = group.size * scale**2 - 2 * scale * group.sum() + float((group**2).sum())
    best = np.empty((m, k))
    came = np.zeros((m, k), dtype=np.intp)
    best[0] = cost[0]
    for j in range(1, m):
        best[j] = cost[j] + np.minimum.accumulate(best[j - 1])
        came[j] = [int(np.argmin(best[j - 1][: c + 1])) for c in range(k)]
    points = np.empty(m, dtype=np.intp)
    points[-1] = int(np.argmin(best[-1]))
    for j in range(m - 1, 0, -1):
        points[j - 1] = came[j][points[j]]
    steps = [j for j in range(m - 1) if points[j + 1] != points[j]]
    edges = [float((distinct[j] + distinct[j + 1]) / 2) for j in steps]
    values = [float(scale[points[0]])] + [float(scale[points[j + 1]]) for j in steps]
    return CalibrationMap(dimension, "thresholds", edges=tuple(edges), values=tuple(values))


def fit_isotonic(dimension: str, x: FloatArray, y: FloatArray) -> CalibrationMap:
    """scikit-learn's non-decreasing isotonic regression of ``y`` on ``x``, bounded to the scale.

    Raises:
        ValueError: No pairs.
    """
    from sklearn.isotonic import IsotonicRegression

    if x.size == 0:
        raise ValueError(f"{dimension}: no (judge score, human label) pairs to fit")
    model = IsotonicRegression(y_min=_LOW, y_max=_HIGH, increasing=True, out_of_bounds="clip")
    model.fit(x, y)
    return CalibrationMap(
        dimension,
        "isotonic",
        x=tuple(float(v) for v in model.X_thresholds_),
        y=tuple(float(v) for v in model.y_thresholds_),
    )


def fit_map(dimension: str, method: Method, x: FloatArray, y: FloatArray) -> CalibrationMap:
    """Fit a map of kind ``method`` to the pairs (judge score ``x[i]``, human label ``y[i]``)."""
    if method == "thresholds":
        return fit_thresholds(dimension, x, y)
    if method == "isotonic":
        return fit_isotonic(dimension, x, y)
    return CalibrationMap(dimension, "identity")
