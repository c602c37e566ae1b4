"""Dates and times an answer says a deal or coupon ends: each must be the deal's own.

A deal said to end on a date, on a weekday, tonight at a time or by a deadline must end then;
a coupon said valid from or until a date must be (:func:`coupon_dates`, read by
:mod:`._options`). The date forms (``_DATE``, ``_month_day``) serve :mod:`._deals` too.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from ._answer import Claims, _first, _sentence_of
from ._lexicon import words
from ._support import Support
from ._text import in_parentheses
from ._verdict import Verdict

_COUPON_WORDS = re.compile(
    r"\b(?:coupons?|codes?|vouchers?)\b|券|码|(?<![a-z])[a-z]{2,}\d{1,4}(?![a-z0-9])"
)
"""Words that name a coupon ("code", 券, SAVE20)."""

_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTH = rf"({'|'.join(_MONTHS)})[a-z]*\.?"
_DATE = re.compile(
    rf"\b(\d{{1,2}})(?:st|nd|rd|th)? (?:of )?{_MONTH}(?![a-z])|"
    rf"\b{_MONTH} (\d{{1,2}})(?:st|nd|rd|th)?\b|"
    r"(\d{1,2})月(\d{1,2})[日号]|\b20\d\d-(\d{2})-(\d{2})\b"
)
_ENDS = re.compile(
    r"\b(?:ends?|ending|until|till|through|expires?|runs? out|wraps? up|last day)\b|截止|结束|为止|"
    r"持续到|有效期到"
)
_ENDS_AT_TIME = re.compile(
    r"\b(?:until|till|ends?|through|by)\s(?:\d{1,2}:\d{2}\s(?:on\s)?|"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s(?:the\s)?)$|活动到$"
)
"""An end said with its time or weekday before the date ("until 23:59 on Nov 26", "lasts
through Saturday, Nov 21": the comma splits clauses) or as the deal's reach (活动到11月15日)."""
_TIME_THEN_ENDS = re.compile(r"\s?\d{1,2}[:：]\d{2}(?:[:：]\d{2})?\s?(?:就|前)?(?:截止|结束)")
"""A date's time and its end after it (11月22日23:59截止): the colon splits clauses."""
_DEAL_WORDS = re.compile(
    r"\b(?:deal|promo\w*|offer|discount|sale|off)(?![a-z])|活动|优惠|直降|立减|折|直播价|闪购|限时"
)


def _month_day(m: re.Match[str]) -> tuple[int, int]:
    g = m.groups()
    if g[0]:
        return _MONTHS.index(g[1][:3]) + 1, int(g[0])
    if g[2]:
        return _MONTHS.index(g[2][:3]) + 1, int(g[3])
    if g[4]:
        return int(g[4]), int(g[5])
    return int(g[6]), int(g[7])


_LATER = re.compile(
    r"\b(?:starts?|begins?|upcoming|next|later|another|also|flash)\b|"
    r"(?<!down )(?<!reduced )\bfrom\b|"
    r"开始|明天|明晚|之后|另|闪购"
)
"""Words of a deal still to come ("a flash deal from 19:00 that ends 5 Nov at 23:00"); a price
"down from ¥409" is none."""


def _end_dates(claims: Claims, world: Support) -> list[Verdict]:
    """A date a deal is said to end on must be the end date of one of the products' deals.

    "The deal ends 14 November at 23:59" when it runs until 18 November. A sentence that names
    a coupon is left alone (a coupon's own dates are the coupon checks').
    """
    if not world.deals or not _DATE.search(claims.text):
        return []
    running = [d for d in world.deals if world.now and d.running(world.now)]
    ends, ends_running = set(), set()
    for d in world.deals:
        month, day = int(d.ends_at[5:7]), int(d.ends_at[8:10])
        # a deal to 00:00 ends "at midnight" of the day before too
        days = {(month, day), (month, day - 1)} if d.ends_at[11:16] == "00:00" else {(month, day)}
        ends |= days
        ends_running |= days if d in running else set()
    for m in _DATE.finditer(claims.text):
        sentence = _sentence_of(claims.text, m)
        clause = claims.clause(m.start())
        aside = in_parentheses(claims.text, m.start())  # "wraps up tomorrow night (Nov 20)"
        at_time = _ENDS_AT_TIME.search(
            claims.text, max(0, m.start() - 30), m.start()
        ) or _TIME_THEN_ENDS.match(claims.text, m.end())
        if not (_ENDS.search(clause) or aside and _ENDS.search(sentence) or at_time):
            continue
        if not _DEAL_WORDS.search(sentence):
            continue
        if _COUPON_WORDS.search(sentence) or claims.negated(m.start()):
            continue
        # "the deal ends 5 Nov" of a running deal: not the end of a flash deal still to come,
        # unless the sentence speaks of one that starts later
        said_ends = ends if not running or _LATER.search(sentence) else ends_running
        if _month_day(m) not in said_ends:
            return [Verdict(0.0, f"says the deal ends {m.group(0)!r}; no deal of it ends then")]
    return []


_EXPIRED = re.compile(
    r"\b(?:expired|expires?|ended|ends?|ran out|runs? out)\b|过期|到期|截止|结束|"
    r"(?<!not )\b(?:valid|good) (?:until|till|through)\b|有效期?(?:到|至)"  # "valid until Nov 15"
)


_STARTS = re.compile(
    r"\b(?:from|starts?|started|starting|since|begins?|began|kicks? in|goes live|"
    r"becomes? (?:valid|active|usable))\b|开始|生效|起"
)
_NOT_UNTIL = re.compile(
    r"(?:\bnot|n't|n’t) (?:be )?(?:usable |used )?"
    r"(?:start|begin|open|kick in|go live|work|valid|active|live|usable)\w* (?:until|till|before)\b"
)
_TO = re.compile(r"\bto\b|–|至|到")
"""A range's second end ("valid from 1 Dec to 12 Dec"): a start said with it ends the range."""


_OF_IT = re.compile(r"[\s,，:：—-]*(?:it|it is|that|which|它|这张券?|该券)\b")
"""A clause that goes on about the coupon named before it ("…, it starts on Dec 12")."""


def coupon_dates(claims: Claims, coupons: dict[str, tuple[str, str]]) -> list[Verdict]:
    """A date a named coupon is said to expire or start on must be one of its dates.

    "RUN50 已于 11月8日过期" when RUN50 started on 8 November and ran to 18 November; "DOUBLE12
    only kicks in on 12 December" when it starts on 1 December: the coupon (``coupons``: code ->
    (``starts_at``, ``ends_at``)) and a date said in one clause with an expiry or a start word.
    A clause that says both ("valid from 8 Nov to 18 Nov") may give either date.
    """
    if not any(p.search(claims.text) for p in (_EXPIRED, _STARTS, _NOT_UNTIL)):
        return []
    if not _DATE.search(claims.text):
        return []
    for code, (starts_at, ends_at) in coupons.items():
        if code.lower() not in claims.text:
            continue
        for c in re.finditer(rf"(?<![a-z0-9]){re.escape(code.lower())}(?![a-z0-9])", claims.text):
            clause = claims.clause(c.start())
            if not _DATE.search(clause):  # "DOUBLE12 isn't active yet, it starts on Dec 12"
                sentence = _sentence_of(claims.text, c)
                after = sentence[sentence.find(clause) + len(clause) :]
                clause += after if _OF_IT.match(after) else ""
            ends = _EXPIRED.search(clause)
            starts = _STARTS.search(clause) or _NOT_UNTIL.search(clause)  # "isn't valid until"
            if not (ends or starts):
                continue
            month, day = int(ends_at[5:7]), int(ends_at[8:10])
            own = set()
            if (ends or _ENDS.search(clause) or _TO.search(clause)) and not _NOT_UNTIL.search(
                clause
            ):  # "doesn't start until Dec 12" says the start, not the end
                own |= {(month, day), (month, day + 1)}
            if starts:
                own.add((int(starts_at[5:7]), int(starts_at[8:10])))
            for m in _DATE.finditer(clause):
                if _month_day(m) not in own:
                    kind, date = ("ends", ends_at) if ends else ("starts", starts_at)
                    said = m.group(0)
                    return [Verdict(0.0, f"says {code} {kind} {said!r}; it {kind} {date[:10]}")]
    return []


def _deadlines(claims: Claims, world: Support) -> list[Verdict]:
    """A deal said to end tonight or tomorrow must end on that day.

    "Ends tonight" and 今晚结束 on the session's date; 明晚23:59截止 and "until tomorrow night" on
    the day after.
    """
    if not world.now:
        return []
    running = [d for d in world.deals if d.running(world.now)]
    today = date.fromisoformat(world.now[:10])
    for key, day in (("ends_today", today), ("ends_tomorrow", today + timedelta(days=1))):
        if any(d.ends_at[:10] == day.isoformat() for d in running):
            continue
        m = _first(words(key), claims)
        if m is not None and _COUPON_WORDS.search(claims.clause(m.start())):
            continue  # "FLASH5 ends tonight at 23:59": a coupon's end is the coupon checks'
        if m is not None:
            ends = min((d.ends_at[:10] for d in running), default=None)
            truth = f"the deal runs until {ends}" if ends else "no deal runs now"
            return [Verdict(0.0, f"says {m.group(0)!r}; {truth}")]
    return []


_WEEKDAYS = ("mon", "tues", "wednes", "thurs", "fri", "satur", "sun")
_WEEKDAY_END = re.compile(
    r"\b(?:until|till|through|lasts? (?:until|till|through)) (?:this )?(mon|tues|wednes|thurs|fri|"
    r"satur|sun)day\b|(?:一直)?(?:到|持续到)(?:这|本)?(?:周|星期)([一二三四五六日天])"
    r"(?:都有|都在|为止|结束|截止|还有)"
)
"""A deal said to last until a weekday ("runs until Friday", 这个优惠一直到周五都有)."""


def _weekday_ends(claims: Claims, world: Support) -> list[Verdict]:
    """A deal said to last until a weekday must run until that day (its next one from now).

    "这个优惠一直到周五都有" on a Monday when the ¥20 off ends Wednesday: the viewer who waits
    pays more (both annotators of L510 failed it).
    """
    m = _WEEKDAY_END.search(claims.text) if world.now else None
    running = [d for d in world.deals if d.running(world.now)] if m else []
    if m is None or not running or claims.negated(m.start()):
        return []
    if not _DEAL_WORDS.search(_sentence_of(claims.text, m)):
        return []
    weekday = _WEEKDAYS.index(m.group(1)) if m.group(1) else "一二三四五六日天".index(m.group(2))
    today = date.fromisoformat(world.now[:10])
    said = today + timedelta(days=(min(weekday, 6) - today.weekday()) % 7)
    ends = max(d.ends_at[:10] for d in running)
    if ends >= said.isoformat():
        return []
    return [Verdict(0.0, f"says the deal lasts {m.group(0)!r} ({said}); it ends {ends}")]


_ZH_HOUR = {"十二": 12, "十一": 11, "十": 10, "零": 0}
_TONIGHT_AT = re.compile(
    r"(?:今晚|今天晚上|今夜|晚上)\s?(\d{1,2}|十二|十一|十|零)\s?(?:[:：](\d{2})|点(?:(\d{1,2})分|半)?)|"
    r"\b(?:at |by |until |till |before )"
    r"(midnight|(\d{1,2})(?::(\d{2}))? ?(am|pm)|(\d{1,2}):(\d{2}))"
    r"(?= tonight| today|[^.!?]{0,20}\btonight\b)|"
    r"\btonight (?:at |by |until |till )?(midnight|(\d{1,2})(?::(\d{2}))? ?(pm)|(\d{1,2}):(\d{2}))"
)
"""A time tonight (今晚12点, 今晚23:59, "at 11 pm tonight", "tonight at midnight")."""


_BEFORE_IT = re.compile(r"\s?(?:之前|以前|前)")
"""A time the deal holds before (晚上12点前下单都有效): its end."""


def _minutes_tonight(m: re.Match[str]) -> float | None:
    """The minute of the day a :data:`_TONIGHT_AT` match names (24:00 for midnight, 今晚12点)."""
    g = m.groups()
    if g[0] is not None:  # Chinese: an evening hour
        hour = _ZH_HOUR.get(g[0]) if not g[0].isdigit() else int(g[0])
        assert hour is not None
        hour = hour + 12 if 0 < hour < 12 else (24 if hour in (0, 12) else hour)
        half = 30 if m.group(0).endswith("半") else 0
        return hour * 60 + int(g[1] or g[2] or half)
    for i in (3, 10):  # English: midnight, 11 pm, 23:00
        if g[i] is None:
            continue
        if g[i] == "midnight":
            return 24 * 60
        if g[i + 1] is not None:
            hour = int(g[i + 1]) % 12 + (12 if g[i + 3] == "pm" else 0)
            return hour * 60 + int(g[i + 2] or 0)
        return int(g[i + 4]) * 60 + int(g[i + 5])
    return None


def _end_times(claims: Claims, world: Support) -> list[Verdict]:
    """A deal said to end at a time tonight must end then (within a minute: 23:59 is midnight).

    "Lumière防晒今晚还有¥100立减，今晚12点结束" of a deal ending at 23:00. Read only where a
    running deal of the products ends on the session's day.
    """
    if not world.now or not _TONIGHT_AT.search(claims.text):
        return []
    today = world.now[:10]
    ends = [d.ends_at for d in world.deals if d.running(world.now) and d.ends_at[:10] == today]
    if not ends:
        return []
    minutes = [int(e[11:13]) * 60 + int(e[14:16]) + int(e[17:19] or 0) / 60 for e in ends]
    for m in _TONIGHT_AT.finditer(claims.text):
        said = _minutes_tonight(m)
        clause, sentence = claims.clause(m.start()), _sentence_of(claims.text, m)
        ends_said = _ENDS.search(clause) or _BEFORE_IT.match(claims.text, m.end())
        if said is None or not ends_said or not _DEAL_WORDS.search(sentence):
            continue
        if _COUPON_WORDS.search(sentence) or claims.negated(m.start()):
            continue
        if all(abs(said - t) > 1 for t in minutes):
            truth = ", ".join(e[11:16] for e in ends)
            return [Verdict(0.0, f"says the deal ends {m.group(0)!r}; it ends at {truth}")]
    return []
