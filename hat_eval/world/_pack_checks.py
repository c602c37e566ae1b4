"""The rules of a shop pack that span records (:func:`cross_problems`), one generator per check.

Each record alone is already validated by its :mod:`hat_eval.world._schema` model; these checks
see the whole :class:`~hat_eval.world._pack.ShopPack` and yield one :class:`Problem` per fault,
naming the record's file (or the file it was imported from), its line when known, and its key.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from datetime import datetime
from typing import TYPE_CHECKING

from pydantic import BaseModel

from ._problems import Problem
from ._schema import RECORD_FILES, key_field, record_key

if TYPE_CHECKING:
    from ._pack import ShopPack

_KEYS = [(f, k) for f, m in RECORD_FILES.items() if (k := key_field(m)) is not None]
"""(record file, the field that must be unique in it), in the order problems are reported."""

_PRODUCT_ID = "the id of a record in products.jsonl"
_END_AFTER_START = "an end at or after the start"


def cross_problems(pack: ShopPack) -> list[Problem]:
    """The problems of the rules that span records, in report order (each check's docstring)."""
    # what coupons, rules and policies may name
    categories = sorted({p.category for p in pack.products})
    return [
        *_duplicate_keys(pack),
        *_unknown_products(pack),
        *_coupon_problems(pack, categories),
        *_region_problems(pack),
        *_shipping_problems(pack),
        *_category_gaps(pack, categories),
        *_rule_problems(pack, categories),
    ]


def _problem(
    pack: ShopPack,
    file: str,
    record: BaseModel,
    field: str | None,
    what: str,
    expected: str,
) -> Problem:
    """A problem of ``record`` of ``file`` (its line and the file it came from, when known)."""
    key = record_key(record)
    line = pack.lines.get((file, key))
    name = pack.sources.get(file, file)
    return Problem(name, what, expected, line=line or None, record=key, field=field)


def _ends_before_start(starts_at: str, ends_at: str) -> bool:
    return datetime.fromisoformat(ends_at) < datetime.fromisoformat(starts_at)


def _duplicate_keys(pack: ShopPack) -> Iterator[Problem]:
    """One problem per key that appears more than once in its file (at its first record)."""
    for file, attr in _KEYS:
        records = pack.records(file)
        counts = Counter(str(getattr(r, attr)) for r in records)
        seen: set[str] = set()
        for r in records:
            key = str(getattr(r, attr))
            if counts[key] > 1 and key not in seen:
                seen.add(key)
                what = f"{key!r} appears {counts[key]} times"
                yield _problem(pack, file, r, attr, what, "each once")


def _unknown_products(pack: ShopPack) -> Iterator[Problem]:
    """SKUs and promotions of an unknown product; promotions ending before they start."""
    products = {p.id for p in pack.products}
    for s in pack.skus:
        if s.product_id not in products:
            what = f"{s.product_id!r} is not a product"
            yield _problem(pack, "skus.jsonl", s, "product_id", what, _PRODUCT_ID)
    for p in pack.promotions:
        if p.product_id not in products:
            what = f"{p.product_id!r} is not a product"
            yield _problem(pack, "promotions.jsonl", p, "product_id", what, _PRODUCT_ID)
        if _ends_before_start(p.starts_at, p.ends_at):
            what = f"{p.ends_at} is before starts_at {p.starts_at}"
            yield _problem(pack, "promotions.jsonl", p, "ends_at", what, _END_AFTER_START)


def _coupon_problems(pack: ShopPack, categories: list[str]) -> Iterator[Problem]:
    """Coupons ending before they start, of an unknown category, or badly stacking.

    A coupon's ``stacks_with`` may name neither the coupon itself nor an unknown code.
    """
    file = "coupons.jsonl"
    codes = {c.code for c in pack.coupons}
    for c in pack.coupons:
        if _ends_before_start(c.starts_at, c.ends_at):
            what = f"{c.ends_at} is before starts_at {c.starts_at}"
            yield _problem(pack, file, c, "ends_at", what, _END_AFTER_START)
        if c.category is not None and c.category not in categories:
            what = f"{c.category!r} is not a product category"
            expected = f"one of {', '.join(categories)} (or null for every category)"
            yield _problem(pack, file, c, "category", what, expected)
        for i, other in enumerate(c.stacks_with):
            if other == c.code:
                what = "a coupon cannot stack with itself"
                yield _problem(pack, file, c, f"stacks_with.{i}", what, "other coupon codes")
            elif other not in codes:
                what = f"{other!r} is not a coupon"
                yield _problem(pack, file, c, f"stacks_with.{i}", what, "a code in coupons.jsonl")


def _region_problems(pack: ShopPack) -> Iterator[Problem]:
    """Regions listed in a second shipping class (each belongs to the first that lists it)."""
    owner: dict[str, str] = {}
    for rc in pack.regions:
        for i, region in enumerate(rc.regions):
            if region in owner and owner[region] != rc.region_class:
                what = f"{region!r} is already in class {owner[region]!r}"
                expected = "each region in one shipping class"
                yield _problem(pack, "regions.jsonl", rc, f"regions.{i}", what, expected)
            owner.setdefault(region, rc.region_class)


def _shipping_problems(pack: ShopPack) -> Iterator[Problem]:
    """Shipping rows of an unknown class, with ``days_min`` above ``days_max``, or repeated.

    A row is repeated when another row has the same category and region class.
    """
    file = "shipping.jsonl"
    classes = [rc.region_class for rc in pack.regions]
    rows = Counter((s.category, s.region_class) for s in pack.shipping)
    for row in pack.shipping:
        if row.region_class not in classes:
            what = f"{row.region_class!r} is not a shipping class"
            expected = f"one of {', '.join(classes)} (regions.jsonl)"
            yield _problem(pack, file, row, "region_class", what, expected)
        if row.days_min > row.days_max:
            what = f"{row.days_min} is above days_max {row.days_max}"
            yield _problem(pack, file, row, "days_min", what, "days_min <= days_max")
        n = rows[(row.category, row.region_class)]
        if n > 1:
            expected = "one row per category and class"
            yield _problem(pack, file, row, None, f"appears {n} times", expected)


def _category_gaps(pack: ShopPack, categories: list[str]) -> Iterator[Problem]:
    """What each product category is missing: a shipping row per region class, a returns policy."""
    classes = [rc.region_class for rc in pack.regions]
    rows = {(s.category, s.region_class) for s in pack.shipping}
    returns = {r.category for r in pack.returns}
    shipping_file = pack.sources.get("shipping.jsonl", "shipping.jsonl")
    returns_file = pack.sources.get("returns.jsonl", "returns.jsonl")
    for category in categories:
        missing = [rc for rc in classes if (category, rc) not in rows]
        if missing:
            what = f"no row for region class {', '.join(missing)}"
            expected = "one row per category and region class"
            yield Problem(shipping_file, what, expected, record=category)
        if category not in returns:
            what = "no returns policy for this product category"
            yield Problem(returns_file, what, "one record per category", record=category)


def _rule_problems(pack: ShopPack, categories: list[str]) -> Iterator[Problem]:
    """Rules naming a category no product has."""
    for r in pack.rules:
        for i, category in enumerate(r.categories):
            if category not in categories:
                what = f"{category!r} is not a product category"
                expected = f"one of {', '.join(categories)}"
                yield _problem(pack, "rules.jsonl", r, f"categories.{i}", what, expected)
