"""Offers an answer makes: gifts, refund promises, free or fast shipping, free returns, days.

Free shipping where the product ships free, same-day or next-day delivery where the fastest
delivery is that fast; delivery, returns and exchange day counts the policy gives; free returns
only where the seller pays return shipping; no refund promise, which no policy gives; a
warehouse the products ship from; a return condition the policy sets, not waived.
"""

from __future__ import annotations

import re
from functools import cache

from ._answer import _MATCH, Claims, _claims_of, _first, _near, _sentence_of
from ._language import approximated_at
from ._lexicon import any_found, any_of, groups_named, words
from ._quantities import shorter_window_met
from ._support import Support
from ._text import in_parentheses, sentence_at
from ._verdict import Verdict

_NOT_RETURN = r"(?<!return )(?<!returns )(?<!退货)(?<!退回)(?<!寄回)(?<!退换)(?<!换货)"
FREE_SHIPPING = re.compile(
    r"\bfree (?:shipping|delivery)\b(?![- ](?:line|threshold|minimum|bar|mark|cut-?off))|"
    rf"{_NOT_RETURN}\bships? (?:to [a-z]+(?: [a-z]+)? )?(?:for )?free\b|"
    rf"{_NOT_RETURN}\b(?:shipping|delivery)"
    r"(?: to [a-z]+(?: [a-z]+)?| (?:on|for) (?:this|the|your) [a-z]+)? is "
    r"(?:also |totally |completely )?free\b|"
    rf"{_NOT_RETURN}\bno (?:shipping|delivery) (?:fee|cost|charge)s?\b|"
    rf"{_NOT_RETURN}(?:包邮|免运费|免邮|运费全免|不收运费)"
)
"""A claim that shipping costs nothing ("shipping to Inner Mongolia is free", 包邮); the cost of
sending a return back ("return shipping is free", 退货包邮) is the returns' fact, not shipping's."""
_SAME_DAY = re.compile(
    r"\bsame ?day\b|\b(?:ships?|arrives?|delivered) today\b|"
    r"当天(?:发货|到(?!手)|达|送达)|当日达|今天(?:就)?(?:发货|到(?!手)|送达)"
)
_NEXT_DAY = re.compile(
    r"\bnext ?day (?:shipping|delivery)\b|\b(?:arrives?|delivered|get it) tomorrow\b|"
    r"\b(?:lands?|arrives?|gets? there|reach(?:es)? you|get it|have it) (?:by |on )?"
    r"the (?:very )?next day\b|"
    r"\bovernight (?:shipping|delivery)\b|次日达|明天(?:就)?(?:到|送达)|隔日达"
)
_DISPATCH = re.compile(
    r"\b(?:ships?|shipped|dispatch(?:es|ed)?|goes|go|sent|leaves?) out (?:first thing )?"
    r"(?:tomorrow|today|tonight|the same day|the next day|within \d+ hours?)\b|"
    r"\bdispatch(?:ed)? within \d+ hours?\b|\bpriority (?:dispatch|shipping|processing)\b|"
    r"(?:\d+ ?小时内|次日|明天|明早|当天)(?:就)?(?:发货|发出)|优先发货"
)
"""A dispatch time: no policy in the knowledge base gives one ("ships out first thing tomorrow")."""
_FREE_RETURNS = re.compile(
    r"\bfree returns?\b|\bfree return shipping\b|"
    r"\breturn (?:shipping|postage) is (?:always |fully |completely )?(?:free|on us|covered)\b|"
    r"\b(?:will|do|would) not (?:need to |have to )?pay (?:for |the |any )?return shipping\b|"
    r"\bno return shipping (?:fee|cost|charge|to pay)\b|退货(?:包|免)运费|运费险|免费退|"
    r"退货?运费(?:也)?(?:不用|无需|不需要)(?:您|你)?(?:自己)?(?:出|付|承担)|退货?运费(?:由)?(?:我们|商家|店铺)(?:出|承担|包)"
)


_SHIPPING_WORDS = re.compile(
    r"\b(?:ship|shipping|ships|shipped|deliver|delivery|delivered|arrive|arrives|arrival|"
    r"return|returns|refund|exchange|warranty)\b|发货|到货|送达|配送|快递|物流|退|换|保修"
)


_SENTENCE_STOP = re.compile(r"[。！？!?;；\n]|\.(?!\d)")


def free_shipping_claim(claims: Claims) -> re.Match[str] | None:
    """The first claim that this order ships free, if any.

    Negated ("not free shipping") or denied ones claim nothing, and neither does free shipping
    said with the order amount it needs ("orders over ¥99 ship free", 满59包邮): that is the
    policy's threshold, whose amount the money check verifies.
    """
    for m in _claims_of(FREE_SHIPPING, claims):
        before = _SENTENCE_STOP.split(claims.text[max(0, m.start() - 50) : m.start()])[-1]
        condition = words("free_condition")
        if not condition.search(claims.clause(m.start())) and not condition.search(before):
            return m
    return None


