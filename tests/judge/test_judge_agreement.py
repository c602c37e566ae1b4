"""The agreement statistics on hand-derived examples, synthetic annotators and edge cases."""

from __future__ import annotations

import krippendorff
import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

from hat_eval.judge import Label, LabelError, agreement
from hat_eval.judge._agreement import match
from hat_eval.judge._statistics import (
    AgreementError,
    _kappa_from_confusion,
    bootstrap_intervals,
    cohen_kappa,
    confusion,
    krippendorff_alpha,
    majority,
)


def lab(sample: str, dim: str, rating: int | str, annotator: str = "judge") -> Label:
    return Label(sample, dim, rating, annotator, where=f"{sample}/{dim}/{annotator}")  # type: ignore[arg-type]


# --- majority -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("values", "expected", "tied"),
    [
        ([4.0], 4.0, False),  # a single label is its own majority
        ([4.0, 4.0, 2.0], 4.0, False),
        ([2.0, 4.0], 2.0, True),  # equally close to the median 3: the lower
        ([1.0, 1.0, 3.0, 3.0, 4.0], 3.0, True),  # median 3: the tied 3 wins over 1
        ([1.0, 1.0, 5.0, 5.0, 2.0], 1.0, True),  # median 2: 1 is closer than 5
    ],
)
def test_majority_of_ratings(values: list[float], expected: float, tied: bool) -> None:
    assert majority(values, "rating") == (expected, tied)


def test_majority_of_preferences_ties_become_tie() -> None:
    a, b, tie = 0.0, 1.0, 2.0
    assert majority([a, a, b], "preference") == (a, False)
    assert majority([a, b], "preference") == (tie, True)
    assert majority([a, tie], "preference") == (tie, True)
    with pytest.raises(ValueError, match="at least one human label"):
        majority([], "preference")


# --- hand-derived tiny examples -------------------------------------------------------------

RATINGS = [
    # s1: 5,5 -> 5 | s2: 4,3 -> tie, lower of the two -> 3 | s3: one label 2 | s4: 1,1 -> 1
    lab("s1", "acc", 5, "h1"),
    lab("s1", "acc", 5, "h2"),
    lab("s2", "acc", 4, "h1"),
    lab("s2", "acc", 3, "h2"),
    lab("s3", "acc", 2, "h1"),
    lab("s4", "acc", 1, "h1"),
    lab("s4", "acc", 1, "h2"),
]
RATING_JUDGE = [lab("s1", "acc", 5), lab("s2", "acc", 4), lab("s3", "acc", 2), lab("s4", "acc", 2)]


def test_hand_derived_ratings() -> None:
    (dim,) = agreement(RATINGS, RATING_JUDGE, n_boot=0).dimensions
    stats = dim.statistics
    # majority (5, 3, 2, 1) vs judge (5, 4, 2, 2): 2 of 4 equal
    assert stats["accuracy"] == 0.5
    # quadratic kappa: sum w*O = (1 + 1) / 4 = 0.5; sum w*E = 4.125; 1 - 0.5 / 4.125 = 29/33
    assert stats["cohen_kappa"] == pytest.approx(29 / 33)
    # per item share of humans equal to the judge: 1, 1/2, 1, 0
    assert stats["exact_agreement"] == pytest.approx(0.625)
    assert stats["within_1_agreement"] == 1.0
    # ranks (4, 3, 1.5, 1.5) vs (4, 3, 2, 1): 4.5 / sqrt(4.5 * 5)
    assert stats["spearman"] == pytest.approx(np.sqrt(0.9))
    assert (dim.n_items, dim.n_single_label_items, dim.n_majority_ties) == (4, 1, 1)
    humans = np.array([[5, 4, 2, 1], [5, 3, np.nan, 1]])
    assert stats["krippendorff_alpha_humans"] == pytest.approx(
        krippendorff.alpha(humans, level_of_measurement="ordinal", value_domain=[1, 2, 3, 4, 5])
    )
    assert dim.intervals == {name: None for name in stats}
    # rows: human majority 1..5, columns: judge 1..5
    assert dim.confusion[0] == (0, 1, 0, 0, 0)
    assert dim.confusion[2] == (0, 0, 0, 1, 0)


PREFS = [
    # p1: A,A,A -> A | p2: A,B -> tie | p3: B,B,tie -> B | p4: one label tie
    *(lab("p1", "pref", "A", h) for h in ("h1", "h2", "h3")),
    lab("p2", "pref", "A", "h1"),
    lab("p2", "pref", "B", "h2"),
    lab("p3", "pref", "B", "h1"),
    lab("p3", "pref", "B", "h2"),
    lab("p3", "pref", "tie", "h3"),
    lab("p4", "pref", "tie", "h1"),
]
PREF_JUDGE = [lab("p1", "pref", "A"), lab("p2", "pref", "B"), lab("p3", "pref", "B")]
PREF_JUDGE.append(lab("p4", "pref", "A"))


