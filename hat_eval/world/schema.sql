-- The knowledge base's SQLite tables, one row per record of a shop pack; written by
-- hat_eval/world/_sqlite.py (a table's columns are fields of its record model, in this order).
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
