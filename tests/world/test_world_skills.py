"""Each intent's gold skill comes from the default harness (``Skill.intents``), not the world."""

from __future__ import annotations

import subprocess
import sys

import pytest

from hat_eval.harness import Harness, HarnessError
from hat_eval.harness._load import harness_to_dict, parse_harness
from hat_eval.world import INTENTS, build_kb, generate_cases
from hat_eval.world._cases import SINGLE_INTENTS, SKILL_OF, skill_of
from hat_eval.world._cases._intents import MULTI_PARTS


def test_skill_of_is_what_the_default_harness_lists(default_harness: Harness) -> None:
    listed = {i: s.id for s in default_harness.skills for i in s.intents}
    assert dict(SKILL_OF) == listed
    assert list(SKILL_OF) == list(SINGLE_INTENTS) == [i for i in INTENTS if i != "multi_intent"]
    assert SKILL_OF["price"] == "price_promotion" and SKILL_OF["out_of_scope"] == "escalation"


def test_cases_are_labelled_with_the_skills_of_their_intents() -> None:
    cases = generate_cases(build_kb(), split="dev", n=400, seed=3)
    assert {c.intent for c in cases} == set(INTENTS)
    for c in cases:
        if c.intent == "multi_intent":
            parts = MULTI_PARTS[c.details["sub"]]
            assert c.accepted_skills == tuple(SKILL_OF[p] for p in parts)
        elif c.intent == "out_of_scope":
            assert c.accepted_skills == (SKILL_OF["out_of_scope"], SKILL_OF["chit_chat"])
        else:
            assert c.accepted_skills == (SKILL_OF[c.intent],)
        assert c.expected_skill == c.accepted_skills[0]
        for f in c.facts:
            if f.source.startswith("skill:"):
                assert f.source == f"skill:{SKILL_OF['compliance_bait']}.r4"


def test_renamed_skill_ids_follow_the_harness(default_harness: Harness) -> None:
    data = harness_to_dict(default_harness)
    data["skills"][1]["id"] = "promo_desk"
    assert skill_of(parse_harness(data))["price"] == "promo_desk"


def _with_intents(default_harness: Harness, index: int, intents: list[str]) -> Harness:
    data = harness_to_dict(default_harness)
    data["skills"][index]["intents"] = intents
    return parse_harness(data)


@pytest.mark.parametrize(
    ("index", "intents", "field", "words"),
    [
        (0, ["material_spec", "haggling"], "skills.0.intents.1", "intent 'haggling' is unknown"),
        (0, ["multi_intent"], "skills.0.intents.0", "intent 'multi_intent' is unknown"),
        (0, ["material_spec", "price"], "skills.1.intents.0", "also listed by skill 'product_qa'"),
        (6, [], "skills", "no skill lists the intent(s) chit_chat"),
    ],
)
def test_inconsistent_intents_name_the_field(
    default_harness: Harness, index: int, intents: list[str], field: str, words: str
) -> None:
    with pytest.raises(HarnessError) as err:
        skill_of(_with_intents(default_harness, index, intents), "h.yaml")
    assert err.value.source == "h.yaml" and err.value.field == field
    assert words in err.value.message


def test_the_harness_is_read_on_first_use_only() -> None:
    code = (
        "import hat_eval.world, hat_eval.world._cases as w; "
        "from hat_eval.world._cases._skills import default_skill_of; "
        "assert default_skill_of.cache_info().currsize == 0; w.SKILL_OF['price']; "
        "assert default_skill_of.cache_info().currsize == 1"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
