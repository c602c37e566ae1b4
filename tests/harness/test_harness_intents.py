"""``Skill.intents``: which viewer intents a skill answers; data for the world, not the prompt."""

from __future__ import annotations

import pytest

from hat_eval.harness import Harness, HarnessError, render
from hat_eval.harness._load import harness_to_dict, parse_harness
from hat_eval.hsa import DIMENSIONS, TRANSFORMS, AugmentationPolicy


def test_every_default_skill_lists_its_intents(default_harness: Harness) -> None:
    assert all(s.intents for s in default_harness.skills)
    assert default_harness.skill("price_promotion").intents == ("price", "promotion_stacking")


def test_intents_are_optional_and_not_rendered(default_harness: Harness) -> None:
    data = harness_to_dict(default_harness)
    for s in data["skills"]:
        del s["intents"]
    bare = parse_harness(data)
    assert all(s.intents == () for s in bare.skills)
    assert render(bare) == render(default_harness)
    assert "stock_size" not in render(default_harness).system_prompt.split("## Skills")[0]
    assert "promotion_stacking" not in render(default_harness).system_prompt


@pytest.mark.parametrize(
    ("intents", "field", "words"),
    [
        (["Price"], "skills.0.intents.0", "not an intent name"),
        (["price", "price"], "skills.0.intents.1", "duplicated intent 'price'"),
    ],
)
def test_bad_intents_name_the_field(
    default_harness: Harness, intents: list[str], field: str, words: str
) -> None:
    data = harness_to_dict(default_harness)
    data["skills"][0]["intents"] = intents
    with pytest.raises(HarnessError) as err:
        parse_harness(data, "h.yaml")
    assert err.value.field == field and words in err.value.message


def test_renamed_skills_keep_their_intents(default_harness: Harness) -> None:
    h, m = TRANSFORMS["skill_ids"](default_harness, seed=5, strength=1.0)
    assert any(new is not None and new != old for old, new in m.skills.items())
    for skill in default_harness.skills:
        new_id = m.skill_id(skill.id)
        if new_id is not None:
            assert h.skill(new_id).intents == skill.intents


def test_every_hsa_variant_keeps_intents_with_their_skills(default_harness: Harness) -> None:
    policy = AugmentationPolicy(dims=DIMENSIONS, default_probability=1.0, default_strength=1.0)
    for seed in range(20):
        v = policy.augment(default_harness, seed)
        for skill in default_harness.skills:
            new_id = v.mapping.skill_id(skill.id)
            if new_id is not None:
                assert v.harness.skill(new_id).intents == skill.intents
        assert parse_harness(harness_to_dict(v.harness)) == v.harness
