"""Synthetic annotators of known noise: the statistics follow the noise."""

from __future__ import annotations

import krippendorff
import numpy as np
import pytest

from hat_eval.judge import Label, agreement
from hat_eval.judge._labels import PREFERENCES

N_ITEMS = 150
N_HUMANS = 3


def noisy(truth: np.ndarray, sd: float, rng: np.random.Generator) -> np.ndarray:
    """A rater who reports the true rating plus Gaussian noise, rounded onto the 1-5 scale."""
    return np.clip(np.rint(truth + rng.normal(0.0, sd, truth.shape)), 1, 5).astype(int)


def rating_labels(
    sd_humans: float, sd_judge: float, seed: int, dim: str = "acc"
) -> tuple[list[Label], list[Label], np.ndarray]:
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, 6, N_ITEMS)
    humans = np.stack([noisy(truth, sd_humans, rng) for _ in range(N_HUMANS)])
    judge = noisy(truth, sd_judge, rng)
    labels = [
        Label(f"s{i:03d}", dim, int(humans[h, i]), f"h{h}")
        for h in range(N_HUMANS)
        for i in range(N_ITEMS)
    ]
    scores = [Label(f"s{i:03d}", dim, int(judge[i]), "judge") for i in range(N_ITEMS)]
    return labels, scores, np.vstack([humans, judge[None, :]]).astype(float)


@pytest.mark.parametrize("seed", [0, 1])
def test_alphas_match_the_package_and_fall_with_noise(seed: int) -> None:
    alphas = []
    for sd in (0.3, 0.7, 1.2, 2.0):
        labels, scores, matrix = rating_labels(sd, sd, seed)
        (dim,) = agreement(labels, scores, n_boot=0).dimensions
        kwargs = {"level_of_measurement": "ordinal", "value_domain": [1, 2, 3, 4, 5]}
        humans = dim.statistics["krippendorff_alpha_humans"]
        both = dim.statistics["krippendorff_alpha_judge_humans"]
        assert humans == pytest.approx(krippendorff.alpha(matrix[:N_HUMANS], **kwargs))
        # judge-human pairs only: each human's labels beside the judge's, as two-coder units
        pairs = np.hstack([matrix[[-1, h]] for h in range(N_HUMANS)])
        assert both == pytest.approx(krippendorff.alpha(pairs, **kwargs))
        alphas.append((humans, both))
        # a judge as noisy as each human sits at about the humans' own alpha
        assert abs(both - humans) < 0.1  # type: ignore[operator]
    for column in zip(*alphas, strict=True):
        assert list(column) == sorted(column, reverse=True), alphas
    assert alphas[0][0] > 0.9 and alphas[-1][0] < 0.6


def test_a_noisier_judge_dimension_has_lower_kappa_and_is_flagged() -> None:
    clean_l, clean_s, _ = rating_labels(0.5, 0.3, seed=3, dim="clean")
    noisy_l, noisy_s, _ = rating_labels(0.5, 2.0, seed=4, dim="noisy")
    report = agreement([*clean_l, *noisy_l], [*clean_s, *noisy_s], n_boot=200, seed=0)
    clean, noisy_dim = report.dimensions
    assert (clean.dimension, noisy_dim.dimension) == ("clean", "noisy")
    assert clean.statistics["cohen_kappa"] > noisy_dim.statistics["cohen_kappa"] + 0.2  # type: ignore[operator]
    assert clean.statistics["spearman"] > noisy_dim.statistics["spearman"]  # type: ignore[operator]
    # the intervals do not overlap, and each holds its point estimate
    assert clean.intervals["cohen_kappa"][0] > noisy_dim.intervals["cohen_kappa"][1]  # type: ignore[index]
    for dim in (clean, noisy_dim):
        for name, value in dim.statistics.items():
            low, high = dim.intervals[name]  # type: ignore[misc]
            assert low <= value <= high, (dim.dimension, name)  # type: ignore[operator]
    # similar humans on both: only the judge-human alpha separates them
    assert report.flagged == ("noisy",)
    assert not clean.flagged


def test_preference_alpha_is_nominal_and_falls_with_noise() -> None:
    rng = np.random.default_rng(5)
    truth = rng.choice(len(PREFERENCES), N_ITEMS, p=[0.45, 0.35, 0.2])
    previous = 1.0
    for flip in (0.05, 0.25, 0.5):
        coded = np.stack(
            [
                np.where(rng.random(N_ITEMS) < flip, rng.integers(0, 3, N_ITEMS), truth)
                for _ in range(N_HUMANS + 1)
            ]
        )
        labels = [
            Label(f"s{i}", "pref", PREFERENCES[coded[h, i]], f"h{h}")
            for h in range(N_HUMANS)
            for i in range(N_ITEMS)
        ]
        scores = [Label(f"s{i}", "pref", PREFERENCES[coded[-1, i]], "j") for i in range(N_ITEMS)]
        (dim,) = agreement(labels, scores, n_boot=0).dimensions
        order = np.argsort([f"s{i}" for i in range(N_ITEMS)])  # items are sorted by sample id
        expected = krippendorff.alpha(coded[:N_HUMANS, order], level_of_measurement="nominal")
        alpha = dim.statistics["krippendorff_alpha_humans"]
        assert alpha == pytest.approx(expected)
        assert alpha < previous  # type: ignore[operator]
        previous = alpha  # type: ignore[assignment]
