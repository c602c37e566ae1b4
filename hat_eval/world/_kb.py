"""The product knowledge base: a shop (data pack) loaded into an in-memory SQLite database.

The built-in shop is the pack shipped in ``hat_eval/world/shop`` (see :mod:`._pack`);
``build_kb()`` loads it, ``load_kb(folder)`` loads any other pack. ``generate_pack(seed)`` is the
generator that wrote it: it draws 640 listings (8 categories x 8 product types x 10, in two rounds
of 4 and 6) from the vocabulary in ``_vocab`` with one ``random.Random(seed)``, in a fixed order,
so the same seed always gives the same pack; the first round's 256 listings are those of the
catalogue before it grew. The shop-wide tables (coupons, shipping, returns, compliance rules,
the policy texts) are not drawn: they are the built-in pack's own records. ``build_kb(seed)``
for another seed generates that seed's pack. Read access goes through the typed helpers of
:class:`KnowledgeBase`, which return plain dicts (JSON-able rows).
"""

from __future__ import annotations

import json
import random
import re
import sqlite3
from collections.abc import Iterator
from decimal import ROUND_HALF_UP, Decimal
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

from ._pack import ShopPack, builtin_pack_dir, read_pack
from ._schema import Product, Promotion, RegionClass, Sku
from ._sqlite import write_tables
from ._vocab import (
    BRANDS,
    CATEGORIES,
    COLOURS,
    FIRST_BRANDS,
    REGIONS,
    ROUNDS,
    SIZE_CHART,
    TYPES,
    WAREHOUSES,
    Colour,
    ProductType,
)

_PCT_VALUES = (10, 12, 15, 18, 20, 25, 30)


def made_to_order_days(product: dict[str, Any] | None) -> tuple[int, int] | None:
    """The making time of a made-to-order product (spec "made to order in 3-5 days": (3, 5)).

    None for a stock item. The oracle says it beside a delivery time, and the checks read
    whether an answer does.
    """
    lead = str((product or {}).get("specs", {}).get("made to order", ""))
    days = _MADE_IN.search(lead)
    return (int(days.group(1)), int(days.group(2))) if days else None


_MADE_IN = re.compile(r"(\d+)\s?-\s?(\d+) days")


