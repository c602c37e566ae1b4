"""HSA over a progressive harness: skill_ids, skill_content and tools reach the loaded skills,
and skill selection follows the renames of the skills and of the loader."""

from __future__ import annotations

import pytest

from hat_eval.episode import (
    EpisodeContext,
    Message,
    ToolCall,
    check_answer,
    gold_for,
    harness_sha256,
    knowledge_base,
    run_agent,
)
from hat_eval.episode._context import make_variant
from hat_eval.episode._record import HarnessRef
from hat_eval.harness import (
    SKILL_LOADER,
    default_harness_path,
    load_harness,
    render_system_prompt,
    skill_body,
)
from hat_eval.harness._load import harness_to_dict, parse_harness
from hat_eval.hsa import DIMENSIONS, AugmentationPolicy
from hat_eval.world import Case, generate_cases
from tests.episode._helpers import scripted

PROGRESSIVE = str(default_harness_path("progressive"))
DIMS = ("skill_ids", "tools")


@pytest.fixture(scope="module")
def case() -> Case:
    cases = generate_cases(knowledge_base(0), split="test", n=60, seed=11)
    return next(c for c in cases if c.expected_skill == "stock_size")


def renamed_ref(case: Case) -> HarnessRef:
    """A variant whose loader and expected skill are both renamed."""
    protect = (case.expected_skill,)
    for seed in range(200):
        v = make_variant(PROGRESSIVE, seed, DIMS, protect)
        if "load_skill" in v.mapping.tools and v.mapping.skills.get(case.expected_skill):
            return HarnessRef(PROGRESSIVE, harness_sha256(PROGRESSIVE), seed, DIMS, protect)
    raise AssertionError("no seed renames both")


def test_every_variant_of_a_progressive_harness_validates() -> None:
    base = load_harness(PROGRESSIVE)
    policy = AugmentationPolicy(dims=DIMENSIONS, default_probability=0.8)
    for v in policy.variants(base, 60, seed=3):
        h = v.harness
        assert parse_harness(harness_to_dict(h)) == h
        loader = h.skill_loader()
        assert loader is not None and loader.name == v.mapping.tool_name("load_skill")
        prompt = render_system_prompt(h)
        assert f"`{loader.name}`" in prompt
        for original in [k for k, new in v.mapping.skills.items() if new is None]:
            assert f"`{original}`" not in prompt


def run(case: Case, ref: HarnessRef, tool: str, skill_id: str):  # type: ignore[no-untyped-def]
    v = make_variant(ref.path, ref.seed, ref.dims, ref.protect)
    ctx = EpisodeContext(v.harness, v.mapping, knowledge_base(0), case.session, None)
    call = Message("assistant", "", tool_calls=(ToolCall("c0", tool, {"skill_id": skill_id}),))
    generate, seen = scripted([call, Message("assistant", "Size M is in stock.")])
    result = run_agent(ctx, [Message("user", case.message)], generate, seed=1)
    check = check_answer(case, gold_for(case, ref), "Size M is in stock.", result.records)
    return v, seen, result, check


def test_selection_follows_renamed_skills_and_loader(case: Case) -> None:
    ref = renamed_ref(case)
    v = make_variant(ref.path, ref.seed, ref.dims, ref.protect)
    loader = v.mapping.tool_name("load_skill")
    skill = v.mapping.skill_id(case.expected_skill)
    assert loader != "load_skill" and skill is not None and skill != case.expected_skill
    gold = gold_for(case, ref)
    assert gold.tools[SKILL_LOADER] == loader and gold.skill == skill

    _, seen, result, check = run(case, ref, loader, skill)
    assert seen[1][-1].content == skill_body(v.harness.skill(skill))  # the variant's body
    assert f"`{skill}`" in seen[0][0].content and f"`{loader}`" in seen[0][0].content
    assert result.records[0].outcome == "ok" and check.parts["skill"] == 1.0

    # the base harness's names are gone: its skill id is unknown, its loader name too
    _, seen, result, check = run(case, ref, loader, case.expected_skill)
    assert result.records[0].outcome == "input_error" and check.parts["skill"] == 0.0
    _, _, result, check = run(case, ref, "load_skill", skill)
    assert result.records[0].outcome == "unknown_tool" and check.parts["skill"] == 0.0


def test_skill_content_reaches_the_loaded_body(case: Case) -> None:
    base = load_harness(PROGRESSIVE)
    protect = (case.expected_skill,)
    for seed in range(50):
        v = make_variant(PROGRESSIVE, seed, ("skill_content",), protect)
        if case.expected_skill in v.mapping.rules:
            break
    else:
        raise AssertionError("no seed edits the rules")
    ref = HarnessRef(PROGRESSIVE, harness_sha256(PROGRESSIVE), seed, ("skill_content",), protect)
    _, seen, _, check = run(case, ref, "load_skill", case.expected_skill)
    body = seen[1][-1].content
    assert body == skill_body(v.harness.skill(case.expected_skill))
    assert body != skill_body(base.skill(case.expected_skill))
    assert check.parts["skill"] == 1.0


def test_inline_and_progressive_variants_are_paired() -> None:
    """The same seed gives the same variant of both default forms, but for the loader itself.

    The loader draws from a stream of its own, so the other tools' names and descriptions,
    the skill ids and every constraint that a later transform moves are the same in both.
    """
    inline = load_harness(str(default_harness_path("inline")))
    progressive = load_harness(PROGRESSIVE)
    policy = AugmentationPolicy(dims=DIMENSIONS, default_probability=1.0, default_strength=0.7)
    loader_renamed = 0
    for seed in range(40):
        a = policy.augment(inline, seed)
        b = policy.augment(progressive, seed)
        world_a = [(t.function, t.name, t.description) for t in a.harness.tools]
        world_b = [
            (t.function, t.name, t.description)
            for t in b.harness.tools
            if t.function != SKILL_LOADER
        ]
        assert world_a == world_b, seed
        assert [s.id for s in a.harness.skills] == [s.id for s in b.harness.skills], seed
        values_a = {n: c.value for n, c in a.harness.constraints().items()}
        values_b = {n: c.value for n, c in b.harness.constraints().items()}
        assert values_a == values_b, seed
        loader = next(t for t in b.harness.tools if t.function == SKILL_LOADER)
        loader_renamed += loader.name != "load_skill"
    assert loader_renamed > 0  # the loader itself is still varied
