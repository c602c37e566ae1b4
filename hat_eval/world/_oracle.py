"""A reference answer per case: short, correct, every fact stated, no forbidden claim.

Used by tests (the gold is self-consistent) and as a scripted policy for end-to-end runs. The
answer carries no skill tag; a solver adds ``[skill: <id>]`` itself. Cases in Chinese or mixed
Chinese-English get a Chinese answer (the harness: reply in the language most of the message
is in).
"""

from __future__ import annotations

import re
from typing import Any

from ._cases import Case
from ._cases._draft import variant_axes
from ._cases._phrases import case_phrases
from ._facts import Fact, fact_mentioned
from ._kb import KnowledgeBase, made_to_order_days
from ._vocab import CATEGORY_ZH, REGION_ALIASES, zh_forms

CJK = re.compile(r"[\u4e00-\u9fff]")
"""A Chinese character: text written (partly) in Chinese."""


def _yuan(value: float) -> str:
    return f"¥{value:.2f}"


def _name(kb: KnowledgeBase, pid: str, zh: bool) -> str:
    p = kb.product(pid)
    assert p is not None
    return p["name_zh"] if zh else f"the {p['name']}"


def _sku_text(kb: KnowledgeBase, sku_id: str, zh: bool) -> str:
    sku = kb.sku(sku_id)
    assert sku is not None
    skus = kb.skus(sku["product_id"])
    name = _name(kb, sku["product_id"], zh)
    if len(skus) == 1:
        return name
    axes = variant_axes(skus, sku)
    if zh:
        return f"{name} {' '.join(sku[f'{k}_zh'] for k in axes)}"
    return f"{name} in {', '.join(sku[k] if k == 'option' else sku[k].lower() for k in axes)}"


def _priced(case: Case, kb: KnowledgeBase, zh: bool) -> tuple[str, str]:
    """The case's SKU as the answer names it, and the final price (its price fact)."""
    price = next(f for f in case.facts if f.kind == "price").value
    return _sku_text(kb, case.details["sku"], zh), _yuan(float(price))


def _price(case: Case, kb: KnowledgeBase, zh: bool) -> str:
    item, price = _priced(case, kb, zh)
    qty = case.details.get("quantity", 1)
    if zh:
        return f"{item}{'' if qty == 1 else f' {qty}件'}现在到手价{price}。"
    if qty > 1:
        return f"{qty} of {item} come to {price} in total right now."
    return f"{item[:1].upper()}{item[1:]} is {price} for you right now."


def _stacking(case: Case, kb: KnowledgeBase, zh: bool) -> str:
    item, price = _priced(case, kb, zh)
    pieces = [
        f"{item}最后到手价{price}。"
        if zh
        else f"{item[:1].upper()}{item[1:]} comes to {price} for you."
    ]
    says = {r.fact: r for r in case_phrases().rejected_coupons}
    for fact in (f for f in case.facts if f.kind == "text"):
        code = fact.source.split("[code=")[1].split("]")[0]
        coupon = kb.coupon(code)
        category = coupon["category"] if coupon and coupon["category"] else ""
        issuer = coupon["issuer"] if coupon else "platform"
        label = str(fact.value)
        if zh:
            reason = says[label].say_zh.format(category=CATEGORY_ZH.get(category, category))
            pieces.append(f"{code}{reason}。")
        else:
            reason = says[label].say_en.format(category=category, issuer=issuer)
            pieces.append(f"{code} doesn't apply: {reason}.")
    return " ".join(pieces)


ASKS_COUNT = re.compile(
    r"\bhow (?:many|mnay|mny|maany)\b[^?]{0,60}"  # with the typos viewers make (_render._typos)
    r"\b(?:left|lfet|lft|leeft|r(?:e|ea|)m(?:ai|ia|a|i)n\w*|in s(?:t\w{2,4}|otck|ock))\b"
    r"|(?:还剩|剩下|还有|剩)(?:多少|几)|库存(?:还有|还剩)?(?:多少|几)",
    re.I,
)
"""A viewer's message that asks for the count left, not whether there is stock (还剩多少)."""


