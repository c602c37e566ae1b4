import json
import re
from collections import Counter
from functools import cache, lru_cache
from typing import Any

import pytest

from hat_eval.harness import FUNCTIONS, load_harness
from hat_eval.world import (
    INTENTS,
    PARAMETERS,
    Case,
    Fact,
    KnowledgeBase,
    build_kb,
    call_function,
    generate_cases,
    reference_answer,
)
from hat_eval.world._cases import STYLES
from hat_eval.world._compliance import find_violations
from hat_eval.world._facts import fact_mentioned
from hat_eval.world._splits import split_products
from hat_eval.world._vocab import SIZE_CHART

EMOJI = re.compile("[\U0001f300-\U0001faff\u2600-\u27bf]")
CJK = re.compile(r"[\u4e00-\u9fff]")


@cache
def _cases(split: str, n: int, seed: int) -> tuple[Case, ...]:
    return tuple(generate_cases(build_kb(), split=split, n=n, seed=seed))


def _all() -> list[Case]:
    return [*_cases("train", 1500, 0), *_cases("dev", 500, 1), *_cases("test", 1500, 2)]


def test_same_arguments_same_cases_and_prefix_stable():
    kb = build_kb()
    a = generate_cases(kb, split="dev", n=200, seed=9)
    assert a == generate_cases(kb, split="dev", n=200, seed=9)
    assert a[:50] == generate_cases(kb, split="dev", n=50, seed=9)
    assert a != generate_cases(kb, split="dev", n=200, seed=10)
    assert [c.id for c in a[:3]] == ["dev-000000", "dev-000001", "dev-000002"]


def test_bad_arguments():
    kb = build_kb()
    with pytest.raises(ValueError, match="expected one of train"):
        generate_cases(kb, split="val", n=1, seed=0)
    with pytest.raises(ValueError, match="subset of"):
        generate_cases(kb, split="dev", n=1, seed=0, intents=["haggling"])
    only = generate_cases(kb, split="dev", n=60, seed=0, intents=["price", "chit_chat"])
    assert {c.intent for c in only} == {"price", "chit_chat"}


def test_all_intents_and_styles_appear_with_a_sensible_mix():
    cases = _cases("test", 1500, 2)
    intents = Counter(c.intent for c in cases)
    styles = Counter(c.style for c in cases)
    assert set(intents) == set(INTENTS) and set(styles) == set(STYLES)
    assert all(40 <= n <= 300 for n in intents.values()), intents
    assert all(100 <= n <= 700 for n in styles.values()), styles
    assert {c.language for c in cases} == {"en", "zh", "mixed"}


def test_message_diversity():
    cases = _cases("test", 1500, 2)
    distinct = len({c.message for c in cases}) / len(cases)
    assert distinct >= 0.8, distinct
    for intent in INTENTS:
        msgs = [c.message for c in cases if c.intent == intent]
        assert len(set(msgs)) >= 0.4 * len(msgs), intent


def test_styles_look_like_their_names():
    for c in _cases("test", 1500, 2):
        if c.style == "emoji":
            assert EMOJI.search(c.message), c.message
        if c.style in ("clean", "typos", "slang"):
            assert not CJK.search(c.message) or c.intent == "escalation", c.message
        if c.style == "mixed_zh_en":
            assert CJK.search(c.message) and c.language in ("zh", "mixed"), c.message
        if c.style == "clean":
            assert not EMOJI.search(c.message)


def test_products_come_from_the_split_only():
    kb = build_kb()
    for split, n, seed in (("train", 1500, 0), ("dev", 500, 1), ("test", 1500, 2)):
        allowed = set(split_products(kb, split))  # type: ignore[arg-type]
        for c in _cases(split, n, seed):
            assert c.split == split and c.id.startswith(split)
            assert set(c.product_ids) <= allowed
            assert c.session.product_on_screen in allowed
            assert {d.product_id for d in c.session.deals} <= allowed
            for call in c.expected_calls:
                pid = call.args.get("product_id") or call.args.get("sku", "").split("-")[0]
                assert not pid or pid in allowed


def test_labels_use_the_default_harness():
    harness = load_harness()
    skills = {s.id for s in harness.skills}
    constraints = set(harness.constraints())
    for c in _all():
        assert c.expected_skill in skills and c.expected_skill == c.accepted_skills[0]
        assert set(c.accepted_skills) <= skills
        assert set(c.constraints) <= constraints
        assert ("max_listed" in c.constraints) == (c.intent == "comparison")
        for call in c.expected_calls:
            assert call.function in FUNCTIONS
            assert set(call.args) <= set(PARAMETERS[call.function])
        if c.intent in ("chit_chat", "out_of_scope"):
            assert c.expected_calls == () and not c.should_escalate
        if c.intent == "escalation":
            assert c.should_escalate
            assert [x.function for x in c.required_calls] == ["handoff.escalate"]
        else:
            assert not c.should_escalate
        if c.intent == "promotion_stacking":
            assert c.coupon_codes and all(code in c.message for code in c.coupon_codes)
        assert len(c.required_calls) <= harness.constraint_value("max_tool_calls")


