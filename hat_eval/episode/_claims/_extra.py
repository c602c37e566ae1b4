"""Every checkable claim of an answer, beyond the gold facts, verified against the world.

An answer that states the asked price right and adds a free gift, a coupon code, an extra
percentage off, free or same-day shipping, a certification or "fireproof" has invented a claim
a viewer will act on. :func:`unsupported_claims` finds the claims of each kind the world can
verify and fails those the knowledge base and the live session do not support (:mod:`._support`):

- **money**: every amount in yuan is a price, discount, threshold, cap, fee or subtotal the
  world gives for a product in scope (or a difference between two of them);
- **discount**: a percentage off is a promotion's, a coupon's or the one the final price gives;
- **coupon code**: a code the knowledge base has;
- **gift or bundle**: the world has no gift promotions, so a free gift is always invented;
- **shipping**: free shipping where the product ships free, same-day or next-day delivery where
  the fastest delivery is that fast; delivery and returns day counts the policy gives;
- **returns**: free returns only where the seller pays return shipping; no refund promises
  (a full refund, a refund within a day), which no policy gives;
- **stock count**: a number left that is a SKU's or the product's stock;
- **spec, material, certification, origin** (the lexicon's ``claim_words``): a claim word
  ("organic", "fireproof", "BPA-free", 防水, 进口, "made in Italy") the product's own text
  supports; a material the catalogue uses elsewhere ("stainless steel" for a Tritan bottle)
  that none of the products in scope is made of.

A negated claim ("no free gift", "not waterproof") claims nothing. Each unsupported claim is a
failed :class:`Verdict` whose reason names it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache

from ._language import _NEGATORS, approximated_at, denied_after, negated_at
from ._lexicon import ClaimWord, any_found, any_of, claim_words, groups, words
from ._quantities import TOTAL_WORDS_EN, TOTAL_WORDS_ZH, Number, shorter_window_met
from ._support import TERM, Support, term_months
from ._text import Span, clause_of, find_phrase, in_parentheses
from ._verdict import Verdict

_NOT_RETURN = r"(?<!return )(?<!returns )(?<!退货)(?<!退回)(?<!寄回)(?<!退换)(?<!换货)"
FREE_SHIPPING = re.compile(
    r"\bfree (?:shipping|delivery)\b|"
    rf"{_NOT_RETURN}\bships? (?:to [a-z]+(?: [a-z]+)? )?(?:for )?free\b|"
    rf"{_NOT_RETURN}\b(?:shipping|delivery)(?: to [a-z]+(?: [a-z]+)?)? is "
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
    r"\b(?:lands?|arrives?|gets? there|reach(?:es)? you) (?:by |on )?the next day\b|"
    r"\bovernight (?:shipping|delivery)\b|次日达|明天(?:就)?(?:到|送达)|隔日达"
)
_FREE_RETURNS = re.compile(
    r"\bfree returns?\b|\bfree return shipping\b|\breturn shipping is (?:free|on us)\b|"
    r"退货(?:包|免)运费|运费险|免费退"
)
_PERCENT_OFF = re.compile(
    r"(?<![\d.])(\d+(?:\.\d+)?) ?% ?(?:off|discount)|"
    r"\b(?:extra|another|additional) (\d+(?:\.\d+)?) ?%|"
    r"(?:额外|再|多)(?:减|优惠|打)?(\d+(?:\.\d+)?) ?%"
)
_CODE = re.compile(r"(?<![A-Za-z0-9-])([A-Z]{2,}[0-9]{1,4})(?![A-Za-z0-9-])")
_SHIPPING_WORDS = re.compile(
    r"\b(?:ship|shipping|ships|shipped|deliver|delivery|delivered|arrive|arrives|arrival|"
    r"return|returns|refund|exchange|warranty)\b|发货|到货|送达|配送|快递|物流|退|换|保修"
)
_TIMING = re.compile(
    r"\b(?:starts?|begins?|ends?|ended|expired|until|from|tomorrow|yesterday|next|last|"
    r"not (?:yet|live|active|running))\b|开始|结束|明天|昨天|还没|已经过|过期|下周|之后"
)
"""A deal said with its timing ("the 12% off deal only starts tomorrow") is a real deal."""
_STOCK_WORDS = re.compile(r"\b(?:left|in stock|remaining|available|stock)\b|剩|库存|现货|还有|有货")
_MATCH = 0.005


def _near(value: float, values: frozenset[float]) -> bool:
    return any(abs(value - v) < _MATCH for v in values)


@dataclass(frozen=True)
class Claims:
    """An answer as claims are read from it: prepared text, original text, numbers, scopes."""

    text: str
    original: str
    numbers: Sequence[Number]
    scopes: Sequence[Span]

    def negated(self, pos: int, window: int = 4) -> bool:
        """Whether a negation governs the words at ``pos``."""
        return negated_at(self.text, clause_of(self.scopes, pos), pos, window)

    def clause(self, pos: int) -> str:
        """The text of the clause (scope) holding ``pos``."""
        return self.said(clause_of(self.scopes, pos))

    def said(self, at: Number | Span) -> str:
        """The answer's words at a number or span."""
        return self.text[at.start : at.end]