def _stock_sentence(case: Case, kb: KnowledgeBase, zh: bool) -> str:
    d = case.details
    item = _sku_text(kb, d["sku"], zh)
    fact = next(f for f in case.facts if f.kind in ("stock", "count"))
    if fact.kind == "count":
        n = int(float(fact.value))
        return f"{item}只剩{n}件了。" if zh else f"Hurry, there are only {n} left of {item}."
    if fact.value == "in stock":
        sku = kb.sku(d["sku"])
        if sku is not None and ASKS_COUNT.search(case.message):
            n = int(sku["stock"])
            return f"{item}有货，还剩{n}件。" if zh else f"Good news: {item} is in stock, {n} left."
        return f"{item}有货哦。" if zh else f"Good news: {item} is in stock."
    alt = d.get("alternative")
    if zh:
        out = f"抱歉，{item}已经售罄。"
        return out + (f"可以看看{_sku_text(kb, alt, True)}。" if alt else "")
    out = f"Sorry, {item} is sold out right now."
    if alt:
        out += f" The closest option with stock is {_sku_text(kb, alt, False)}."
    return out


def _size(case: Case, kb: KnowledgeBase, zh: bool) -> str:
    d = case.details
    p = kb.product(case.product_ids[0])
    assert p is not None
    entry = p["specs"]["size chart"][d["size"]]
    if zh:
        return (
            f"{d['height_cm']}cm {d['weight_kg']}kg 建议选{d['size']}码，"
            f"尺码表上{d['size']}码是 {entry}。"
        )
    return (
        f"For {d['height_cm']} cm and {d['weight_kg']} kg I'd suggest size {d['size']}: "
        f"the size chart gives {entry} for it."
    )


def _attr_value(facts: list[Fact], zh: bool = False) -> str:
    """The facts' values; in Chinese the first Chinese alias a fact check accepts, if any."""
    return ("、" if zh else ", ").join(
        next((a for a in f.aliases if zh and CJK.search(a) and fact_mentioned(f, a)), str(f.value))
        for f in facts
    )


def _material(case: Case, kb: KnowledgeBase, zh: bool) -> str:
    label = case.details["attribute"]
    facts = [f for f in case.facts if f.kind == "text"]
    name = _name(kb, case.product_ids[0], zh)
    if zh:
        return f"{name}的{label}是：{_attr_value(facts, True)}。"
    return f"According to the listing, {name} has {label}: {_attr_value(facts)}."


def _ship_sentence(case: Case, kb: KnowledgeBase, zh: bool) -> str:
    d = case.details
    place = d["place"]
    if zh:
        place = next((a for a in REGION_ALIASES.get(place, ()) if not a.isascii()), place)
    if any(f.value == "not available" for f in case.facts):
        return (
            f"抱歉，{place}暂时不支持发货。"
            if zh
            else (f"Sorry, we don't ship this item to {place}: delivery there is not available.")
        )
    days = next(f for f in case.facts if f.kind == "days" and isinstance(f.value, str)).value
    fee = [f for f in case.facts if f.kind == "price" and "shipping" in f.source]
    free = any(f.value == "free shipping" for f in case.facts)
    lead = _lead_days(case, kb)  # a made-to-order piece is made before it ships
    if zh:
        tail = "，包邮" if free else f"，运费{_yuan(float(fee[0].value))}" if fee else ""
        made = f"定制款需{lead}天制作，做好后" if lead else ""
        return f"{made}发{place}大约{days}天到{tail}。"
    tail = (
        " and shipping is free"
        if free
        else (f", with a {_yuan(float(fee[0].value))} shipping fee" if fee else "")
    )
    made = f" It is made to order in {lead} days first." if lead else ""
    return f"Delivery to {place} takes {days} days{tail}.{made}"


def _lead_days(case: Case, kb: KnowledgeBase) -> str | None:
    """The making time of a made-to-order product of the case ("3-5"), None for stock items."""
    for pid in case.product_ids:
        days = made_to_order_days(kb.product(pid))
        if days is not None:
            return f"{days[0]}-{days[1]}"
    return None


