"""``material_spec``: what is it made of, what is in it, or one specification.

Gold: the material (up to three parts) or the spec value from ``catalog.get_product``.
"""

from __future__ import annotations

from .._templates import attr_phrase, message_templates
from ._case import Case
from ._draft import Ctx, finish, new_draft, ref_slots
from ._gold import attribute_facts, spec_labels
from ._render import render

_MATERIAL_LABELS = ("material", "materials", "filling")
_INGREDIENT_LABELS = ("ingredients", "key ingredients", "filters")


def build(ctx: Ctx) -> Case:
    """A ``material_spec`` case."""
    product = ctx.product()
    labels = spec_labels(product)
    if ctx.rng.random() < 0.5 or not labels:
        label = product["material_label"]
    else:
        label = ctx.rng.choice(labels)
    on_screen = ctx.rng.random() < 0.6
    draft = new_draft(ctx, product, on_screen, lookup=True)
    idx = draft.call("catalog.get_product", {"product_id": product["id"]})
    draft.facts.extend(attribute_facts(idx, product, label))
    kinds = message_templates()
    templates = (
        kinds.material
        if label in _MATERIAL_LABELS
        else kinds.ingredients
        if label in _INGREDIENT_LABELS
        else kinds.spec
    )
    slots = ref_slots(ctx, product, on_screen)
    slots["attr"] = attr_phrase(label)
    msg, lang = render(ctx, templates, slots, on_screen=on_screen)
    draft.details.update(attribute=label, on_screen=on_screen)
    return finish(draft, "material_spec", msg, lang, [product["id"]])
