"""End-to-end contrasts between models on constructed per-case scores, by hand-derived values."""

from __future__ import annotations

import math

import pytest

from hat_eval.repro._budget import ReproError
from hat_eval.repro._contrast import (
    E2E_MEASURES,
    arm_estimate,
    contrast_arms,
    contrast_terms,
    measure_contrast,
    seed_spread,
)


def means(*values: float) -> dict[str, tuple[float, ...]]:
    return {f"case-{i:02d}": (v,) for i, v in enumerate(values)}


def test_a_contrast_names_one_or_two_differences_of_arms() -> None:
    assert contrast_terms("hsa_sft+opd+rl-base") == (("hsa_sft+opd+rl", "base"),)
    assert contrast_terms("(a-b)-(c+x-d)") == (("a", "b"), ("c+x", "d"))
    assert contrast_arms("(a-b)-(a-c)") == ("a", "b", "c")
    for bad in ("a", "a-b-c", "(a-b)", "(a-b)-c", "a - b", ""):
        with pytest.raises(ReproError, match="expected 'a-b' or '\\(a-b\\)-\\(c-d\\)'"):
            contrast_terms(bad)


def test_a_difference_of_means_is_paired_by_case() -> None:
    # hand-derived: a - b is 1, 2, 3 on the three cases: mean 2; every resample's mean is within
    # [1, 3]; b's fourth case has no pair and is left out
    scores = {"a": means(1, 2, 3), "b": {**means(0, 0, 0), "case-99": (50.0,)}}
    r = measure_contrast("livestream_score", "a-b", [scores], n_boot=500)
    assert (r.n, r.diff, r.terms) == (3, 2.0, (2.0,))
    assert dict(r.arms) == {"a": 2.0, "b": 0.0}
    assert 1.0 <= r.low <= 2.0 <= r.high <= 3.0
    assert r.per_seed == (2.0,) and math.isnan(seed_spread(r.per_seed))
    assert r.to_dict()["description"] == E2E_MEASURES["livestream_score"].description


def test_a_planted_difference_shows_with_its_sign_and_an_interval_off_zero() -> None:
    base = [float((7 * i) % 11) for i in range(40)]  # case difficulty, shared by both models
    better = {"a": means(*(b + 3.0 + (i % 3) - 1 for i, b in enumerate(base))), "b": means(*base)}
    up = measure_contrast("variant_score", "a-b", [better], n_boot=1000)
    assert up.diff == pytest.approx(3.0, abs=0.1) and up.low > 0
    down = measure_contrast("variant_score", "b-a", [better], n_boot=1000)
    assert down.diff == pytest.approx(-up.diff) and down.high < 0
    same = {"a": means(*base), "b": means(*(b + ((-1) ** i) for i, b in enumerate(base)))}
    flat = measure_contrast("variant_score", "a-b", [same], n_boot=1000)
    assert flat.low < 0 < flat.high


def test_a_difference_of_differences() -> None:
    # (a - b) - (c - d) per case: (2 - 0) - (1 - 0) = 1 on every case
    scores = {"a": means(2, 2), "b": means(0, 0), "c": means(1, 1), "d": means(0, 0)}
    r = measure_contrast("ifeval_prompt_strict", "(a-b)-(c-d)", [scores], n_boot=200)
    assert (r.n, r.terms, r.diff, r.low, r.high) == (2, (2.0, 1.0), 1.0, 1.0, 1.0)


def test_seeds_are_averaged_per_case_and_their_spread_kept() -> None:
    base = means(0, 0, 0, 0)
    seed0 = {"base": base, "a": means(1, 1, 1, 1)}
    seed1 = {"base": base, "a": means(3, 3, 3, 3)}
    r = measure_contrast("livestream_score", "a-base", [seed0, seed1], n_boot=200)
    assert r.diff == 2.0 and r.per_seed == (1.0, 3.0)
    assert seed_spread(r.per_seed) == pytest.approx(math.sqrt(2.0))
    assert r.to_dict()["spread"] == pytest.approx(math.sqrt(2.0))


def test_the_error_reduction_of_two_models_is_compared_case_by_case() -> None:
    # a: 10 cases wrong under the first version, 5 of them right under the last: reduction 0.5;
    # b: 10 wrong first, 2 right last: 0.2; a - b = 0.3
    a = {f"c{i}": (1.0, 0.0 if i < 5 else 1.0) for i in range(10)}
    b = {f"c{i}": (1.0, 0.0 if i < 2 else 1.0) for i in range(10)}
    r = measure_contrast("evolution_error_reduction", "a-b", [{"a": a, "b": b}], n_boot=500)
    assert dict(r.arms) == {"a": 0.5, "b": pytest.approx(0.2)}
    assert r.diff == pytest.approx(0.3) and r.low <= 0.3 <= r.high


def test_no_shared_case_is_no_number() -> None:
    r = measure_contrast("livestream_score", "a-b", [{"a": means(1), "b": {}}], n_boot=50)
    assert r.n == 0 and math.isnan(r.diff) and math.isnan(r.low)
    assert r.to_dict()["diff"] is None


def test_bad_input_names_the_value() -> None:
    with pytest.raises(ReproError, match="measure 'bleu': not an end-to-end measure"):
        measure_contrast("bleu", "a-b", [{"a": means(1), "b": means(1)}])
    with pytest.raises(ReproError, match="seed 1 has no scores of b"):
        measure_contrast("livestream_score", "a-b", [{"a": means(1), "b": means(1)}, {"a": {}}])
    with pytest.raises(ReproError, match="no seed's scores"):
        measure_contrast("livestream_score", "a-b", [])


def test_one_models_measure_pooled_over_seeds() -> None:
    # seed 0 scores 1, 2; seed 1 scores 3, 4: per case 2 and 3, pooled 2.5; seeds 1.5 and 3.5
    seeds = [{"a": means(1, 2)}, {"a": means(3, 4)}]
    e = arm_estimate("variant_score", "a", seeds, n_boot=300)
    assert (e.n, e.value, e.per_seed) == (2, 2.5, (1.5, 3.5))
    assert 2.0 <= e.low <= 2.5 <= e.high <= 3.0
    with pytest.raises(ReproError, match="seed 0 has no scores of a"):
        arm_estimate("variant_score", "a", [{"b": means(1)}])
