"""The message templates are YAML package data, read once and checked: a bad file is one line."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable
from importlib.resources import as_file, files
from pathlib import Path
from typing import Any

import pytest
import yaml

from hat_eval._datafile import DataFileError, key_path
from hat_eval.world._templates import REGISTERS, load_templates, message_templates
from hat_eval.world._vocab import TYPES

SHIPPED = files("hat_eval.world").joinpath("templates")


def _copy(tmp_path: Path) -> Path:
    with as_file(SHIPPED) as folder:
        for register in REGISTERS:
            shutil.copy(Path(folder) / f"{register}.yaml", tmp_path / f"{register}.yaml")
    return tmp_path


def _edit(path: Path, change: Callable[[dict[str, Any]], None]) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


def test_shipped_templates_validate_and_cover_every_register() -> None:
    t = load_templates()
    for group in (t.price, t.stacking, t.out_of_scope, t.chit_chat, *t.compliance.values()):
        assert list(group) == list(REGISTERS)
        assert all(group[r] for r in REGISTERS)
    assert set(t.escalation) == {"order", "safety"}
    assert any(x.startswith("zh|") for x in t.price["zh"])
    assert not any(x.startswith("zh|") for r in ("en", "slang") for x in t.price[r])


def test_every_product_type_of_the_vocabulary_has_nouns() -> None:
    nouns = message_templates().nouns
    for types in TYPES.values():
        for pt in types:
            english, chinese = nouns[pt.key]
            assert english and chinese


def test_slot_values_pair_english_with_chinese_in_file_order() -> None:
    slots = message_templates().oos_slots
    assert slots["day"][0] == ("tomorrow", "明天")
    assert slots["race"][0] == ("next election", "")  # no Chinese form: empty
    assert list(slots)[:3] == ["day", "week", "race"]  # draw order is file order


def test_loading_is_cached() -> None:
    assert message_templates() is message_templates()
    assert message_templates.cache_info().currsize == 1


def test_importing_the_world_reads_no_template() -> None:
    code = (
        "import hat_eval.world, hat_eval.world._templates as t;"
        "print(t.message_templates.cache_info().currsize)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "0"


def _drop_price(d: dict[str, Any]) -> None:
    del d["price"]


def _empty_family(d: dict[str, Any]) -> None:
    d["compliance"]["medical"] = []


def _unknown_slot(d: dict[str, Any]) -> None:
    d["price"][0] = "zh|{prise}多少钱?"


def _wrong_type(d: dict[str, Any]) -> None:
    d["emoji"] = "😍"


def _number_template(d: dict[str, Any]) -> None:
    d["stock"][2] = 5


def _unknown_key(d: dict[str, Any]) -> None:
    d["prices"] = ["How much?"]


def _unknown_value(d: dict[str, Any]) -> None:
    d["slot_values"]["day"]["tomorow"] = "明天"


def _zh_outside_zh(d: dict[str, Any]) -> None:
    d["price"].append("zh|{item_zh}多少钱?")


def _open_brace(d: dict[str, Any]) -> None:
    d["multi"]["price_stock"][1] = "How much is {item"


def _missing_noun(d: dict[str, Any]) -> None:
    del d["nouns"]["hoodie"]


@pytest.mark.parametrize(
    ("file", "change", "key", "says"),
    [
        ("en.yaml", _drop_price, "price", "missing"),
        ("slang.yaml", _empty_family, "compliance.medical", "empty; expected at least one entry"),
        ("zh.yaml", _unknown_slot, "price[0]", "unknown slot {prise}; expected one of a, attr"),
        ("en.yaml", _wrong_type, "emoji", "valid list, got '😍'"),
        ("en.yaml", _number_template, "stock[2]", "valid string, got 5"),
        ("slang.yaml", _unknown_key, "prices", "unknown key; expected one of price"),
        ("zh.yaml", _unknown_value, "slot_values.day.tomorow", "expected one of tomorrow"),
        ("slang.yaml", _zh_outside_zh, "price[10]", "outside zh.yaml"),
        ("en.yaml", _open_brace, "multi.price_stock[1]", "write a slot as {name}"),
        ("zh.yaml", _missing_noun, "nouns.hoodie", "missing"),
    ],
)
def test_a_corrupted_file_is_one_line_naming_file_and_key(
    tmp_path: Path, file: str, change: Callable[[dict[str, Any]], None], key: str, says: str
) -> None:
    folder = _copy(tmp_path)
    _edit(folder / file, change)
    with pytest.raises(DataFileError) as info:
        load_templates(folder)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"{folder / file}: {key}: "), message
    assert says in message
    assert (info.value.file, info.value.key) == (str(folder / file), key)


def test_invalid_yaml_names_the_line(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    (folder / "slang.yaml").write_text("price:\n  - ok\n  bad: [\n", encoding="utf-8")
    with pytest.raises(DataFileError, match=r"slang\.yaml: line \d+: is not valid YAML"):
        load_templates(folder)


def test_a_missing_file_is_one_line(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    (folder / "zh.yaml").unlink()
    with pytest.raises(DataFileError, match=r"zh\.yaml: cannot be read"):
        load_templates(folder)


def test_key_paths_read_as_in_the_file() -> None:
    assert key_path(("compliance", "medical", 3)) == "compliance.medical[3]"
    assert key_path(("price",)) == "price"
    assert key_path(()) == ""