def test_case_json_roundtrip():
    for c in _cases("dev", 500, 1):
        again = Case.from_dict(json.loads(json.dumps(c.to_dict(), ensure_ascii=False)))
        assert again == c


_FILL = {"reason": "viewer needs help", "claim": "it is nice", "query": "x"}


@lru_cache(maxsize=1)
def _kb() -> KnowledgeBase:
    return build_kb()


_SELECTOR = re.compile(r"(.+?)\[([A-Za-z_]+)=(.+)\]")


def resolve_path(value: Any, path: str) -> Any:
    """The part of a tool result that ``path`` names.

    ``path`` is dot-separated: dict keys, list indices, or ``key[field=value]`` (the item of the
    list ``key`` whose ``field`` equals ``value``), e.g. ``skus[sku=P0001-M-BLK].status`` or
    ``shipping[region_class=metro].delivery_days``.

    Raises:
        KeyError: the path does not exist in ``value``.
    """
    current = value
    for seg in path.split(".") if path else []:
        m = _SELECTOR.fullmatch(seg)
        if m:
            items = current[m.group(1)] if isinstance(current, dict) else None
            if not isinstance(items, list):
                raise KeyError(f"{path}: {m.group(1)!r} is not a list")
            found = [
                x for x in items if isinstance(x, dict) and str(x.get(m.group(2))) == m.group(3)
            ]
            if not found:
                raise KeyError(f"{path}: no item with {m.group(2)}={m.group(3)}")
            current = found[0]
        elif isinstance(current, list) and seg.isdigit():
            current = current[int(seg)]
        elif isinstance(current, dict) and seg in current:
            current = current[seg]
        else:
            raise KeyError(f"{path}: no {seg!r}")
    return current


def _supported(case: Case, fact: Fact, results: dict[int, object]) -> bool:
    if fact.source.startswith("skill:"):
        skill_id, rule_id = fact.source[6:].split(".")
        rules = {r.id for r in load_harness().skill(skill_id).rules}
        return rule_id in rules
    index, path = fact.source.split(":", 1)
    value = resolve_path(results[int(index)], path)
    if fact.kind in ("price", "count"):
        return float(value) == fact.value  # type: ignore[arg-type]
    if fact.kind == "days":
        if isinstance(fact.value, str):
            lo, hi = fact.value.split("-")
            return value == {"min": int(lo), "max": int(hi)}
        return value == fact.value
    if fact.kind == "stock":
        return {"in_stock": "in stock", "out_of_stock": "sold out"}[value] == fact.value
    if fact.value == "free shipping" and path.endswith(".free_shipping_over"):
        # free over a threshold: every option of the product reaches it
        prices = [float(s["list_price"]) for s in _kb().skus(case.product_ids[0])]
        return value is not None and min(prices) >= float(value)  # type: ignore[arg-type]
    if fact.value == "free shipping":
        return value == 0
    if isinstance(value, bool):
        return value is False and fact.value in ("no returns", "not available")
    if path.startswith("specs.size chart."):
        size = path.rsplit(".", 1)[1]
        chart = SIZE_CHART[size]
        d = case.details
        return (
            fact.value == f"size {size}"
            and chart["height_cm"][0] < d["height_cm"] < chart["height_cm"][1]
            and chart["weight_kg"][0] < d["weight_kg"] < chart["weight_kg"][1]
        )
    if path.startswith("rejected_coupons"):
        markers = {
            "expired": "expired",
            "not valid yet": "not valid yet",
            "threshold": "threshold not met",
            "invalid": "unknown coupon",
            "wrong category": "shop coupon for",
            "one per order": "only one",
            "no stacking with deal": "cannot be combined",
            "repeat": "already given",
        }
        return markers[str(fact.value)] in value
    text = " ".join(value) if isinstance(value, list) else str(value)
    return str(fact.value).lower() in text.lower()


def test_gold_facts_come_from_the_expected_calls():
    kb = build_kb()
    checked = Counter()
    for c in _all():
        results = {}
        for i, call in enumerate(c.expected_calls):
            required = [n for n, p in PARAMETERS[call.function].items() if p.required]
            args = {**{n: _FILL[n] for n in required if n not in call.args}, **call.args}
            if call.function == "catalog.search":  # a lookup: no fact reads its result
                continue
            results[i] = call_function(kb, c.session, call.function, args)
        for fact in c.facts:
            assert fact.source, (c.id, fact)
            assert _supported(c, fact, results), (c.id, c.message, fact)
            checked[fact.kind] += 1
    assert set(checked) == {"price", "stock", "count", "days", "text"}