def _claims_of(pattern: re.Pattern[str], claims: Claims) -> Iterator[re.Match[str]]:
    """The matches of ``pattern`` the answer claims: neither negated, denied after nor unconfirmed.

    "安全认证我这边还没有查到": the certificate is what the host could not find, not a claim.
    """
    for m in pattern.finditer(claims.text):
        if claims.negated(m.start()) or denied_after(claims.text, m.end()):
            continue
        after = claims.text[m.start() : clause_of(claims.scopes, m.start()).end]
        if not words("cannot_confirm").search(after):
            yield m


def _first(pattern: re.Pattern[str], claims: Claims) -> re.Match[str] | None:
    return next(_claims_of(pattern, claims), None)


def free_shipping_claim(claims: Claims) -> re.Match[str] | None:
    """The first claim that this order ships free, if any.

    Negated ("not free shipping") or denied ones claim nothing, and neither does free shipping
    said with the order amount it needs ("orders over ¥99 ship free", 满59包邮): that is the
    policy's threshold, whose amount the money check verifies.
    """
    for m in _claims_of(FREE_SHIPPING, claims):
        if not words("free_condition").search(claims.clause(m.start())):
            return m
    return None


_WISH = re.compile(r"\bif you(?: would|'d)? (?:like|want|prefer|wish|need) to (?:go )?$")


def _wished(text: str, m: re.Match[str]) -> bool:
    """Whether the claim is the viewer's wish ("M is in stock if you'd like to size up")."""
    return _WISH.search(text[max(0, m.start() - 40) : m.start()]) is not None


def _share_of_price(value: float, world: Support) -> bool:
    """Whether ``value`` is a percentage of a price the world has: a discount worked out.

    "10% would only be ¥7.90 off" of a ¥79 box with a 10% coupon: the answer shows its work.
    """
    percents = world.percents | world.any_deal_percents
    return any(abs(value - round(p * q / 100, 2)) < _MATCH for p in world.prices for q in percents)


_TOTAL = re.compile(rf"\b(?:{TOTAL_WORDS_EN})\b|{TOTAL_WORDS_ZH}")


_DISCOUNT_BEFORE = re.compile(
    r"(?:立减|直降|立省|减|省|\bsave|\bsaving|\bknocks?|\btakes?)\s?[¥$]?\s?$"
)
_SENTENCE_END = re.compile(r"[.!?。！？\n](?!\d)")
_DISCOUNT_AFTER = re.compile(r"^\s?(?:元|块|yuan|rmb|cny)?\s?(?:off\b|discount\b|优惠)")
_COUPON_WORDS = re.compile(
    r"\b(?:coupons?|codes?|vouchers?)\b|券|码|(?<![a-z])[a-z]{2,}\d{1,4}(?![a-z0-9])"
)


def _sentence_of(text: str, n: Number | re.Match[str], back: int = 0) -> str:
    """The sentence holding number ``n`` (or a match), from ``back`` sentences before it.

    A ";" does not end a sentence, nor a decimal point.
    """
    start, stop = (n.start, n.end) if isinstance(n, Number) else n.span()
    starts = [0] + [m.end() for m in _SENTENCE_END.finditer(text, 0, start)]
    end = _SENTENCE_END.search(text, stop)
    return text[starts[max(0, len(starts) - 1 - back)] : end.start() if end else None]


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