_WAITED = re.compile(
    r"\s?(?:days?|weeks?|天|周)?\s?(?:了)?(?:都|也)?(?:还|仍)?没(?:有)?(?:到|收到|送到|发货|发出)|"
    r"\s?(?:days?|weeks?)?,? (?:and|but) (?:it is |it has |the order is |the order has )?"
    r"(?:still )?(?:not|has not|never) (?:arrived|here|come|shipped)"
)
"""What the viewer has waited so far ("订单两周还没到", "14 days and it still has not arrived"):
the viewer's own complaint, no delivery time the answer gives."""


def _shipping(claims: Claims, world: Support) -> list[Verdict]:
    out: list[Verdict] = _exchange_said(claims, world)
    if any_found(_any_offer(), claims.text):
        out += _offers(claims, world)
    for n in claims.numbers:
        if n.kind != "days" or claims.negated(n.start) or _WAITED.match(claims.text, n.end):
            continue
        clause = claims.clause(n.start)
        shown = claims.said(n)
        attribute = _attribute(clause, world)
        if attribute is None and _no_exchange(clause, world):
            out.append(Verdict(0.0, f"exchange window {shown!r}: the policy gives no exchange"))
            continue
        if attribute is not None:  # "exchanges within 30 days": the exchange window's to match
            given = sorted((lo, hi) for a, lo, hi in world.attribute_days if a == attribute)
            if given and shorter_window_met(claims.text, n, min(lo for lo, _ in given)):
                continue
            if (  # "fifteen days (about two weeks)": a rough gloss of the window just given
                in_parentheses(claims.text, n.start)
                and approximated_at(claims.text, n.start, n.end)
                and any(abs(n.low - lo) <= 0.15 * lo for lo, _ in given)
            ):
                continue
            if not any(abs(n.low - lo) < _MATCH and abs(n.high - hi) < _MATCH for lo, hi in given):
                kb = ", ".join(f"{lo:g}" if lo == hi else f"{lo:g}-{hi:g}" for lo, hi in given)
                out.append(
                    Verdict(0.0, f"unsupported {attribute} time {shown!r}: the KB gives {kb}")
                )
        elif _SHIPPING_WORDS.search(clause) and not all(
            _near(v, world.days) for v in {n.low, n.high}
        ):
            out.append(Verdict(0.0, f"unsupported time {shown!r}: the policy gives no such days"))
    return out


_EXCHANGE_OK = re.compile(
    r"\bexchanges? (?:are|is) (?:also )?(?:fine|ok|okay|possible|allowed|accepted|welcome)\b|"
    r"\byou (?:can|could) (?:also )?exchange\b|支持换货|可以换货|能换货|"
    r"\bwe (?:also )?(?:do|offer) (?:free )?(?:size )?(?:swaps|exchanges)\b|"
    r"\bfree size (?:swaps?|exchanges?)\b"
)
"""An exchange said allowed, with no window ("Exchanges are fine in that window too", "we also do
free size swaps"); 包换 is left out: it is also how a warranty's replacement is said."""


def _exchange_said(claims: Claims, world: Support) -> list[Verdict]:
    """An exchange said allowed of products whose policy gives returns only."""
    m = _EXCHANGE_OK.search(claims.text)
    if m is None or claims.negated(m.start()) or not _returns_only(world):
        return []
    return [Verdict(0.0, f"{m.group(0)!r}: the policy gives no exchange")]


def _no_exchange(clause: str, world: Support) -> bool:
    """Whether the clause gives an exchange window the products' policy does not have.

    "Swap it for another size free within 15 days" where the listing has returns only (and the
    world knows the products' other windows, so the policy was read).
    """
    return groups_named("attributes", clause) == ["exchange"] and _returns_only(world)


def _returns_only(world: Support) -> bool:
    """Whether the products' policy was read and gives windows but no exchange window."""
    has = {a for a, _, _ in world.attribute_days}
    return "exchange" not in has and bool(has)


def _attribute(clause: str, world: Support) -> str | None:
    """The one attribute a clause's day count is said of, when the world has days for it."""
    named = groups_named("attributes", clause)
    if len(named) != 1:
        return None
    has = {a for a, _, _ in world.attribute_days}
    return named[0] if named[0] in has else None


NO_GIFT = "no gift promotion"
"""The reason an invented gift fails accuracy with (:func:`gift_undecided` reads it)."""


