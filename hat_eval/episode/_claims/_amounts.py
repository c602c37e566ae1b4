"""Amounts an answer says: money, percentages off, coupon codes, stock counts.

Every amount in yuan is a price, discount, threshold, cap, fee or subtotal the world gives for
a product in scope (or a difference between two of them); a percentage off is a promotion's, a
coupon's or the one the final price gives; a code is one the knowledge base has; a number left
is a SKU's or the product's stock.
"""

from __future__ import annotations

import re

from ._answer import _MATCH, _SENTENCE_END, Claims, _near, _sentence_of
from ._deal_dates import _COUPON_WORDS
from ._deals import _PERCENT_OFF, _TIMING
from ._language import approximated_at
from ._quantities import TOTAL_WORDS_EN, TOTAL_WORDS_ZH, Number, bound_before, rounds_to
from ._support import Support
from ._text import in_parentheses
from ._verdict import Verdict

_CODE = re.compile(r"(?<![A-Za-z0-9-])([A-Z]{2,}[0-9]{1,4})(?![A-Za-z0-9-])")


_STOCK_WORDS = re.compile(
    r"\b(?:left|in stock|remaining|available|stock|down to the last)\b|剩|库存|现货|还有|有货"
)


def share_of_price(value: float, world: Support) -> bool:
    """Whether ``value`` is a percentage of a price the world has: a discount worked out.

    "10% would only be ¥7.90 off" of a ¥79 box with a 10% coupon: the answer shows its work.
    """
    percents = world.percents | world.any_deal_percents
    return any(abs(value - round(p * q / 100, 2)) < _MATCH for p in world.prices for q in percents)


_TOTAL = re.compile(rf"\b(?:{TOTAL_WORDS_EN})\b|{TOTAL_WORDS_ZH}")
_SUM = re.compile(r"\+[^=]{1,30}=")
"""A sum written out ("¥79.90 + ¥15.00 = ¥94.90")."""


_DISCOUNT_BEFORE = re.compile(
    r"(?:立减|直降|立省|减|省|\bsave|\bsaving|\bknocks?|\btakes?)\s?[¥$]?\s?$"
)


_DISCOUNT_AFTER = re.compile(r"^\s?(?:元|块|yuan|rmb|cny)?\s?(?:off\b|discount\b|优惠)")


def _deal_without_coupon(claims: Claims, n: Number, value: float, world: Support) -> bool:
    """Whether ``value`` is said as money off now though only a coupon gives that amount.

    "下单立减100元" when ¥100 is a coupon's value and no deal gives ¥100 off now: an invented
    live deal. Said with a coupon ("LIVE100 takes ¥100 off") or with its timing, it is the
    coupon's or a deal's, and the other checks read it.
    """
    before = claims.text[max(0, n.start - 10) : n.start]
    if not (_DISCOUNT_BEFORE.search(before) or _DISCOUNT_AFTER.match(claims.text, n.end)):
        return False
    sentence = _sentence_of(claims.text, n)
    return (
        _near(value, world.coupon_money)
        and not _near(value, world.live_money | world.prices)
        # "FLASH5 works on it! It's 5% off capped at ¥30": the coupon named the sentence before
        and not _COUPON_WORDS.search(_sentence_of(claims.text, n, back=1))
        and not _TIMING.search(sentence)
    )


_SHORT = re.compile(r"\bshort\b|\bmore to go\b|\baway from\b|还差|差")
_APART = re.compile(
    r"\b(?:cheaper|less|more|pricier|dearer|difference|apart)\b|少|便宜|贵|差价|多花"
)


def _worked_out(value: float, claims: Claims, clause: str, rounded: bool = False) -> bool:
    """Whether ``value`` sums or subtracts two amounts the answer says, as the clause tells.

    "¥79 + ¥8 shipping, so ¥87 in total"; "it needs ¥499.00 and this is ¥159.99, so you'd be
    ¥339.01 short"; "¥159, ¥40 less than the ¥199 one" (少¥40). Each amount is checked on its
    own; one nobody said is not read. ``rounded``: said with "about", so a difference rounded to
    the whole yuan ("about ¥49 short" of ¥149 and ¥99.99) is the one worked out.
    """
    said = frozenset(n.low for n in claims.numbers if n.kind == "price" and n.low == n.high)

    def near(x: float) -> bool:
        return _near(x, said) or (rounded and value == round(value) and _rounded(x, said))

    return bool(
        (_TOTAL.search(clause) or _SUM.search(clause))
        and any(near(value - a) for a in said if 0 < a < value)
        or (_SHORT.search(clause) or _APART.search(clause))
        and any(near(a - value) for a in said if a > value)
    )


