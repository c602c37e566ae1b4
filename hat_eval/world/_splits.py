"""Fixed train/dev/test splits of the product catalogue."""

from __future__ import annotations

from typing import Literal, get_args

from ._kb import KnowledgeBase
from ._vocab import CATEGORIES, TYPES

Split = Literal["train", "dev", "test"]
"""A split of the catalogue (and of the cases built on it); the one definition in hat-eval."""

SPLITS: tuple[Split, ...] = get_args(Split)
"""Every split, in the order ``train``, ``dev``, ``test``."""


def _bucket(kb: KnowledgeBase, product: dict[str, object]) -> Split:
    category = str(product["category"])
    keys = [t.key for t in TYPES[category]]
    t = keys.index(str(product["type_key"]))
    role = (t + CATEGORIES.index(category)) % len(keys)
    same_type = [p["id"] for p in kb.products() if p["type_key"] == keys[t]]
    k = same_type.index(str(product["id"]))
    n = len(same_type)
    pair = role % 4 < 2
    if k < n - (2 if pair else 1):
        return "train"
    if role < 4:
        return "test"
    return "dev"


def split_of(kb: KnowledgeBase, product_id: str) -> Split:
    """The split a product belongs to; ``KeyError`` for an unknown product."""
    product = kb.product(product_id)
    if product is None:
        raise KeyError(f"no product {product_id!r} in the knowledge base")
    return _bucket(kb, product)


def split_products(kb: KnowledgeBase, split: Split) -> list[str]:
    """Product ids of ``split``, in id order.

    The rule is fixed and per product type. A type's role is ``(type index + category index) % 8``:
    roles 0-1 send the last two of its four listings to test, roles 2-3 the last one to test,
    roles 4-5 the last two to dev, roles 6-7 the last one to dev; every other listing is train.
    Per category that is 20/6/6 (62.5 / 18.75 / 18.75 %); the splits are disjoint, each covers all
    eight categories, every type has listings in train, and dev and test each hold two pairs of
    listings of the same type (for comparison questions).
    """
    if split not in SPLITS:
        raise ValueError(f"split {split!r} is unknown, expected one of {', '.join(SPLITS)}")
    return [p["id"] for p in kb.products() if _bucket(kb, p) == split]
