from __future__ import annotations

import asyncio
import re
from collections import Counter

import pytest

from hat_eval.harness import Harness, diff_harness
from hat_eval.hsa import TRANSFORMS, AugmentationPolicy, Mapping, rewrite_with_model
from hat_eval.hsa._mapping import RuleEdit


def test_zero_strength_changes_nothing(default_harness: Harness) -> None:
    for t in TRANSFORMS.values():
        out, m = t(default_harness, seed=1, strength=0.0)
        assert out == default_harness
        assert m.tools == {} and m.skills == {} and m.constraints == {} and m.hooks == {}


def test_full_strength_touches_every_dimension(default_harness: Harness) -> None:
    names = {t.name for t in default_harness.tools}
    out, m = TRANSFORMS["tools"](default_harness, seed=3, strength=1.0)
    assert set(m.tools) == names
    assert not names & {t.name for t in out.tools}
    out, m = TRANSFORMS["system_prompt"](default_harness, seed=3, strength=1.0)
    assert set(m.constraints) == set(default_harness.constraints())
    assert out.system_prompt.blocks[0].id == "persona"  # not movable
    out, m = TRANSFORMS["hooks"](default_harness, seed=3, strength=1.0)
    assert m.hooks and out.hooks != default_harness.hooks


def test_diff_sees_what_the_mapping_records(default_harness: Harness) -> None:
    policy = AugmentationPolicy(default_probability=1.0, default_strength=0.8)
    v = policy.augment(default_harness, 11)
    d = diff_harness(default_harness, v.harness)
    renamed_tools = {c.path.split(".")[1] for c in d.changes if c.kind == "tool_renamed"}
    assert renamed_tools == set(v.mapping.tools)
    moved = {c.path.split(".")[-1] for c in d.changes if c.kind == "constraint_changed"}
    assert moved == set(v.mapping.constraints)


def test_strength_out_of_range_is_refused(default_harness: Harness) -> None:
    with pytest.raises(ValueError, match="outside"):
        TRANSFORMS["tools"](default_harness, seed=0, strength=1.5)


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"dims": ("tools", "colour")}, "unknown"),
        ({"dims": ()}, "non-empty"),
        ({"probability": {"hooks": 2.0}}, "outside [0, 1]"),
        ({"dims": ("tools",), "strength": {"hooks": 0.5}}, "not in dims"),
        ({"min_dims": 9}, "min_dims (9)"),
    ],
)
def test_policy_errors_name_the_value_and_the_rule(kwargs: dict, words: str) -> None:
    with pytest.raises(ValueError, match=re.escape(words)):
        AugmentationPolicy(**kwargs)


def test_variants_depend_on_seed_and_index_only(default_harness: Harness) -> None:
    p = AugmentationPolicy()
    first = [v.mapping for v in p.variants(default_harness, 5, 7)]
    longer = [v.mapping for v in p.variants(default_harness, 9, 7)]
    assert longer[:5] == first
    other = [v.mapping for v in p.variants(default_harness, 5, 8)]
    assert other != first


def test_names_and_descriptions_rarely_repeat_over_1000_variants(default_harness: Harness) -> None:
    p = AugmentationPolicy()
    names: Counter[str] = Counter()
    descriptions: Counter[str] = Counter()
    for v in p.variants(default_harness, 1000, 1):
        originals = {t.function: t for t in default_harness.tools}
        for t in v.harness.tools:
            if t.name != originals[t.function].name:
                names[t.name] += 1
            if t.description != originals[t.function].description:
                descriptions[t.description] += 1
    assert sum(names.values()) > 1000 and sum(descriptions.values()) > 1000
    # at most 2% of renamed tools share a name with another variant's; same for descriptions
    assert len(names) / sum(names.values()) > 0.98
    assert len(descriptions) / sum(descriptions.values()) > 0.95


def test_composed_mapping_retargets_through_two_steps() -> None:
    a = Mapping(dims=("skill_ids",), skills={"s1": "alpha", "s2": None})
    b = Mapping(dims=("skill_content",), rules={"alpha": RuleEdit(masked=("r2",))})
    m = a.then(b)
    assert m.skill_id("s1") == "alpha" and m.skill_id("s2") is None and m.skill_id("s3") == "s3"
    assert m.rules == {"s1": RuleEdit(masked=("r2",))}
    t = Mapping(dims=("tools",), tools={"x": "y"}).then(Mapping(dims=("tools",), tools={"y": "z"}))
    assert t.tool_name("x") == "z"


def test_model_rewriter_keeps_numbers_and_records_changes(default_harness: Harness) -> None:
    from inspect_ai.model import ModelOutput, get_model

    v = AugmentationPolicy(dims=("tools",)).augment(default_harness, 0)
    n_tools, n_skills = len(v.harness.tools), len(v.harness.skills)
    # first tool: a faithful rewrite; every other answer drops or adds nothing but is empty
    outputs = [ModelOutput.from_content("mockllm/model", "Look through the shop catalogue.")]
    outputs += [ModelOutput.from_content("mockllm/model", "")] * (n_tools + n_skills - 1)
    model = get_model("mockllm/model", custom_outputs=outputs)
    out = asyncio.run(rewrite_with_model(v, model))
    assert out.harness.tools[0].description == "Look through the shop catalogue."
    assert out.harness.tools[1:] == v.harness.tools[1:]
    original_name = default_harness.tools[0].name
    assert original_name in out.mapping.tool_descriptions
