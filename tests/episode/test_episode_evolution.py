"""Episodes under a harness changelog: each edit changes the gold of the cases it applies to and
no other, and each requirement check reads answers as a careful reader would."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from hat_eval.episode import (
    CallRecord,
    Episode,
    Recipe,
    RecipeError,
    build_episodes,
    check_requirement,
    knowledge_base,
)
from hat_eval.episode._record import EditRequirement
from hat_eval.harness import HarnessError, load_changelog
from hat_eval.harness._changelog import REQUIREMENT_CHECKS
from hat_eval.suites import suite_episodes, suite_recipe

SHIPPED = Path(str(suite_recipe("evolution").changelog))


@cache
def _episodes() -> dict[tuple[str, str], Episode]:
    """160 cases under every version, by (version, case id)."""
    return {(str(e.labels["version"]), e.case.id): e for e in suite_episodes("evolution", n=160)}


def _gold_of(e: Episode) -> tuple[object, ...]:
    """What an edit may change of a case's gold: its facts, calls and fitting skills."""
    return (e.case.facts, e.case.expected_calls, e.gold.skills)


def test_each_case_runs_under_each_version_with_one_id_per_version() -> None:
    eps = _episodes()
    versions = {v for v, _ in eps}
    assert versions == set(load_changelog(SHIPPED).ids())
    assert len({e.id for e in eps.values()}) == len(eps) == 160 * 7
    e = eps[("v3", next(c for v, c in eps if v == "v3"))]
    assert e.id == f"evolution-v3-{e.case.id}" and e.labels == {"version": "v3"}
    assert Episode.from_row(e.to_row(), e.harness.base_dict()) == e  # requirements round-trip


def test_scoped_edits_change_the_gold_they_apply_to_and_no_other() -> None:
    eps = _episodes()
    log = load_changelog(SHIPPED)
    cases = sorted({c for _, c in eps})
    for prev, version in zip(log.versions, log.versions[1:], strict=False):
        assert version.edit is not None and version.edit.requires is not None
        key = f"requirement_{version.version}"
        applies = [
            c
            for c in cases
            if any(r.key == key for r in eps[(version.version, c)].gold.requirements)
        ]
        controls = [c for c in cases if c not in applies]
        if not version.edit.requires.intents:  # an edit to every answer: a limit, a hook
            assert applies == cases, version.version
            continue
        assert applies and controls, version.version
        changed = [
            c
            for c in applies
            if _gold_of(eps[(prev.version, c)]) != _gold_of(eps[(version.version, c)])
        ]
        assert changed, f"{version.version}: no case's gold changes with the edit"
        for c in controls:
            before, after = eps[(prev.version, c)], eps[(version.version, c)]
            assert _gold_of(before) == _gold_of(after), (version.version, c)


def test_what_each_edit_does_to_the_gold() -> None:
    eps = _episodes()
    price = next(c for (v, c), e in eps.items() if v == "v1" and e.case.intent == "price")
    v1, v2 = eps[("v1", price)], eps[("v2", price)]
    added = [f for f in v2.case.facts if f not in v1.case.facts]
    assert [f.kind for f in added] in (["days"], ["text"])  # the window, or "no returns"
    assert "policy.shipping_returns" in {c.function for c in v2.case.required_calls}
    in_force = {r.edit: r.in_force for r in v2.gold.requirements}
    assert in_force["v2"] and not in_force["v6"]
    coupon = next(
        c for (v, c), e in eps.items() if v == "v1" and e.case.intent == "promotion_stacking"
    )
    assert eps[("v4", coupon)].gold.skill == "price_promotion"
    assert eps[("v5", coupon)].gold.skill == "coupon_stacking"
    assert eps[("v4", coupon)].gold.constraints["max_words"] == 35
    assert eps[("v3", coupon)].gold.constraints["max_words"] == 60
    low = [
        c
        for (v, c), e in eps.items()
        if v == "v3" and any(r.edit == "v3" for r in e.gold.requirements)
    ]
    assert low
    for c in low:
        assert any(f.kind == "count" for f in eps[("v2", c)].case.facts)
        assert not any(
            f.kind == "count" and ":skus[" in f.source for f in eps[("v3", c)].case.facts
        )
    session = eps[("v6", price)].case.expected_calls
    assert any(c.function == "live.session_context" and not c.optional for c in session)


def test_a_range_runs_only_its_versions_and_a_missing_version_is_refused() -> None:
    eps = suite_episodes("evolution", n=5, versions="v6..v7")
    assert {e.labels["version"] for e in eps} == {"v6", "v7"} and len(eps) == 10
    with pytest.raises(HarnessError, match="no version 'v8'"):
        suite_episodes("evolution", n=5, versions="v8")


def test_a_changelog_recipe_takes_no_variants_and_other_recipes_take_no_versions() -> None:
    with pytest.raises(RecipeError, match="changelog"):
        Recipe(name="x", cases=3, seed=1, variants=True, changelog=str(SHIPPED))
    with pytest.raises(ValueError, match="has no changelog"):
        build_episodes(suite_recipe("livestream"), n=2, versions="v2")


