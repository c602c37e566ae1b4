"""``stock_size``: is this variant in stock (70%), or which size fits me (30%)?

Gold: the SKU's stock from ``inventory.check_stock`` (a wrong in-stock / sold-out claim is
forbidden), or the size the size chart gives for the viewer's height and weight.
"""

from __future__ import annotations

import re
from typing import Any

from .._facts import Fact
from .._kb import KnowledgeBase
from .._templates import message_templates
from .._vocab import SIZE_CHART
from ._case import Case
from ._draft import Ctx, finish, new_draft, ref_slots, variant_slots
from ._gold import stock_fact, stock_forbidden, stock_target
from ._phrases import case_phrases
from ._render import render


def build(ctx: Ctx) -> Case:
    """A ``stock_size`` case."""
    if ctx.rng.random() < 0.3:
        return _size_recommendation(ctx, ctx.product(lambda p: "size chart" in p["specs"]))
    product, sku = stock_target(ctx)
    on_screen = ctx.rng.random() < 0.6
    draft = new_draft(ctx, product, on_screen, lookup=True)
    idx = draft.call("inventory.check_stock", {"product_id": product["id"]})
    draft.facts.append(stock_fact(idx, sku))
    draft.forbidden.extend(stock_forbidden(ctx.kb, product, sku))
    alt = _alternative(ctx.kb, product, sku)
    slots = variant_slots(ctx.kb, product, sku, ref_slots(ctx, product, on_screen))
    msg, lang = render(ctx, message_templates().stock, slots, on_screen=on_screen)
    draft.details.update(
        sub="stock", sku=sku["sku"], on_screen=on_screen, alternative=alt["sku"] if alt else None
    )
    return finish(draft, "stock_size", msg, lang, [product["id"]])


def _size_recommendation(ctx: Ctx, product: dict[str, Any]) -> Case:
    chart = product["specs"]["size chart"]
    size = ctx.rng.choice(sorted(chart, key=list(SIZE_CHART).index))
    (h0, h1), (w0, w1) = SIZE_CHART[size]["height_cm"], SIZE_CHART[size]["weight_kg"]
    height, weight = ctx.rng.randint(h0 + 1, h1 - 1), ctx.rng.randint(w0 + 1, w1 - 1)
    on_screen = ctx.rng.random() < 0.6
    draft = new_draft(ctx, product, on_screen, lookup=True)
    idx = draft.call("catalog.get_product", {"product_id": product["id"]})
    draft.expect("inventory.check_stock", {"product_id": product["id"]}, optional=True)
    s = size.lower()
    draft.facts.append(
        Fact(
            "text",
            f"size {size}",
            None,
            tuple(a.format(size=s) for a in case_phrases().size_recommendation),
            f"{idx}:specs.size chart.{size}",
        )
    )
    others = [o for o in chart if o != size]
    if others:
        names = "|".join(re.escape(o.lower()) for o in others)
        draft.forbidden.append(
            rf"\b(?:size|get|go with|go for|recommend) (?:an? |the )?(?:{names})\b"
            r"(?! (?:is|are) (?:too|not))"
        )
    slots = ref_slots(ctx, product, on_screen)
    slots.update(height=str(height), weight=str(weight))
    msg, lang = render(ctx, message_templates().size, slots, on_screen=on_screen)
    draft.details.update(
        sub="size", size=size, height_cm=height, weight_kg=weight, on_screen=on_screen
    )
    return finish(draft, "stock_size", msg, lang, [product["id"]])


def _alternative(
    kb: KnowledgeBase, product: dict[str, Any], sku: dict[str, Any]
) -> dict[str, Any] | None:
    """The in-stock SKU nearest to a sold-out one (same colour first, then nearest option)."""
    if sku["stock"] > 0:
        return None
    skus = kb.skus(product["id"])
    options = list(dict.fromkeys(s["option"] for s in skus))
    pos = options.index(sku["option"])

    def distance(s: dict[str, Any]) -> tuple[int, int, int]:
        return (s["colour"] != sku["colour"], abs(options.index(s["option"]) - pos), s["position"])

    candidates = [s for s in skus if s["stock"] > 0]
    return min(candidates, key=distance) if candidates else None