_PER_UNIT = re.compile(
    r"\b(?:per|a|each)\s(?:[a-z]+\s)?(?:gram|g|ml|millilitre|piece|pc|pack|sheet|unit|bag|sachet|jar|tube|"
    r"serving|cup|capsule|tablet|diaper|nappy|nappie|wipe|pod|stick)s?\b|/\s?(?:g|ml)\b|"
    r"每(?:克|片|包|毫升|个|件)|/\s?(?:片|包|克|个|件|毫升)"
)

PER_AMOUNT = re.compile(r"(?:/\s?|\bper\s|\bevery\s|每)(\d+)\s?(?:g|ml|grams?|克|毫升)(?![a-z])")
"""A price said per so many grams or millilitres ("¥20/100 g", "每100克"): no weight of its own."""


def _per_unit(value: float, claims: Claims, n: Number, world: Support) -> bool:
    """Whether ``value`` is a price per unit the answer works out ("cheaper per gram: ¥0.20").

    The sentence says it is per unit, and it is a price the world gives over a quantity the
    answer states, to the cent (or as people round it, when said with "about").
    """
    sentence = _sentence_of(claims.text, n)
    per = [float(m.group(1)) for m in PER_AMOUNT.finditer(sentence)]  # "约¥20/100 g"
    if not per and not _PER_UNIT.search(sentence):
        return False
    quantities = {m.low for m in claims.numbers if m.kind != "price" and m.low == m.high > 0}
    quantities |= {q / k for q in quantities for k in per if q != k}  # ¥39.9 for 200 g, per 100
    if not approximated_at(claims.text, n.start, n.end):
        return any(abs(p / q - value) <= 0.005 for p in world.money for q in quantities)
    if value >= 10:  # "about ¥63 a jar" of ¥188.73 for three: to the whole yuan
        return any(rounds_to(value, p / q, "price") for p in world.money for q in quantities)
    return any(abs(p / q - value) <= 0.05 * value for p in world.money for q in quantities)


_COUNT_OF = re.compile(
    r"(?<![\d.])([2-9]|10) ?(?:\d+(?:\.\d+)? ?[a-z]{1,2}\b ?)?"
    r"(?:个|件|瓶|盒|套|双|包|罐|支|份|[a-z]+)"
)


def multiple_of_price(value: float, claims: Claims, n: Number, world: Support) -> bool:
    """Whether ``value`` is a price the world has times a count said in its sentence.

    "比如买两个55L（¥159.98）就包邮" of a ¥79.99 box; "two boxes (¥159.98)": the total of
    the quantity the sentence names, worked out to the cent.
    """
    counts = {int(m.group(1)) for m in _COUNT_OF.finditer(_sentence_of(claims.text, n))}
    return any(abs(k * p - value) < _MATCH for k in counts for p in world.prices)


def _true_bound(value: float, claims: Claims, n: Number, world: Support) -> bool:
    """Whether ``value`` is a bound a price just under it meets.

    "¥999.99, just under a thousand yuan": a true comparison, no second price.
    """
    if bound_before(claims.text, n.start) != "under":
        return False
    return any(0 < value - m <= 0.02 * value for m in world.money)


def _rounded(value: float, values: frozenset[float]) -> bool:
    """Whether ``value`` is one of ``values`` rounded as a viewer takes it (:func:`rounds_to`).

    To the whole yuan ("about ¥150" for ¥149.99), the jiao ("about ¥217.5" for ¥217.49) or a
    round ten ("约2300元" for ¥2,299).
    """
    return any(rounds_to(value, v, "price") for v in values)


def _to_the_jiao(value: float, values: frozenset[float]) -> bool:
    """Whether ``value`` is one of ``values`` said to the jiao, its fen dropped or rounded.

    "一百七十九块九" for ¥179.99: the way a price ending in 9 fen is spoken; "立减57块4" for a
    ¥57.42 deal: rounded to the jiao.
    """
    tenths = round(value * 10)
    return abs(value * 10 - tenths) < 1e-6 and any(
        abs(v - value - 0.09) < 1e-6
        or (tenths % 10 != 0 and round(v * 100) % 10 != 0 and round(v, 1) == value)
        for v in values
    )  # not to the yuan: 一百块 of ¥99.99 is no jiao said