# -- requirement checks, on answers whose verdict a careful reader gives -------------------------


def _price_case() -> Episode:
    eps = _episodes()
    return next(
        e
        for (v, c), e in sorted(eps.items())
        if v == "v7" and e.case.intent == "price" and any(f.kind == "days" for f in e.case.facts)
    )


def _req(e: Episode, edit: str) -> EditRequirement:
    return next(r for r in e.gold.requirements if r.edit == edit)


def _window(e: Episode) -> int:
    return int(next(f.value for f in e.case.facts if f.kind == "days"))


def _looked_up(e: Episode) -> list[CallRecord]:
    return [
        CallRecord(
            "get_shipping_policy",
            "policy.shipping_returns",
            {"product_id": e.case.product_ids[0]},
            "ok",
        )
    ]


@pytest.mark.parametrize(
    ("template", "follows"),
    [
        ("It's ¥{price} for you now, and you can return it within {w} days.", True),
        ("¥{price} right now! Returns: {w}-day window.", True),
        ("现在到手价{price}元，支持{w}天无理由退货。", True),
        ("It's ¥{price}. Returns within {other} days.", False),  # the wrong window
        ("It's ¥{price}. I think you can return it within {w} days, not sure though.", False),
        ("It's ¥{price} for you right now.", False),  # the rule's fact left out
        ("It's ¥{price}. You cannot return it within {w} days.", False),  # negated
    ],
)
def test_states_fact_reads_the_window_in_any_form(template: str, follows: bool) -> None:
    e = _price_case()
    w = _window(e)
    price = next(f.value for f in e.case.facts if f.kind == "price")
    answer = template.format(price=f"{price:g}", w=w, other=30 if w != 30 else 7)
    verdict = check_requirement(
        _req(e, "v2"), e.case, e.gold, answer, None, _looked_up(e), knowledge_base(0)
    )
    assert verdict.value == (1.0 if follows else 0.0), (answer, verdict.reason)


@pytest.mark.parametrize(
    ("answer", "follows"),
    [
        ("Yes, it's in stock, only a few left!", True),
        ("还有货，不过不多了，抓紧哦", True),
        ("Only 3 left in that size!", False),
        ("只剩3件了，快下单", False),
        ("In stock: 3 units.", False),
    ],
)
def test_no_stock_count_reads_counts_in_both_languages(answer: str, follows: bool) -> None:
    eps = _episodes()
    e = next(
        e
        for (v, _), e in sorted(eps.items())
        if v == "v3" and any(r.edit == "v3" for r in e.gold.requirements)
    )
    verdict = check_requirement(_req(e, "v3"), e.case, e.gold, answer, None, [], knowledge_base(0))
    assert verdict.value == (1.0 if follows else 0.0), (answer, verdict.reason)


def test_limit_skill_call_and_hook_requirements() -> None:
    e = _price_case()
    kb = knowledge_base(0)
    words35, words36 = " ".join(["word"] * 35), " ".join(["word"] * 36)
    assert check_requirement(_req(e, "v4"), e.case, e.gold, words35, None, [], kb).value == 1.0
    assert check_requirement(_req(e, "v4"), e.case, e.gold, words36, None, [], kb).value == 0.0
    assert check_requirement(_req(e, "v7"), e.case, e.gold, words36, None, [], kb).value == 0.0
    assert check_requirement(_req(e, "v7"), e.case, e.gold, "ok 😀😀", None, [], kb).value == 1.0
    assert check_requirement(_req(e, "v7"), e.case, e.gold, "ok 😀😀😀", None, [], kb).value == 0.0
    session = [CallRecord("get_live_session", "live.session_context", {}, "ok")]
    assert check_requirement(_req(e, "v6"), e.case, e.gold, "x", None, session, kb).value == 1.0
    assert check_requirement(_req(e, "v6"), e.case, e.gold, "x", None, [], kb).value == 0.0
    coupon = next(
        x
        for (v, _), x in sorted(_episodes().items())
        if v == "v7" and x.case.intent == "promotion_stacking"
    )
    req = _req(coupon, "v5")
    kb_args = (coupon.case, coupon.gold)
    assert check_requirement(req, *kb_args, "x", "coupon_stacking", [], kb).value == 1.0
    assert check_requirement(req, *kb_args, "x", "price_promotion", [], kb).value == 0.0


def test_every_requirement_check_is_read() -> None:
    e = _price_case()
    for check in REQUIREMENT_CHECKS:  # none raises "unknown requirement check"
        req = EditRequirement(
            "vX", "skill_rule", check, "max_words" if check == "constraint" else ""
        )
        if check == "states_fact":
            req = EditRequirement("vX", "skill_rule", check, "return_window")
        if check == "constraint":
            req = EditRequirement("vX", "constraint", check, "max_words", limits={"max_words": 5})
        check_requirement(req, e.case, e.gold, "a short answer", None, [], knowledge_base(0))