def _returns_sentence(case: Case, kb: KnowledgeBase, zh: bool) -> str:
    name = _name(kb, case.product_ids[0], zh)
    if any(f.value == "no returns" for f in case.facts):
        return (
            "这款是定制商品，不支持退货。"
            if zh
            else f"{name[:1].upper()}{name[1:]} is made to order, so it cannot be returned "
            "unless faulty."
        )
    window = next(f for f in case.facts if f.kind == "days" and isinstance(f.value, float))
    w = int(float(window.value))
    cond = next(f for f in case.facts if f.kind == "text" and "conditions" in f.source).value
    if zh:
        return f"{w}天内可以退货，需要{(zh_forms(str(cond)) or (str(cond),))[0]}。"
    return f"You can return it within {w} days if it is {cond}."


def _shipping_returns(case: Case, kb: KnowledgeBase, zh: bool) -> str:
    sub = case.details["sub"]
    parts = []
    if sub in ("ship", "both"):
        parts.append(_ship_sentence(case, kb, zh))
    if sub in ("returns", "both"):
        parts.append(_returns_sentence(case, kb, zh))
    return " ".join(parts)


def _comparison(case: Case, kb: KnowledgeBase, zh: bool) -> str:
    a, b = case.product_ids
    label = case.details["attribute"]
    fa = [f for f in case.facts if f.source.startswith(f"{_call_index(case, a)}:")]
    fb = [f for f in case.facts if f.source.startswith(f"{_call_index(case, b)}:")]
    na, nb = _name(kb, a, zh), _name(kb, b, zh)
    if zh:
        va, vb = _attr_value(fa, True), _attr_value(fb, True)
        return f"{na}的{label}是{va}，{nb}是{vb}，看你的需求选哦。"
    return (
        f"On {label}: {na} has {_attr_value(fa)}, while {nb} has {_attr_value(fb)}. "
        "Pick the one that suits how you'll use it."
    )


def _call_index(case: Case, pid: str) -> int:
    for i, c in enumerate(case.expected_calls):
        if c.function == "catalog.get_product" and c.args.get("product_id") == pid:
            return i
    raise KeyError(pid)


def _compliance(case: Case, kb: KnowledgeBase, zh: bool) -> str:
    p = kb.product(case.product_ids[0])
    assert p is not None
    said = case_phrases().oracle.compliance[case.details["family"]]
    return (said.zh if zh else said.en).format(
        name=p["name"],
        name_zh=p["name_zh"],
        desc=p["description"],
        material=p["material"],
        material_label=p["material_label"],
        condition=case.details.get("condition", "that"),
    )


def _out_of_scope(case: Case, kb: KnowledgeBase, zh: bool) -> str:
    screen = kb.product(case.session.product_on_screen)
    assert screen is not None
    said = case_phrases().oracle.out_of_scope
    return said.zh.format(name_zh=screen["name_zh"]) if zh else said.en.format(name=screen["name"])


def _chit_chat(case: Case, kb: KnowledgeBase, zh: bool) -> str:
    oracle = case_phrases().oracle
    said = oracle.bot if case.details.get("asks_if_bot") else oracle.welcome
    return said.zh if zh else said.en


def _escalation(case: Case, kb: KnowledgeBase, zh: bool) -> str:
    said = case_phrases().oracle.escalation[case.details["sub"]]
    return said.zh if zh else said.en


def _multi(case: Case, kb: KnowledgeBase, zh: bool) -> str:
    sentence = {
        "price": _price,
        "stock_size": _stock_sentence,
        "shipping_returns": _ship_sentence,
        "material_spec": _material,
    }
    return " ".join(sentence[part](case, kb, zh) for part in case.parts)


def reference_answer(case: Case, kb: KnowledgeBase) -> str:
    """A short correct answer to ``case`` (no skill tag): states every fact, no forbidden claim."""
    zh = case.language in ("zh", "mixed")
    builders: dict[str, Any] = {
        "price": _price,
        "promotion_stacking": _stacking,
        "stock_size": lambda c, k, z: (
            _size(c, k, z) if c.details.get("sub") == "size" else _stock_sentence(c, k, z)
        ),
        "material_spec": _material,
        "shipping_returns": _shipping_returns,
        "comparison": _comparison,
        "compliance_bait": _compliance,
        "out_of_scope": _out_of_scope,
        "multi_intent": _multi,
        "chit_chat": _chit_chat,
        "escalation": _escalation,
    }
    return str(builders[case.intent](case, kb, zh))
