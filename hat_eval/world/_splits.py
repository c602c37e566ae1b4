"""Fixed train/dev/test splits of the product catalogue."""

from __future__ import annotations

from typing import Literal, get_args

from ._kb import KnowledgeBase
from ._vocab import CATEGORIES, TYPES

Split = Literal["train", "dev", "test"]
"""A split of the catalogue (and of the cases built on it); the one definition in hat-eval."""

SPLITS: tuple[Split, ...] = get_args(Split)
"""Every split, in the order ``train``, ``dev``, ``test``."""


_HELD_OUT = 2
"""Listings per product type held out for dev, and as many for test."""


def _bucket(kb: KnowledgeBase, product: dict[str, object]) -> Split:
    category = str(product["category"])
    keys = [t.key for t in TYPES[category]]
    t = keys.index(str(product["type_key"]))
    role = (t + CATEGORIES.index(category)) % 2
    same_type = kb.type_product_ids[keys[t]]
    k = same_type.index(str(product["id"]))
    n = len(same_type)
    held = min(_HELD_OUT, n // 2)
    if k < n - 2 * held:
        return "train"
    first = k < n - held
    return "test" if first == (role == 0) else "dev"


def split_products(kb: KnowledgeBase, split: Split) -> list[str]:
    """Product ids of ``split``, in id order.

    The rule is fixed and per product type: of a type's ten listings (in id order) the first six
    are train and the last four are held out, two for dev and two for test; whether the first or
    the last two go to test alternates with ``(type index + category index) % 2``. Per category
    that is 48/16/16 (60 / 20 / 20 %); the splits are disjoint, each covers every product type,
    and dev and test each hold a pair of listings of every type (for comparison questions).
    """
    if split not in SPLITS:
        raise ValueError(f"split {split!r} is unknown, expected one of {', '.join(SPLITS)}")
    return [p["id"] for p in kb.products() if _bucket(kb, p) == split]
