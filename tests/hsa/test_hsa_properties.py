"""Invariants of Harness State Augmentation, checked with hypothesis over seeds and policies."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hat_eval.harness import Harness, dump_harness
from hat_eval.harness._load import harness_to_dict, parse_harness
from hat_eval.hsa import DIMENSIONS, TRANSFORMS, AugmentationPolicy, Mapping

seeds = st.integers(min_value=0, max_value=2**63 - 1)
dim_sets = st.lists(st.sampled_from(DIMENSIONS), min_size=1, max_size=5, unique=True)
unit = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)


def policies() -> st.SearchStrategy[AugmentationPolicy]:
    return st.builds(
        AugmentationPolicy,
        dims=dim_sets.map(tuple),
        default_probability=unit,
        default_strength=unit,
    )


@settings(max_examples=60, deadline=None)
@given(seed=seeds, policy=policies())
def test_same_seed_gives_byte_identical_output(
    default_harness: Harness, seed: int, policy: AugmentationPolicy
) -> None:
    a = policy.augment(default_harness, seed)
    b = policy.augment(default_harness, seed)
    assert dump_harness(a.harness) == dump_harness(b.harness)
    assert a.mapping.to_dict() == b.mapping.to_dict()


@settings(max_examples=80, deadline=None)
@given(seed=seeds, policy=policies())
def test_every_variant_validates_and_preserves_the_task(
    default_harness: Harness, seed: int, policy: AugmentationPolicy
) -> None:
    v = policy.augment(default_harness, seed)
    h, m = v.harness, v.mapping
    # validates: re-parsing the dumped variant goes through every pydantic check
    assert parse_harness(harness_to_dict(h)) == h
    # every function stays bound (tools are never masked), under the mapped name
    for tool in default_harness.tools:
        bound = h.tool(m.tool_name(tool.name))
        assert bound.function == tool.function
        assert bound.parameters == tool.parameters
    # constraints stay inside [min, max] and the mapping says what is in force
    for name, c in default_harness.constraints().items():
        now = h.constraints()[name]
        assert now.min <= now.value <= now.max
        assert (now.min, now.max) == (c.min, c.max)
        assert m.constraint_value(name, c.value) == now.value
    # skills: masked ones are gone, others are found under the mapped id with their rules
    for skill in default_harness.skills:
        new_id = m.skill_id(skill.id)
        if new_id is None:
            assert m.skills.get(skill.id, "") is None
            continue
        new = h.skill(new_id)
        edit = m.rules.get(skill.id)
        masked = set(edit.masked) if edit else set()
        assert [r.id for r in new.rules if r.id not in masked] == (
            list(edit.order)
            if edit and edit.order
            else [r.id for r in skill.rules if r.id not in masked]
        )
        assert {r.id for r in new.rules} == {r.id for r in skill.rules} - masked
        for r in skill.rules:
            if r.essential:
                assert r.id not in masked
    assert len(h.skills) >= 1
    assert set(m.dims) <= set(policy.dims)
    assert len(m.dims) >= policy.min_dims


@settings(max_examples=40, deadline=None)
@given(seed=seeds, policy=policies())
def test_mapping_round_trips_through_json(
    default_harness: Harness, seed: int, policy: AugmentationPolicy
) -> None:
    m = policy.augment(default_harness, seed).mapping
    assert Mapping.from_dict(m.to_dict()) == m


@settings(max_examples=40, deadline=None)
@given(seed=seeds, strength=unit)
def test_each_transform_is_pure(default_harness: Harness, seed: int, strength: float) -> None:
    before = dump_harness(default_harness)
    for t in TRANSFORMS.values():
        out, mapping = t(default_harness, seed=seed, strength=strength)
        again, mapping2 = t(default_harness, seed=seed, strength=strength)
        assert dump_harness(out) == dump_harness(again) and mapping == mapping2
        assert mapping.dims == (t.name,)
    assert dump_harness(default_harness) == before


@settings(max_examples=30, deadline=None)
@given(seed=seeds)
def test_protected_skills_are_never_masked(default_harness: Harness, seed: int) -> None:
    policy = AugmentationPolicy(
        dims=("skill_ids",),
        default_probability=1.0,
        default_strength=1.0,
        protect_skills=frozenset({"escalation"}),
    )
    v = policy.augment(default_harness, seed)
    assert v.mapping.skill_id("escalation") is not None
