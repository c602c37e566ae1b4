"""HSA's paraphrase banks are YAML package data, read once and checked: a bad file is one line."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
import yaml

from hat_eval._datafile import DataFileError
from hat_eval.hsa._banks import banks, load_banks

SHIPPED = files("hat_eval.hsa").joinpath("banks", "en.yaml")


def test_shipped_banks_validate() -> None:
    b = load_banks()
    assert b.ident_words["search"][0] == "find"
    assert b.name_prefixes[:4] == ("", "", "", "")  # repeats weight "nothing" in draws
    assert all(not any(ch.isdigit() for ch in p) for p in b.phrases)
    assert all("{}" in f or "{lc}" in f for f in b.tool_frames + b.skill_frames + b.rule_frames)


def test_banks_are_cached() -> None:
    assert banks() is banks()


def _write(tmp_path: Path, change: Callable[[dict[str, Any]], None]) -> Path:
    data = yaml.safe_load(SHIPPED.read_text(encoding="utf-8"))
    change(data)
    path = tmp_path / "en.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def _set(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    return lambda d: d.__setitem__(key, value)


@pytest.mark.parametrize(
    ("change", "key", "says"),
    [
        (lambda d: d.pop("phrases"), "phrases", "missing"),
        (_set("code_names", []), "code_names", "empty; expected at least one entry"),
        (lambda d: d["phrases"].__setitem__("always", ["24/7"]), "phrases.always[0]", "digit"),
        (lambda d: d["tool_frames"].append("Purpose: {text}"), "tool_frames[20]", "{lc}"),
        (lambda d: d["tool_frames"].append("Purpose"), "tool_frames[20]", "must hold the text"),
        (lambda d: d["error_templates"].append("{oops}"), "error_templates[6]", "{kind}"),
        (lambda d: d["hook_messages"].append("{hook}: {why}"), "hook_messages[6]", "{reason}"),
        (_set("rule_frames", "{}"), "rule_frames", "valid tuple, got '{}'"),
        (lambda d: d["ident_words"].__setitem__("get", "fetch"), "ident_words.get", "valid tuple"),
    ],
)
def test_a_corrupted_banks_file_is_one_line_naming_the_key(
    tmp_path: Path, change: Callable[[dict[str, Any]], None], key: str, says: str
) -> None:
    path = _write(tmp_path, change)
    with pytest.raises(DataFileError) as info:
        load_banks(path)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"{path}: {key}: "), message
    assert says in message


def test_importing_hsa_reads_no_bank() -> None:
    code = "import hat_eval.hsa, hat_eval.hsa._banks as b; print(b.banks.cache_info().currsize)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "0"
