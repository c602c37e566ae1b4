"""``price``: what does this product (this variant, this many) cost?

Gold: the final price ``pricing.final_price`` returns; when a deal applies, quoting the list
price is forbidden.
"""

from __future__ import annotations

from typing import Any

from .._facts import price_pattern
from .._templates import message_templates
from ._case import Case
from ._draft import Ctx, finish, new_draft, ref_slots, variant_slots
from ._gold import price_gold
from ._render import render


def build(ctx: Ctx) -> Case:
    """A ``price`` case."""
    product = ctx.product()
    sku = ctx.rng.choice(ctx.kb.skus(product["id"]))
    qty = 1 if ctx.rng.random() < 0.85 else ctx.rng.choice((2, 2, 3))
    on_screen = ctx.rng.random() < 0.6
    draft = new_draft(ctx, product, on_screen, lookup=True)
    draft.expect("catalog.get_product", {"product_id": product["id"]}, optional=True)
    args: dict[str, Any] = {"sku": sku["sku"]}
    if qty > 1:
        args["quantity"] = qty
    _, res = price_gold(draft, args)
    if res["total_discount"] > 0 and qty > 1:
        draft.forbidden.append(price_pattern(res["list_price"]))
    slots = variant_slots(ctx.kb, product, sku, ref_slots(ctx, product, on_screen))
    if qty > 1:
        slots["qty"] = str(qty)
    msg, lang = render(
        ctx,
        message_templates().price,
        slots,
        frozenset({"qty"}) if qty > 1 else frozenset(),
        on_screen=on_screen,
    )
    draft.details.update(sku=sku["sku"], quantity=qty, on_screen=on_screen)
    return finish(draft, "price", msg, lang, [product["id"]])