def _worked_out(value: float, claims: Claims, clause: str) -> bool:
    """Whether ``value`` sums or subtracts two amounts the answer says, as the clause tells.

    "¥79 + ¥8 shipping, so ¥87 in total"; "it needs ¥499.00 and this is ¥159.99, so you'd be
    ¥339.01 short"; "¥159, ¥40 less than the ¥199 one" (少¥40). Each amount is checked on its
    own; one nobody said is not read.
    """
    said = frozenset(n.low for n in claims.numbers if n.kind == "price" and n.low == n.high)
    return bool(
        _TOTAL.search(clause)
        and any(_near(value - a, said) for a in said if 0 < a < value)
        or (_SHORT.search(clause) or _APART.search(clause))
        and any(_near(a - value, said) for a in said if a > value)
    )


_PER_UNIT = re.compile(
    r"\b(?:per|a|each)\s(?:gram|g|ml|millilitre|piece|pc|pack|sheet|unit)s?\b|/\s?(?:g|ml)\b|"
    r"每(?:克|片|包|毫升)"
)


def _per_unit(value: float, claims: Claims, n: Number, world: Support) -> bool:
    """Whether ``value`` is a price per unit the answer works out ("cheaper per gram: ¥0.20").

    The sentence says it is per unit, and it is a price the world gives over a quantity the
    answer states, to the cent (or as people round it, when said with "about").
    """
    if not _PER_UNIT.search(_sentence_of(claims.text, n)):
        return False
    quantities = {m.low for m in claims.numbers if m.kind != "price" and m.low == m.high > 0}
    slack = 0.05 * value if approximated_at(claims.text, n.start, n.end) else 0.005
    return any(abs(p / q - value) <= slack for p in world.money for q in quantities)


def _rounded(value: float, values: frozenset[float]) -> bool:
    """Whether ``value`` is one of ``values`` rounded to the whole yuan ("about ¥150")."""
    return value == round(value) and any(abs(value - v) < 1.0 for v in values)


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
            if (
                not _near(value, world.money)
                and not _share_of_price(value, world)
                and not _worked_out(value, claims, claims.clause(n.start))
                and not _per_unit(value, claims, n, world)
                and not (
                    _near(value, world.any_deal_money) and _TIMING.search(claims.clause(n.start))
                )
            ):
                out.append(Verdict(0.0, f"unsupported amount {shown!r}: no such price or deal"))
                break
            if _deal_without_coupon(claims, n, value, world):
                out.append(
                    Verdict(0.0, f"unsupported deal {shown!r}: only a coupon gives it, none named")
                )
                break
    return out


_DEAL_SAID = re.compile(
    r"\b(?:deal|deals|off|discount\w*|promo\w*|sale|was|list|lists|listed|original\w*|regular\w*|"
    r"before|usually|normally|reduced|marked down|instead of)\b|"
    r"优惠|折|直播价|到手|活动|原价|标价|吊牌价|立减|直降"
)


def _list_price_as_price(claims: Claims, world: Support) -> list[Verdict]:
    """A list price given as what the product costs while a live deal lowers it.

    "Softhaven is from ¥1,399.90" when a 30% deal runs now: the viewer pays ¥979.93, and a
    reviewer fails the price. Said with the deal, or as a list, original or usual price, it is
    the list price, truly.
    """
    for n in claims.numbers:
        if n.kind != "price" or n.context or n.low != n.high or claims.negated(n.start):
            continue
        if not _near(n.low, world.superseded) or _near(n.low, world.current_prices):
            continue
        if _DEAL_SAID.search(_sentence_of(claims.text, n)):
            continue
        said = claims.said(n)
        return [Verdict(0.0, f"gives the list price {said!r} as the price; a live deal lowers it")]
    return []


_DOWN_FROM = re.compile(r"\b(?:down|reduced|marked down|cut|slashed) from\s?(?:¥|cny|rmb)?\s?$")


def _down_from(claims: Claims, world: Support) -> list[Verdict]:
    """A price said to be "down from" another: a deal running now must lower that one.

    "¥139.90, down from ¥149.90" when no deal runs (¥149.90 is another option's list price)
    claims a discount nobody gives; a coupon the answer names may lower it.
    """
    if not world.now or " from" not in claims.text or _COUPON_WORDS.search(claims.text):
        return []  # "with SNACK10, down from CNY 139.00": the coupon lowers it
    for n in claims.numbers:
        head = claims.text[max(0, n.start - 24) : n.start]
        if n.kind == "price" and _DOWN_FROM.search(head) and not claims.negated(n.start):
            if not _near(n.low, world.superseded):
                said = claims.said(n)
                return [Verdict(0.0, f"says down from {said!r}; no deal running lowers it")]
    return []


