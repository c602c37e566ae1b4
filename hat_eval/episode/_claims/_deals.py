"""Deals an answer says run: a list price given as the price, "down from", a deal now or later.

A deal said to lower the price now must run now; a price said "down from" another must be
lowered by a running deal; a deal said to start or come later must. The dates and times a deal
is said to end are read in :mod:`._deal_dates`.
"""

from __future__ import annotations

import re

from ._answer import Claims, _near, _sentence_of
from ._deal_dates import _COUPON_WORDS, _DATE, _DEAL_WORDS, _ENDS, _month_day
from ._language import _NEGATORS
from ._lexicon import words
from ._support import Support
from ._verdict import Verdict

_PERCENT_OFF = re.compile(
    r"(?<![\d.])(\d+(?:\.\d+)?) ?% ?(?:off|discount|的?(?:限时|直播间?|专属)?(?:折扣|优惠))|"
    r"\b(?:extra|another|additional) (\d+(?:\.\d+)?) ?%|"
    r"(?:额外|再|多)(?:减|优惠|打)?(\d+(?:\.\d+)?) ?%"
)


_TIMING = re.compile(
    r"\b(?:starts?|begins?|ends?|ended|expired|ran|lasted|until|from|tomorrow|yesterday|next|last|"
    r"not (?:yet|live|active|running))\b|"
    r"开始|结束|明天|明晚|明日|后天|昨天|还没|已经过|过期|下周|之后|"
    # a scheduled one ("11月19日晚7点到11点")
    r"\d+月\d+[日号]\s?(?:晚上?|早上?|上午|下午)?\s?\d+点|"
    r"\bruns? (?:from |between )?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* \d|"
    r"\bwould (?:bring|take|make|drop) (?:it|the price|that)\b"  # "which would bring it to ¥194.99"
)
"""A deal said with its timing ("the 12% off deal only starts tomorrow") is a real deal."""


_DEAL_SAID = re.compile(
    r"\b(?:deal|deals|off|discount\w*|promo\w*|sale|was|list(?! (?:of|its|their|the))|"
    r"lists (?:at|for)|listed (?:at|for)|lists (?=[¥$\d])|original\w*|regular\w*|"
    r"before|usually|normally|reduced|marked down|instead of|down from)\b|"
    r"优惠|折|直播价|到手|活动|原价|标价|吊牌价|立减|直降"
)


_TIMES = re.compile(r"\s?(?:[×x*]|times)\s?\d|\s?each\b|\s?(?:一|每)(?:件|个|罐|瓶|盒)")
"""A price multiplied in the answer's worked sum ("¥179.9 × 2"), or a unit price ("¥299 each")."""
_TIMES_BEFORE = re.compile(r"\d\s?[×x*]\s?(?:¥|cny ?|rmb ?)?$")
"""A price multiplied, said after the count ("2 × ¥299")."""
_LIST_ASKED = re.compile(r"\blist(?:ed)? prices?\b[^.!?]{0,40}\?")
"""A question about the list price the next sentence answers."""


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
        times = _TIMES.match(claims.text, n.end) or _TIMES_BEFORE.search(claims.text, 0, n.start)
        if times and _DEAL_SAID.search(claims.text):
            continue  # "¥179.9 × 2 = ¥359.8; the live deal takes off ¥35.98": worked from it
        if _LIST_ASKED.search(_sentence_of(claims.text, n, back=1)):
            continue  # "Prefer a lower list price? Pacefit is 149.90 CNY": the question frames it
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


_DEAL_NOW = re.compile(
    r"\b(?:today is|tonight is|the|our|this|a|with)\s(?:[a-z%¥\d.-]+\s){0,3}?"
    r"(?:live |flash |stream )?(?:deal|promo(?:tion)?|discount|sale)\b|"
    r"\b(?:today is|tonight is|the|our|with) (?:live|stream|livestream) price\b|"
    r"直播间?(?:优惠|活动)|活动价|直降"
)


_DEAL_RUNNING = re.compile(
    r"\b(?:a|the|our) (?:live |flash |stream )?(?:deal|promo(?:tion)?|discount|sale) "
    r"(?:is )?(?:running|on|live|going on)(?: right)? now\b|正在(?:做|搞)?(?:活动|优惠)|"
    r"\b(?:is|are) (?:one of )?(?:tonight is|today is|our|the) (?:live |flash |stream )"
    r"?(?:deals|deal|specials?)\b|\b(?:is|are) on (?:a |our )?(?:live|flash) (?:deal|sale)\b|"
    r"(?:直播间|今晚)(?:专享)?(?:特惠|特价|专享价)|(?:下单)?(?:还能|还可以)再减|"
    r"\b(?:deal|promo(?:tion)?|discount|sale) (?:is |are )?still (?:on|running|live|going)\b|"
    r"\b(?:with|after|including|includes) (?:today is |tonight is |the |our )?"
    r"(?:live |flash |stream )?(?:discount|deal|promo(?:tion)?) (?:already )?"
    r"(?:applied|included|taken off|factored in)\b"
)


