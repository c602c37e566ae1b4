"""Claims the checks cannot read leave a passing accuracy undecided, never passed (issue 30)."""

from __future__ import annotations

import math

import pytest

from hat_eval.episode._claims import unread_claims
from hat_eval.episode._claims._unread import unread_words
from hat_eval.episode._corpus import CorpusEntry
from tests.episode._helpers import check_line, corpus_lines

_FOUNDATION = "[skill: item_faq_v3] The Lumière Bloom foundation has a matte finish"


@pytest.fixture(scope="module")
def lines() -> dict[str, CorpusEntry]:
    return corpus_lines("L34")


def test_an_unread_claim_leaves_accuracy_undecided(lines) -> None:
    check = check_line(lines, "L34-0035", _FOUNDATION + " that still leaves a soft dewy glow.")
    assert math.isnan(check.parts["accuracy"])
    assert "dewy" in check.undecided["accuracy"] and "glow" in check.undecided["accuracy"]
    assert math.isnan(check.aggregate)  # undecided: out of the mean, for the judge


def test_the_same_answer_without_it_passes(lines) -> None:
    check = check_line(lines, "L34-0035", _FOUNDATION + " with light, buildable coverage.")
    assert check.parts["accuracy"] == 1.0


def test_a_failed_answer_stays_failed(lines) -> None:
    # a false fact beside an unread claim: the evidence decides, the unread claim adds nothing
    answer = "[skill: stock_size] The Ashgrove Slim Taper Jeans in S, Sky Blue are sold out"
    check = check_line(lines, "L34-0037", answer + ", and the denim leaves a dewy glow.")
    assert check.parts["accuracy"] == 0.0 and "sold out" in check.reasons["accuracy"]


@pytest.mark.parametrize(
    "answer",
    [
        # a question, a condition, an offer and a number are not claims the checks leave unread
        _FOUNDATION + ". Would you like a dewy glow look instead?",
        _FOUNDATION + ". If you want a dewy glow, I can check the serum.",
        _FOUNDATION + ", and 30 ml lasts a while.",
        # vague praise carries nothing checkable
        _FOUNDATION + ", a gorgeous pick for everyday wear!",
    ],
)
def test_what_is_not_an_unread_claim(lines, answer) -> None:
    entry = lines["L34-0035"]
    assert unread_claims(entry.case, answer, None) == []  # no knowledge base: no evidence
    check = check_line(lines, "L34-0035", answer)
    assert (
        "accuracy" not in check.undecided
        or "knowledge base does not hold" not in (check.undecided["accuracy"])
    )


def test_unread_words_are_those_the_evidence_lacks() -> None:
    evidence = "matte finish, light buildable coverage, 30 ml"
    assert unread_words("it has a matte finish that leaves a dewy glow", evidence) == [
        "leaves",
        "dewy",
        "glow",
    ]
    assert unread_words("the finishes are matte", evidence) == []  # inflections are read
