"""Shipping terms of another region said for the viewer's own.

A case that names where the viewer lives (``details["region_class"]``, ``details["place"]``)
asks for that region's fee, free-shipping threshold and delivery time. A value the answer gives
that is another region class's and not this one's ("Gansu is ¥15 ... you may only see ¥8 at
checkout", ¥8 being the metro and mainland fee) contradicts the knowledge base for the same
attribute; a sentence that names another class or place ("metro cities get it in 1-2 days") is
about that one, and is not read.
"""

from __future__ import annotations

import re
from typing import Any

from hat_eval.world import Case, call_function, place_names

from ._answer import _Answer, _sentence_of
from ._lexicon import words
from ._quantities import Number
from ._verdict import Verdict

_FEE = re.compile(r"\b(?:shipping|delivery fee|postage|fee|rate)\b|运费|邮费")
_DISCOUNT_AFTER = re.compile(r"\s?(?:(?:live )?(?:deal|discount|coupon)\b|off\b|立减|优惠|折扣)")
"""A price followed by a deal word ("with the ¥30 live deal"): a discount, no fee."""
_OVER = re.compile(
    r"\b(?:over|above|orders? of|spend|reach\w*|more than|at least)\s?(?:¥|cny|rmb)?\s?$|"
    r"满\s?$|超过\s?$"
)


def other_region_values(a: _Answer, case: Case) -> list[Verdict]:
    """A failed verdict for a fee, threshold or delivery time of another region class."""
    own_class = case.details.get("region_class")
    calls = [c for c in case.expected_calls if c.function == "policy.shipping_returns"]
    if a.kb is None or not own_class or not calls or "product_id" not in calls[0].args:
        return []
    policy = call_function(a.kb, case.session, "policy.shipping_returns", dict(calls[0].args))
    rows: list[dict[str, Any]] = policy["shipping"] if isinstance(policy, dict) else []
    own = next((r for r in rows if r["region_class"] == own_class), None)
    if own is None:
        return []
    others = [r for r in rows if r is not own]
    places = [n.lower() for r in others for p in r["regions"] for n in place_names(p)]
    thresholds = {r["free_shipping_over"] for r in rows} - {None}
    for n in a.numbers:
        if n.low != n.high and n.kind != "days" or a.negated(n.start):
            continue
        sentence = _sentence_of(a.text, n)  # "CNY 8.00" ends no sentence
        if words("other_regions").search(sentence) or any(_names(p, sentence) for p in places):
            continue  # "metro cities get it in 1-2 days": said of another region
        why = _other_value(a, n, own, others, thresholds, sentence)
        if why:
            place = case.details.get("place") or own_class
            return [Verdict(0.0, f"says {a.said(n)!r} for {place}: {why}")]
    return []


def _other_value(
    a: _Answer,
    n: Number,
    own: dict[str, Any],
    others: list[dict[str, Any]],
    thresholds: set[float],
    sentence: str,
) -> str | None:
    """Why ``n`` is another region class's value, or None."""
    cls = own["region_class"]
    if n.kind == "price" and n.low not in a.world.prices:
        if _OVER.search(a.text, max(0, n.start - 16), n.start):
            theirs = {r["free_shipping_over"] for r in others} - {None}
            mine = own["free_shipping_over"]
            if n.low != mine and n.low in theirs:
                return f"another region's free-shipping threshold ({cls}: {mine or 'none'})"
        elif (
            _FEE.search(sentence)
            and n.low not in thresholds
            and not _DISCOUNT_AFTER.match(a.text, n.end)
        ):
            if n.low != own["fee"] and n.low in {r["fee"] for r in others}:
                return f"another region's fee ({cls}: ¥{own['fee']:g})"
    if n.kind == "days" and own["delivery_days"]:
        mine = (own["delivery_days"]["min"], own["delivery_days"]["max"])
        theirs = {
            (r["delivery_days"]["min"], r["delivery_days"]["max"])
            for r in others
            if r["delivery_days"]  # a region it does not ship to has none
        }
        if (n.low, n.high) != mine and (n.low, n.high) in theirs:
            return f"another region's delivery time ({cls}: {mine[0]:g}-{mine[1]:g} days)"
    return None


def _names(place: str, sentence: str) -> bool:
    """Whether ``sentence`` names ``place`` (a whole word: "bj", not inside another word)."""
    return re.search(rf"(?<![a-z]){re.escape(place)}(?![a-z])", sentence) is not None