_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTH = rf"({'|'.join(_MONTHS)})[a-z]*\.?"
_DATE = re.compile(
    rf"\b(\d{{1,2}})(?:st|nd|rd|th)? (?:of )?{_MONTH}(?![a-z])|"
    rf"\b{_MONTH} (\d{{1,2}})(?:st|nd|rd|th)?\b|"
    r"(\d{1,2})月(\d{1,2})[日号]|\b20\d\d-(\d{2})-(\d{2})\b"
)
_ENDS = re.compile(
    r"\b(?:ends?|ending|until|till|through|expires?|runs? out|wraps? up|last day)\b|截止|结束|为止"
)
_DEAL_WORDS = re.compile(r"\b(?:deal|promo\w*|offer|discount|sale|off)\b|活动|优惠|直降|折")


def _month_day(m: re.Match[str]) -> tuple[int, int]:
    g = m.groups()
    if g[0]:
        return _MONTHS.index(g[1][:3]) + 1, int(g[0])
    if g[2]:
        return _MONTHS.index(g[2][:3]) + 1, int(g[3])
    if g[4]:
        return int(g[4]), int(g[5])
    return int(g[6]), int(g[7])


def _end_dates(claims: Claims, world: Support) -> list[Verdict]:
    """A date a deal is said to end on must be the end date of one of the products' deals.

    "The deal ends 14 November at 23:59" when it runs until 18 November. A sentence that names
    a coupon is left alone (a coupon's own dates are the coupon checks').
    """
    if not world.deals or not _DATE.search(claims.text):
        return []
    ends = set()
    for d in world.deals:
        month, day = int(d.ends_at[5:7]), int(d.ends_at[8:10])
        ends |= {(month, day), (month, day - 1)}  # "ends at midnight" of a deal to 00:00
    for m in _DATE.finditer(claims.text):
        sentence = _sentence_of(claims.text, m)
        clause = claims.clause(m.start())
        if not _ENDS.search(clause) or not _DEAL_WORDS.search(sentence):
            continue
        if _COUPON_WORDS.search(sentence) or claims.negated(m.start()):
            continue
        if _month_day(m) not in ends:
            return [Verdict(0.0, f"says the deal ends {m.group(0)!r}; no deal of it ends then")]
    return []


def _percents(claims: Claims, world: Support) -> list[Verdict]:
    out = []
    for m in _PERCENT_OFF.finditer(claims.text):
        value = float(next(g for g in m.groups() if g))
        timed = _TIMING.search(claims.clause(m.start())) and _near(value, world.any_deal_percents)
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


def _shipping(claims: Claims, world: Support) -> list[Verdict]:
    out: list[Verdict] = []
    if any_found(_any_offer(), claims.text):
        out += _offers(claims, world)
    for n in claims.numbers:
        if n.kind != "days" or claims.negated(n.start):
            continue
        clause = claims.clause(n.start)
        shown = claims.said(n)
        attribute = _attribute(clause, world)
        if attribute is not None:  # "exchanges within 30 days": the exchange window's to match
            given = sorted((lo, hi) for a, lo, hi in world.attribute_days if a == attribute)
            if given and shorter_window_met(claims.text, n, min(lo for lo, _ in given)):
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


def _attribute(clause: str, world: Support) -> str | None:
    """The one attribute a clause's day count is said of, when the world has days for it."""
    named = [name for name, form in groups("attributes").items() if form.search(clause)]
    if len(named) != 1:
        return None
    has = {a for a, _, _ in world.attribute_days}
    return named[0] if named[0] in has else None


def _offers(claims: Claims, world: Support) -> list[Verdict]:
    """Gifts, refund promises, free or fast shipping, free returns."""
    fastest, longer = world.fastest_days, "{!r}: fastest delivery is longer"
    found = (  # (the claim, whether the world lacks what it says, the reason)
        (_first(words("gift"), claims), True, "gift {!r}: no gift promotion"),
        (_first(words("refund_promise"), claims), True, "promise {!r}: no policy gives it"),
        (free_shipping_claim(claims), not _ships_free(claims, world), "{!r}: shipping is not free"),
        (_first(_SAME_DAY, claims), fastest is None or fastest > 0, longer),
        (_first(_NEXT_DAY, claims), fastest is None or fastest > 1, longer),
        (_first(_FREE_RETURNS, claims), not world.free_returns, "{!r}: the buyer pays returns"),
    )
    return [
        Verdict(0.0, "unsupported " + why.format(m.group(0)))
        for m, lacks, why in found
        if m and lacks
    ]


