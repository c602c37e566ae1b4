"""A shop pack written into SQLite: the tables of the knowledge base, one row per record."""

from __future__ import annotations

import json
import sqlite3

from ._pack import ShopPack

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
    """Create the tables in ``db`` and insert ``pack``'s records (in pack order), then commit.

    A table's columns are fields of its record model (the pack's records of the same name), in
    the table's column order; lists and mappings are stored as JSON text.
    """
    m = pack.manifest
    db.executescript(_SCHEMA)
    db.executemany(
        "INSERT INTO meta VALUES (?, ?)",
        [("seed", str(m.seed)), ("currency", m.currency), ("timezone", m.timezone)],
    )
    for table in ("products", "skus", "promotions", "coupons", "shipping", "returns", "rules"):
        columns = [row[1] for row in db.execute(f"PRAGMA table_info({table})")]
        db.executemany(
            f"INSERT INTO {table} VALUES ({', '.join('?' * len(columns))})",
            [tuple(_cell(getattr(r, c)) for c in columns) for r in getattr(pack, table)],
        )
    db.commit()


def _cell(value: object) -> object:
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    return value