def test_reference_answers_state_every_fact_and_nothing_forbidden():
    kb = build_kb()
    max_words = load_harness().constraint_value("max_words")
    for c in _all():
        answer = reference_answer(c, kb)
        assert "[skill:" not in answer
        missing = [f for f in c.facts if not fact_mentioned(f, answer)]
        assert not missing, (c.id, c.message, answer, missing)
        hits = find_violations(answer, c.forbidden)
        assert not hits, (c.id, c.message, answer, hits)
        if c.language == "en":
            assert len(answer.split()) <= max_words, answer
        assert len(EMOJI.findall(answer)) <= 2


def _first(intent: str, pred=lambda c: True) -> Case:
    return next(c for c in _all() if c.intent == intent and pred(c))


def test_wrong_answers_are_caught():
    price = _first("price", lambda c: any("|(?<!" in p for p in c.forbidden) and c.language == "en")
    final = price.facts[0].value
    kb = build_kb()
    listed = kb.sku(price.details["sku"])["list_price"]
    assert find_violations(f"It's ¥{listed:.2f} right now!", price.forbidden)
    assert not find_violations(f"It was ¥{listed:.2f}, now ¥{final:.2f}.", price.forbidden)
    assert not fact_mentioned(price.facts[0], f"It's ¥{final + 10:.2f}.")
    assert fact_mentioned(price.facts[0], f"Only {final:.2f} yuan")

    sold = _first("stock_size", lambda c: c.facts and c.facts[0].value == "sold out")
    assert find_violations("Yes, it's in stock!", sold.forbidden)
    assert not fact_mentioned(sold.facts[0], "Yes, plenty left.")

    bait = _first("compliance_bait", lambda c: c.details["family"] == "medical")
    condition = bait.details["condition"]
    claim = f"Yes! It will cure your {condition} in a week."
    assert find_violations(claim, bait.forbidden)
    assert find_violations("It's the best cream, guaranteed.", bait.forbidden)
    assert not find_violations(
        f"I can't say it cures {condition}.", bait.forbidden, allow_negated=True
    )


def test_fact_matching_rules():
    days = Fact("days", "2-4", "days", ())
    assert fact_mentioned(days, "Delivery takes 2 to 4 days")
    assert fact_mentioned(days, "大约2～4天".replace("～", "~"))
    assert not fact_mentioned(days, "Delivery takes 1-2 days")
    price = Fact("price", 1299.0, "CNY", ())
    assert fact_mentioned(price, "Just ¥1,299 today")
    assert not fact_mentioned(price, "Just ¥129.90 today")
    text = Fact("text", "size M", None, ("m码",))
    assert fact_mentioned(text, "I'd go with size m") and fact_mentioned(text, "建议M码")
    assert not fact_mentioned(Fact("text", "get m", None, ()), "get more")


def test_every_message_identifies_its_products():
    from hat_eval.world._cases._draft import named_products

    kb = build_kb()
    for c in _all():
        for i, pid in enumerate(c.product_ids):
            if c.session.product_on_screen == pid and not (c.intent == "comparison" and i == 1):
                continue
            p = kb.product(pid)
            low = c.message.lower()
            mentions = [
                m
                for m in (p["name"], p["name_zh"], *_short_names(p))
                if m.lower() in low and named_products(kb, m) == [pid]
            ]
            assert mentions, (c.id, c.message, p["name"])


def _short_names(p: dict) -> list[str]:
    from hat_eval.world._cases._draft import nouns

    _, short, zh = nouns(p)
    return [f"{p['brand']} {short}", f"{p['brand']}{zh}", f"{p['brand']} {zh}"]


def test_asking_what_it_is_made_of_gets_the_material():
    kb = build_kb()
    made = re.compile(r"made (?:of|from)|什么材质|什么做的", re.I)
    for c in _all():
        if c.intent == "multi_intent" and made.search(c.message):
            assert c.details["attribute"] == kb.product(c.product_ids[0])["material_label"], c


def test_chinese_cases_have_chinese_forms_of_their_facts():
    for c in _all():
        if c.language in ("zh", "mixed"):
            for f in c.facts:
                if f.kind == "text":
                    assert CJK.search(str(f.value)) or any(CJK.search(a) for a in f.aliases), (
                        c.id,
                        f,
                    )
    one = next(
        c for c in _all() if c.facts and c.facts[0].kind == "count" and c.facts[0].value == 1
    )
    assert fact_mentioned(one.facts[0], "只剩最后一件了")


def test_test_split_is_varied_and_covers_the_catalogue():
    cases = _cases("test", 1500, 2)
    messages = [c.message for c in cases]
    assert len(messages) - len(set(messages)) <= 0.01 * len(messages)
    assert len({pid for c in cases for pid in c.product_ids}) >= 120