def money(value: float | Decimal) -> float:
    """Round a yuan amount to cents, half up (how the shop rounds)."""
    return float(Decimal(str(value)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def _snap(value: float, ending: float) -> float:
    """A shelf price near ``value``: a round number minus ``ending`` (1, 0.1 or 0.01)."""
    step = 100 if value >= 1000 else 10
    base = max(step, int(round(value / step)) * step)
    if value < 30:
        base = max(10, int(round(value / 10)) * 10)
        ending = 0.1
    return money(base - ending)


class KnowledgeBase:
    """Read-only access to one shop's product database (SQLite in memory), loaded from a pack.

    Rows come back as dicts; JSON columns (specs, conditions, patterns) are decoded. The pack's
    records that are not rows (shipping classes, coupon stacking, policy texts) are read from
    ``pack``.
    """

    def __init__(self, connection: sqlite3.Connection, seed: int, pack: ShopPack) -> None:
        self._db = connection
        self._db.row_factory = sqlite3.Row
        self.seed = seed
        self.pack = pack
        self._stacks = {c.code: frozenset(c.stacks_with) for c in pack.coupons}
        self._read: dict[tuple[str, tuple[Any, ...]], tuple[dict[str, Any], ...]] = {}

    # -- raw access ----------------------------------------------------------------------------
    def query(self, sql: str, params: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
        """Run a read query and return its rows as dicts (new ones: a caller may change them).

        The database is read-only, so each query is run once and its rows kept: the checks ask
        for the same promotions, coupons and policies for answer after answer.
        """
        rows = self._read.get((sql, params))
        if rows is None:
            rows = tuple(dict(row) for row in self._db.execute(sql, params))
            self._read[sql, params] = rows
        return [dict(row) for row in rows]

    def iterdump(self) -> Iterator[str]:
        """The SQL statements that recreate the database (``sqlite3`` ``iterdump``)."""
        return self._db.iterdump()

    # -- products ------------------------------------------------------------------------------
    @cached_property
    def _rows(self) -> tuple[dict[str, dict[str, Any]], dict[str, list[dict[str, Any]]]]:
        """Product id -> product row, and product id -> its SKU rows (read once)."""
        products = {}
        for row in self.query("SELECT * FROM products ORDER BY id"):
            row["specs"] = json.loads(row["specs"])
            row["custom"] = bool(row["custom"])
            products[row["id"]] = row
        skus: dict[str, list[dict[str, Any]]] = {pid: [] for pid in products}
        for row in self.query("SELECT * FROM skus ORDER BY product_id, position"):
            skus[row["product_id"]].append(row)
        return products, skus

    @cached_property
    def type_product_ids(self) -> dict[str, list[str]]:
        """Each product type's product ids, in id order."""
        by_type: dict[str, list[str]] = {}
        for pid, p in self._rows[0].items():
            by_type.setdefault(p["type_key"], []).append(pid)
        return by_type

    def product_ids(self, category: str | None = None) -> list[str]:
        """All product ids in id order, optionally of one category."""
        return [
            pid for pid, p in self._rows[0].items() if category is None or p["category"] == category
        ]

    def product(self, product_id: str) -> dict[str, Any] | None:
        """One product row (with decoded ``specs``), or None."""
        return self._rows[0].get(product_id)

    def products(self) -> list[dict[str, Any]]:
        """Every product row, in id order."""
        return list(self._rows[0].values())

    def product_names(self) -> dict[str, tuple[str, ...]]:
        """Product id -> the names a viewer or host may call it by (English, Chinese)."""
        return {
            pid: tuple(n for n in (p["name"], p.get("name_zh")) if n)
            for pid, p in self._rows[0].items()
        }

    def skus(self, product_id: str) -> list[dict[str, Any]]:
        """The SKUs of a product, in listing order (empty for an unknown product)."""
        return list(self._rows[1].get(product_id, []))

    def sku(self, sku: str) -> dict[str, Any] | None:
        """One SKU row, or None."""
        rows = self._rows[1].get(sku.split("-", 1)[0], [])
        return next((row for row in rows if row["sku"] == sku), None)

    # -- offers --------------------------------------------------------------------------------
    def promotions(self, product_id: str) -> list[dict[str, Any]]:
        """All promotions of a product (any validity window), in id order."""
        return self.query(
            "SELECT * FROM promotions WHERE product_id = ? ORDER BY id", (product_id,)
        )

    def coupon(self, code: str) -> dict[str, Any] | None:
        """The coupon with this code (exact, upper-case), or None."""
        rows = self.query("SELECT * FROM coupons WHERE code = ?", (code,))
        return _coupon_row(rows[0]) if rows else None

    def coupons(self) -> list[dict[str, Any]]:
        """Every coupon, in code order."""
        return [_coupon_row(r) for r in self.query("SELECT * FROM coupons ORDER BY code")]

    # -- policies ------------------------------------------------------------------------------
    def stacks_with(self, code: str) -> frozenset[str]:
        """The coupon codes coupon ``code`` may be used with in one order (empty if unknown)."""
        return self._stacks.get(code, frozenset())

    def shipping(self, category: str) -> list[dict[str, Any]]:
        """Shipping rows of a category, in the order of the shop's shipping classes."""
        rows = self.query("SELECT * FROM shipping WHERE category = ?", (category,))
        order = {rc.region_class: i for i, rc in enumerate(self.pack.regions)}
        for r in rows:
            r["available"] = bool(r["available"])
        return sorted(rows, key=lambda r: order[r["region_class"]])

    def returns(self, category: str) -> dict[str, Any]:
        """The returns policy row of a category."""
        row = self.query("SELECT * FROM returns WHERE category = ?", (category,))[0]
        row["conditions"] = json.loads(row["conditions"])
        return row

    def rules(self, category: str | None = None) -> list[dict[str, Any]]:
        """Compliance rules that apply to ``category`` (all rules when None), in id order."""
        out = []
        for row in self.query("SELECT * FROM rules ORDER BY id"):
            row["categories"] = json.loads(row["categories"])
            row["patterns"] = json.loads(row["patterns"])
            if category is None or not row["categories"] or category in row["categories"]:
                out.append(row)
        return out


def _coupon_row(row: dict[str, Any]) -> dict[str, Any]:
    row["stacks_with_promotion"] = bool(row["stacks_with_promotion"])
    return row


# -- the generator: a seed's catalogue ------------------------------------------------------------
def _size_chart(options: list[str]) -> dict[str, str]:
    return {
        size: "height {}-{} cm, weight {}-{} kg".format(
            *SIZE_CHART[size]["height_cm"], *SIZE_CHART[size]["weight_kg"]
        )
        for size in options
        if size in SIZE_CHART
    }


def _fixed_off(price: float, rng: random.Random) -> float:
    raw = price * rng.uniform(0.08, 0.2)
    step = 5 if raw < 100 else 50
    return float(max(5, int(round(raw / step)) * step))


def _promotions(
    rng: random.Random, pid: str, price: float, counter: list[int]
) -> Iterator[Promotion]:
    draws = []
    if rng.random() < 0.65:
        start = rng.randint(1, 18)
        end = min(30, start + rng.randint(3, 12))
        draws.append(("regular", start, "00:00:00", end, "23:59:59"))
    if rng.random() < 0.3:
        day = rng.randint(2, 28)
        draws.append(("flash", day, "19:00:00", day, "23:00:00"))
    for kind_of, d0, t0, d1, t1 in draws:
        counter[0] += 1
        if rng.random() < 0.55:
            kind, value = "percent", float(rng.choice(_PCT_VALUES))
            if kind_of == "flash":
                value = float(min(40, value + 10))
            label = f"{int(value)}% off"
        else:
            kind, value = "fixed", _fixed_off(price, rng)
            if kind_of == "flash":
                value = float(value * 2)
            label = f"¥{int(value)} off"
        label = ("Live flash deal: " if kind_of == "flash" else "Live deal: ") + label
        yield Promotion(
            id=f"PR{counter[0]:04d}",
            product_id=pid,
            kind=kind,
            value=value,
            label=label,
            live_only=kind_of == "flash" or rng.random() < 0.5,
            starts_at=f"2026-11-{d0:02d}T{t0}+08:00",
            ends_at=f"2026-11-{d1:02d}T{t1}+08:00",
        )


def _stock(rng: random.Random) -> int:
    r = rng.random()
    if r < 0.14:
        return 0
    if r < 0.3:
        return rng.randint(1, 9)
    return rng.randint(10, 480)


def _product(
    rng: random.Random, pid: str, category: str, ptype: ProductType, brand: str, line: str
) -> tuple[Product, list[Sku], float]:
    material = rng.choice(ptype.materials)
    specs: dict[str, Any] = {label: rng.choice(values) for label, values in ptype.specs}
    options = list(ptype.options)
    if ptype.axis == "shoe_size":
        start = rng.randint(0, len(options) - 6)
        options = options[start : start + 6]
    if ptype.sized:
        specs["size chart"] = _size_chart([o.label for o in options])
    colours = rng.sample(COLOURS, ptype.colours) if ptype.colours else []
    ending = rng.choice((1.0, 0.1, 0.01, 1.0))
    base = _snap(rng.uniform(*ptype.price), ending)
    product = Product(
        id=pid,
        category=category,
        type_key=ptype.key,
        type_name=ptype.en,
        type_zh=ptype.zh,
        brand=brand,
        line=line,
        name=f"{brand} {line} {ptype.en}",
        name_zh=f"{brand} {line} {ptype.zh}",
        description=ptype.description,
        material_label=ptype.material_label,
        material=material,
        specs=dict(sorted(specs.items())),
        variant_axis=ptype.axis,
        custom=ptype.custom,
        ships_from=rng.choice(WAREHOUSES),
    )
    skus: list[Sku] = []
    for opt in options:
        price = base if opt.price_factor == 1.0 else _snap(base * opt.price_factor, ending)
        colour_axis: list[Colour | None] = list(colours) or [None]
        for colour in colour_axis:
            parts = [pid]
            if not (colours and ptype.axis == "single" and opt.code == "STD"):
                parts.append(opt.code)
            if colour is not None:
                parts.append(colour.code)
            skus.append(
                Sku(
                    sku="-".join(parts),
                    product_id=pid,
                    position=len(skus),
                    option=opt.label,
                    option_zh=opt.zh or opt.label,
                    colour=colour.name if colour else None,
                    colour_zh=colour.zh if colour else None,
                    list_price=price,
                    stock=_stock(rng),
                )
            )
    return product, skus, base


def _catalogue(seed: int) -> tuple[list[Product], list[Sku], list[Promotion]]:
    rng = random.Random(seed)
    products: list[Product] = []
    skus: list[Sku] = []
    promotions: list[Promotion] = []
    promo_counter = [0]
    used: dict[str, tuple[set[str], set[str]]] = {}  # type key: (brands, lines) drawn so far
    for round_no, count in enumerate(ROUNDS):
        for category in CATEGORIES:
            for ptype in TYPES[category]:
                had_brands, had_lines = used.setdefault(ptype.key, (set(), set()))
                if round_no == 0:  # the first round's vocabulary: its draws keep their ids and data
                    brand_pool = list(BRANDS[category][: FIRST_BRANDS[category]])
                    line_pool = list(ptype.lines[: ptype.first_lines or None])
                else:
                    brand_pool = [b for b in BRANDS[category] if b not in had_brands]
                    line_pool = [x for x in ptype.lines if x not in had_lines]
                brands = rng.sample(brand_pool, count)
                lines = rng.sample(line_pool, count)
                had_brands.update(brands)
                had_lines.update(lines)
                for brand, line in zip(brands, lines, strict=True):
                    pid = f"P{len(products) + 1:04d}"
                    product, its_skus, base = _product(rng, pid, category, ptype, brand, line)
                    products.append(product)
                    skus.extend(its_skus)
                    promotions.extend(_promotions(rng, pid, base, promo_counter))
    return products, skus, promotions


def generate_pack(seed: int = 0, base: ShopPack | None = None) -> ShopPack:
    """The shop the generator draws for ``seed``: the catalogue drawn, the rest from ``base``.

    Products, SKUs (prices, stock) and promotions are drawn from the vocabulary; the shipping
    classes are the vocabulary's regions; coupons, shipping, returns, rules and the policy texts
    are ``base``'s (the built-in pack when None). ``generate_pack(0)`` is the built-in pack.
    """
    shop = base if base is not None else builtin_pack()
    products, skus, promotions = _catalogue(seed)
    return ShopPack(
        manifest=shop.manifest.model_copy(update={"seed": seed}),
        policy=shop.policy,
        products=tuple(products),
        skus=tuple(skus),
        promotions=tuple(promotions),
        coupons=shop.coupons,
        regions=tuple(RegionClass(region_class=k, regions=list(v)) for k, v in REGIONS.items()),
        shipping=shop.shipping,
        returns=shop.returns,
        rules=shop.rules,
    )


def kb_from_pack(pack: ShopPack) -> KnowledgeBase:
    """A knowledge base holding ``pack``'s records (a hand-written pack's seed counts as -1)."""
    db = sqlite3.connect(":memory:", check_same_thread=False)
    write_tables(db, pack)
    seed = pack.manifest.seed
    return KnowledgeBase(db, -1 if seed is None else seed, pack)


def load_kb(folder: str | Path) -> KnowledgeBase:
    """The knowledge base of the shop (data pack) at ``folder``.

    Raises:
        PackError: the folder does not validate (one line per problem in ``problems``).
    """
    return kb_from_pack(read_pack(folder))


@lru_cache(maxsize=1)
def builtin_pack() -> ShopPack:
    """The built-in shop, read from the package (``hat_eval/world/shop``); cached."""
    return read_pack(builtin_pack_dir())


def build_kb(seed: int = 0) -> KnowledgeBase:
    """The knowledge base for ``seed``: the built-in shop for 0 (cached), else generated.

    The same seed always gives the same database. The result is read-only by convention:
    every caller of the cached default build shares one connection.
    """
    if seed == 0:
        return _default_kb()
    return kb_from_pack(generate_pack(seed))


@lru_cache(maxsize=1)
def _default_kb() -> KnowledgeBase:
    return kb_from_pack(builtin_pack())
