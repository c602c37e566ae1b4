"""Calibration maps: the fits against hand-derived values, cross-validation on synthetic judges,
the calibration file, and the scorer applying it."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from _helpers import grader, judge_answer, output, ratings_json
from inspect_ai.scorer import Score

from hat_eval.judge import (
    CalibrationError,
    JudgeScore,
    Label,
    LabelError,
    agent_judge,
    calibrate,
    load_calibration,
    rating_data,
    read_judge_scores,
)
from hat_eval.judge._calibrate import MethodCV, calibrate_dimension, select_method
from hat_eval.judge._calibration_map import fit_isotonic, fit_thresholds, to_scale
from hat_eval.suites import suite_episodes

ALPHA = "krippendorff_alpha_judge_humans"


def synthetic(
    bias: float, seed: int, *, n: int = 120, sd: float = 0.6, humans: int = 3
) -> tuple[list[Label], list[JudgeScore]]:
    """Humans rate the truth plus noise; the judge rates the truth plus ``bias`` plus noise."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, 6, size=n)
    labels = [
        Label(f"s{i:03d}", "acc", int(np.clip(np.rint(t + rng.normal(0, sd)), 1, 5)), f"h{a}")
        for i, t in enumerate(truth)
        for a in range(humans)
    ]
    scores = [
        JudgeScore(f"s{i:03d}", "acc", float(np.clip(np.rint(t + bias + rng.normal(0, sd)), 1, 5)))
        for i, t in enumerate(truth)
    ]
    return labels, scores


def test_to_scale_rounds_half_up_and_clips() -> None:
    assert [to_scale(v) for v in (3.5, 2.49, 7.0, 0.2, 1.0)] == [4.0, 2.0, 5.0, 1.0, 1.0]
    assert math.isnan(to_scale(math.nan))


def test_thresholds_fit_a_shift_exactly() -> None:
    x = np.array([1.0, 1.0, 2.0, 2.0, 3.0, 3.0])
    y = np.array([2.0, 2.0, 3.0, 3.0, 4.0, 4.0])
    fitted = fit_thresholds("acc", x, y)
    assert fitted.edges == (1.5, 2.5) and fitted.values == (2.0, 3.0, 4.0)
    assert [fitted.apply(v) for v in (0.5, 1.2, 1.5, 2.7, 9.0)] == [2.0, 2.0, 3.0, 4.0, 4.0]


def test_thresholds_keep_the_judges_order() -> None:
    # the best non-decreasing fit of (1->3, 2->1, 3->2): (2,2,2) costs 1+1+0 = 2,
    # (1,1,2) costs 4+0+0 = 4, (1,2,2) 4+1+0 = 5, (3,3,3) 0+4+1 = 5: one step, value 2
    fitted = fit_thresholds("acc", np.array([1.0, 2.0, 3.0]), np.array([3.0, 1.0, 2.0]))
    assert fitted.edges == () and fitted.values == (2.0,)


def test_isotonic_map_is_sklearns_prediction_rounded() -> None:
    from sklearn.isotonic import IsotonicRegression

    rng = np.random.default_rng(0)
    x = rng.uniform(1, 5, 80)
    y = np.clip(np.rint(x - 0.8 + rng.normal(0, 0.5, 80)), 1, 5)
    fitted = fit_isotonic("acc", x, y)
    model = IsotonicRegression(y_min=1, y_max=5, out_of_bounds="clip").fit(x, y)
    grid = np.linspace(0, 6, 61)
    expected = [to_scale(float(v)) for v in model.predict(grid)]
    assert [fitted.apply(float(g)) for g in grid] == expected


def test_one_standard_error_rule_prefers_the_simpler_map() -> None:
    close = [
        MethodCV("identity", (0.71, 0.73, 0.75)),  # mean 0.73
        MethodCV("thresholds", (0.73, 0.71, 0.75)),  # mean 0.73
        MethodCV("isotonic", (0.72, 0.74, 0.76)),  # mean 0.74, se 0.011547
    ]
    assert select_method(close) == "identity"  # 0.73 >= 0.74 - 0.0115
    # identity at 0.72 falls below 0.7285: the next simplest within the bar is thresholds
    lower = [MethodCV("identity", (0.70, 0.72, 0.74)), *close[1:]]
    assert select_method(lower) == "thresholds"
    far = [
        MethodCV("identity", (0.60, 0.62, 0.64)),
        MethodCV("thresholds", (0.80, 0.82, 0.84)),
        MethodCV("isotonic", (0.80, 0.83, 0.86)),
    ]
    assert select_method(far) == "thresholds"  # 0.82 >= 0.83 - 0.0173, identity far below
    assert select_method([MethodCV("identity", (None, None))]) == "identity"


