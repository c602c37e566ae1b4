"""The vocabulary is package data (``hat_eval/world/vocab/*.yaml``) read into typed records."""

from __future__ import annotations

import re

import pytest
import yaml
from pydantic import ValidationError

from hat_eval._datafile import DataFileError, load_model
from hat_eval.world import _vocab
from hat_eval.world._vocab import (
    BRANDS,
    CATEGORIES,
    CATEGORY_ZH,
    COLOURS,
    PRODUCTS_PER_TYPE,
    REGION_ALIASES,
    REGIONS,
    SIZE_CHART,
    TYPES,
    WAREHOUSES,
    Option,
    ProductType,
    vocabulary,
)


def test_tables_are_typed_and_complete() -> None:
    assert len(CATEGORIES) == 8
    assert list(TYPES) == list(BRANDS) == list(CATEGORY_ZH) == list(CATEGORIES)
    assert len({t.key for ts in TYPES.values() for t in ts}) == 8 * 8
    for cat, types in TYPES.items():
        assert len(types) == 8 and len(BRANDS[cat]) >= PRODUCTS_PER_TYPE
        for t in types:
            assert isinstance(t, ProductType) and t.options
            assert len(t.lines) >= PRODUCTS_PER_TYPE
            assert all(isinstance(o, Option) and isinstance(o.code, str) for o in t.options)
            assert all(isinstance(p, int | float) for p in t.price) and t.price[0] < t.price[1]
            assert t.colours <= len(COLOURS)
    assert all(isinstance(r, tuple) for ranges in SIZE_CHART.values() for r in ranges.values())
    assert {p for places in REGIONS.values() for p in places} >= set(REGION_ALIASES)
    assert WAREHOUSES and all(isinstance(w, str) for w in WAREHOUSES)


def test_shared_option_sets_and_common_lines() -> None:
    hoodie, tshirt = TYPES["apparel"][0], TYPES["apparel"][1]
    assert [o.label for o in hoodie.options] == ["S", "M", "L", "XL"]
    assert [o.label for o in tshirt.options] == ["S", "M", "L", "XL", "XXL"]
    assert hoodie.options[0] is tshirt.options[0]  # one shared set
    assert hoodie.lines[:4] == ("Heavyweight", "Fleece", "Zip-Up", "Oversized")
    assert hoodie.lines[4:] == tshirt.lines[4:]  # the category's common lines, appended
    assert [o.code for o in TYPES["apparel"][6].options][:2] == ["36", "37"]  # quoted numbers


def test_read_once_and_only_on_first_use() -> None:
    assert vocabulary() is vocabulary()
    assert _vocab.TYPES is TYPES
    with pytest.raises(AttributeError, match="no attribute 'NOPE'"):
        _vocab.NOPE  # noqa: B018
    assert "TYPES" not in vars(_vocab)  # served from the cached read, not set at import


SETS = {"sizes": (Option(label="S", code="S", zh="S码"), Option(label="M", code="M", zh="M码"))}


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ({"set": "shoes"}, "options.set: 'shoes' is unknown, expected one of sizes"),
        (
            {"set": "sizes", "labels": ["XL"]},
            "'XL' is unknown, expected a label of option set sizes",
        ),
        ({"set": "sizes", "take": 2}, "options.set.take: unknown key"),
        ([{"label": "EU 36", "code": 36}], "options.list[0].code: Input should be a valid string"),
        ([{"label": "30 ml", "code": "30ML", "price_factor": 0}], "greater than 0"),
        ([{"code": "30ML"}], "options.list[0].label: missing"),
    ],
)
def test_bad_options_name_the_file_and_field(tmp_path, value: object, words: str) -> None:
    path = tmp_path / "beauty.yaml"
    path.write_text(yaml.safe_dump({**_TYPE, "options": value}), encoding="utf-8")
    with pytest.raises(DataFileError, match=r"beauty\.yaml: (types\[0\]\.)?options") as err:
        t = load_model(path, _vocab._TypeFile)
        _vocab._options(path, "types[0].options", t.options, SETS)
    assert words in str(err.value)


_TYPE = {
    "key": "mask",
    "en": "Mask",
    "zh": "面膜",
    "description": "a mask",
    "price": [10, 20],
    "axis": "single",
    "options": [{"label": "Standard", "code": "STD"}],
    "colours": 0,
    "material_label": "material",
    "materials": ["cotton"],
    "specs": {"size": ["25 ml"]},
    "lines": ["A", "B", "C", "D"],
}


def test_bad_product_type_fields(tmp_path) -> None:
    path = tmp_path / "x.yaml"
    category = _vocab._CategoryFile(zh="美妆", brands=[], types=[], common_lines=["E"])
    t = _vocab._product_type(path, "types[0]", _vocab._TypeFile(**_TYPE), category, SETS)
    assert t.lines == ("A", "B", "C", "D", "E") and t.specs == (("size", ("25 ml",)),)
    assert t.price == (10, 20) and all(type(p) is int for p in t.price)
    for change, words in [
        ({"price": [20, 10]}, "price: [20, 10] runs backwards, expected [low, high]"),
        ({"sized": "yes"}, "sized: Input should be a valid boolean"),
        ({"colours": 1.5}, "colours: Input should be a valid integer"),
        ({"materials": "cotton"}, "materials: Input should be a valid list"),
    ]:
        path.write_text(yaml.safe_dump({**_TYPE, **change}), encoding="utf-8")
        with pytest.raises(DataFileError, match=re.escape(words)):
            load_model(path, _vocab._TypeFile)


def test_chinese_forms_of_attribute_values() -> None:
    from hat_eval.world._vocab import zh_forms

    assert zh_forms("high rise", "apparel")[0] == "高腰"
    assert zh_forms("Hainan", "food") == ("海南",)
    assert zh_forms("24 months", "baby")[0] == "24个月"
    assert zh_forms("80% cotton", "apparel")[0] == "80%棉"
    assert "纯棉" in zh_forms("100% cotton", "apparel")
    assert zh_forms("12 x 16 mm", "jewellery")[0] == "12x16毫米"
    assert zh_forms("unworn and unwashed")[0] == "未穿着未洗涤"
    assert zh_forms("moon dust", "apparel") == ()
    with pytest.raises(ValidationError, match=r"terms\.silk\n.*'silk'.*expected Chinese forms"):
        _vocab._CategoryFile(zh="服饰", brands=[], types=[], terms={"silk": "silk"})