_AFTER = re.compile(r"\bafter (?:any )?$")
_AFTER_ZH = re.compile(r"\s?(?:之)?后")


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
        if _AFTER.search(claims.text, 0, m.start()) or _AFTER_ZH.match(claims.text, m.end()):
            continue  # "needs ¥199 after the live deal", 直播优惠后满¥199: a threshold's base
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


_LIVE_ONLY = re.compile(
    r"\b(?:live|stream)[- ](?:exclusive|only)\b|\bexclusive to (?:the |this |our )?"
    r"(?:live ?stream|stream|live)\b|直播(?:间)?(?:专享|独家)|仅限直播"
)


def _live_only(claims: Claims, world: Support) -> list[Verdict]:
    """A deal said to be the live stream's own when the deal running now is not live-only.

    "现在上架的是…还有直播专享优惠" of a 12%-off deal the shop runs everywhere (``live_only``
    false): an exclusivity the knowledge base denies, but the deal's own label says "Live deal",
    and annotators split on it (L381 failed one; both of L497 passed two): undecided.
    """
    running = [d for d in world.deals if world.now and d.running(world.now)]
    said = _LIVE_ONLY.search(claims.text)
    if not running or said is None or claims.negated(said.start()):
        return []
    if any(d.live_only for d in running):
        return []
    why = "annotators split on it (the deal's label says 'Live deal')"
    return [Verdict(None, f"says {said.group(0)!r} of a deal that is not live-only: {why}")]


_DEAL_STARTS = re.compile(
    r"\b(?:starts?|starting|begins?|beginning|kicks? off|goes live)\b|开始|开启"
)


_MIDNIGHT = re.compile(r"\bmidnight\b|零点|凌晨")


def _start_dates(claims: Claims, world: Support) -> list[Verdict]:
    """A date a deal is said to start on must be the start date of one of the products' deals.

    "A 10% off live deal on this bangle starts on Nov 15" when it starts on 16 November (the day
    before counts only where midnight is said: "starts at midnight on the 15th").
    """
    if not world.deals or not _DATE.search(claims.text):
        return []
    starts = {(int(d.starts_at[5:7]), int(d.starts_at[8:10])) for d in world.deals}
    for m in _DATE.finditer(claims.text):
        sentence = _sentence_of(claims.text, m)
        if not _DEAL_STARTS.search(claims.clause(m.start())) or not _DEAL_WORDS.search(sentence):
            continue
        if _COUPON_WORDS.search(sentence) or _ENDS.search(claims.clause(m.start())):
            continue  # a coupon's dates are the coupon checks'; "runs Nov 13-18" the ends'
        if claims.negated(m.start()):
            continue
        days = (
            starts | {(mo, day - 1) for mo, day in starts} if _MIDNIGHT.search(sentence) else starts
        )
        if _month_day(m) not in days:
            return [Verdict(0.0, f"says the deal starts {m.group(0)!r}; no deal of it starts then")]
    return []


_DEAL_COMING = re.compile(
    r"\b(?:deal|discount|promo(?:tion)?|offer|sale|price drop)s?\b[^.!?]{0,40}?\b(?:dropping|"
    r"drops?|coming|landing|launching|going live|starts?|starting|kicks? off)\b[^.!?]{0,24}?"
    r"\b(?:later|soon|tomorrow|this week|next week|tonight|this weekend)\b|"
    r"(?:明天|之后|过几天|下周|晚点|稍后|晚些)[^，。！？,.!?]{0,10}(?:有|上|开)[^，。！？,.!?]{0,8}"
    r"(?:优惠|活动|折扣|福利|秒杀)|"
    # "下周直播间的Skinfolk粉底液还有25%的限时折扣等你"
    r"(?:明天|下周|下次)[^，。！？,.!?]{0,24}还有[^，。！？,.!?]{0,10}(?:优惠|折扣|福利|秒杀)"
)


def _deal_coming(claims: Claims, world: Support) -> list[Verdict]:
    """A deal said to come later when none of the products' deals starts after now.

    "We've got a special live-only discount on the cleanser dropping later this week" of a
    product with no promotion: a deal the viewer will wait for that the shop never planned.
    """
    if not world.now or not world.prices or any(d.starts_at > world.now for d in world.deals):
        return []
    said = _DEAL_COMING.search(claims.text)
    if said is None or claims.negated(said.start()):
        return []
    return [Verdict(0.0, f"says {said.group(0)!r}; no deal of it starts later")]
