import hashlib
import json
import os
import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from hat_eval.world import SPLITS, LiveSession, build_kb, generate_cases
from hat_eval.world._session import Deal
from hat_eval.world._splits import split_products
from hat_eval.world._vocab import CATEGORIES

ROOT = Path(__file__).resolve().parents[2]


def _dump_digest(seed: int) -> str:
    kb = build_kb(seed)
    return hashlib.sha256("\n".join(kb.iterdump()).encode()).hexdigest()


def test_same_seed_same_database_and_other_seed_differs():
    assert _dump_digest(3) == _dump_digest(3)
    assert "\n".join(build_kb(0).iterdump()) == "\n".join(build_kb(0).iterdump())
    assert _dump_digest(3) != _dump_digest(4)


def test_build_is_fast():
    start = time.perf_counter()
    build_kb(99)
    assert time.perf_counter() - start < 1.0


_SCRIPT = """
import hashlib, json
from hat_eval.world import build_kb, generate_cases
kb = build_kb(0)
dump = hashlib.sha256("\\n".join(kb.iterdump()).encode()).hexdigest()
cases = generate_cases(kb, split="dev", n=300, seed=5)
blob = json.dumps([c.to_dict() for c in cases], sort_keys=True, ensure_ascii=False)
print(dump, hashlib.sha256(blob.encode()).hexdigest())
"""


def test_kb_and_cases_do_not_depend_on_pythonhashseed():
    outputs = set()
    for hashseed in ("0", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": hashseed}
        run = subprocess.run(
            [sys.executable, "-c", _SCRIPT],
            env=env,
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
        )
        outputs.add(run.stdout.strip())
    kb = build_kb(0)
    here = hashlib.sha256("\n".join(kb.iterdump()).encode()).hexdigest()
    blob = json.dumps(
        [c.to_dict() for c in generate_cases(kb, split="dev", n=300, seed=5)],
        sort_keys=True,
        ensure_ascii=False,
    )
    outputs.add(f"{here} {hashlib.sha256(blob.encode()).hexdigest()}")
    assert len(outputs) == 1


def test_catalogue_size_categories_and_ids():
    kb = build_kb()
    products = kb.products()
    assert len(products) >= 240
    assert Counter(p["category"] for p in products).keys() == set(CATEGORIES)
    assert all(re.fullmatch(r"P\d{4}", p["id"]) for p in products)
    assert len({p["name"] for p in products}) == len(products)
    assert all(p["name_zh"] and re.search(r"[\u4e00-\u9fff]", p["name_zh"]) for p in products)
    for p in products:
        for s in kb.skus(p["id"]):
            assert re.fullmatch(rf"{p['id']}(-[A-Z0-9]+)+", s["sku"]), s["sku"]
            assert round(s["list_price"], 2) == s["list_price"] and s["list_price"] > 0


def test_apparel_sizes_shoes_eu_and_variants():
    kb = build_kb()
    hoodie = next(p for p in kb.products() if p["type_key"] == "hoodie")
    assert {"S", "M", "L", "XL"} <= {s["option"] for s in kb.skus(hoodie["id"])}
    assert "size chart" in hoodie["specs"]
    shoes = next(p for p in kb.products() if p["type_key"] == "running_shoes")
    assert all(s["option"].startswith("EU ") for s in kb.skus(shoes["id"]))
    cream = next(p for p in kb.products() if p["type_key"] == "face_cream")
    assert {s["option"] for s in kb.skus(cream["id"])} == {"30 ml", "50 ml"}


def test_prices_are_realistic_per_category():
    kb = build_kb()
    by_cat: dict[str, list[float]] = {}
    for p in kb.products():
        by_cat.setdefault(p["category"], []).extend(s["list_price"] for s in kb.skus(p["id"]))
    assert max(by_cat["food"]) < 1000 < max(by_cat["jewellery"])
    assert min(by_cat["electronics"]) > 50
    assert (
        sorted(by_cat["food"])[len(by_cat["food"]) // 2]
        < sorted(by_cat["electronics"])[len(by_cat["electronics"]) // 2]
    )


def test_stock_has_sold_out_and_low_skus():
    kb = build_kb()
    stocks = [s["stock"] for p in kb.products() for s in kb.skus(p["id"])]
    assert any(n == 0 for n in stocks)
    assert any(0 < n < 10 for n in stocks)
    assert any(n >= 10 for n in stocks)


def test_offers_policies_and_rules_present():
    kb = build_kb()
    promos = kb.query("SELECT * FROM promotions")
    assert {p["kind"] for p in promos} == {"percent", "fixed"}
    assert kb.coupon("LIVE20")["threshold"] == 199
    assert {c["issuer"] for c in kb.coupons()} == {"platform", "shop"}
    assert any(not c["stacks_with_promotion"] for c in kb.coupons())
    for cat in CATEGORIES:
        assert [r["region_class"] for r in kb.shipping(cat)] == [
            "metro",
            "mainland",
            "remote",
            "hk_mo_tw",
        ]
        assert kb.returns(cat)["window_days"] in (7, 15)
        kinds = {r["kind"] for r in kb.rules(cat)}
        assert {"absolute", "comparative"} <= kinds
    for cat in ("beauty", "food", "baby"):
        assert "medical" in {r["kind"] for r in kb.rules(cat)}
    assert "medical" not in {r["kind"] for r in kb.rules("electronics")}
    assert any(p["custom"] for p in kb.products() if p["category"] == "jewellery")


def test_splits_disjoint_fixed_and_cover_categories():
    kb = build_kb()
    parts = {s: split_products(kb, s) for s in SPLITS}
    assert sum(len(v) for v in parts.values()) == len(kb.products())
    assert not set(parts["train"]) & set(parts["dev"])
    assert not set(parts["train"]) & set(parts["test"])
    assert not set(parts["dev"]) & set(parts["test"])
    for s, ids in parts.items():
        assert {kb.product(i)["category"] for i in ids} == set(CATEGORIES), s
    assert 0.55 < len(parts["train"]) / len(kb.products()) < 0.7
    assert split_products(build_kb(7), "test") == split_products(build_kb(7), "test")
    with pytest.raises(ValueError, match="expected one of"):
        split_products(kb, "val")  # type: ignore[arg-type]


def test_live_session_roundtrip_and_validation():
    session = LiveSession(
        "P0001",
        "2026-11-11T20:00:00+08:00",
        [{"product_id": "P0001", "promotion_id": "PR0001", "ends_at": "2026-11-12T23:59:59+08:00"}],
    )  # type: ignore[list-item]
    assert session.deals == (Deal("P0001", "PR0001", "2026-11-12T23:59:59+08:00"),)
    assert LiveSession.from_dict(json.loads(json.dumps(session.to_dict()))) == session
    with pytest.raises(ValueError, match="ISO datetime"):
        LiveSession("P0001", "tomorrow")
    with pytest.raises(ValueError, match="offset"):
        LiveSession("P0001", "2026-11-11T20:00:00")
