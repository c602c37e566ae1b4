"""A shop pack written into SQLite: the tables of the knowledge base, one row per record."""

from __future__ import annotations

import json
import sqlite3

from ._pack import ShopPack
from ._schema import Coupon, Product, Promotion, Returns, Rule, Shipping, Sku

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE products (
    id TEXT PRIMARY KEY, category TEXT NOT NULL, type_key TEXT NOT NULL, type_name TEXT NOT NULL,
    type_zh TEXT NOT NULL, brand TEXT NOT NULL, line TEXT NOT NULL, name TEXT NOT NULL UNIQUE,
    name_zh TEXT NOT NULL, description TEXT NOT NULL, material_label TEXT NOT NULL,
    material TEXT NOT NULL, specs TEXT NOT NULL, variant_axis TEXT NOT NULL,
    custom INTEGER NOT NULL, ships_from TEXT NOT NULL);
CREATE TABLE skus (
    sku TEXT PRIMARY KEY, product_id TEXT NOT NULL REFERENCES products(id), position INTEGER,
    option TEXT NOT NULL, option_zh TEXT NOT NULL, colour TEXT, colour_zh TEXT,
    list_price REAL NOT NULL, stock INTEGER NOT NULL);
CREATE INDEX skus_product ON skus(product_id);
CREATE TABLE promotions (
    id TEXT PRIMARY KEY, product_id TEXT NOT NULL REFERENCES products(id), kind TEXT NOT NULL,
    value REAL NOT NULL, label TEXT NOT NULL, live_only INTEGER NOT NULL,
    starts_at TEXT NOT NULL, ends_at TEXT NOT NULL);
CREATE INDEX promotions_product ON promotions(product_id);
CREATE TABLE coupons (
    code TEXT PRIMARY KEY, issuer TEXT NOT NULL, kind TEXT NOT NULL, value REAL NOT NULL,
    threshold REAL NOT NULL, cap REAL, category TEXT, starts_at TEXT NOT NULL,
    ends_at TEXT NOT NULL, stacks_with_promotion INTEGER NOT NULL, label TEXT NOT NULL);
CREATE TABLE shipping (
    category TEXT NOT NULL, region_class TEXT NOT NULL, available INTEGER NOT NULL,
    days_min INTEGER NOT NULL, days_max INTEGER NOT NULL, fee REAL NOT NULL, free_over REAL,
    PRIMARY KEY (category, region_class));
CREATE TABLE returns (
    category TEXT PRIMARY KEY, window_days INTEGER NOT NULL, conditions TEXT NOT NULL,
    return_shipping TEXT NOT NULL, exchange_days INTEGER, warranty TEXT);
CREATE TABLE rules (
    id TEXT PRIMARY KEY, kind TEXT NOT NULL, categories TEXT NOT NULL, patterns TEXT NOT NULL,
    reason TEXT NOT NULL);
"""


def write_tables(db: sqlite3.Connection, pack: ShopPack) -> None:
    """Create the tables in ``db`` and insert ``pack``'s records (in pack order), then commit."""
    m = pack.manifest
    db.executescript(_SCHEMA)
    db.execute("INSERT INTO meta VALUES ('seed', ?)", (str(m.seed),))
    db.execute("INSERT INTO meta VALUES ('currency', ?)", (m.currency,))
    db.execute("INSERT INTO meta VALUES ('timezone', ?)", (m.timezone,))
    db.executemany(
        "INSERT INTO products VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        [_product_row(p) for p in pack.products],
    )
    db.executemany("INSERT INTO skus VALUES (?,?,?,?,?,?,?,?,?)", [_sku_row(s) for s in pack.skus])
    db.executemany(
        "INSERT INTO promotions VALUES (?,?,?,?,?,?,?,?)",
        [_promotion_row(p) for p in pack.promotions],
    )
    db.executemany(
        "INSERT INTO coupons VALUES (?,?,?,?,?,?,?,?,?,?,?)", [_coupon_row(c) for c in pack.coupons]
    )
    db.executemany(
        "INSERT INTO shipping VALUES (?,?,?,?,?,?,?)", [_shipping_row(s) for s in pack.shipping]
    )
    db.executemany(
        "INSERT INTO returns VALUES (?,?,?,?,?,?)", [_returns_row(r) for r in pack.returns]
    )
    db.executemany("INSERT INTO rules VALUES (?,?,?,?,?)", [_rule_row(r) for r in pack.rules])
    db.commit()


def _product_row(p: Product) -> tuple[object, ...]:
    return (
        p.id,
        p.category,
        p.type_key,
        p.type_name,
        p.type_zh,
        p.brand,
        p.line,
        p.name,
        p.name_zh,
        p.description,
        p.material_label,
        p.material,
        json.dumps(p.specs, ensure_ascii=False, sort_keys=True),
        p.variant_axis,
        int(p.custom),
        p.ships_from,
    )


def _sku_row(s: Sku) -> tuple[object, ...]:
    return (
        s.sku,
        s.product_id,
        s.position,
        s.option,
        s.option_zh,
        s.colour,
        s.colour_zh,
        s.list_price,
        s.stock,
    )


def _promotion_row(p: Promotion) -> tuple[object, ...]:
    return (p.id, p.product_id, p.kind, p.value, p.label, int(p.live_only), p.starts_at, p.ends_at)


def _coupon_row(c: Coupon) -> tuple[object, ...]:
    return (
        c.code,
        c.issuer,
        c.kind,
        c.value,
        c.threshold,
        c.cap,
        c.category,
        c.starts_at,
        c.ends_at,
        int(c.stacks_with_promotion),
        c.label,
    )


def _shipping_row(s: Shipping) -> tuple[object, ...]:
    return (
        s.category,
        s.region_class,
        int(s.available),
        s.days_min,
        s.days_max,
        s.fee,
        s.free_over,
    )


def _returns_row(r: Returns) -> tuple[object, ...]:
    return (
        r.category,
        r.window_days,
        json.dumps(r.conditions),
        r.return_shipping,
        r.exchange_days,
        r.warranty,
    )


def _rule_row(r: Rule) -> tuple[object, ...]:
    return (
        r.id,
        r.kind,
        json.dumps(r.categories),
        json.dumps(r.patterns, ensure_ascii=False),
        r.reason,
    )
