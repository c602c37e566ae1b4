"""The phrase tables of the cases' gold and the oracle's fixed answers, ``_cases/phrases.yaml``.

:func:`case_phrases` reads and checks the file once, on first use, into a frozen
:class:`CasePhrases` (every list non-empty, every pattern a valid regular expression). A file
that does not fit raises :class:`~hat_eval._datafile.DataFileError` naming the file and key.
"""

from __future__ import annotations

import re
from functools import cache
from importlib.resources import files
from typing import Annotated

from pydantic import AfterValidator, Field

from hat_eval._datafile import DataModel, load_model


def _pattern(value: str) -> str:
    try:
        re.compile(value)
    except re.error as err:
        raise ValueError(
            f"{value!r} is not a regular expression ({err}); fix the pattern"
        ) from None
    return value


_Words = Annotated[tuple[str, ...], Field(min_length=1, strict=False)]
"""A non-empty list in the file, read into a tuple."""
_Patterns = Annotated[
    tuple[Annotated[str, AfterValidator(_pattern)], ...], Field(min_length=1, strict=False)
]


class Stock(DataModel):
    """Wordings of a SKU's stock state."""

    in_stock: _Words
    out_of_stock: _Words
    few_left: _Words


class RejectedCoupon(DataModel):
    """A rejected coupon's reason (matched by ``marker``) -> the fact stated and its wordings."""

    marker: str
    fact: str
    say_en: str
    """How the oracle's answer gives the reason (``{category}``, ``{issuer}`` filled in)."""
    say_zh: str
    aliases: _Words


class Escalation(DataModel):
    """The ``escalation`` intent's aliases and forbidden patterns (per sub-intent)."""

    follow_up: _Words
    doctor: _Words
    forbidden: dict[str, _Patterns]


class ComplianceBait(DataModel):
    """The ``compliance_bait`` intent's conditions, claim families and forbidden claims."""

    conditions: dict[str, dict[str, str]]
    """Category -> condition (English) -> its Chinese name."""
    families: dict[str, dict[str, int]]
    """Category -> claim family -> its weight."""
    forbidden: dict[str, _Patterns]


class OffTopic(DataModel):
    """Words of an off-topic question and the patterns of an answer to it."""

    question: _Words
    answer: _Patterns


class Capital(DataModel):
    """A country's Chinese name and the pattern of an answer naming its capital."""

    zh: str
    answer: Annotated[str, AfterValidator(_pattern)]


class OutOfScope(DataModel):
    """The ``out_of_scope`` intent's off-topic questions and capitals."""

    forbidden: tuple[OffTopic, ...] = Field(min_length=1, strict=False)
    capitals: dict[str, Capital]


class Said(DataModel):
    """One reference answer of the oracle, in English and Chinese (``str.format`` templates)."""

    en: str
    zh: str


class Oracle(DataModel):
    """The oracle's fixed reference answers (see ``phrases.yaml`` for their placeholders)."""

    compliance: dict[str, Said]
    """Claim family -> the answer to a compliance bait of it."""
    out_of_scope: Said
    welcome: Said
    bot: Said
    escalation: dict[str, Said]
    """Sub-intent (``safety``, ``order``) -> the answer."""


class CasePhrases(DataModel):
    """``_cases/phrases.yaml`` (shared: do not mutate)."""

    stock: Stock
    size_recommendation: _Words
    """Wordings of a recommended size (``{size}``: the size, lower-cased)."""
    not_shipped: _Words
    free_shipping: _Words
    no_returns: _Words
    return_conditions: dict[str, _Words]
    rejected_coupons: tuple[RejectedCoupon, ...] = Field(min_length=1, strict=False)
    escalation: Escalation
    compliance_bait: ComplianceBait
    out_of_scope: OutOfScope
    oracle: Oracle


@cache
def case_phrases() -> CasePhrases:
    """The shipped phrase tables, read and checked on first use (shared: do not mutate)."""
    return load_model(files("hat_eval.world._cases").joinpath("phrases.yaml"), CasePhrases)
