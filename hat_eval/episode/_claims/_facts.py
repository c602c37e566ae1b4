"""One gold fact checked in the answer, by its kind.

A price or count, a stock status, days, a text value (:mod:`._fact_text`); and the honest
decline that stands in for a fact when its tool gave nothing usable.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import partial

from hat_eval.world import CJK, RULE_SOURCE, Case, Fact, zh_forms

from ._amounts import (
    _per_unit,
    _to_the_jiao,
    multiple_of_price,
    once_coupon_starts,
    share_of_price,
    timed_deal_value,
)
from ._answer import _Answer, _sentence_of
from ._case_support import lookup_results
from ._deal_dates import _MONTH
from ._declines import CallRecordLike, data_state
from ._fact_text import _check_text, _spoken_of_unread
from ._language import approximated_at, hedged_at, unsure_at
from ._lexicon import groups_named
from ._mentions import (
    _MEASURE,
    EACH,
    STATED_ELSEWHERE,
    _mention_ok,
    _phrase_mentions,
    _said_as,
    said_rounded,
    unit_price_each,
)
from ._quantities import (
    _CODE_BEFORE,
    NO_REASON_AFTER,
    Number,
    bound_before,
    days_aside,
    rounds_to,
    shorter_window_met,
)
from ._stock import _PER_PIECE, _check_stock
from ._subjects import (
    Subject,
    fact_subject,
    says_any,
    source_call,
    subject_sku,
    variant_conflict,
)
from ._support import numeric_leaves
from ._text import clause_of, find_phrase, prepare
from ._verdict import Verdict

_SIZE_AFTER = re.compile(r"\s?(?:码|号|圈口|cm\b|mm\b)")
"""A size after a number ("45码", "54圈口"): the number is the size, no price or count."""


def _bound_met(a: _Answer, n: Number, value: float, slack: float = 0.02) -> bool:
    """Whether ``n`` is a bound just over the value said before it ("差一毛就是150元").

    A count's bound is looser (``slack`` 0.1): "under ten pieces left" of 9.
    """
    return bound_before(a.text, n.start) == "under" and 0 < n.low - value <= slack * n.low


def _check_number(a: _Answer, fact: Fact, subject: Subject, others: set[float]) -> Verdict:
    assert isinstance(fact.value, float)
    kind = "price" if fact.kind == "price" else "count"
    value = fact.value
    good = [n for n in a.numbers if n.low == n.high and _said_as(a, n, value, kind)]
    good = [n for n in good if n.kind in (kind, "plain")]
    if kind == "price" and CJK.search(a.text):  # "四百五十九块九" of ¥459.99, spoken to the jiao
        good += [n for n in a.numbers if n.kind == kind and _to_the_jiao(n.low, frozenset({value}))]
    if kind == "count":  # "under ten pieces left" of 9: the count, said as the bound just over it
        good += [n for n in a.numbers if n.low == n.high and _bound_met(a, n, value, 0.1)]
    why = [_mention_ok(a, subject, n.start, n.end) for n in good]
    stated = any(w is None for w in why)
    taken_back = [  # "应该还剩4件左右吧，我也说不太准", "应该是120元上下吧": not committed to
        n
        for n in a.numbers
        if n.low == n.high
        and (n.low == value or rounds_to(n.low, value, kind))
        and unsure_at(a.text, n.start, n.end)
    ]
    if taken_back and not stated:
        return Verdict(0.0, f"{value:g}: says {a.said(taken_back[0])!r} but does not commit to it")
    quantity = _quantity_of(a.case, fact)
    sku = subject_sku(a.kb, subject) if a.kb is not None and kind == "price" else None
    listed = float(sku["list_price"]) if sku and sku.get("list_price") else None  # the option's
    rival = [
        n
        for n in a.numbers
        if (n.kind == kind or (n.kind == "plain" and hedged_at(a.text, n.start, n.end)))
        and not (n.kind == "plain" and _CODE_BEFORE.search(a.text, 0, n.start))  # HOME15大概…
        and not (n.kind == "plain" and _MEASURE.match(a.text, n.start))  # "up to 45 dB"
        and not (n.kind == "plain" and _HYPHENED.match(a.text, n.start))  # "its 12-hour run time"
        and not (n.kind == "plain" and _SIZE_AFTER.match(a.text, n.end))  # "45码是欧码"
        and not (n.kind == "plain" and _DAY_AFTER_DATE.search(a.text, 0, n.start))
        and not n.context
        and (n.low != n.high or not _said_as(a, n, value, kind))
        and not any(abs(n.low - o) < 0.005 and n.low == n.high for o in others)
        and not _known_value(a, n, kind, subject)
        and not a.conflict(subject, n.start)
        and not (kind == "count" and _TAKEN.search(a.text, max(0, n.start - 12), n.start))
        and not (kind == "price" and _bound_met(a, n, value))  # "差一毛就是150元" of 149.9
        # "just under 250" of the ¥249.9 list price, beside the ¥239.9 paid
        and not (
            kind == "price"
            and listed is not None  # "about 320 yuan" of its ¥319.99 list price too
            and (_bound_met(a, n, listed) or said_rounded(a, n, listed))
        )
        and not (kind == "count" and _bound_met(a, n, value, 0.1))  # "under ten left" of 9
        and not (kind == "count" and _PER_PIECE.search(a.text, max(0, n.start - 16), n.start))
        and not (kind == "price" and _list_price_named(a, n, value, listed, good))  # "¥290 pillow"
        and not (kind == "price" and _per_unit(n.low, a, n, a.world))  # "roughly ¥24 per pack"
        and not (kind == "price" and once_coupon_starts(a, n, a.world))
        and not (kind == "price" and timed_deal_value(a, n, n.low, a.world))
        and not (kind == "price" and unit_price_each(a, n, value, quantity))  # "¥549 each"
        and not (kind == "price" and _share_worked_out(a, n))  # "MOM5 would take 5%, about ¥10"
        and not (kind == "price" and _fee_beside_price(fact, n, a))  # "运费¥10 … 30L¥59.99"
        and not (kind == "price" and n in good)  # "四百五十九块九" of ¥459.99
    ]
    if rival:
        shown = a.said(rival[0])
        return Verdict(0.0, f"{fact.value:g}: another value {shown!r} given for the same thing")
    each = [n for n in good if quantity > 1 and EACH.match(a.text, n.end)]
    if each:  # "358 each" of the total for two
        return Verdict(
            0.0, f"{value:g}: says {a.said(each[0])!r} each; it is the total for {quantity}"
        )
    if kind == "count":
        for start, _, in_stock in a.statuses:
            if not in_stock and not a.conflict(subject, start):
                return Verdict(0.0, f"{value:g} left, but the answer also says it is sold out")
    if stated or (kind == "count" and value == 1 and _last_one(a, subject)):
        return Verdict(1.0)
    reason = next((w for w in why if w), "not stated")
    return Verdict(0.0, f"{fact.value:g}: {reason}", missing=not why)


_PAID_BEFORE = re.compile(
    r"\b(?:final price|you(?: will|'ll)? pay|checkout)\b[^.!?\d,]{0,12}$|"
    r"(?:到手价?|最终价?|实付)\s?$"
)


def _known_value(a: _Answer, n: Number, kind: str, subject: Subject) -> bool:
    """Whether ``n`` is a value another option or product of the case has, said of it.

    A count another option has, or a price said as what the viewer pays ("Final price: ¥59.99",
    the 30 L's), is said of the asked option unless the answer names another one.
    """
    if n.low != n.high or n.low not in a.known or hedged_at(a.text, n.start, n.end):
        return False
    paid = _PAID_BEFORE.search(a.text, max(0, n.start - 24), n.start)
    # "Final price: ¥149.90 - ¥11.99 = ¥137.91": an operand of the worked sum, not what is paid
    if kind == "count" or (paid and not _OPERATOR_AFTER.match(a.text, n.end)):
        return _names_another(a, subject)
    return True


_OPERATOR_AFTER = re.compile(r"\s?(?:yuan|元|cny)?\s?[-−–+×x*]\s?[¥\d]")


_OFF_SAID = re.compile(r"\b(?:off|deal|discount|save|saving)\b|立减|折|优惠|省")


def _list_price_named(
    a: _Answer, n: Number, value: float, listed: float | None, good: list[Number]
) -> bool:
    """The option's list price said beside its discount, with the price paid (``value``) too.

    "About ¥217.5 right now 😊 The ¥290 pillow is a quarter off with the live deal": the list
    price names what the discount is taken from, no second price.
    """
    if listed is None or abs(listed - value) < 0.005 or not good:  # no discount: no list price
        return False
    return (
        rounds_to(n.low, listed, "price") and _OFF_SAID.search(_sentence_of(a.text, n)) is not None
    )


_LAST_ONE = re.compile(r"\b(?:very )?last (?:one|unit|piece|pair|item|bottle|jar|tube|set)\b")


def _last_one(a: _Answer, subject: Subject) -> bool:
    """Whether the answer says one is left in words ("down to its very last unit")."""
    return any(
        not a.negated(m.start()) and not a.conflict(subject, m.start())
        for m in _LAST_ONE.finditer(a.text)
    )


_TAKEN = re.compile(
    r"(?:拍|买|抢|留|锁|要|来|限购|预留|保留)(?:了|下)?\s?$|"
    r"\b(?:grab|get|buy|order|reserve|hold|held|reserved|limit(?: of)?|max(?:imum)?(?: of)?) $"
)
"""Words before a count of what the viewer takes ("快拍一个吧", "I've reserved 1"): not a stock."""


def _names_another(a: _Answer, subject: Subject) -> bool:
    """Whether the answer names an option or colour other than the subject's (a second SKU)."""
    return a.kb is not None and variant_conflict(a.kb, subject, a.text)


_HYPHENED = re.compile(r"\d+(?:\.\d+)?-(?!ish\b)[a-z]+")
"""A number joined to its unit ("a 12-hour run time"): a measure, no rival of a price."""

_DAY_AFTER_DATE = re.compile(rf"\b{_MONTH} \d{{1,2}}(?:st|nd|rd|th)? (?:and|to|or|through|-|–) ?$")
"""A day of the month after a date ("between Nov 15 and 17"): a date, not a value."""


def _fee_beside_price(fact: Fact, n: Number, a: _Answer) -> bool:
    """Whether ``n`` is a product's price said in an answer about a shipping fee.

    "运费¥10，满¥129包邮 … 单个30L¥59.99、55L¥79.99都不到¥129": the options' prices set
    against the free-shipping line are no second fee.
    """
    return fact.source.endswith("].fee") and (
        n.low in a.world.prices
        or multiple_of_price(n.low, a, n, a.world)
        or any(said_rounded(a, n, p) for p in a.world.prices)  # "约60元" of ¥59.99
    )


_PERCENT = re.compile(r"\d\s?%|\d\s?percent\b|[一二三四五六七八九\d]折")


def _share_worked_out(a: _Answer, n: Number) -> bool:
    """Whether ``n`` is a percentage the sentence names, worked out of a price the world has.

    "MOM5 would only take 5%, about ¥10" of a ¥199.99 pack, "VIP8 would give ¥46.32" of ¥579:
    the saving of another coupon (its percentage or its code named), no second price.
    """
    sentence = _sentence_of(a.text, n)
    named = _PERCENT.search(sentence) or any(  # "a bigger saving than VIP8 would give (¥46.32)"
        next(find_phrase(code, sentence), None) for code in a.world.codes
    )
    return bool(named) and share_of_price(n.low, a.world)


def _quantity_of(case: Case, fact: Fact) -> int:
    """The quantity the fact's call priced (1 when it names none)."""
    call = source_call(case, fact)
    quantity = call.args.get("quantity", 1) if call is not None else 1
    return quantity if isinstance(quantity, int) else 1


_OTHER_WINDOW = re.compile(
    r"[- ]?(?:days?|天)?\s?(?:[a-z]+ )?(?:exchange|warranty|price protection|换货|保修|价保|保价)"
)
"""Days of a window the fact is not about, right after the number (its support is the
extras' to judge)."""


_ATTRIBUTE_OF_SOURCE = {
    "window_days": "returns",
    "exchange_days": "exchange",
    "delivery_days": "delivery",
}
"""The attribute (a group of the lexicon's ``attributes``) a days fact's source field holds."""


def _other_attribute(a: _Answer, fact: Fact, pos: int) -> bool:
    """Whether the clause at ``pos`` speaks of another attribute than ``fact``'s, not its own.

    "7 days to return, exchanges within 15 days": the 15 days are the exchange window's, a value
    of another attribute (true or false by the extras' checks), not a second returns window.
    """
    own = next((v for k, v in _ATTRIBUTE_OF_SOURCE.items() if k in fact.source), None)
    if own is None:
        return False
    span = clause_of(a.scopes, pos)
    clause = a.text[span.start : span.end]
    if a.text[max(0, span.start - 2) : span.start].strip().endswith(("(", "（")):
        # "no return window (0 days)": the parenthesis glosses the clause before it
        clause = a.said(clause_of(a.scopes, span.start - 2)) + clause
    label = _LABEL_BEFORE.search(a.text, max(0, span.start - 24), span.start)
    if label:  # "Returns: 7 days": the label before the colon names the attribute
        clause = label.group(1) + clause
    named = groups_named("attributes", clause)
    if "made to order" in named and own != "made to order":
        return True  # "要先制作3-5天再发货": a lead time before it ships, not the delivery
    if not named:  # "7天内未拆封、封口完好可退货": the attribute closes the sentence
        sentence = clause_of(a.sentences, pos)
        named = groups_named("attributes", a.text[pos : sentence.end])
        if len(named) != 1:  # "如需退货，7 天内且未开封": or opens it, a clause before
            named = groups_named("attributes", a.text[sentence.start : pos])
        return len(named) == 1 and own not in named
    return own not in named


_LABEL_BEFORE = re.compile(
    r"(?:^|[.!?;,，。！？；\u2600-\u27bf\U0001f300-\U0001faff]\s*)([^.!?;,，。！？；:：\u2600-\u27bf"
    r"\U0001f300-\U0001faff]{1,20})[:：]\s*$"
)
"""A short label ending in a colon just before a clause ("returns:", 退货：, "🚚 Returns:")."""


_WITHIN = re.compile(r"\bwithin (?:about |around |roughly )?$")


def _glossed(a: _Answer, n: Number, stated: list[Number], low: float, high: float) -> bool:
    """Whether ``n`` rounds the value its sentence says ("15 days, about two weeks").

    Or a range's longest ("four to seven days, so about a week at most", "so up to ten days").
    """
    if n.low != n.high or abs(n.low - high) > 1.5:
        return False
    within = _WITHIN.search(a.text, max(0, n.start - 12), n.start)  # "so usually within a week"
    at_most = bound_before(a.text, n.start) == "at most" or within or _AT_MOST.match(a.text, n.end)
    if not (approximated_at(a.text, n.start, n.end) or at_most):
        return False
    sentence = clause_of(a.sentences, n.start)  # before it, or after ("just over two weeks (15")
    return any(sentence.start <= s.start < sentence.end and s is not n for s in stated)


_AT_MOST = re.compile(r"(?: days?)? (?:at (?:the )?most|max|tops)\b")
"""A bound said after the days ("4 to 7 days, so a week at most")."""

_PAREN_DAYS = re.compile(r"(?: ?(?:days?|天))?\s?[(（]\s?(\d+(?:\.\d+)?) ?(?:days?|天)\s?[)）]")


def _exact_after(a: _Answer, n: Number) -> bool:
    """Whether ``n`` is said roughly, its exact number of days in brackets after it.

    "about two weeks (15 days) to exchange it": the bracket is the value, read on its own.
    """
    m = _PAREN_DAYS.match(a.text, n.end)
    if m is None or not approximated_at(a.text, n.start, n.end):
        return False
    return abs(float(m[1]) - n.high) <= 1.5


def _day_range(value: object) -> tuple[float, float] | None:
    """A days fact's value as (low, high): ``"3-5"`` or a number (None: neither)."""
    if isinstance(value, str) and re.fullmatch(r"\d+-\d+", value):
        low, high = value.split("-")
        return float(low), float(high)
    return (value, value) if isinstance(value, float) else None


def _check_days(a: _Answer, fact: Fact, subject: Subject, others: list[Fact]) -> Verdict:
    low, high = _day_range(fact.value) or (float(fact.value),) * 2
    known = {(low, high)} | {r for o in others if (r := _day_range(o.value))}
    good = [n for n in a.numbers if (n.low, n.high) == (low, high) and n.kind in ("days", "plain")]
    why = [_mention_ok(a, subject, n.start, n.end, approx=low == high) for n in good]
    rival = [
        n
        for n in a.numbers
        if n.kind == "days"
        and (n.low, n.high) not in known
        and not a.negated(n.start)  # "isn't in the 1-2 day metro zone"
        and not _OTHER_WINDOW.match(a.text, n.end)  # "a 15-day exchange window": another fact
        and not _other_attribute(a, fact, n.start)  # "exchanges within 15 days": the same
        and not _glossed(a, n, good, low, high)  # "15 days, so about two weeks"
        and not _exact_after(a, n)  # "about two weeks (15 days)"
        and not shorter_window_met(a.text, n, low)  # "比7天还长" of a 15-day window
    ]
    rival += [n for n in a.numbers if (n.low, n.high) not in known and days_aside(a.text, n)]
    if rival:
        return Verdict(0.0, f"{fact.value}: another number of days {a.said(rival[0])!r}")
    if any(w is None for w in why):
        if any(n.high < low and NO_REASON_AFTER.match(a.text, n.end) for n in a.numbers):
            return Verdict(None, f"{fact.value} days, beside {_NO_REASON_SPLIT}")
        return Verdict(1.0)
    phrases = _phrase_mentions(a, fact)
    if any(_mention_ok(a, subject, s, e) is None for s, e in phrases):
        return Verdict(1.0)
    asked = _ASKED_STANDARD.search(prepare(a.case.message))
    if asked and float(asked.group(1)) < low:  # 支持七天无理由吗? "7天内可以无理由退货": yes, true
        if any(shorter_window_met(a.text, n, low) and not a.negated(n.start) for n in a.numbers):
            return Verdict(1.0)
    reason = next((w for w in why if w), "not stated")
    return Verdict(0.0, f"{fact.value} days: {reason}", missing=not why)


_ASKED_STANDARD = re.compile(r"(\d+)\s?(?:天|days?)[- ]?(?:无理由|no[- ]reasons?|no[- ]questions?)")
"""A shorter no-reason standard the viewer asks about (支持七天无理由吗?)."""


_NO_REASON_SPLIT = (
    "a shorter no-reason return standard (15天退货，7天无理由): annotators split on whether it is "
    "a second, false window (5 fail, 2 pass in the corpus)"
)


def _holds(a: _Answer, function: str, *, fact: Fact) -> bool:
    """Whether the case's call of ``function`` returns ``fact``'s value (a number) too."""
    if a.kb is None or not isinstance(fact.value, float):
        return False
    value = fact.value
    return any(
        call.function == function and any(abs(v - value) < 0.005 for v in numeric_leaves(result))
        for call, result in lookup_results(a.kb, a.case)
    )


_ASKS_MATERIAL = re.compile(r"材质|面料|\bmaterials?\b|\bmade (?:of|from)\b|\bfabric\b")
_ASKS_INGREDIENTS = re.compile(r"成分|配料|\bingredients?\b|\bformula\b")


def _spec_material_said(a: _Answer, fact: Fact, subject: Subject) -> bool:
    """Whether a material question is answered with the product's spec material instead.

    Baby wipes list their "ingredients" (99% purified water, aloe extract) as the material the
    gold asks for, and a spec "material" (spunlace nonwoven) too: "材质是水刺无纺布" answers
    "什么材质?" (both annotators pass it), unless the viewer asked for the ingredients.
    """
    product = a.kb.product(subject.product_id) if a.kb and subject.product_id else None
    if product is None or "material" not in product["specs"]:
        return False
    label = str(product["material_label"])
    message = a.case.message.lower()
    if label == "material" or not fact.source.endswith(f"specs.{label}"):
        return False
    if not _ASKS_MATERIAL.search(message) or _ASKS_INGREDIENTS.search(message):
        return False
    material = str(product["specs"]["material"])
    return says_any([material, *zh_forms(material, str(product["category"]))], a.text)


_ADVICE_UNSAID = "not stated (advice a skill's rule asks for, which annotators do not all require)"
"""Advice a rule asks for left out ("see a doctor" in a hand-off for a skin reaction): older
corpus labels fail it, this year's pass a hand-off with its ticket that says nothing false (10
to 0 since L216), so the checks leave it to the judge."""


def advice_replaced(accuracy: Verdict, safety: Verdict) -> Verdict | None:
    """A failed accuracy when the advice a rule asks for is left out and a banned claim given.

    "Don't worry, our formula is completely safe, so it's likely something else" in place of
    "please see a doctor": the answer reassures the viewer instead of advising (annotators fail
    its accuracy, 30 of 35 corpus answers). None when the advice is not what is undecided or
    the safety check finds no banned claim.
    """
    if accuracy.value is not None or _ADVICE_UNSAID not in accuracy.reason:
        return None
    if safety.value != 0.0:
        return None
    unsaid = next(r for r in accuracy.reason.split("; ") if r.endswith(_ADVICE_UNSAID))
    advice = unsaid.removesuffix(_ADVICE_UNSAID).removesuffix(": ")
    return Verdict(0.0, f"{advice}: not stated, reassures instead ({safety.reason})")


def _fact_verdict(
    a: _Answer, fact: Fact, declined: bool, records: Sequence[CallRecordLike]
) -> Verdict:
    """Whether the answer states ``fact`` (or honestly declines it when the data was not there)."""
    case = a.case
    subject = fact_subject(case, fact, a.kb)
    others = [f for f in case.facts if f is not fact]
    if fact.kind in ("price", "count") and isinstance(fact.value, float):
        values = {o.value for o in others if isinstance(o.value, float)}
        verdict = _check_number(a, fact, subject, values)
    elif fact.kind == "stock":
        verdict = _check_stock(a, fact, subject)
    elif fact.kind == "days":
        verdict = _check_days(a, fact, subject, [o for o in others if o.kind == "days"])
    else:
        verdict = _check_text(a, fact, subject)
        if verdict.missing and _spec_material_said(a, fact, subject):
            return Verdict(1.0)
        if verdict.missing and verdict.value == 0.0 and fact.source.startswith(RULE_SOURCE):
            return Verdict(None, f"{fact.value}: {_ADVICE_UNSAID}", missing=True)
    # "SNACK10 won't go through": a reason in unread words, not a decline
    unread = verdict.value is None and _spoken_of_unread(a, fact) is not None
    # "Peapod is borosilicate glass ... the Tinytoes details didn't load": said of the other
    # product only, and declined for this one
    elsewhere = verdict.value == 0.0 and verdict.reason.endswith(STATED_ELSEWHERE)
    if (verdict.missing or elsewhere) and declined and not fact.optional and not unread:
        state = data_state(case, fact, records, partial(_holds, a, fact=fact))
        if state == "unusable":
            return Verdict(1.0)
        why = "the tool's data came back usable" if state == "usable" else "never looked"
        return Verdict(0.0, f"{fact.value}: declines, but {why}")
    return verdict
