"""The reference policy plans its calls: which tools the viewer's intents still need.

A product the message names is searched for first; then each intent's lookups (product, price,
stock, shipping, compliance check, escalation), the calls a tool's description asks to come
first, and those a skill's rule adds. Under progressive disclosure the first turn also loads the
reply skill that fits.
"""

from __future__ import annotations

import json
import re
from typing import Any

from hat_eval.harness import SKILL_LOADER

from ._read import Turn, calls_first, coupon_codes, matching_skus, ok_result, pick_skill
from ._vocab import policy_vocab


def _named_product(turn: Turn) -> str | None:
    """A product the message names instead of the one on screen (found by a search)."""
    found = ok_result(turn, "catalog.search")
    if not isinstance(found, list):
        return None
    text = turn.message.casefold()
    for p in found:
        name = str(p.get("name") or p.get("title") or "").casefold()
        words = re.findall(r"[a-z]{4,}", name)
        if words and sum(w in text for w in words) >= 2:
            return str(p.get("product_id") or p.get("productId"))
    return None


def wants_search(turn: Turn, intents: list[str]) -> bool:
    """Whether the message names another product (or asks for a comparison)."""
    text = f" {turn.message.casefold()} "
    return "comparison" in intents or not any(w in text for w in policy_vocab().on_screen)


Call = tuple[str, dict[str, Any]]
"""A function id and its arguments."""


def _product_calls(turn: Turn, intent: str, pid: str, product: Any) -> list[Call]:
    """The product lookup, then the price or stock call, of a product intent."""
    if product is None:
        return [("catalog.get_product", {"product_id": pid})]
    need: list[Call] = []
    # the SKU the message names, else the first one (what a listing shows by default)
    chosen, _ = matching_skus(product.get("skus") or [], turn.message)
    sku = str(chosen[0]["sku"]) if chosen else None
    if (
        intent in ("price", "promotion_stacking")
        and sku
        and not ok_result(turn, "pricing.final_price")
    ):
        args: dict[str, Any] = {"sku": sku}
        if codes := coupon_codes(turn.message):
            args["coupon_codes"] = codes
        need.append(("pricing.final_price", args))
    if intent == "stock_size" and not ok_result(turn, "inventory.check_stock"):
        args = {"product_id": pid}
        named, matched = matching_skus(product.get("skus") or [], turn.message)
        if matched and len(named) == 1:
            args["sku"] = str(named[0]["sku"])
        need.append(("inventory.check_stock", args))
    return need


def _comparison_calls(turn: Turn, pid: str, product: Any) -> list[Call]:
    """The product on screen, then the other product the message names (once each)."""
    if product is None:
        return [("catalog.get_product", {"product_id": pid})]
    other = _named_product(turn)
    fetched = turn.results.get("catalog.get_product", [])
    if (
        other
        and other != pid
        and not any(isinstance(r, dict) and r.get("product_id") == other for r in fetched)
    ):
        return [("catalog.get_product", {"product_id": other})]
    return []


def _intent_calls(turn: Turn, intent: str, pid: str | None, product: Any) -> list[Call]:
    """The calls one intent still needs."""
    if intent in ("price", "promotion_stacking", "stock_size", "material_spec") and pid:
        return _product_calls(turn, intent, pid, product)
    if intent == "shipping_returns" and pid and not ok_result(turn, "policy.shipping_returns"):
        return [("policy.shipping_returns", {"product_id": pid})]
    if intent == "compliance_bait" and pid and not ok_result(turn, "compliance.check_claim"):
        return [("compliance.check_claim", {"product_id": pid, "claim": turn.message})]
    if intent == "escalation" and not ok_result(turn, "handoff.escalate"):
        urgent = any(w in turn.message.casefold() for w in policy_vocab().urgent_words)
        urgency = "high" if urgent else "normal"
        return [("handoff.escalate", {"reason": turn.message[:200], "urgency": urgency})]
    if intent == "comparison" and pid:
        return _comparison_calls(turn, pid, product)
    return []


def next_calls(turn: Turn, intents: list[str]) -> list[Call]:
    """The calls still needed for the intents (empty when the policy can answer)."""
    if (
        wants_search(turn, intents)
        and intents[0] not in ("chit_chat", "out_of_scope", "escalation")
        and "catalog.search" not in turn.results
    ):
        return (
            [("catalog.search", {"query": turn.message[:120]})]
            if ("catalog.search" in turn.tools)
            else []
        )
    pid = _named_product(turn) if "comparison" not in intents else None
    pid = pid or turn.facts.product_id
    product = ok_result(turn, "catalog.get_product")
    if (
        isinstance(product, dict)
        and str(product.get("product_id") or product.get("productId")) != pid
    ):
        product = None
    need = [call for intent in intents for call in _intent_calls(turn, intent, pid, product)]
    for fn in calls_first(turn, intents):
        if fn not in turn.results:
            need.insert(0, (fn, {}))
    if (
        "returns_with_price" in turn.rules
        and {"price", "promotion_stacking"} & set(intents)
        and pid
        and not ok_result(turn, "policy.shipping_returns")
    ):
        need.append(("policy.shipping_returns", {"product_id": pid}))
    unique: dict[tuple[str, str], Call] = {}  # the first of equal calls, in order
    for fn, args in need:
        if fn in turn.tools:
            unique.setdefault((fn, json.dumps(args, sort_keys=True)), (fn, args))
    return list(unique.values())


def skill_load(turn: Turn, intents: list[str]) -> list[Call]:
    """The load of the reply skill that fits the first intent, on the first turn only.

    Empty under inline disclosure (no loader), after a load was made (successful or not), or
    when no reply skill is listed. Strategy skills are never picked: loading one is no choice.
    """
    if SKILL_LOADER not in turn.tools or turn.loads:
        return []
    reply = {
        sid: text
        for sid, text in turn.facts.skills.items()
        if turn.facts.skill_types.get(sid, "reply") != "strategy"
    }
    skill = pick_skill(reply, intents[0])
    return [(SKILL_LOADER, {turn.load_param: skill})] if skill else []
