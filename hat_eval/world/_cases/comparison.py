"""``comparison``: two products of the split compared on one attribute.

Gold: the attribute of both products (two ``catalog.get_product`` calls), preferably one where
they differ; the answer may list at most ``max_listed`` products.
"""

from __future__ import annotations

from typing import Any

from .._templates import attr_phrase, message_templates
from ._case import Case
from ._draft import Ctx, Skip, finish, new_draft, nouns, product_names
from ._gold import attribute_facts, spec_labels
from ._render import render


def build(ctx: Ctx) -> Case:
    """A ``comparison`` case."""
    by_type: dict[str, list[dict[str, Any]]] = {}
    for p in ctx.pool:
        by_type.setdefault(p["type_key"], []).append(p)
    pairs = [v for v in by_type.values() if len(v) >= 2]
    if pairs and ctx.rng.random() < 0.85:
        a, b = ctx.rng.sample(ctx.rng.choice(pairs), 2)
    else:
        a = ctx.product()
        same_cat = [p for p in ctx.pool if p["category"] == a["category"] and p["id"] != a["id"]]
        b = ctx.rng.choice(same_cat)
    common = sorted(set(spec_labels(a)) & set(spec_labels(b)))
    differing = [k for k in common if a["specs"][k] != b["specs"][k]]
    if differing:
        label = ctx.rng.choice(differing)
    elif a["material_label"] == b["material_label"]:
        label = a["material_label"]
    elif common:
        label = ctx.rng.choice(common)
    else:
        raise Skip
    on_screen = ctx.rng.random() < 0.5
    draft = new_draft(ctx, a, on_screen, lookup=True)
    if on_screen:
        draft.expect("catalog.search", optional=True)
    ia = draft.call("catalog.get_product", {"product_id": a["id"]})
    ib = draft.call("catalog.get_product", {"product_id": b["id"]})
    draft.facts.extend(attribute_facts(ia, a, label)[:2])
    draft.facts.extend(attribute_facts(ib, b, label)[:2])
    noun_a, sa, za = nouns(a)
    nb = product_names(ctx, b)
    na = product_names(ctx, a) if not on_screen else {}
    slots = {
        "a": f"this {noun_a}" if on_screen else f"the {na['en']}",
        "b": f"the {nb['en']}",
        "attr": attr_phrase(label),
        "a@zh": f"这个{za}" if on_screen else na["zh"],
        "b@zh": nb["zh"],
    }
    if ctx.register == "zh":
        slots["a"] = f"这个 {sa}" if on_screen else na["mix"]
        slots["b"] = nb["mix"]
    msg, lang = render(ctx, message_templates().comparison, slots)
    draft.details.update(attribute=label, on_screen=on_screen)
    return finish(
        draft, "comparison", msg, lang, [a["id"], b["id"]], extra_constraints=("max_listed",)
    )
