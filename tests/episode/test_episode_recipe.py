"""Recipes: the typed record an episode set is drawn from (no suite named here)."""

from __future__ import annotations

import pytest

from hat_eval.episode import FaultRecipe, Recipe, RecipeError, build_episodes
from hat_eval.world import FAULT_KINDS


def test_a_plain_recipe_draws_its_cases_under_the_default_harness() -> None:
    episodes = build_episodes(Recipe(name="mine", cases=4, seed=3))
    assert len(episodes) == 4
    assert all(e.id.startswith("mine-") and e.suite == "mine" for e in episodes)
    assert all(e.harness.seed is None and e.fault is None for e in episodes)
    assert [e.id for e in build_episodes(Recipe(name="mine", cases=9, seed=3), n=4)] == [
        e.id for e in episodes
    ]


def test_variants_put_every_case_under_an_hsa_variant() -> None:
    episodes = build_episodes(Recipe(name="v", cases=6, seed=3, variants=True))
    assert all(e.harness.seed is not None and e.harness.dims for e in episodes)


def test_perturbations_cycle_and_faults_hit_a_required_call() -> None:
    recipe = Recipe(
        name="r",
        cases=8,
        seed=5,
        perturbations=((), ("tools",)),
        faults=FaultRecipe(kinds=("timeout", "empty"), times=((3, 1.0),)),
        pool=2,
        require_calls=True,
    )
    episodes = build_episodes(recipe)
    assert len(episodes) == 8
    assert [e.labels["perturbation"] for e in episodes[:4]] == ["none", "tools"] * 2
    assert [e.fault.kind for e in episodes if e.fault][:4] == ["timeout", "empty"] * 2
    for e in episodes:
        assert e.fault is not None and e.fault.times == 3
        assert e.fault.function == e.case.required_calls[0].function


def test_fault_times_are_drawn_from_the_cumulative_probabilities() -> None:
    faults = FaultRecipe(times=((1, 0.6), (2, 0.4)))
    assert faults.kinds == FAULT_KINDS
    assert [faults.draw_times(u) for u in (0.0, 0.59, 0.6, 0.999)] == [1, 1, 2, 2]


@pytest.mark.parametrize(
    ("make", "field", "match"),
    [
        (lambda: Recipe(name="x", cases=0, seed=1), "cases", "0 must be at least 1"),
        (
            lambda: Recipe(name="x", cases=1, seed=1, perturbations=(("toolz",),)),
            "perturbations.0",
            "'toolz' is not an HSA dimension",
        ),
        (
            lambda: Recipe(name="x", cases=1, seed=1, variants=True, perturbations=((),)),
            "perturbations",
            "cannot be combined with variants",
        ),
        (
            lambda: Recipe(name="x", cases=1, seed=1, faults=FaultRecipe()),
            "faults",
            "set require_calls: true",
        ),
        (lambda: Recipe(name="x", cases=1, seed=1, pool=2), "pool", "set require_calls"),
        (lambda: FaultRecipe(kinds=("nope",)), "faults.kinds.0", "'nope' is not a fault kind"),
        (
            lambda: FaultRecipe(times=((1, 0.5), (2, 0.4))),
            "faults.times",
            "probabilities sum to 0.9, expected 1",
        ),
        (lambda: FaultRecipe(times=((0, 1.0),)), "faults.times.0", "at least 1"),
    ],
)
def test_a_bad_recipe_names_its_field(make, field: str, match: str) -> None:
    with pytest.raises(RecipeError, match=match) as err:
        make()
    assert err.value.field == field


def test_a_suite_name_is_not_a_recipe() -> None:
    with pytest.raises(TypeError, match=r"hat_eval.suites.suite_episodes\(name"):
        build_episodes("livestream")  # type: ignore[arg-type]
