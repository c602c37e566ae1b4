"""The reference policy composes its answer from what the tools returned, within the word limit.

Answers commit to one value per fact: one status per SKU, the one spec asked about, one delivery
row; never several values of one thing in the hope that one of them is the right one.
"""

from __future__ import annotations

from typing import Any

from ._read import Turn, find_value, matching_skus, money_text, ok_result, pick_skill, sku_label
from ._vocab import policy_vocab


def _stock_answer(turn: Turn) -> str:
    """One status for the SKU the viewer asked about, as the stock tool reports it.

    Several SKUs that the message does not tell apart get one statement only when they share a
    status; otherwise the policy asks which option is meant rather than listing every status.
    """
    stock = ok_result(turn, "inventory.check_stock")
    skus = find_value(stock, "skus") if stock else None
    if not (isinstance(skus, list) and skus and all(isinstance(x, dict) for x in skus)):
        return "I'm checking stock for you now."
    chosen, _ = matching_skus(skus, turn.message)
    name = str(find_value(stock, "name") or turn.facts.product_name)

    def status(sku: dict[str, Any]) -> str:
        units = find_value(sku, "stock", "qty")
        found = str(find_value(sku, "status") or "")
        return "out_of_stock" if units == 0 else found or "in_stock"

    statuses = {status(x) for x in chosen}
    if len(chosen) == 1:
        sku = chosen[0]
        option = sku_label(sku)
        label = f"{name} ({option})" if option != sku.get("sku") else name
        state = status(sku)
        if state == "out_of_stock":
            return f"Sorry, {label} is sold out."
        if state == "low_stock" and "no_count" in turn.rules:
            return f"Yes, {label} is in stock, only a few left."
        if state == "low_stock":
            return f"{label}: only {find_value(sku, 'stock', 'qty')} left."
        return f"Yes, {label} is in stock."
    if statuses == {"out_of_stock"}:
        return f"Sorry, {name} is sold out in every option."
    if statuses == {"in_stock"}:
        return f"Yes, {name} is in stock in every option."
    return "Stock depends on the option: which colour and size would you like?"


def _spec_asked(product: Any, message: str) -> tuple[str, str] | None:
    """The one spec the message asks about (label, value): named in it, else the first listed.

    The first spec of a listing is its material or ingredients, what "what is it made of"
    asks; a label the message names wins (longest first, so "battery life" beats "life").
    """
    specs = find_value(product, "specs") if isinstance(product, dict) else None
    if not isinstance(specs, dict):
        return None
    flat = [(str(k), str(v)) for k, v in specs.items() if not isinstance(v, dict)]
    text = message.casefold()
    for label, value in sorted(flat, key=lambda kv: -len(kv[0])):
        if label.casefold() in text:
            return label, value
    return flat[0] if flat else None


def _shipping_answer(policy: dict[str, Any], message: str) -> list[str]:
    """Delivery to the viewer's region and/or the returns policy, whichever the message asks.

    The region is the one the message names; a region the product does not ship to is said so,
    never answered with another region's delivery time. Without a named region, the first row
    the product ships to is given.
    """
    text = message.casefold()
    asks_returns = any(w in text for w in policy_vocab().return_words)
    asks_delivery = any(w in text for w in policy_vocab().delivery_words) or not asks_returns
    out: list[str] = []
    rows = [r for r in policy.get("shipping") or [] if isinstance(r, dict)]
    if asks_delivery and rows:
        named = next(
            (r for r in rows if any(str(g).casefold() in text for g in r.get("regions") or [])),
            None,
        )
        ship = named or next((r for r in rows if r.get("available")), None)
        if ship and not ship.get("available"):
            out.append("Sorry, we don't ship there.")
        elif ship and ship.get("delivery_days"):
            d = ship["delivery_days"]
            out.append(
                f"Delivery takes {d['min']}-{d['max']} days, shipping fee "
                f"{money_text(ship.get('fee'))}."
            )
    ret = policy.get("returns") or {}
    if asks_returns and ret:
        returnable = f"Returns within {ret.get('window_days')} days."
        out.append(returnable if ret.get("returnable") else "This item can't be returned.")
    return out


def compose(turn: Turn, intents: list[str]) -> str:
    """The answer from what the tools returned, within the word limit."""
    parts: list[str] = []
    name = turn.facts.product_name
    for intent in intents:
        if intent in ("price", "promotion_stacking"):
            price = ok_result(turn, "pricing.final_price")
            if isinstance(price, dict) and find_value(price, "final_price") is not None:
                option = price.get("option") or ""
                parts.append(
                    f"{price.get('name') or name}{' (' + option + ')' if option else ''} is "
                    f"{money_text(find_value(price, 'final_price'))} for you right now."
                )
                for c in price.get("rejected_coupons") or []:
                    # the reason's own amounts (a threshold, a pre-coupon total) would be a
                    # second price for the same order: say why, not those numbers
                    why = str(c.get("reason") or "not valid").split(":")[0]
                    parts.append(f"Coupon {c.get('code')} can't be used: {why}.")
                policy = ok_result(turn, "policy.shipping_returns")
                if "returns_with_price" in turn.rules and isinstance(policy, dict):
                    parts.extend(_shipping_answer(policy, "return"))
            else:
                parts.append("Let me double-check the price for you in a moment.")
        elif intent == "stock_size":
            parts.append(_stock_answer(turn))
        elif intent == "material_spec":
            product = ok_result(turn, "catalog.get_product")
            if spec := _spec_asked(product, turn.message):
                parts.append(f"The {spec[0]} of {product.get('name') or name} is {spec[1]}.")
        elif intent == "shipping_returns":
            policy = ok_result(turn, "policy.shipping_returns")
            if isinstance(policy, dict):
                parts.extend(_shipping_answer(policy, turn.message))
        elif intent == "compliance_bait":
            check = ok_result(turn, "compliance.check_claim")
            suggestion = check.get("suggestion") if isinstance(check, dict) else None
            parts.append("I can't make medical or absolute claims on stream.")
            if suggestion and isinstance(check, dict) and not check.get("allowed", True):
                parts.append(str(suggestion))
            parts.append("For health questions please ask a doctor.")
        elif intent == "comparison":
            fetched = {
                str(r.get("product_id")): r
                for r in turn.results.get("catalog.get_product", [])
                if isinstance(r, dict) and r.get("name")
            }
            for p in list(fetched.values())[:2]:
                if spec := _spec_asked(p, turn.message):
                    parts.append(f"{p.get('name')}: {spec[0]} {spec[1]}.")
        elif intent == "escalation":
            ticket = ok_result(turn, "handoff.escalate")
            tid = f" (ticket {ticket.get('ticket_id')})" if isinstance(ticket, dict) else ""
            parts.append(
                f"I've passed this to a human colleague{tid}; they will follow up in the chat."
            )
        elif intent == "chit_chat":
            parts.append(f"Hi, welcome to the stream! Ask me anything about {name}.")
        else:
            parts.append("Sorry, I can only help with the products on this stream.")
    words = " ".join(parts).split()
    body = " ".join(words[: turn.facts.max_words])
    if turn.facts.disclosure == "progressive":  # the skill is chosen by loading it, untagged
        return body
    skill = pick_skill(turn.facts.skills, intents[0])
    return f"[skill: {skill}] {body}" if skill else body
