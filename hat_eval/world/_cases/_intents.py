"""What viewer messages ask for and how they are written, and how often each is drawn."""

from __future__ import annotations

INTENT_WEIGHTS = {
    "price": 13,
    "promotion_stacking": 10,
    "stock_size": 12,
    "material_spec": 10,
    "shipping_returns": 10,
    "comparison": 7,
    "compliance_bait": 11,
    "out_of_scope": 6,
    "multi_intent": 9,
    "chit_chat": 6,
    "escalation": 6,
}
"""How often each intent is drawn (relative weights, in :data:`INTENTS` order)."""

INTENTS = tuple(INTENT_WEIGHTS)
"""What a viewer message asks for (one module of this package builds each)."""

SINGLE_INTENTS = tuple(i for i in INTENTS if i != "multi_intent")
"""The intents one skill answers: each is listed under ``intents`` by one skill of the default
harness. A multi-intent message asks two of them."""

MULTI_PARTS: dict[str, tuple[str, str]] = {
    "price_stock": ("price", "stock_size"),
    "stock_shipping": ("stock_size", "shipping_returns"),
    "price_shipping": ("price", "shipping_returns"),
    "material_price": ("material_spec", "price"),
}
"""The two single intents each kind of multi-intent message asks (its ``details["sub"]``), in
the order its gold skills are given."""

STYLE_WEIGHTS = {"clean": 34, "typos": 15, "emoji": 14, "slang": 17, "mixed_zh_en": 20}
"""How often each style is drawn (relative weights, in :data:`STYLES` order)."""

STYLES = tuple(STYLE_WEIGHTS)
"""How a message is written (orthogonal to the intent)."""
