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
from functools import cache
from typing import Any

from hat_eval.world import Case, call_function, place_names, region_places

from ._answer import Claims, _Answer, _sentence_of
from ._lexicon import groups, words
from ._quantities import Number
from ._support import Support
from ._verdict import Verdict

_FEE = re.compile(r"\b(?:shipping|delivery fee|postage|fee|rate)\b|运费|邮费")
_DISCOUNT_AFTER = re.compile(r"\s?(?:(?:live )?(?:deal|discount|coupon)\b|off\b|立减|优惠|折扣)")
"""A price followed by a deal word ("with the ¥30 live deal"): a discount, no fee."""
_ARRIVES = re.compile(r"到|送达|收到|\barriv|\bdeliver|\bget there\b|\breach")
"""Words of a sentence that make its days a delivery time (哈尔滨一般2-4天到，快的话次日就能到)."""
_OVER = re.compile(
    r"\b(?:over|above|orders? of|spend|reach\w*|more than|at least)\s?(?:¥|cny|rmb)?\s?$|"
    r"满\s?$|超过\s?$"
)


def other_region_values(a: _Answer, case: Case) -> list[Verdict]:
    """A failed verdict for a fee, threshold or delivery time of another region class."""
    own_class, place = case.details.get("region_class"), case.details.get("place")
    calls = [c for c in case.expected_calls if c.function == "policy.shipping_returns"]
    args = dict(calls[0].args) if calls else {}
    if not own_class and not calls:  # a greeting to a place: "orders to Tianjin arrive in 1-2 days"
        place, own_class = _place_named(a.text) or (None, None)
        args = {"product_id": case.session.product_on_screen}
    if a.kb is None or not own_class or not args.get("product_id"):
        return []
    policy = call_function(a.kb, case.session, "policy.shipping_returns", args)
    rows: list[dict[str, Any]] = policy["shipping"] if isinstance(policy, dict) else []
    own = next((r for r in rows if r["region_class"] == own_class), None)
    if own is None:
        return []
    others = [r for r in rows if r is not own]
    other_classes = {r["region_class"] for r in others}
    thresholds = {r["free_shipping_over"] for r in rows} - {None}
    for n in a.numbers:
        if n.low != n.high and n.kind != "days" or a.negated(n.start):
            continue
        sentence = _sentence_of(a.text, n)  # "CNY 8.00" ends no sentence
        if _names_other(sentence, own_class) or any(
            cls in other_classes and not _origin(sentence, m) for m, _, cls in _places_in(sentence)
        ):
            continue  # "metro cities get it in 1-2 days": said of another region
        if _DENIED_AFTER.match(a.text, n.end):
            continue  # "(the free shipping over ¥99.00 doesn't apply there)"
        why = _other_value(a, n, own, others, thresholds, sentence)
        if why:
            return [Verdict(0.0, f"says {a.said(n)!r} for {place or own_class}: {why}")]
    return []


_DENIED_AFTER = re.compile(
    r"[^.!?。！？]{0,24}?(?:\b(?:does not|do not|will not|would not|is not|are not) "
    r"(?:apply|count|cover|work|include)\b|不适用|不参加|不包括|不享受|用不了)"
)
"""A value denied after it is said ("free over ¥99 doesn't apply there", 满99包邮不适用)."""
_ORIGIN = re.compile(r"\bfrom (?:our |the )?$|从$")
_ORIGIN_AFTER = re.compile(r"\s?(?:发货|发出|仓|warehouse)")


@cache
def _places() -> tuple[re.Pattern[str], dict[str, tuple[str, str]]]:
    """One pattern of every shipping place's names, and each name's (place, region class)."""
    owner = {
        name.lower(): (place, cls)
        for cls, places in region_places().items()
        for place in places
        for name in place_names(place)
    }
    names = sorted(owner, key=len, reverse=True)
    pattern = re.compile(rf"(?<![a-z])(?:{'|'.join(map(re.escape, names))})(?![a-z])")
    return pattern, owner


def _origin(text: str, m: re.Match[str]) -> bool:
    """Whether the place at ``m`` is where the parcel ships from ("from our Tianjin warehouse")."""
    return bool(
        _ORIGIN.search(text, max(0, m.start() - 8), m.start()) or _ORIGIN_AFTER.match(text, m.end())
    )


def _places_in(text: str) -> list[tuple[re.Match[str], str, str]]:
    """(where, place, its region class) of every shipping place ``text`` names."""
    pattern, owner = _places()
    return [(m, *owner[m.group(0)]) for m in pattern.finditer(text)]


def _place_named(text: str) -> tuple[str, str] | None:
    """The one shipping place ``text`` names and its region class (None: none, or several)."""
    named = {
        (place, cls)
        for m, place, cls in _places_in(text)
        if not _origin(text, m)  # 天津发货, "from our Tianjin warehouse"
    }
    return named.pop() if len(named) == 1 else None


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
            if mine and n.low != mine and _in_threshold(a.text, n):  # 部分订单满99元才包邮
                return f"a free-shipping threshold no region has ({cls}: ¥{mine:g})"
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
        if n.high < mine[0] and _ARRIVES.search(sentence):  # "快的话次日就能到" of 2-4 days
            return f"faster than its delivery time ({cls}: {mine[0]:g}-{mine[1]:g} days)"
    return None


def _names_other(sentence: str, own_class: str) -> bool:
    """Whether ``sentence`` speaks of a region other than ``own_class``.

    "Metro cities get it in 1-2 days" to Gansu; the viewer's own class named (深圳属于一线城市区域)
    is no other.
    """
    own = groups("region_classes").get(own_class)
    return any(
        own is None or not own.fullmatch(m.group(0))
        for m in words("other_regions").finditer(sentence)
    )


def _in_threshold(text: str, n: Number) -> bool:
    """Whether ``n`` is the amount of a free-shipping threshold (满99元才包邮, free over ¥99)."""
    return any(m.start() <= n.start < m.end() for m in words("free_threshold").finditer(text))


_PLACED = re.compile(
    r"\s?(?:is (?:in|one of|part of|classed as|counted as)?|counts as|falls (?:in|under)|"
    r"ships as|按|属于|算|归|是)\s?(?:(?:our|the|a|an)\s)?"
)
"""Words that put a place in a region class ("Shenyang is in our metro zone", 沈阳按一线城市)."""


def misplaced_places(claims: Claims, _world: Support) -> list[Verdict]:
    """A failed verdict for a place the answer puts in a region class the KB does not.

    "沈阳按一线城市区域发货，1到2天就能到": Shenyang is a mainland place; the metro class's
    delivery time follows from the class said. A class denied ("Shenyang isn't a metro city",
    沈阳不算一线) is not said.
    """
    classes = groups("region_classes")
    if not any(form.search(claims.text) for form in classes.values()):
        return []  # most answers name no region class
    for m, place, own in _places_in(claims.text):
        link = _PLACED.match(claims.text, m.end())
        said = link and next(
            (c for c, f in classes.items() if f.match(claims.text, link.end())), None
        )
        if said and said != own:
            why = f"places {place} in the {said} region class; the KB has it {own}"
            return [Verdict(0.0, why)]
    return []
