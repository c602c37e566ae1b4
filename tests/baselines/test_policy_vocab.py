"""The reference policy's keyword tables are YAML package data: checked, joined, one-line errors."""

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

from hat_eval._datafile import DataFileError
from hat_eval.baselines._read import detect_intents, matching_skus
from hat_eval.baselines._vocab import LANGUAGES, load_policy_vocab, policy_vocab
from hat_eval.world import SINGLE_INTENTS


def test_shipped_vocab_validates_and_joins_languages() -> None:
    v = load_policy_vocab()
    intents = [intent for intent, _ in v.intents]
    assert intents[0] == "escalation" and set(intents) <= set(SINGLE_INTENTS)
    price = dict(v.intents)["price"]
    assert price.index("how much") < price.index("多少钱")  # English first, then Chinese
    assert v.colours[0] == ("gray", "grey")  # longest word first
    assert v.colours[1] == ("灰绿", "sage green")  # then the file's order
    assert policy_vocab() is policy_vocab()


def test_the_tables_drive_the_policy() -> None:
    assert detect_intents("这个多少钱?") == ["price"]
    assert detect_intents("what's the weather?") == ["out_of_scope"]
    skus = [{"sku": "A", "colour": "Navy"}, {"sku": "B", "colour": "Grey"}]
    assert matching_skus(skus, "藏青色还有吗")[0] == [skus[0]]
    assert matching_skus(skus, "any gray left?")[0] == [skus[1]]


def _copy(tmp_path: Path) -> Path:
    with as_file(files("hat_eval.baselines").joinpath("vocab")) as folder:
        for lang in LANGUAGES:
            shutil.copy(Path(folder) / f"{lang}.yaml", tmp_path / f"{lang}.yaml")
    return tmp_path


@pytest.mark.parametrize(
    ("file", "change", "key", "says"),
    [
        ("en.yaml", lambda d: d.pop("skill_words"), "skill_words", "missing"),
        ("zh.yaml", lambda d: d.__setitem__("on_screen", []), "on_screen", "empty"),
        ("en.yaml", lambda d: d["intents"].__setitem__("price", "price"), "intents.price", "list"),
        ("en.yaml", lambda d: d["tool_words"].__setitem__("shop.buy", ["buy"]),
         "tool_words.shop.buy", "unknown; expected one of catalog.search"),
        ("zh.yaml", lambda d: d["intents"].__setitem__("out_of_scope", ["天气"]),
         "intents.out_of_scope", "unknown; expected one of escalation"),
        ("zh.yaml", lambda d: d.__setitem__("tool_words", {}), "tool_words", "unknown key"),
    ],
)  # fmt: skip
def test_a_corrupted_vocab_file_is_one_line_naming_the_key(
    tmp_path: Path, file: str, change: Callable[[dict[str, Any]], None], key: str, says: str
) -> None:
    folder = _copy(tmp_path)
    path = folder / file
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    with pytest.raises(DataFileError) as info:
        load_policy_vocab(folder)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"{path}: {key}: "), message
    assert says in message


def test_importing_the_baselines_reads_no_vocabulary() -> None:
    code = (
        "import hat_eval.baselines, hat_eval.baselines._vocab as v;"
        "print(v.policy_vocab.cache_info().currsize)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "0"
