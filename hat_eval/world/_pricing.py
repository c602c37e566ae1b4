"""What a viewer pays: the live deal and the coupons that stack, evaluated at one moment.

The rules (in words in the shop's ``policy.yaml``, ``stacking_rules``):

1. At most one live deal (promotion) applies per SKU, the one that saves the most (ties: the
   lower promotion id); a percentage deal is taken off the line total, a fixed deal is per unit.
2. Coupon codes are matched case-insensitively. Each is rejected, with the first reason that
   holds, when it is unknown, a repeat, not valid yet, expired, a shop coupon of another
   category, not combinable with live deals while one applies, or its threshold is not met by
   the price after the live deal.
3. Of the remaining coupons at most one platform and one shop coupon apply (the one saving the
   most, ties: the first given); the others are rejected. When the two chosen do not name each
   other in their ``stacks_with`` (a coupon record's field), the one saving less is rejected
   (ties: the platform coupon).
4. The shop coupon is applied before the platform coupon; a percentage coupon is taken off the
   running price and capped. The final price never goes below zero. Amounts are rounded to cents
   half up.
"""

from __future__ import annotations

from datetime import datetime
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from ._kb import KnowledgeBase, money

_CENT = Decimal("0.01")


def _dec(value: float) -> Decimal:
    return Decimal(str(value))


def _round(value: Decimal) -> Decimal:
    return value.quantize(_CENT, rounding=ROUND_HALF_UP)


def _active(row: dict[str, Any], now: datetime) -> bool:
    return datetime.fromisoformat(row["starts_at"]) <= now <= datetime.fromisoformat(row["ends_at"])


def active_promotions(kb: KnowledgeBase, product_id: str, now: datetime) -> list[dict[str, Any]]:
    """Promotions of a product whose window contains ``now``, in id order."""
    return [p for p in kb.promotions(product_id) if _active(p, now)]


def _promo_discount(promo: dict[str, Any], unit: Decimal, quantity: int) -> Decimal:
    subtotal = unit * quantity
    if promo["kind"] == "percent":
        off = subtotal * _dec(promo["value"]) / 100
    else:
        off = _dec(promo["value"]) * quantity
    return _round(min(off, subtotal))


def _coupon_discount(coupon: dict[str, Any], amount: Decimal) -> Decimal:
    if coupon["kind"] == "percent":
        off = amount * _dec(coupon["value"]) / 100
        if coupon["cap"] is not None:
            off = min(off, _dec(coupon["cap"]))
    else:
        off = _dec(coupon["value"])
    return _round(min(off, amount))


def _yuan(value: Decimal | float) -> str:
    return f"¥{Decimal(str(value)).quantize(_CENT)}"


def _best_promotion(
    kb: KnowledgeBase,
    product_id: str,
    now: datetime,
    unit: Decimal,
    quantity: int,
    discounts: list[dict[str, Any]],
    not_applied: list[dict[str, Any]],
) -> dict[str, Any] | None:
    """The live deal that saves most (recorded in ``discounts``; the others in ``not_applied``)."""
    promos = active_promotions(kb, product_id, now)
    if not promos:
        return None
    scored = sorted(promos, key=lambda p: (-_promo_discount(p, unit, quantity), p["id"]))
    promo = scored[0]
    off = _promo_discount(promo, unit, quantity)
    discounts.append(
        {
            "type": "promotion",
            "id": promo["id"],
            "label": promo["label"],
            "amount": float(off),
            "ends_at": promo["ends_at"],
        }
    )
    for other in scored[1:]:
        not_applied.append(
            {
                "promotion_id": other["id"],
                "label": other["label"],
                "reason": f"only one live deal applies per item; {promo['id']} saves more",
            }
        )
    return promo


def _coupon_refusal(
    kb: KnowledgeBase,
    code: str,
    seen: set[str],
    product: dict[str, Any],
    promo: dict[str, Any] | None,
    after_promo: Decimal,
    now: datetime,
) -> str | None:
    """Why coupon ``code`` cannot apply to this order (None: it can)."""
    coupon = kb.coupon(code)
    if code in seen:
        return "this code was already given"
    if coupon is None:
        return "unknown coupon code"
    if now < datetime.fromisoformat(coupon["starts_at"]):
        return f"not valid yet: starts on {coupon['starts_at'][:10]}"
    if now > datetime.fromisoformat(coupon["ends_at"]):
        return f"expired on {coupon['ends_at'][:10]}"
    if coupon["category"] is not None and coupon["category"] != product["category"]:
        return f"shop coupon for {coupon['category']} only"
    if promo is not None and not coupon["stacks_with_promotion"]:
        return f"cannot be combined with the live deal ({promo['label']})"
    if after_promo < _dec(coupon["threshold"]):
        return (
            f"threshold not met: needs {_yuan(coupon['threshold'])} after the live "
            f"deal, this order is {_yuan(after_promo)}"
        )
    return None


