"""A shop pack written into SQLite: the tables of the knowledge base, one row per record."""

from __future__ import annotations

import json
import sqlite3
from importlib.resources import files

from ._pack import ShopPack


def write_tables(db: sqlite3.Connection, pack: ShopPack) -> None:
    """Create the tables in ``db`` and insert ``pack``'s records (in pack order), then commit.

    The tables are ``world/schema.sql``. A table's columns are fields of its record model (the
    pack's records of the same name), in the table's column order; lists and mappings are stored
    as JSON text.
    """
    m = pack.manifest
    db.executescript(files("hat_eval.world").joinpath("schema.sql").read_text(encoding="utf-8"))
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
