"""The vocabulary is package data (``hat_eval/world/vocab/*.yaml``) read into typed records."""

from __future__ import annotations

import re

import pytest

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


SETS = {"sizes": (Option("S", "S", 1.0, "S码"), Option("M", "M", 1.0, "M码"))}


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ({"set": "shoes"}, "options.set: got 'shoes', expected one of sizes"),
        ({"set": "sizes", "labels": ["XL"]}, "got 'XL', expected a label of option set sizes"),
        ({"set": "sizes", "take": 2}, "options.take: got 2, expected only labels, set"),
        ([{"label": "EU 36", "code": 36}], "options.0.code: got 36, expected a string (quote"),
        ([{"label": "30 ml", "code": "30ML", "price_factor": "1.5"}], "a positive number"),
        ([{"code": "30ML"}], "expected the field(s) label too"),
    ],
)
def test_bad_options_name_the_file_and_field(value: object, words: str) -> None:
    with pytest.raises(ValueError, match=r"^vocab/beauty\.yaml: types\.0\.options") as err:
        _vocab._options(value, "beauty.yaml: types.0.options", SETS)
    assert words in str(err.value)


def test_bad_product_type_fields() -> None:
    good = {
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
    t = _vocab._product_type(good, "x.yaml: types.0", SETS, ("E",))
    assert t.lines == ("A", "B", "C", "D", "E") and t.specs == (("size", ("25 ml",)),)
    for change, words in [
        ({"price": [20, 10]}, "types.0.price: got [20, 10], expected [low, high]"),
        ({"sized": "yes"}, "types.0.sized: got 'yes', expected true or false"),
        ({"colours": 1.5}, "types.0.colours: got 1.5, expected a whole number"),
        ({"materials": "cotton"}, "types.0.materials: got 'cotton', expected a list"),
    ]:
        with pytest.raises(ValueError, match=re.escape(words)):
            _vocab._product_type({**good, **change}, "x.yaml: types.0", SETS, ())


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
    with pytest.raises(ValueError, match=r"terms\.silk: got 'silk', expected Chinese forms"):
        _vocab._terms({"silk": "silk"}, "apparel.yaml: terms")