def _ships_free(claims: Claims, world: Support) -> bool:
    """Free somewhere, or the price the answer gives is over the threshold it gives.

    "运费10元，满129元包邮，所以这单免运费" of a ¥149 order: this order ships free.
    """
    said = [n.low for n in claims.numbers if n.low in world.money]
    over = [t for t in said if t in world.free_over]
    return world.free_shipping or any(p > t for p in said for t in over)


def _counts(claims: Claims, world: Support) -> list[Verdict]:
    out = []
    for n in claims.numbers:
        if n.kind == "count" and n.low == n.high and not claims.negated(n.start):
            if _STOCK_WORDS.search(claims.clause(n.start)) and not _near(n.low, world.counts):
                out.append(Verdict(0.0, f"unsupported stock count {claims.said(n)!r}"))
    return out


@cache
def _any_offer() -> re.Pattern[str]:
    """Any offer at all: gifts, refund promises, free or fast shipping, free returns."""
    gift, refund = words("gift"), words("refund_promise")
    parts = (gift, refund, FREE_SHIPPING, _SAME_DAY, _NEXT_DAY, _FREE_RETURNS)
    return any_of([p.pattern for p in parts])


@cache
def _any_word() -> re.Pattern[str]:
    """Any claim word at all: one search rules out most answers before each word is looked for."""
    return any_of([*(w.said.pattern for w in claim_words()), r"\bmade in\b"])


def _words(claims: Claims, world: Support) -> list[Verdict]:
    out: list[Verdict] = []
    for term in world.rival_terms(claims.text):
        for start, _ in find_phrase(term, claims.text):
            if in_parentheses(claims.text, start):
                continue  # "NBR foam (a synthetic rubber foam)": a gloss of the material said
            if not claims.negated(start):
                out.append(Verdict(0.0, f"unsupported material {term!r}: not what it is made of"))
                break
    if not any_found(_any_word(), claims.text):
        return out
    out += filter(None, (_unsupported_word(word, claims, world) for word in claim_words()))
    for m in re.finditer(r"\bmade in ([a-z]+(?: [a-z]+)?)", claims.text):
        place = m.group(1)
        if not claims.negated(m.start()) and place.split()[0] not in world.text:
            out.append(Verdict(0.0, f"unsupported origin {m.group(0)!r}"))
    return out


def _unsupported_word(word: ClaimWord, claims: Claims, world: Support) -> Verdict | None:
    """A failed verdict when the answer claims ``word`` and the products' text does not hold it."""
    m = next((m for m in _claims_of(word.said, claims) if not _wished(claims.text, m)), None)
    if m and not word.supported_by.search(world.text):
        return Verdict(0.0, f"unsupported {word.name} claim {m.group(0)!r}")
    return None


def _deadlines(claims: Claims, world: Support) -> list[Verdict]:
    """A deal said to end tonight ("ends tonight", 今晚结束) must end on the session's date."""
    if not world.now:
        return []
    running = [d for d in world.deals if d.running(world.now)]
    if any(d.ends_at[:10] == world.now[:10] for d in running):
        return []
    m = _first(words("ends_today"), claims)
    if m is None:
        return []
    ends = min((d.ends_at[:10] for d in running), default=None)
    truth = f"the deal runs until {ends}" if ends else "no deal runs now"
    return [Verdict(0.0, f"says {m.group(0)!r}; {truth}")]


_DEAL_NOW = re.compile(
    r"\b(?:today is|tonight is|the|our|this|a|with)\s(?:[a-z%¥\d.]+\s){0,3}?"
    r"(?:live |flash |stream )?(?:deal|promo(?:tion)?|discount|sale)\b|"
    r"直播间?(?:优惠|活动)|活动价|直降"
)


_DEAL_RUNNING = re.compile(
    r"\b(?:a|the|our) (?:live |flash |stream )?(?:deal|promo(?:tion)?|discount|sale) "
    r"(?:is )?(?:running|on|live|going on)(?: right)? now\b|正在(?:做|搞)?(?:活动|优惠)"
)