@pytest.mark.parametrize("bias", [1.0, -1.0])
def test_calibration_improves_held_out_agreement_of_a_biased_judge(bias: float) -> None:
    labels, scores = synthetic(bias, seed=7)
    (data,) = rating_data(labels, scores)
    result = calibrate_dimension(data, n_folds=5, seed=0, n_boot=200)
    assert result.map.method != "identity"
    assert result.before is not None and result.after is not None
    before, after = result.before.statistics, result.after.statistics
    assert after[ALPHA] > before[ALPHA] + 0.04
    assert after["cohen_kappa"] > before["cohen_kappa"] + 0.03
    assert after["exact_agreement"] > before["exact_agreement"]
    # a shifted judge clips at the end of the scale (+1: true 4s and 5s both get 5), so the
    # majority matches can only be kept there, not won back
    assert after["accuracy"] >= before["accuracy"]
    # the map undoes the shift in the middle of the scale, where clipping does not interfere
    assert result.map.apply(3.0) == 3.0 - bias
    # held-out predictions: every candidate scored on each of the 5 folds
    assert [len(c.fold_alpha) for c in result.candidates] == [5, 5, 5]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_an_unbiased_judge_keeps_the_identity(seed: int) -> None:
    labels, scores = synthetic(0.0, seed=seed)
    (data,) = rating_data(labels, scores)
    result = calibrate_dimension(data, n_boot=0, seed=seed)
    assert result.map.method == "identity"
    assert result.before is not None and result.after is not None
    assert result.after.statistics[ALPHA] == result.before.statistics[ALPHA]


def test_too_few_items_keep_the_identity_with_a_note() -> None:
    labels, scores = synthetic(1.0, seed=0, n=3)
    (data,) = rating_data(labels, scores)
    result = calibrate_dimension(data, n_boot=0)
    assert result.map.method == "identity" and result.after is None and result.flagged
    assert "too few to cross-validate" in result.notes[0]


def test_low_alpha_dimension_is_flagged() -> None:
    good_l, good_s = synthetic(1.0, seed=3)
    rng = np.random.default_rng(5)
    noise = [JudgeScore(s.sample_id, "noise", float(rng.integers(1, 6))) for s in good_s]
    noise_l = [Label(lab.sample_id, "noise", lab.rating, lab.annotator) for lab in good_l]
    result = calibrate(rating_data([*good_l, *noise_l], [*good_s, *noise]), n_boot=0)
    assert result.flagged == ("noise",)
    assert result.to_json()["flagged"] == ["noise"]
    assert result.to_json()["dimensions"]["noise"]["flagged"] is True
    assert "below 0.667" in " ".join(result.to_json()["dimensions"]["noise"]["notes"])


