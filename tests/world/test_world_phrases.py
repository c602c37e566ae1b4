"""The gold's phrase tables are package data (``world/_cases/phrases.yaml``), checked on load."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

import pytest

from hat_eval._datafile import DataFileError, load_model
from hat_eval.world._cases._phrases import CasePhrases, case_phrases

SHIPPED = Path(str(files("hat_eval.world._cases").joinpath("phrases.yaml")))


def test_shipped_phrases_load_into_tuples() -> None:
    phrases = case_phrases()
    assert "sold out" in phrases.stock.out_of_stock
    assert isinstance(phrases.escalation.doctor, tuple)
    assert [r.fact for r in phrases.rejected_coupons][:2] == ["repeat", "invalid"]
    assert set(phrases.oracle.compliance) == set(phrases.compliance_bait.forbidden) | {"medical"}


def test_a_bad_pattern_is_one_line_naming_the_key(tmp_path: Path) -> None:
    text = SHIPPED.read_text(encoding="utf-8").replace("'\\bslimm(?:ing|er)\\b'", "'slimm(ing'")
    bad = tmp_path / "phrases.yaml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(DataFileError) as err:
        load_model(bad, CasePhrases)
    message = str(err.value)
    assert "\n" not in message
    assert "compliance_bait.forbidden.weight[1]" in message
    assert "is not a regular expression" in message


def test_an_empty_list_is_refused(tmp_path: Path) -> None:
    text = SHIPPED.read_text(encoding="utf-8").replace(
        "no_returns:\n", "no_returns: []\nno_returns_was:\n"
    )
    bad = tmp_path / "phrases.yaml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(DataFileError, match="no_returns: empty; expected at least one entry"):
        load_model(bad, CasePhrases)