_FUTURE_COUPON = re.compile(
    r"等[^，。！？]{0,6}(?:生效|开始)后|\bonce (?:the coupon|it|the deal|that) (?:starts|goes live|"
    r"kicks in|is live)\b|\bafter (?:the coupon|it|the deal) (?:starts|goes live)\b"
)
"""A coupon's start said as the condition of what follows ("等券生效后…到手¥329.9")."""
_NOT_YET = re.compile(
    r"才(?:生效|能用|可以用|开始)|还(?:没|未)(?:生效|开始)|还不能用|"
    r"\bnot (?:valid|live|active|usable) (?:yet|until)\b|"
    r"\b(?:is not|isn't) (?:valid|live|active) yet\b|"
    r"\bonly (?:starts|kicks in|goes live|becomes valid|valid from)\b"
)
"""A coupon said, after the price it gives, to start later (到手价¥899.9～这张券11月10日才生效)."""


def once_coupon_starts(claims: Claims, n: Number, world: Support) -> bool:
    """Whether ``n`` is a price less a coupon not valid yet, said with the coupon's start.

    The start is said as the condition before the price ("once the coupon starts, ¥329.9"), or
    after it in the same sentence or the next ("¥899.9, but the coupon only starts on the 10th").
    """
    sentence = _sentence_of(claims.text, n)
    before = sentence[: max(0, sentence.find(claims.said(n)))]
    ends = [m.end() for m in _SENTENCE_END.finditer(claims.text, n.end)][:2]
    after = claims.text[n.end : ends[-1] if ends else None]  # this sentence's rest and the next
    if not (_FUTURE_COUPON.search(before) or _NOT_YET.search(after)):
        return False
    return any(abs(p - c - n.low) < 0.01 for p in world.prices for c in world.coupon_money)


def timed_deal_value(claims: Claims, n: Number, value: float, world: Support) -> bool:
    """Whether ``value`` is a deal's amount or price, running or not, said with its timing.

    "A ¥45-off live deal runs Nov 13-18, which would bring it to ¥194.99 then": a deal that
    does not run now, told as such.
    """
    deal_values = world.any_deal_money.union(*(d.prices for d in world.deals))
    said = claims.clause(n.start)
    if in_parentheses(claims.text, n.start):  # "(its ¥45-off and 22% flash deals have ended)"
        said += claims.text[n.end : n.end + 80].split(")")[0].split("）")[0]
    return _near(value, deal_values) and _TIMING.search(said) is not None


def _money(claims: Claims, world: Support) -> list[Verdict]:
    out = []
    for n in claims.numbers:
        if n.kind != "price" or claims.negated(n.start):
            continue
        approximated = n.low == n.high and approximated_at(claims.text, n.start, n.end)
        shown = claims.said(n)
        for value in {n.low, n.high}:
            if approximated and _rounded(value, world.money):
                continue  # "about ¥150" of a ¥149.99 price: the amount a viewer takes it for
            if value == round(value) and _near(value - 0.01, world.money):
                continue  # "the ¥110 list price" of ¥109.99: a fen up, rounding, never a rival
            if _true_bound(value, claims, n, world):
                continue
            if (
                not _near(value, world.money)
                and not _to_the_jiao(value, world.money)  # "一百七十九块九" of ¥179.99
                and not share_of_price(value, world)
                and not _worked_out(value, claims, claims.clause(n.start), approximated)
                and not _per_unit(value, claims, n, world)
                and not multiple_of_price(value, claims, n, world)
                and not once_coupon_starts(claims, n, world)
                and not timed_deal_value(claims, n, value, world)
            ):
                out.append(Verdict(0.0, f"unsupported amount {shown!r}: no such price or deal"))
                break
            if _deal_without_coupon(claims, n, value, world):
                out.append(
                    Verdict(0.0, f"unsupported deal {shown!r}: only a coupon gives it, none named")
                )
                break
    return out


def _percents(claims: Claims, world: Support) -> list[Verdict]:
    out = []
    for m in _PERCENT_OFF.finditer(claims.text):
        value = float(next(g for g in m.groups() if g))
        # its sentence up to it: "明晚19:00-23:00有直播闪购28% off", past the colons
        said = (claims.clause(m.start()), _sentence_of(claims.text[: m.end()], m))
        timed = any(_TIMING.search(t) for t in said) and _near(value, world.any_deal_percents)
        if not claims.negated(m.start()) and not _near(value, world.percents) and not timed:
            out.append(Verdict(0.0, f"unsupported discount {m.group(0)!r}"))
    return out


