"""What the case generators can ask about a shop, and what they cannot and why.

The generators (:mod:`._cases`) draw from the vocabulary's product types (their nouns, message
templates and the split rule) and from a November 2026 stream season, so a shop's products must
be of those types and its season must cover that month: :func:`generator_problems` says where
one is not. :func:`shop_coverage` counts the shop per category and split, and tries each intent
on a split: the kinds of facts its cases ask for, or why none can be made.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from datetime import datetime

from ._cases import INTENTS, generate_cases
from ._kb import KnowledgeBase
from ._pack import ShopPack
from ._problems import Problem
from ._splits import SPLITS, Split, split_products
from ._vocab import CATEGORIES, TYPES

SEASON = ("2026-11-02T19:00:00+08:00", "2026-11-29T23:59:00+08:00")
"""The moments the case generators draw a viewer's message from (``_cases._draft._now``)."""


def generator_problems(pack: ShopPack) -> list[Problem]:
    """Why the case generators cannot run on ``pack`` (empty: they can), one line each.

    A product of a category or product type the vocabulary does not know (the generators need
    its noun and the split rule its place among the category's types), or a season that does
    not cover the moments the generators draw.
    """
    out: list[Problem] = []
    known = {c: [t.key for t in TYPES[c]] for c in CATEGORIES}
    for p in pack.products:
        if p.category not in known:
            out.append(
                Problem(
                    "products.jsonl",
                    f"{p.category!r} is not a category of the case generators' vocabulary",
                    f"one of {', '.join(CATEGORIES)} (hat_eval/world/vocab/)",
                    record=p.id,
                    field="category",
                )
            )
        elif p.type_key not in known[p.category]:
            out.append(
                Problem(
                    "products.jsonl",
                    f"{p.type_key!r} is not a {p.category} product type of the case generators' "
                    "vocabulary",
                    f"one of {', '.join(known[p.category])}",
                    record=p.id,
                    field="type_key",
                )
            )
    m = pack.manifest
    start, end = (datetime.fromisoformat(x) for x in SEASON)
    if datetime.fromisoformat(m.season_start) > start or datetime.fromisoformat(m.season_end) < end:
        out.append(
            Problem(
                "shop.yaml",
                f"{m.season_start} .. {m.season_end} does not cover {SEASON[0]} .. {SEASON[1]}",
                "a season covering the moments the case generators draw viewer messages from",
                field="season_start/season_end",
            )
        )
    return out


@dataclass(frozen=True)
class IntentCoverage:
    """One intent on one split: the kinds of facts its cases ask for, or why none are made."""

    intent: str
    facts: tuple[str, ...]
    """The facts its cases' gold asks for (tool result fields, e.g. ``final_price``)."""
    languages: tuple[str, ...]
    reason: str | None = None
    """Why no case of this intent can be made (None: they can)."""
    notes: tuple[str, ...] = ()
    """What its cases cannot ask here, though some can be made."""


@dataclass(frozen=True)
class CategoryCount:
    """One category of a shop: listings, SKUs, SKUs in stock, promotions, made to order."""

    category: str
    products: int
    skus: int
    in_stock: int
    promotions: int
    custom: int


@dataclass(frozen=True)
class ShopCoverage:
    """A shop as the case generators see it."""

    categories: tuple[CategoryCount, ...]
    splits: dict[Split, int]
    """Split -> products in it (the split rule holds out up to 2 + 2 listings per type)."""
    intents: tuple[IntentCoverage, ...]
    problems: tuple[Problem, ...]
    """:func:`generator_problems` (when any, no intent is tried)."""


def _fact_kind(source: str) -> str:
    path = re.sub(r"\[[^\]]*\]", "", re.sub(r"^\d+:", "", source))
    return "specs.*" if path.startswith("specs.") else path


def _limits(pack: ShopPack, kb: KnowledgeBase, split: Split) -> dict[str, list[str]]:
    """Intent -> what in the shop rules its cases out (or some of them)."""
    ids = set(split_products(kb, split))
    per_type = Counter(p.type_key for p in pack.products if p.id in ids)
    ships = any(s.available for s in pack.shipping)
    return {
        "promotion_stacking": [
            *(["no promotions (promotions.jsonl)"] if not pack.promotions else []),
            *(["no coupons (coupons.jsonl)"] if not pack.coupons else []),
        ],
        "stock_size": ["no SKUs"] if not pack.skus else [],
        "shipping_returns": ["no category ships anywhere (shipping.jsonl)"] if not ships else [],
        "comparison": (
            [f"no product type has two listings in the {split} split"]
            if not any(n >= 2 for n in per_type.values())
            else []
        ),
        "compliance_bait": ["no compliance rules (rules.jsonl)"] if not pack.rules else [],
    }


def shop_coverage(
    kb: KnowledgeBase, *, split: Split = "test", tries: int = 12, seed: int = 0
) -> ShopCoverage:
    """Count ``kb``'s shop and try each intent's generator on ``split`` (``tries`` cases each)."""
    pack = kb.pack
    problems = generator_problems(pack)
    promos = Counter(kb.product(p.product_id)["category"] for p in pack.promotions)  # type: ignore[index]
    categories = []
    for category in sorted({p.category for p in pack.products}):
        ids = {p.id for p in pack.products if p.category == category}
        skus = [s for s in pack.skus if s.product_id in ids]
        categories.append(
            CategoryCount(
                category,
                len(ids),
                len(skus),
                sum(s.stock > 0 for s in skus),
                promos[category],
                sum(p.custom for p in pack.products if p.id in ids),
            )
        )
    if problems:
        return ShopCoverage(tuple(categories), {}, (), tuple(problems))
    splits = {s: len(split_products(kb, s)) for s in SPLITS}
    limits = _limits(pack, kb, split)
    intents = []
    for intent in INTENTS:
        notes = tuple(limits.get(intent, ()))
        if splits[split] < 2:
            intents.append(
                IntentCoverage(intent, (), (), f"the {split} split has {splits[split]} products")
            )
            continue
        try:
            cases = generate_cases(kb, split=split, n=tries, seed=seed, intents=[intent])
        except (RuntimeError, LookupError, ValueError) as err:
            why = ", ".join(notes) or f"no product of the {split} split fits ({err})"
            intents.append(IntentCoverage(intent, (), (), f"{why}: {intent} cases cannot be made"))
            continue
        facts = Counter(_fact_kind(f.source) for c in cases for f in c.facts if f.source)
        if intent == "compliance_bait":
            facts["forbidden claims"] += sum(bool(c.forbidden) for c in cases)
        facts["hand-off"] += sum(c.should_escalate for c in cases)
        facts = +facts
        languages = sorted({c.language for c in cases})
        intents.append(
            IntentCoverage(
                intent, tuple(k for k, _ in facts.most_common()), tuple(languages), None, notes
            )
        )
    return ShopCoverage(tuple(categories), splits, tuple(intents), ())
