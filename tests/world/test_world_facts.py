"""Phrase matching on word boundaries: the substring search agrees with the regex rule."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hat_eval.world import Fact
from hat_eval.world._compliance import normalise
from hat_eval.world._facts import fact_mentioned, phrase_in


def _regex_rule(phrase: str, text: str) -> bool:
    """The rule as a pattern: word boundaries only where the phrase starts/ends with [a-z0-9]."""
    norm = normalise(phrase)
    if not norm:
        return False
    left = r"(?<![a-z0-9])" if re.match(r"[a-z0-9]", norm) else ""
    right = r"(?![a-z0-9])" if re.search(r"[a-z0-9]$", norm) else ""
    return re.search(left + re.escape(norm) + right, text) is not None


@pytest.mark.parametrize(
    ("phrase", "text", "expected"),
    [
        ("15 days", "returns within 15 days.", True),
        ("5 days", "returns within 15 days.", False),
        ("cotton", "100% cotton, soft", True),
        ("cotton", "cottonwood", False),
        ("M", "size m is in stock", True),
        ("M", "medium", False),
        ("15天", "可以15天无理由退货", True),
        ("¥99", "only ¥99!", True),
        ("Free shipping", "FREE  SHIPPING today", True),
    ],
)
def test_phrase_in_word_boundaries(phrase: str, text: str, expected: bool) -> None:
    assert phrase_in(phrase, normalise(text)) is expected
    assert _regex_rule(phrase, normalise(text)) is expected


_ALPHABET = "ab1 -¥天.%"


@settings(max_examples=400, deadline=None)
@given(st.text(_ALPHABET, min_size=0, max_size=4), st.text(_ALPHABET, max_size=14))
def test_phrase_in_agrees_with_the_regex_rule(phrase: str, text: str) -> None:
    norm = normalise(text)
    assert phrase_in(phrase, norm) == _regex_rule(phrase, norm)


def test_text_facts_match_by_value_or_alias() -> None:
    fact = Fact("text", "machine washable", aliases=("washing machine safe",))
    assert fact_mentioned(fact, "It is Machine-washable? No: machine washable, yes.")
    assert fact_mentioned(fact, "Totally washing machine safe 👍")
    assert not fact_mentioned(fact, "hand wash only")


def test_a_free_argument_matches_any_non_empty_value() -> None:
    from hat_eval.world import ExpectedCall

    call = ExpectedCall(
        "handoff.escalate", {"reason": "wrong item", "urgency": "high"}, free=("reason",)
    )
    assert call.matches("handoff.escalate", {"reason": "something else", "urgency": "HIGH"})
    assert not call.matches("handoff.escalate", {"reason": "  ", "urgency": "high"})
    assert not call.matches("handoff.escalate", {"urgency": "high"})
    assert not call.matches("handoff.escalate", {"reason": "x", "urgency": "normal"})
    assert ExpectedCall.from_dict(call.to_dict()) == call
    assert "free" not in ExpectedCall("catalog.search", {"query": "x"}).to_dict()


def test_a_free_argument_needs_a_value() -> None:
    import pytest

    from hat_eval.world import ExpectedCall

    with pytest.raises(ValueError, match="reason"):
        ExpectedCall("handoff.escalate", {}, free=("reason",))
