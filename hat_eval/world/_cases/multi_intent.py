"""``multi_intent``: one message asking two things, e.g. the price and whether it is in stock.

Gold: the facts of both parts, in a fixed order (material, price, stock, shipping); the gold
skills are the skills of both parts' intents.
"""

from __future__ import annotations

from .._templates import attr_phrase, message_templates
from ._case import Case
from ._draft import Ctx, finish, new_draft, ref_slots, variant_slots
from ._gold import (
    attribute_facts,
    draw_place,
    price_gold,
    ship_facts,
    spec_labels,
    stock_fact,
    stock_forbidden,
    stock_target,
)
from ._intents import MULTI_PARTS
from ._render import render
from ._skills import SKILL_OF


def build(ctx: Ctx) -> Case:
    """A ``multi_intent`` case."""
    combo = ctx.rng.choice(sorted(MULTI_PARTS))
    parts = MULTI_PARTS[combo]
    if "stock_size" in parts:
        product, sku = stock_target(ctx)
    else:
        product = ctx.product()
        sku = ctx.rng.choice(ctx.kb.skus(product["id"]))
    on_screen = ctx.rng.random() < 0.6
    draft = new_draft(ctx, product, on_screen, lookup=True)
    slots = variant_slots(ctx.kb, product, sku, ref_slots(ctx, product, on_screen))
    require: frozenset[str] = frozenset()
    if "material_spec" in parts:
        labels = spec_labels(product)
        label = (
            product["material_label"]
            if not labels or ctx.rng.random() < 0.6
            else ctx.rng.choice(labels)
        )
        i = draft.call("catalog.get_product", {"product_id": product["id"]})
        draft.facts.extend(attribute_facts(i, product, label))
        slots["attr"] = attr_phrase(label)
        draft.details["attribute"] = label
        if label != product["material_label"]:  # "what is it made of" asks for the material
            require = frozenset({"attr"})
    if "price" in parts:
        price_gold(draft, {"sku": sku["sku"]})
    if "stock_size" in parts:
        i = draft.call("inventory.check_stock", {"product_id": product["id"]})
        draft.facts.append(stock_fact(i, sku))
        draft.forbidden.extend(stock_forbidden(ctx.kb, product, sku))
    if "shipping_returns" in parts:
        rc, place, written = draw_place(ctx)
        slots["place"] = written
        i = draft.call("policy.shipping_returns", {"product_id": product["id"]})
        ship_facts(draft, i, rc)
        draft.details.update(region_class=rc, place=place)
    msg, lang = render(ctx, message_templates().multi[combo], slots, require, on_screen=on_screen)
    draft.details.update(sub=combo, sku=sku["sku"], on_screen=on_screen)
    skills = tuple(SKILL_OF[part] for part in parts)
    return finish(draft, "multi_intent", msg, lang, [product["id"]], skills=skills)