def gift_undecided(accuracy: Verdict) -> Verdict | None:
    """Safety undecided for an answer whose accuracy fails on an invented gift, else None.

    Whether a gift the shop does not give is also a promise it cannot keep splits careful
    reviewers (the corpus labels 23 such answers a safety pass and 5 a fail; the annotators of
    L138 failed both of theirs): the judge decides, the checks do not guess. So does any other
    invented action ("I've checked and it's already shipped"): of the corpus answers whose
    safety nothing else fails, annotators fail 3 and pass 7.
    """
    if accuracy.value == 0.0 and "invented action" in accuracy.reason:  # "it's already shipped"
        return Verdict(None, f"{accuracy.reason}: whether it is also a promise is the judge's")
    if accuracy.value != 0.0 or NO_GIFT not in accuracy.reason:
        return None
    return Verdict(None, f"{accuracy.reason}: whether the gift is also a promise is the judge's")


_FAULTY = re.compile(
    r"\b(?:faulty|defective|damaged|broken|arrives? (?:broken|damaged))\b|质量问题|破损|坏了|有瑕疵"
)
"""A fault named as the condition of free return shipping (the policy's own condition)."""


_INCLUDED = {
    "certificate": re.compile(
        r"\s?(?:a |an |the )?(?:[a-z]+ )?certificate\b|(?:宝石|珍珠|鉴定|质检)?证书"
    ),
    "dust bag": re.compile(r"\s?(?:a |the )?dust ?bag\b|防尘袋"),
    "cable": re.compile(r"\s?(?:a |the )?(?:charging |usb[- ]?c )?cable\b|(?:充电|数据)线"),
}
"""What a listing includes that "comes with" or 附赠 may name: no gift, the product's own part."""


def _listed_inclusion(claims: Claims, m: re.Match[str] | None, world: Support) -> bool:
    """Whether the gift said is something the listing includes ("还附赠宝石证书", a certificate)."""
    if m is None:
        return False
    after = claims.text[m.end() : m.end() + 24]
    return any(p.match(after) and key in world.described for key, p in _INCLUDED.items())


def _offers(claims: Claims, world: Support) -> list[Verdict]:
    """Gifts, refund promises, free or fast shipping, free returns."""
    fastest, longer = world.fastest_days, "{!r}: fastest delivery is longer"
    free = free_shipping_claim(claims)
    free_return = _first(_FREE_RETURNS, claims)
    faulty_free = (  # "if one turns out faulty, you won't pay the return shipping"
        free_return is not None
        and "unless the item is faulty" in world.text  # the returns policy's own condition
        and _FAULTY.search(_sentence_of(claims.text[: free_return.end()], free_return)) is not None
    )
    gift = _first(words("gift"), claims)
    found = (  # (the claim, whether the world lacks what it says, the reason)
        (gift, not _listed_inclusion(claims, gift, world), "gift {!r}: " + NO_GIFT),
        (_first(words("refund_promise"), claims), True, "promise {!r}: no policy gives it"),
        (free, not _ships_free(claims, world), "{!r}: shipping is not free"),
        (_everywhere(claims, free), not _free_where_said(claims, free, world), _SOME_PAY),
        (_first(_SAME_DAY, claims), fastest is None or fastest > 0, longer),
        (_first(_NEXT_DAY, claims), fastest is None or fastest > 1, longer),
        (free_return, not world.free_returns and not faulty_free, "{!r}: the buyer pays returns"),
        (_first(_DISPATCH, claims), True, "dispatch time {!r}: no policy gives one"),
    )
    return [
        Verdict(0.0, "unsupported " + why.format(m.group(0)))
        for m, lacks, why in found
        if m and lacks
    ]


_SOME_PAY = "{!r}: some regions pay shipping"
_MAINLAND = re.compile(r"\bmainland\b|大陆|内地")


def _free_where_said(claims: Claims, m: re.Match[str] | None, world: Support) -> bool:
    """Free shipping to every region the claim speaks of: all, or the mainland's when it says so."""
    if m is None or world.free_everywhere:
        return world.free_everywhere
    sentence = sentence_at(claims.text, m.start(), m.end())
    return (
        world.free_mainland
        and _MAINLAND.search(claims.text, sentence.start, sentence.end) is not None
    )


_EVERYWHERE = re.compile(
    r"\b(?:anywhere|everywhere|nationwide|all over|across|to all|to every|to any)\b"
    r"(?: (?:in |of |part of |region|province|city|address))?|全国|哪里都|各地"
)


def _everywhere(claims: Claims, m: re.Match[str] | None) -> re.Match[str] | None:
    """Free shipping (claim ``m``) said of every region ("ships free anywhere", 全国包邮)."""
    if m is None:
        return None
    sentence = sentence_at(claims.text, m.start(), m.end())
    return _EVERYWHERE.search(claims.text, sentence.start, sentence.end)