def test_the_calibration_file_round_trips(tmp_path: Path) -> None:
    labels, scores = synthetic(1.0, seed=11)
    more_l, more_s = synthetic(0.0, seed=12)
    renamed = [Label(lab.sample_id, "fair", lab.rating, lab.annotator) for lab in more_l]
    fair = [JudgeScore(s.sample_id, "fair", s.score) for s in more_s]
    result = calibrate(rating_data([*labels, *renamed], [*scores, *fair]), n_boot=0)
    path = tmp_path / "calibration.json"
    path.write_text(json.dumps(result.to_json()), encoding="utf-8")
    loaded = load_calibration(path)
    assert loaded.maps == result.maps
    grid = [x / 4 for x in range(0, 25)]
    for name, fitted in result.maps.items():
        assert [loaded.maps[name].apply(v) for v in grid] == [fitted.apply(v) for v in grid]
    doc = json.loads(path.read_text())
    assert doc["version"] == 1 and doc["scale"] == [1, 5]
    assert set(doc["dimensions"]["acc"]["held_out"]) == {"before", "after"}
    assert set(doc["dimensions"]["acc"]["cross_validation"]) == {
        "identity",
        "thresholds",
        "isotonic",
    }
    assert loaded.apply({"acc": 5.0, "other": 2.5}) == {
        "acc": result.maps["acc"].apply(5.0),
        "other": 2.5,
    }


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"method": "spline"}, "dimensions.acc.method is 'spline'"),
        (
            {"method": "thresholds", "edges": [3.0, 2.0], "values": [1, 2, 3]},
            "dimensions.acc.edges [3.0, 2.0] must be non-decreasing",
        ),
        (
            {"method": "thresholds", "edges": [2.5], "values": [1, 2, 3]},
            "1 edges and 3 values",
        ),
        ({"method": "thresholds", "edges": [2.5], "values": [1, 7]}, "off the scale"),
        ({"method": "isotonic", "x": [1, 2], "y": [3]}, "as many x as y knots"),
    ],
)
def test_a_bad_calibration_file_names_the_field(
    tmp_path: Path, entry: dict[str, Any], message: str
) -> None:
    path = tmp_path / "calibration.json"
    path.write_text(json.dumps({"version": 1, "dimensions": {"acc": entry}}))
    with pytest.raises(CalibrationError, match=message.replace("[", r"\[").replace("]", r"\]")):
        load_calibration(path)
    path.write_text(json.dumps({"version": 9, "dimensions": {}}))
    with pytest.raises(CalibrationError, match="version 9 is not 1"):
        load_calibration(path)


def test_judge_scores_file_reads_fractions_and_names_bad_lines(tmp_path: Path) -> None:
    path = tmp_path / "scores.csv"
    path.write_text("sample_id,dimension,score\ns1,acc,3.5\ns2,acc,\ns3,acc,nan\n")
    assert read_judge_scores(path) == [JudgeScore("s1", "acc", 3.5)]
    path.write_text("sample_id,dimension,score\ns1,acc,3.5\ns2,acc,5.5\n")
    with pytest.raises(LabelError, match=f"{path}:3: score '5.5' is outside the scale"):
        read_judge_scores(path)


# --- the scorer applies a calibration file ------------------------------------------------------


def _score(scorer: Any, answer: str) -> Score:
    episode = next(
        e
        for e in suite_episodes("livestream", n=60)
        if e.case.intent == "chit_chat" and not e.case.details.get("asks_if_bot")
    )
    return judge_answer(scorer, episode, answer)


def test_the_scorer_applies_the_calibration_before_deciding_parts(tmp_path: Path) -> None:
    path = tmp_path / "calibration.json"
    # the judge is one point low on factual_accuracy: a raw 3 is a human 4
    path.write_text(
        json.dumps(
            {
                "version": 1,
                "dimensions": {
                    "factual_accuracy": {
                        "method": "thresholds",
                        "edges": [1.5, 2.5, 3.5],
                        "values": [2, 3, 4, 5],
                    }
                },
            }
        )
    )

    def model() -> Any:
        return grader(lambda *_: output(ratings_json(3)))

    answer = (
        "[skill: chit_chat] The stream runs until ten tonight."  # the checks leave it undecided
    )
    raw = _score(agent_judge(model=model(), mode="lookups"), answer)
    calibrated = _score(agent_judge(model=model(), mode="lookups", calibration=str(path)), answer)
    assert isinstance(raw.value, dict) and isinstance(calibrated.value, dict)
    assert raw.value["factual_accuracy"] == 3.0 and calibrated.value["factual_accuracy"] == 4.0
    assert calibrated.value["compliance"] == 3.0  # no map: unchanged
    md = calibrated.metadata or {}
    assert md["uncalibrated"]["factual_accuracy"] == 3.0
    # a calibrated 4 decides the accuracy the checks left undecided; the raw 3 does not
    assert md["decided"].get("accuracy") == 1.0
    assert "accuracy" not in (raw.metadata or {})["decided"]
    assert "uncalibrated" not in (raw.metadata or {})


def test_the_scorer_refuses_a_bad_calibration_file(tmp_path: Path) -> None:
    path = tmp_path / "calibration.json"
    path.write_text("{}")
    with pytest.raises(CalibrationError, match="not a calibration file"):
        agent_judge(model="mockllm/model", calibration=str(path))