def _deal_now(claims: Claims, world: Support) -> list[Verdict]:
    """A deal said to lower the price now when no deal of the products runs now.

    "With today's ¥10 live deal it drops to ¥69.9" when the product's ¥10 deal ended two days
    ago. A deal said with its timing, denied, under a condition or beside a coupon is not one.
    """
    if not world.now or any(d.running(world.now) for d in world.deals):
        return []
    running = _DEAL_RUNNING.search(claims.text)
    if running and not claims.negated(running.start()):  # "has a live deal running right now"
        return [Verdict(0.0, f"says {running.group(0)!r}; no deal runs now")]
    for m in _DEAL_NOW.finditer(claims.text):
        clause = claims.clause(m.start())
        if claims.negated(m.start()) or _NEGATORS.search(m.group(0)):
            continue  # "with no live deal", "没有直播间优惠"
        if any(p.search(clause) for p in (_TIMING, _COUPON_WORDS, words("condition"))):
            continue  # a deal with its timing, beside a coupon or under a condition
        priced = any(
            n.kind == "price"
            and n.high > 0
            and (claims.clause(n.start) == clause or _led_by(claims.text, m, n.start))
            for n in claims.numbers
        )  # "no live deal, so the discount is CNY 0.0" says no deal runs
        if priced or _PERCENT_OFF.search(clause):
            return [Verdict(0.0, f"says {m.group(0)!r} applies now; no deal runs now")]
    return []


def _led_by(text: str, deal: re.Match[str], at: int) -> bool:
    """Whether a sentence opens with the deal ("With the live deal, it comes to CNY 529.9")."""
    opening = text[max(0, deal.start() - 2) : deal.start()].strip() in ("", "]", ".", "!", "?")
    return opening and deal.end() < at and not re.search(r"[.!?。！？]", text[deal.end() : at])


def _warranty(claims: Claims, world: Support) -> list[Verdict]:
    """A warranty term ("2-year warranty", 保修2年) must be the products' own, in any unit."""
    for m in TERM.finditer(claims.text):
        clause = claims.clause(m.start())
        if not groups("attributes")["warranty"].search(clause) or claims.negated(m.start()):
            continue
        months = term_months(m.group(1), m.group(2))
        if not _near(months, world.warranty_months):
            given = ", ".join(f"{w:g} months" for w in sorted(world.warranty_months)) or "none"
            return [Verdict(0.0, f"unsupported warranty {m.group(0)!r}: the KB gives {given}")]
    return []


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


def _waived_conditions(claims: Claims, world: Support) -> list[Verdict]:
    """A return condition the policy sets, said not to matter ("证书和盒子丢了也没关系")."""
    for m in _WAIVED.finditer(claims.text):
        said = m.group("what") or m.group("need")
        needed = _CONDITION_WORD.get(said, said.rstrip("s").replace("packaging", "box"))
        if needed in world.text and not claims.negated(m.start()):
            return [Verdict(0.0, f"says {m.group(0)!r}; the return conditions need the {needed}")]
    return []


CHECKERS: tuple[Callable[[Claims, Support], list[Verdict]], ...] = (
    _money,
    _percents,
    _codes,
    _shipping,
    _counts,
    _words,
    _list_price_as_price,
    _down_from,
    _end_dates,
    _warranty,
    _deadlines,
    _deal_now,
    _ships_from,
    _waived_conditions,
)
"""One verifier per kind of claim, each ``(claims, support) -> failed verdicts``."""


def unsupported_claims(claims: Claims, world: Support) -> list[Verdict]:
    """A failed verdict for every claim of the answer the world does not support."""
    return [v for check in CHECKERS for v in check(claims, world)]


def any_assurance(text: str) -> bool:
    """Whether prepared ``text`` says any assuring claim word or a warranty (one search)."""
    return any_found(_any_assurance(), text)


@cache
def _any_assurance() -> re.Pattern[str]:
    forms = [w.said.pattern for w in claim_words() if w.assures]
    return any_of([*forms, groups("attributes")["warranty"].pattern])


def invented_assurances(claims: Claims, world: Support) -> list[Verdict]:
    """The unsupported claims that assure the viewer: a warranty, a claim word that ``assures``.

    Invented, "it won't shrink", "hypoallergenic" or "a 1-year warranty" is false (accuracy) and
    may also be a guarantee the compliance rules forbid: reviewers split on that (the safety
    part leaves it undecided).
    """
    assuring = (_unsupported_word(w, claims, world) for w in claim_words() if w.assures)
    return _warranty(claims, world) + [v for v in assuring if v is not None]