def _codes(claims: Claims, world: Support) -> list[Verdict]:
    out = []
    for m in _CODE.finditer(claims.original):
        code = m.group(1)
        if code.upper() in world.codes or code.lower() in world.text:
            continue
        if re.fullmatch(r"PR?\d{4}", code):
            continue  # a promotion's or product's id in the world's records, not a coupon code
        out.append(Verdict(0.0, f"unsupported coupon code {code!r}: the shop has no such code"))
    return out


def _rounds_to(said: float, counts: frozenset[float]) -> bool:
    """Whether a round count ("about 90", a multiple of 5) is within a tenth of a stock count."""
    return said % 5 == 0 and any(abs(c - said) <= 0.1 * said for c in counts)


_PARTS_COUNTED = re.compile(
    r"\s?(?:种|款|级)|\s?(?:个|只|条|根)?(?:侧|内|外|大|小|独立)?(?:口袋|兜|拉链|接口|按键|挡|档|模式|"
    r"卡槽|隔层|刷头|滤芯|颜色|尺码|口味|规格)"
)
"""A count of parts or choices after the number (两个侧口袋, 两种颜色): not a stock."""


def _counts(claims: Claims, world: Support) -> list[Verdict]:
    out = []
    for n in claims.numbers:
        if n.kind == "count" and n.low == n.high and not claims.negated(n.start):
            if _PARTS_COUNTED.match(claims.text, n.end):
                continue  # "还有两个侧口袋": parts of the product, no stock
            if _STOCK_WORDS.search(claims.clause(n.start)) and not _near(n.low, world.counts):
                if approximated_at(claims.text, n.start, n.end) and _rounds_to(n.low, world.counts):
                    continue  # "a little over 90 left" of 94, "90多件"
                side = bound_before(claims.text, n.start)
                if side in ("over", "under") and any(
                    c > n.low if side == "over" else c < n.low for c in world.counts
                ):
                    continue  # "well over a hundred pairs left" of 130
                out.append(Verdict(0.0, f"unsupported stock count {claims.said(n)!r}"))
    return out


_MEASURES = "g|kg|mm|cm|m|ml|l|w|mah|gsm"
_DIFFERENCE = re.compile(
    rf"\s?({_MEASURES}|mins?|minutes?|hours?|h|days?|months?)\s(?:heavier|lighter|"
    r"larger|smaller|longer|shorter|bigger|thicker|thinner|higher|lower|taller|wider|more|less)\b"
)
_UNIT = re.compile(rf"\s?({_MEASURES})(?![a-z])")
_DIFFERENCE_ZH = re.compile(
    r"比[^，。！？,.!?]{0,16}(?:高|矮|重|轻|长|短|宽|窄|厚|薄|大|小|多|少)(?:出|了)?\s?$"
)
"""A difference said in Chinese before the number ("这款比Vellum高出2 cm左右")."""


def _differences(claims: Claims, world: Support) -> list[Verdict]:
    """A difference said between two values must be theirs, rounded as it is said.

    "Aria is 1.2 g and Lumina 1.8 g, so Lumina is about 0.8 g heavier": the two values the
    answer gives in that unit differ by 0.6. Read only where the answer gives exactly two other
    values in the unit; "0.6 g" of 0.55 is the difference said to its one decimal.
    """
    out = []
    for n in claims.numbers:
        m = _DIFFERENCE.match(claims.text, n.end)
        if m is None and _DIFFERENCE_ZH.search(claims.text, max(0, n.start - 24), n.start):
            m = _UNIT.match(claims.text, n.end)
        if m is None or n.low != n.high or claims.negated(n.start):
            continue
        unit = re.compile(rf"\s?{m.group(1)}\b")
        values = {k.low for k in claims.numbers if k is not n and unit.match(claims.text, k.end)}
        if len(values) != 2:
            continue
        high, low = max(values), min(values)
        said = claims.said(n)
        places = len(said.split(".", 1)[1]) if "." in said else 0
        slack = 0.5 * 10**-places + 1e-9
        if approximated_at(claims.text, n.start, n.end):
            slack = max(slack, 0.1 * (high - low))
        if abs(n.low - (high - low)) > slack:
            words = claims.text[n.start : m.end()]
            out.append(
                Verdict(0.0, f"says {words!r}; the values it gives differ by {high - low:g}")
            )
    return out
