"""Case suites' recipes come from their eval.yaml; a bad one is one error naming file and field."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from hat_eval.episode import FaultRecipe, Recipe, build_rows, dataset_sha256
from hat_eval.suites import case_suites, suite_recipe, viewer_messages
from hat_eval.suites._recipes import SuiteFileError, read_recipe, suite_rows
from hat_eval.world import FAULT_KINDS


def test_the_case_suites_are_the_ones_with_a_recipe() -> None:
    assert case_suites() == ("livestream", "variant", "robustness", "evolution")
    with pytest.raises(
        ValueError, match="'ifeval' is not a case suite, expected one of livestream"
    ):
        suite_recipe("ifeval")
    with pytest.raises(ValueError, match="'nope' is not a suite"):
        suite_recipe("nope")


def test_the_recipes_read_from_eval_yaml() -> None:
    assert suite_recipe("livestream") == Recipe(name="livestream", cases=1500, seed=11)
    # variant: the livestream cases (same seed and size), each under a held-out HSA variant
    assert suite_recipe("variant") == Recipe(name="variant", cases=1500, seed=11, variants=True)
    robustness = suite_recipe("robustness")
    assert (robustness.cases, robustness.seed, robustness.pool) == (1000, 37, 2)
    assert robustness.require_calls and not robustness.variants
    kinds = (*FAULT_KINDS, "hook_rejection")  # every tool fault, and a hook's misfire
    assert robustness.faults == FaultRecipe(kinds=kinds, times=((1, 0.6), (2, 0.4)))
    assert robustness.perturbations[0] == () and ("system_prompt", "tools") in (
        robustness.perturbations
    )


def test_suite_rows_are_build_rows_of_the_suite_recipe() -> None:
    assert dataset_sha256(suite_rows("robustness", n=30)) == dataset_sha256(
        build_rows(suite_recipe("robustness"), n=30)
    )


HEAD = "name: mine\n"


def read_recipe_file(path: Path) -> Recipe:
    """The recipe of the eval.yaml at ``path``, read as the catalogue reads each suite's."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return read_recipe(data["name"], data["recipe"], str(path))


@pytest.mark.parametrize(
    ("recipe", "field", "match"),
    [
        ("recipe: {cases: 10, seed: 1, sed: 2}", "recipe.sed", "unknown field, expected one of"),
        ("recipe: {cases: ten, seed: 1}", "recipe.cases", "expected an integer, got 'ten'"),
        ("recipe: {cases: 10}", "recipe.seed", "field required"),
        ("recipe: {cases: 10, seed: 1, variants: yes please}", "recipe.variants", "true or false"),
        ("recipe: [10, 1]", "recipe", "expected a mapping of cases, seed"),
        (
            "recipe: {cases: 10, seed: 1, perturbations: [tools]}",
            "recipe.perturbations.0",
            "expected a list of names, got 'tools'",
        ),
        (
            "recipe: {cases: 10, seed: 1, perturbations: [[toolz]]}",
            "recipe.perturbations.0",
            "'toolz' is not an HSA dimension",
        ),
        (
            "recipe: {cases: 10, seed: 1, require_calls: true, faults: {kind: [timeout]}}",
            "recipe.faults.kind",
            "unknown field, expected one of kinds, times",
        ),
        (
            "recipe: {cases: 10, seed: 1, require_calls: true, faults: {times: {1: 0.5}}}",
            "recipe.faults.times",
            "probabilities sum to 0.5",
        ),
        (
            "recipe: {cases: 10, seed: 1, require_calls: true, faults: {times: {1: often}}}",
            "recipe.faults.times.1",
            "expected a probability, got 'often'",
        ),
        ("recipe: {cases: 10, seed: 1, faults: {}}", "recipe.faults", "set require_calls"),
    ],
)
def test_a_bad_recipe_is_one_error_naming_file_and_field(
    tmp_path: Path, recipe: str, field: str, match: str
) -> None:
    path = tmp_path / "eval.yaml"
    path.write_text(HEAD + recipe + "\n", encoding="utf-8")
    with pytest.raises(SuiteFileError, match=match) as err:
        read_recipe_file(path)
    assert err.value.field == field
    assert str(err.value).startswith(f"{path}: {field}: ")


def test_a_good_recipe_file_reads(tmp_path: Path) -> None:
    path = tmp_path / "eval.yaml"
    path.write_text(HEAD + "recipe: {cases: 5, seed: 2, variants: true}\n", encoding="utf-8")
    assert read_recipe_file(path) == Recipe(name="mine", cases=5, seed=2, variants=True)


# -- viewer messages (what the load harness sends by default) -------------------------------------


def test_viewer_messages_are_the_suite_inputs_in_order() -> None:
    rows = suite_rows("livestream", n=20)
    msgs = viewer_messages(20)
    assert msgs == [r["input"] for r in rows]
    assert all(isinstance(m, str) and m.strip() for m in msgs)
    assert len(set(msgs)) > 10  # real, varied questions


def test_viewer_messages_are_deterministic_and_cycle_past_the_suite_size() -> None:
    size = suite_recipe("livestream").cases
    msgs = viewer_messages(size + 7)
    assert len(msgs) == size + 7
    assert msgs[size:] == msgs[:7]
    assert msgs == viewer_messages(size + 7)


def test_other_suites_and_splits() -> None:
    dev = viewer_messages(8, split="dev")
    assert dev == [r["input"] for r in suite_rows("livestream", split="dev", n=8)]
    assert dev != viewer_messages(8)
    assert viewer_messages(4, suite="variant") == [r["input"] for r in suite_rows("variant", n=4)]


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"n": 0}, r"n \(0\) must be at least 1"),
        ({"n": 3, "suite": "nope"}, "'nope' is not a suite"),
        ({"n": 3, "split": "val"}, "split 'val' is unknown"),
    ],
)
def test_bad_arguments(kwargs, match) -> None:
    with pytest.raises(ValueError, match=match):
        viewer_messages(**kwargs)
