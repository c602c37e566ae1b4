"""The schema of a shop (a data pack): one pydantic model per record kind.

A shop is a folder (see :mod:`hat_eval.world._pack`): ``shop.yaml`` (:class:`ShopManifest`),
``policy.yaml`` (:class:`ShopPolicy`) and one JSONL file per record kind, one record a line
(:data:`RECORD_FILES`). The models are the one owner of each record's fields: the validator,
the loader and the generator all go through them. Times are ISO 8601 with an offset
(``2026-11-01T00:00:00+08:00``); amounts are yuan.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field


def _iso_time(value: str) -> str:
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise ValueError(
            f"{value!r} is not an ISO 8601 time, expected e.g. 2026-11-01T00:00:00+08:00"
        ) from None
    if moment.tzinfo is None:
        raise ValueError(f"{value!r} has no UTC offset, expected e.g. 2026-11-01T00:00:00+08:00")
    return value


IsoTime = Annotated[str, AfterValidator(_iso_time)]
"""An ISO 8601 time with a UTC offset, kept as written (so a pack reads back byte for byte)."""

Money = Annotated[float, Field(ge=0)]
Days = Annotated[int, Field(ge=0)]
Name = Annotated[str, Field(min_length=1)]


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=False)


class Product(_Record):
    """A listing: one product with its descriptive fields (its options are :class:`Sku` rows)."""

    id: Name
    category: Name
    type_key: Name
    type_name: Name
    type_zh: Name
    brand: Name
    line: Name
    name: Name
    name_zh: Name
    description: Name
    material_label: Name
    material: Name
    specs: dict[str, Any]
    """Spec label -> value (a text, or for sized types the ``size chart`` mapping)."""
    variant_axis: Name
    custom: bool
    """Made to order (engraved): not returnable unless faulty."""
    ships_from: Name


class Sku(_Record):
    """One buyable option of a product (size / colour), with its shelf price and stock."""

    sku: Name
    product_id: Name
    position: Annotated[int, Field(ge=0)]
    """Listing order within the product."""
    option: Name
    option_zh: Name
    colour: str | None
    colour_zh: str | None
    list_price: Money
    stock: Annotated[int, Field(ge=0)]


class Promotion(_Record):
    """A live deal on one product, valid from ``starts_at`` to ``ends_at``."""

    id: Name
    product_id: Name
    kind: Literal["percent", "fixed"]
    """``percent``: ``value`` % off the line total; ``fixed``: ``value`` yuan off per unit."""
    value: Annotated[float, Field(gt=0)]
    label: Name
    live_only: bool
    starts_at: IsoTime
    ends_at: IsoTime


class Coupon(_Record):
    """A coupon code and its terms.

    ``issuer`` ``platform`` is valid shop-wide, ``shop`` for one ``category``; at most one of
    each applies per order. ``kind`` ``threshold``: ``value`` yuan off when the order reaches
    ``threshold``; ``fixed``: ``value`` yuan off; ``percent``: ``value`` % off, at most ``cap``.
    """

    code: Annotated[str, Field(min_length=1, pattern=r"^[A-Z0-9]+$")]
    issuer: Literal["platform", "shop"]
    kind: Literal["threshold", "fixed", "percent"]
    value: Annotated[float, Field(gt=0)]
    threshold: Money
    cap: Money | None
    category: str | None
    """The category a shop coupon is valid for (None: every category)."""
    starts_at: IsoTime
    ends_at: IsoTime
    stacks_with_promotion: bool
    """False: rejected when a live deal applies."""
    stacks_with: list[str]
    """Codes this coupon may be used together with in one order."""
    label: Name


class RegionClass(_Record):
    """A shipping class of regions (``metro``, ``remote``...); file order is display order."""

    region_class: Name
    regions: list[Name]


class Shipping(_Record):
    """Delivery time and fee of one category to one region class.

    ``fee`` is charged unless the order reaches ``free_over`` (None: never free; ``fee`` 0:
    always free). ``available`` False: the category does not ship there.
    """

    category: Name
    region_class: Name
    available: bool
    days_min: Days
    days_max: Days
    fee: Money
    free_over: Money | None


class Returns(_Record):
    """The returns, exchange and warranty policy of a category."""

    category: Name
    window_days: Days
    conditions: list[Name]
    return_shipping: Name
    exchange_days: Days | None
    warranty: str | None


class Rule(_Record):
    """A compliance rule: phrases that may not be said on a public stream about categories."""

    id: Name
    kind: Name
    categories: list[Name]
    """Categories the rule applies to; empty: every category."""
    patterns: Annotated[list[Name], Field(min_length=1)]
    """Lower-case regular expressions matched against the normalised claim."""
    reason: Name


class ShopManifest(_Record):
    """``shop.yaml``: what the shop is."""

    name: Name
    version: Name
    currency: Annotated[str, Field(pattern=r"^[A-Z]{3}$")]
    timezone: Annotated[str, Field(pattern=r"^[+-]\d\d:\d\d$")]
    seed: int | None
    """The generator seed the catalogue was drawn with (None: written by hand)."""
    season_start: IsoTime
    season_end: IsoTime


class ShopPolicy(_Record):
    """``policy.yaml``: the shop's rules in words, and the words compliance softens."""

    stacking_rules: Annotated[list[Name], Field(min_length=1)]
    """The coupon stacking rules ``pricing.final_price`` implements, in words."""
    custom_returns: Name
    """The returns rule of made-to-order products."""
    safe_words: dict[str, str]
    """Word -> softer word, for the rephrasing ``compliance.check_claim`` suggests."""


RECORD_FILES: dict[str, type[_Record]] = {
    "products.jsonl": Product,
    "skus.jsonl": Sku,
    "promotions.jsonl": Promotion,
    "coupons.jsonl": Coupon,
    "regions.jsonl": RegionClass,
    "shipping.jsonl": Shipping,
    "returns.jsonl": Returns,
    "rules.jsonl": Rule,
}
"""Every record file of a pack (each required, possibly empty) and its record model."""

MANIFEST_FILE = "shop.yaml"
POLICY_FILE = "policy.yaml"


def key_field(model: type[BaseModel]) -> str | None:
    """The field whose value names a record of ``model`` (None: a shipping row, named by a pair)."""
    fields = ("id", "sku", "code", "region_class", "category")
    return None if model is Shipping else next((k for k in fields if k in model.model_fields), None)


def record_key(record: BaseModel) -> str:
    """How a problem report names a record: its :func:`key_field`, or category/region pair."""
    key = key_field(type(record))
    if key is None:
        return f"{getattr(record, 'category', '?')}/{getattr(record, 'region_class', '?')}"
    return str(getattr(record, key))