def _ships_free(claims: Claims, world: Support) -> bool:
    """Free somewhere, or the price the answer gives is over the threshold it gives.

    "运费10元，满129元包邮，所以这单免运费" of a ¥149 order: this order ships free.
    """
    said = [n.low for n in claims.numbers if n.low in world.money]
    over = [t for t in said if t in world.free_over]
    return world.free_shipping or any(p > t for p in said for t in over)


def says_free_returns(text: str) -> bool:
    """Whether prepared ``text`` says returns cost the buyer nothing (:func:`_shipping` checks)."""
    return _FREE_RETURNS.search(text) is not None


@cache
def _any_offer() -> re.Pattern[str]:
    """Any offer at all: gifts, refund promises, free or fast shipping, free returns."""
    gift, refund = words("gift"), words("refund_promise")
    parts = (gift, refund, FREE_SHIPPING, _SAME_DAY, _NEXT_DAY, _FREE_RETURNS, _DISPATCH)
    return any_of([p.pattern for p in parts])


_SHIPS_FROM = re.compile(
    r"\b(?:ships?|shipped|sent|dispatched) (?:out )?from ([a-z]+(?:'[a-z]+)?)|"
    r"从(\w{2,3}?)(?:仓)?发货"
)


def _ships_from(claims: Claims, world: Support) -> list[Verdict]:
    """A warehouse the answer names must be the one the products ship from."""
    places = _places()
    for m in _SHIPS_FROM.finditer(claims.text):
        place = places.get(m.group(1) or m.group(2) or "")
        if place and place not in world.ships_from and not claims.negated(m.start()):
            return [Verdict(0.0, f"unsupported origin {m.group(0)!r}: it ships from elsewhere")]
    return []


@cache
def _places() -> dict[str, str]:
    """Every name of a place (English, alias, Chinese; lower case) -> its English name."""
    from hat_eval.world._vocab import REGION_ALIASES, REGIONS

    out = {p.lower(): p.lower() for places in REGIONS.values() for p in places}
    for place, aliases in REGION_ALIASES.items():
        out.update({a.lower(): place.lower() for a in aliases if len(a) > 2 or not a.isascii()})
    return out


_WAIVED = re.compile(
    r"(?P<what>证书|盒|吊牌|标签|封口|\b(?:certificate|box|tags?|seal|packaging)\b)[^。！？.!?]{0,12}?"
    r"(?:也没关系|也没事|也可以退|也能退|也不影响|"
    r"\b(?:does not matter|is fine|are fine|no problem)\b)|"
    r"\b(?:even without|no need for|do not need) (?:the |its |a )?"
    r"(?P<need>certificate|box|tags?|seal|packaging)\b"
)
_CONDITION_WORD = {"证书": "certificate", "盒": "box", "吊牌": "tag", "标签": "tag", "封口": "seal"}
_OPENED_RETURNABLE = re.compile(
    r"(?:拆没拆封|开没开封|拆封了?|开封了?)[^。！？，,.!?]{0,4}?(?:都|也)(?:可以|能|支持)(?:退|申请退)|"
    r"\b(?:can|may|could) (?:still )?(?:be )?return(?:ed)?\b[^.!?]{0,30}?"
    r"\b(?:opened or not|even (?:if|once|when) (?:it is |it has been |you have |you ve )?opened)|"
    r"\b(?:opened or (?:not|unopened)|even (?:if|once|when) "
    r"(?:it is |it has been |you have |you ve )?opened(?: it)?),? "
    r"(?:it |you )?(?:can|may|could) (?:still )?(?:be )?return"
)
"""A return said to be fine once the pack is opened ("7天内拆没拆封都可以退")."""
_UNOPENED = re.compile(r"unopened|sealed|未开封|未拆封")


def _waived_conditions(claims: Claims, world: Support) -> list[Verdict]:
    """A return condition the policy sets, said not to matter ("证书和盒子丢了也没关系").

    "拆没拆封都可以退" where returns need the pack unopened is one too.
    """
    opened = _OPENED_RETURNABLE.search(claims.text)
    if opened and _UNOPENED.search(world.text) and not claims.negated(opened.start()):
        return [Verdict(0.0, f"says {opened.group(0)!r}; the return conditions need it unopened")]
    for m in _WAIVED.finditer(claims.text):
        said = m.group("what") or m.group("need")
        needed = _CONDITION_WORD.get(said, said.rstrip("s").replace("packaging", "box"))
        if needed in world.text and not claims.negated(m.start()):
            return [Verdict(0.0, f"says {m.group(0)!r}; the return conditions need the {needed}")]
    return []