def test_hand_derived_preferences() -> None:
    (dim,) = agreement(PREFS, PREF_JUDGE, n_boot=0).dimensions
    stats = dim.statistics
    assert dim.kind == "preference"
    assert stats["accuracy"] == 0.5  # majority (A, tie, B, tie) vs judge (A, B, B, A)
    # p_o = 1/2, p_e = .25*.5 + .25*.5 + .5*0 = 1/4: (1/2 - 1/4) / (1 - 1/4)
    assert stats["cohen_kappa"] == pytest.approx(1 / 3)
    # coincidences: o_AA=3, o_AB=o_BA=1, o_BB=1, o_Bt=o_tB=1 (p4 unpairable); n_A=4, n_B=3,
    # n_tie=1, n=8: D_o = 4/8, D_e = 2*(12+4+3)/56, alpha = 1 - 28/38
    assert stats["krippendorff_alpha_humans"] == pytest.approx(5 / 19)
    assert stats["exact_agreement"] == pytest.approx(13 / 24)
    assert "spearman" not in stats and "within_1_agreement" not in stats


def test_kappa_matches_scikit_learn_on_random_input() -> None:
    rng = np.random.default_rng(0)
    for kind, values in (("rating", [1, 2, 3, 4, 5]), ("preference", [0, 1, 2])):
        for _ in range(50):
            n = int(rng.integers(5, 40))
            judge = rng.choice(values, n).astype(float)
            ref = np.where(rng.random(n) < 0.6, judge, rng.choice(values, n)).astype(float)
            expected = cohen_kappa_score(
                judge, ref, labels=values, weights="quadratic" if kind == "rating" else None
            )
            fast = _kappa_from_confusion(confusion(judge, ref, kind), kind)  # type: ignore[arg-type]
            assert fast == pytest.approx(expected)
            assert cohen_kappa(judge, ref, kind) == pytest.approx(expected)  # type: ignore[arg-type]


# --- undefined values -----------------------------------------------------------------------


def test_undefined_statistics_are_none() -> None:
    same = np.array([[3.0, 3.0], [3.0, 3.0]])
    assert krippendorff_alpha(same, "rating") is None  # all values equal: D_e = 0
    assert krippendorff_alpha(np.array([[1.0, np.nan], [np.nan, 2.0]]), "rating") is None
    assert cohen_kappa(np.array([2.0, 2.0]), np.array([2.0, 2.0]), "rating") is None


def test_single_annotator_leaves_human_alpha_undefined_and_computes_the_rest() -> None:
    labels = [lab(f"s{i}", "acc", 1 + i % 5, "only") for i in range(10)]
    scores = [lab(f"s{i}", "acc", 1 + (i + i // 5) % 5) for i in range(10)]
    (dim,) = agreement(labels, scores, n_boot=100).dimensions
    assert dim.statistics["krippendorff_alpha_humans"] is None
    assert dim.intervals["krippendorff_alpha_humans"] is None
    assert any("single human label" in note for note in dim.notes)
    for name in ("krippendorff_alpha_judge_humans", "cohen_kappa", "accuracy", "spearman"):
        assert dim.statistics[name] is not None
        assert dim.intervals[name] is not None
    assert dim.statistics["accuracy"] == 0.5


def test_duplicate_and_mixed_labels_are_refused() -> None:
    with pytest.raises(LabelError, match="annotator 'h1' labels sample 's1' on 'acc' a second"):
        match([lab("s1", "acc", 3, "h1"), lab("s1", "acc", 4, "h1")], [lab("s1", "acc", 3)])
    with pytest.raises(LabelError, match="a second judge score for sample 's1'"):
        match([lab("s1", "acc", 3, "h1")], [lab("s1", "acc", 3), lab("s1", "acc", 4, "j2")])
    with pytest.raises(LabelError, match="mixes ratings and preferences"):
        match([lab("s1", "acc", 3, "h1"), lab("s2", "acc", "A", "h1")], [lab("s1", "acc", 3)])
    with pytest.raises(AgreementError, match="no sample and dimension is in both files"):
        match([lab("s1", "acc", 3, "h1")], [lab("s9", "acc", 3)])


def test_unmatched_pairs_are_reported_not_used() -> None:
    scores = [*RATING_JUDGE, lab("s9", "acc", 3), lab("s1", "tone", 3)]
    report = agreement(RATINGS, scores, n_boot=0)
    assert report.unlabelled_scores == (("s1", "tone"), ("s9", "acc"))
    assert report.unscored_labels == ()
    assert [d.n_items for d in report.dimensions] == [4]


# --- bootstrap ------------------------------------------------------------------------------


def test_bootstrap_interval_of_a_mean() -> None:
    x = np.random.default_rng(1).normal(size=200)

    def mean(idx: np.ndarray) -> dict[str, float | None]:
        return {"mean": float(x[idx].mean())}

    (low, high) = bootstrap_intervals(mean, 200, n_boot=2000, seed=0)["mean"]  # type: ignore[misc]
    se = x.std(ddof=1) / np.sqrt(200)
    assert low < x.mean() < high
    assert high - low == pytest.approx(2 * 1.96 * se, rel=0.15)
    again = bootstrap_intervals(mean, 200, n_boot=2000, seed=0)["mean"]
    assert again == (low, high)  # seeded
    assert bootstrap_intervals(mean, 200, n_boot=0) == {}


def test_bootstrap_gives_none_when_mostly_undefined() -> None:
    calls = iter(range(100))

    def flaky(idx: np.ndarray) -> dict[str, float | None]:
        return {"s": 1.0 if next(calls) % 3 == 0 else None}

    assert bootstrap_intervals(flaky, 5, n_boot=100) == {"s": None}