def _chosen_coupons(
    kb: KnowledgeBase,
    eligible: list[dict[str, Any]],
    after_promo: Decimal,
    rejected: list[dict[str, str]],
) -> dict[str, dict[str, Any]]:
    """Issuer -> the coupon applied: the best one per issuer, both only if they stack."""
    chosen: dict[str, dict[str, Any]] = {}
    for issuer in ("shop", "platform"):
        group = [c for c in eligible if c["issuer"] == issuer]
        if not group:
            continue
        best = max(group, key=lambda c: _coupon_discount(c, after_promo))  # first max wins
        chosen[issuer] = best
        for c in group:
            if c is not best:
                rejected.append(
                    {
                        "code": c["code"],
                        "reason": f"only one {issuer} coupon per order; {best['code']} saves more",
                    }
                )
    if "shop" in chosen and "platform" in chosen:
        shop, platform = chosen["shop"], chosen["platform"]
        if platform["code"] not in kb.stacks_with(shop["code"]) or shop["code"] not in (
            kb.stacks_with(platform["code"])
        ):
            saves = {i: _coupon_discount(c, after_promo) for i, c in chosen.items()}
            drop = "platform" if saves["platform"] <= saves["shop"] else "shop"
            keep = chosen["shop" if drop == "platform" else "platform"]
            rejected.append(
                {
                    "code": chosen[drop]["code"],
                    "reason": f"cannot be combined with {keep['code']}, which saves more",
                }
            )
            del chosen[drop]
    return chosen


def compute_final_price(
    kb: KnowledgeBase, *, sku: dict[str, Any], quantity: int, coupon_codes: list[str], now: datetime
) -> dict[str, Any]:
    """The price breakdown of ``quantity`` units of ``sku`` (a SKU row) at ``now``.

    Returns the ``pricing.final_price`` result documented in ``_functions``.
    """
    product = kb.product(sku["product_id"])
    assert product is not None
    unit = _dec(sku["list_price"])
    subtotal = unit * quantity
    discounts: list[dict[str, Any]] = []
    not_applied: list[dict[str, Any]] = []

    promo = _best_promotion(kb, product["id"], now, unit, quantity, discounts, not_applied)
    after_promo = subtotal - (_promo_discount(promo, unit, quantity) if promo else Decimal(0))
    rejected: list[dict[str, str]] = []
    eligible: list[dict[str, Any]] = []  # the given coupons that could apply, in the order given
    seen: set[str] = set()
    for code in (raw.strip().upper() for raw in coupon_codes):
        reason = _coupon_refusal(kb, code, seen, product, promo, after_promo, now)
        seen.add(code)
        if reason is not None:
            rejected.append({"code": code, "reason": reason})
        else:
            coupon = kb.coupon(code)
            assert coupon is not None
            eligible.append(coupon)
    chosen = _chosen_coupons(kb, eligible, after_promo, rejected)

    running = after_promo
    for issuer in ("shop", "platform"):
        if issuer in chosen:
            c = chosen[issuer]
            off = _coupon_discount(c, running)
            running -= off
            discounts.append(
                {
                    "type": "coupon",
                    "code": c["code"],
                    "issuer": issuer,
                    "label": c["label"],
                    "amount": float(off),
                }
            )

    final = max(Decimal(0), running)
    order = {c.strip().upper(): i for i, c in reversed(list(enumerate(coupon_codes)))}
    rejected.sort(key=lambda r: order.get(r["code"], 0))
    return {
        "sku": sku["sku"],
        "product_id": product["id"],
        "name": product["name"],
        "option": sku["option"],
        "colour": sku["colour"],
        "quantity": quantity,
        "currency": "CNY",
        "priced_at": now.isoformat(),
        "unit_list_price": money(unit),
        "list_price": money(subtotal),
        "discounts": discounts,
        "promotions_not_applied": not_applied,
        "rejected_coupons": rejected,
        "total_discount": money(subtotal - final),
        "final_price": money(final),
    }
