"""The case suites on a team's own shop: the episodes carry it, every reader of the world reads it,
and the gold is re-targeted under HSA variants exactly as on the built-in shop."""

from __future__ import annotations

from pathlib import Path

from hat_eval.episode import Episode, episode_context, episode_kb
from hat_eval.episode._context import make_variant
from hat_eval.suites import suite_episodes
from hat_eval.suites._recipes import suite_rows
from hat_eval.world import builtin_pack, call_function, load_kb, read_pack, shop_coverage
from hat_eval.world._coverage import generator_problems

EXAMPLE = (Path(__file__).resolve().parents[2] / "examples" / "shop").as_posix()


def test_variant_gold_is_retargeted_under_each_variant_on_the_example_shop() -> None:
    episodes = suite_episodes("variant", n=60, shop=EXAMPLE)
    renamed_skill = renamed_tool = 0
    for e in episodes:
        assert e.shop == EXAMPLE and e.harness.seed is not None
        v = make_variant(e.harness.path, e.harness.seed, e.harness.dims, e.harness.protect)
        skills = e.case.accepted_skills or (e.case.expected_skill,)
        assert e.gold.skill == v.mapping.skill_id(skills[0])
        assert e.gold.tools == {t.function: t.name for t in v.harness.tools}
        assert e.gold.constraints == {n: c.value for n, c in v.harness.constraints().items()}
        renamed_skill += e.gold.skill != e.case.expected_skill
        renamed_tool += any(name != fn for fn, name in e.gold.tools.items())
    assert renamed_skill and renamed_tool  # the variants did rename: the gold followed them
    livestream = {e.case.id: e.case for e in suite_episodes("livestream", n=60, shop=EXAMPLE)}
    assert all(livestream[e.case.id] == e.case for e in episodes)  # same cases, paired


def test_the_episode_reads_its_shop_everywhere() -> None:
    e = suite_episodes("livestream", n=5, shop=EXAMPLE)[0]
    kb = episode_kb(e)
    assert kb.pack == read_pack(EXAMPLE)
    assert episode_context(e).kb is kb
    row = e.to_row()
    again = Episode.from_row(row, {"path": None, "sha256": e.harness.sha256})
    assert again.shop == EXAMPLE and episode_kb(again) is kb
    for call in e.case.required_calls:  # the gold's lookups answer from the example shop
        call_function(kb, e.case.session, call.function, call.args)
    assert all(pid.startswith("T") for pid in e.case.product_ids)


def test_the_built_in_shop_rows_do_not_name_a_shop() -> None:
    row = suite_rows("livestream", n=1)[0]
    assert "shop" not in row["metadata"]


def test_coverage_of_the_example_shop() -> None:
    kb = load_kb(EXAMPLE)
    cover = shop_coverage(kb)
    assert not cover.problems and all(i.reason is None for i in cover.intents)
    assert cover.splits == {"train": 0, "dev": 16, "test": 16}
    assert {c.category for c in cover.categories} == {"food", "home", "electronics", "jewellery"}
    assert generator_problems(builtin_pack()) == []
