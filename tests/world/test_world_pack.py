"""The shop as a data pack: the shipped one validates and is what the generator writes; broken
packs give one line per problem naming the file, the record and the field."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import replace
from datetime import datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hat_eval.cli._app import app
from hat_eval.world import (
    PackError,
    build_kb,
    builtin_pack,
    builtin_pack_dir,
    check_pack,
    generate_pack,
    kb_from_pack,
    load_kb,
    pack_problems,
    read_pack,
    write_pack,
)
from hat_eval.world._pack import pack_files
from hat_eval.world._pricing import compute_final_price
from hat_eval.world._schema import MANIFEST_FILE, POLICY_FILE, RECORD_FILES


def _dump(kb) -> str:
    return hashlib.sha256("\n".join(kb.iterdump()).encode()).hexdigest()


def test_shipped_pack_validates_and_holds_the_shop():
    assert check_pack(builtin_pack_dir()) == []
    pack = builtin_pack()
    assert len(pack.products) == 640
    assert {c.code for c in pack.coupons} >= {"LIVE20", "STYLE30"}
    assert pack.manifest.currency == "CNY"


def test_generated_default_pack_is_byte_identical_to_the_shipped_one():
    shipped = {p.name: p.read_text(encoding="utf-8") for p in builtin_pack_dir().iterdir()}
    assert pack_files(generate_pack(0)) == shipped


def test_pack_written_and_read_back_gives_the_same_database(tmp_path):
    write_pack(generate_pack(3), tmp_path / "shop")
    assert check_pack(tmp_path / "shop") == []
    assert _dump(load_kb(tmp_path / "shop")) == _dump(build_kb(3))
    assert _dump(kb_from_pack(builtin_pack())) == _dump(build_kb(0))


# -- broken packs ---------------------------------------------------------------------------------
@pytest.fixture
def small_pack(tmp_path) -> Path:
    """A valid pack of one product per category (the shop-wide tables of the built-in one)."""
    full = builtin_pack()
    firsts = {}
    for p in full.products:
        firsts.setdefault(p.category, p)
    ids = {p.id for p in firsts.values()}
    pack = replace(
        full,
        products=tuple(firsts.values()),
        skus=tuple(s for s in full.skus if s.product_id in ids),
        promotions=tuple(p for p in full.promotions if p.product_id in ids),
        lines={},
    )
    folder = write_pack(pack, tmp_path / "small")
    assert check_pack(folder) == []
    return folder


def _edit(folder: Path, file: str, index: int, **changes) -> str:
    """Set fields of the record on line ``index + 1`` of ``file`` (None: drop the field)."""
    path = folder / file
    rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
    for key, value in changes.items():
        if value is None:
            del rows[index][key]
        else:
            rows[index][key] = value
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    return str(rows[index].get("id") or rows[index].get("sku") or rows[index].get("code"))


def _one(folder: Path) -> str:
    problems = check_pack(folder)
    assert len(problems) == 1, problems
    return problems[0]


def test_sku_of_an_unknown_product(small_pack):
    sku = _edit(small_pack, "skus.jsonl", 2, product_id="P9999")
    line = _one(small_pack)
    assert line.startswith(f"{small_pack / 'skus.jsonl'}:3 ({sku}): product_id: 'P9999'")
    assert "expected the id of a record in products.jsonl" in line


def test_promotion_ending_before_it_starts(small_pack):
    promo = _edit(small_pack, "promotions.jsonl", 0, ends_at="2026-10-01T00:00:00+08:00")
    line = _one(small_pack)
    assert f"promotions.jsonl:1 ({promo}): ends_at: 2026-10-01T00:00:00+08:00 is before" in line
    assert "expected an end at or after the start" in line


def test_promotion_of_an_unknown_product(small_pack):
    promo = _edit(small_pack, "promotions.jsonl", 1, product_id="P0639")
    assert f"promotions.jsonl:2 ({promo}): product_id: 'P0639' is not a product" in _one(small_pack)


def test_coupon_stacking_with_an_unknown_coupon_or_itself(small_pack):
    _edit(small_pack, "coupons.jsonl", 0, stacks_with=["STYLE30", "NOPE"])
    line = _one(small_pack)
    assert "coupons.jsonl:1 (LIVE20): stacks_with.1: 'NOPE' is not a coupon" in line
    _edit(small_pack, "coupons.jsonl", 0, stacks_with=["LIVE20"])
    line = _one(small_pack)
    assert "coupons.jsonl:1 (LIVE20): stacks_with.0: a coupon cannot stack with itself" in line


def test_region_in_two_shipping_classes(small_pack):
    rows = (small_pack / "regions.jsonl").read_text(encoding="utf-8").splitlines()
    first = json.loads(rows[0])["regions"][0]
    regions = json.loads(rows[1])["regions"]
    _edit(small_pack, "regions.jsonl", 1, regions=[*regions, first])
    line = _one(small_pack)
    assert f"regions.jsonl:2 (mainland): regions.{len(regions)}: {first!r} is already in" in line
    assert "expected each region in one shipping class" in line


def test_shipping_row_of_an_unknown_class_names_its_line(small_pack):
    _edit(small_pack, "shipping.jsonl", 5, region_class="moon")
    problems = check_pack(small_pack)
    assert (
        "shipping.jsonl:6 (beauty/moon): region_class: 'moon' is not a shipping class"
        in (problems[0])
    )
    assert "no row for region class" in problems[1]  # the class beauty lost


def test_missing_record_kind(small_pack):
    (small_pack / "rules.jsonl").unlink()
    line = _one(small_pack)
    assert line.startswith(f"{small_pack / 'rules.jsonl'}: missing, expected every record kind")


def test_missing_field_and_wrong_type(small_pack):
    sku = _edit(small_pack, "skus.jsonl", 0, stock=None)
    assert f"skus.jsonl:1 ({sku}): stock: missing" in _one(small_pack)
    _edit(small_pack, "skus.jsonl", 0, stock="many")
    line = _one(small_pack)
    assert f"skus.jsonl:1 ({sku}): stock: " in line and "'many'" in line


def test_malformed_json_line(small_pack):
    path = small_pack / "coupons.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[4] = lines[4][:-1]  # the closing brace gone
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    line = _one(small_pack)
    assert "coupons.jsonl:5 (row 5): not valid JSON" in line
    assert "expected one JSON object a line" in line


def test_read_pack_raises_with_the_problems(small_pack):
    _edit(small_pack, "skus.jsonl", 0, product_id="P9999")
    with pytest.raises(PackError, match=r"product_id: 'P9999'.*hat-eval shop validate") as err:
        read_pack(small_pack)
    assert len(err.value.problems) == 1


def test_each_problem_is_a_typed_record_that_prints_as_its_line(small_pack):
    sku = _edit(small_pack, "skus.jsonl", 0, stock="many")
    (problem,) = pack_problems(small_pack)
    assert (problem.file, problem.line, problem.record, problem.field) == (
        str(small_pack / "skus.jsonl"),
        1,
        sku,
        "stock",
    )
    assert problem.what == "" and problem.expected.startswith("a valid integer")
    assert problem.given == " (got 'many')"
    assert check_pack(small_pack) == [str(problem)]
    assert str(problem).startswith(f"{small_pack / 'skus.jsonl'}:1 ({sku}): stock: expected a")


def test_a_problem_of_shop_yaml_names_a_folder_called_shop(small_pack, tmp_path, monkeypatch):
    folder = small_pack.rename(tmp_path / "shop")
    manifest = folder / MANIFEST_FILE
    manifest.write_text(manifest.read_text(encoding="utf-8") + "colour: red\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    (problem,) = pack_problems("shop")
    assert (problem.file, problem.field) == ("shop/shop.yaml", "colour")


def test_every_file_is_required():
    assert set(pack_files(builtin_pack())) == {MANIFEST_FILE, POLICY_FILE, *RECORD_FILES}


# -- what the records mean ------------------------------------------------------------------------
def test_coupons_that_do_not_stack_reject_the_one_saving_less():
    full = builtin_pack()
    kb = build_kb()
    product = next(
        p for p in kb.products() if p["category"] == "apparel" and not kb.promotions(p["id"])
    )
    sku = max(kb.skus(product["id"]), key=lambda s: s["list_price"])
    now = datetime.fromisoformat("2026-11-20T12:00:00+08:00")
    both = compute_final_price(kb, sku=sku, quantity=3, coupon_codes=["STYLE30", "LIVE20"], now=now)
    assert [d["code"] for d in both["discounts"]] == ["STYLE30", "LIVE20"]
    coupons = tuple(
        c.model_copy(update={"stacks_with": [x for x in c.stacks_with if x != "LIVE20"]})
        if c.code == "STYLE30"
        else c
        for c in full.coupons
    )
    apart = kb_from_pack(replace(full, coupons=coupons))
    res = compute_final_price(
        apart, sku=sku, quantity=3, coupon_codes=["STYLE30", "LIVE20"], now=now
    )
    assert [d["code"] for d in res["discounts"]] == ["STYLE30"]
    assert res["rejected_coupons"] == [
        {"code": "LIVE20", "reason": "cannot be combined with STYLE30, which saves more"}
    ]


# -- the command ----------------------------------------------------------------------------------
def test_cli_validate_and_build(small_pack, tmp_path):
    runner = CliRunner()
    ok = runner.invoke(app, ["world", "validate", str(small_pack)])
    assert ok.exit_code == 0, ok.output
    assert "valid: hat-eval live shop" in ok.output
    _edit(small_pack, "skus.jsonl", 0, product_id="P9999")
    bad = runner.invoke(app, ["world", "validate", str(small_pack)])
    assert bad.exit_code == 2
    assert bad.output.count("error: ") == 1 and "product_id: 'P9999'" in bad.output
    built = runner.invoke(app, ["world", "build", "--seed", "3", "--out", str(tmp_path / "s3")])
    assert built.exit_code == 0, built.output
    assert check_pack(tmp_path / "s3") == []
    assert runner.invoke(app, ["world", "build"]).exit_code == 2
    seeded = runner.invoke(app, ["world", "build", "--splits", "--seed", "3"])
    assert seeded.exit_code == 2 and "built-in shop (seed 0)" in seeded.output
    builtin = runner.invoke(app, ["world", "validate"])
    assert builtin.exit_code == 0 and "640 products" in builtin.output
    clash = runner.invoke(app, ["world", "build", "--out", str(small_pack / "shop.yaml")])
    assert clash.exit_code == 2 and "a file, expected a folder" in clash.output


def test_compliance_bait_verbs_are_the_shops_medical_rule():
    from hat_eval.world._cases.compliance_bait import _medical_verbs

    verbs = _medical_verbs()
    assert verbs.startswith(r"\b(?:cures?|") and verbs.endswith(r")\b")
    assert re.fullmatch(verbs, "treats") and re.fullmatch(verbs, "gets rid of")
