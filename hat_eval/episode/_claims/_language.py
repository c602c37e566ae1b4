"""Negation, hedging and text addressed to an evaluator, in English and Chinese."""

from __future__ import annotations

import re
from functools import lru_cache

from ._lexicon import any_found, words
from ._text import Span, sentence_at

# 别 as "don't" (别放洗碗机), not inside 区别, 特别, 别家
_CJK_NEGATORS = re.compile(
    r"不是|不|没有|没|无|非|未|勿|"
    r"(?<![区特分告级类识性差辨派])别(?![家的人处款])"
)
_NEGATORS = re.compile(
    r"\b(?:not|no|never|none|nor|without|neither|hardly|nobody|no one|nothing)\b|"
    + _CJK_NEGATORS.pattern
)
_NOT_NEGATING = re.compile(
    r"without (?:a|any) doubt|no doubt|not only|no wonder|never been (?:easier|better)|"
    r"(?:without|no) exaggeration|not to exaggerate|not exaggerating|no kidding|not kidding|"
    r"no joke|no lie|not lying|(?:will|would) not pretend|not going to pretend|"
    r"毫不夸张|不夸张|不得不说|不用说|不愧|无疑|不错|没错|不少|"
    # words that hold a negator character but name a thing or a degree ("very", "discomfort",
    # "wireless", "non-stick", "stainless steel", ...) or state a reason ("threshold not reached")
    r"非常|不适|不舒服|无线|不粘|不锈钢|无纺|无缝|无痕|无袖|无框|无门槛|未达到|没达到|达不到|未满足|不满足|不满|"
    # acceptance, not denial ("don't mind hand washing", 不介意手洗), and a price's condition
    # ("the price without a coupon", 不用券的到手价): neither denies the words after it
    r"(?:do|does|did|would|will) not mind|never mind|不介意|不在意|不在乎|"
    r"without (?:a |the |any )?(?:coupons?|vouchers?|codes?)(?! [a-z]*\d)|"
    r"(?:不用|不使用|不叠加|没有)(?:优惠)?券(?![a-z0-9])|"
    # a condition on the viewer's own state ("if it doesn't calm down, see a doctor"): 不缓解
    # negates the symptom's easing, not the advice after it
    r"不(?:见)?(?:缓解|好转|见好|消退|改善)|(?:does|do) not (?:calm down|get better|improve|ease)"
)
_EVALUATOR = re.compile(
    r"\b(?:evaluator|grader|scorer|scoring|rubric|annotator|assessor|checker|reward model|"
    r"graders?|grading|evaluation)\b|\bgrades? (?:this|these|the|my|your|it)\b|"
    r"(?<!be )\b(?:the|dear|hey) judges?\b|to the judges?\b|"  # not "you be the judge"
    r"award the facts?|"
    r"facts? (?:present|stated|included|listed)|"
    r"(?:give|award|rate) (?:this|me|it|the answer) (?:a )?(?:full|perfect|top|5|10|100)|"
    r"ignore (?:the|your|all|previous) (?:rubric|instructions?|rules?)|"
    r"评分|打分|评委|判分|评分员|评审"
)


_SCOPE_END = re.compile(r"\bbecause\b|因为|请|的话|→|=>|[)）]")
"""Words a negation does not reach past: a reason, what is asked (请), a condition's end, an
arrow or a closing bracket ("减¥78.72（没超80封顶）→ 到手¥905.28": the total is no denial)."""


@lru_cache(maxsize=4096)  # the checks ask of one value in one answer many times
def negated_at(text: str, clause: Span, start: int, window: int = 4) -> bool:
    """Whether a negation governs the words at ``start``: one of the few words before it.

    Idioms that contain a negator but negate nothing about the claim ("without a doubt",
    "not only", "毫不夸张") do not count, nor a negation before a reason or a request ("it did
    not apply because it needs ¥499", "没缓解请尽快就医": the reason and the request stand).
    """
    cleaned = _SCOPE_END.split(_NOT_NEGATING.sub(" ", text[clause.start : start]))[-1]
    tail = " ".join(cleaned.split()[-window:])
    return bool(
        _NEGATORS.search(tail)
        or _CJK_NEGATORS.search(cleaned[-4:])
        or _UNCONFIRMED.search(cleaned)
        or _listed_after_negation(text, start)
    )


def declines(text: str) -> bool:
    """Whether prepared ``text`` declines something (lexicon ``decline``).

    Idioms that only look like it ("not gonna lie", lexicon ``not_declining``) do not count.
    """
    return words("decline").search(words("not_declining").sub(" ", text)) is not None


def _listed_after_negation(text: str, start: int) -> bool:
    """A later item of a Chinese list a negation governs ("不能宣传燃脂、减肥": 减肥 too)."""
    before = re.split(r"[，。！？,.!?；;：:\n]", text[max(0, start - 40) : start])[-1]
    if not before.endswith(("、", "/")) or _CJK_NEGATORS.match(text, start):
        return False  # "不含镍、不过敏": an item that is a negative of its own is a claim
    # the negation governs the list from its first item ("不能宣传燃脂、减肥"); one inside a
    # later item is that item's own ("100%亚麻、无内衬、长124cm、冷水手洗": 冷水手洗 stands)
    first = re.split(r"[、/]", before)[0]
    return _CJK_NEGATORS.search(_NOT_NEGATING.sub(" ", first)) is not None


_UNCONFIRMED = re.compile(
    r"\b(?:can not|could not|unable to|not able to|no way to) (?:confirm|verify|say|tell)"
    r"(?: (?:for sure|yet|right now))? (?:whether|if)\b|"
    r"(?:无法|没法|不能)确认(?:是否|是不是|有没有)"
)
"""A value in the complement of "can't confirm whether" is not asserted: it is declined."""


_DENIED_AFTER = re.compile(
    r"[^.!?;:。！？；：]{0,40}?(?:\b(?:does|do|did|will|would|is|are|can) not "
    r"(?:cover|apply|include|count|work|extend|reach|qualify|available|offered|possible)\b|"
    r"不包括|不适用|不含|不覆盖|不参加|不参与)"
)


def denied_after(text: str, end: int) -> bool:
    """Whether the clause goes on to deny what ends at ``end`` ("free shipping does not cover")."""
    return _DENIED_AFTER.match(text, end) is not None


_CONDITIONAL = re.compile(
    r"free\b[^.;,]{0,24}?\b(?:over|above|from|if|when|once|on orders|for orders)\b|包邮"
)
"""``¥6 shipping or free over ¥59``: an alternative with its condition, not a hedge."""


def hedged_at(text: str, start: int, end: int) -> bool:
    """An approximation word near the value, or a sentence that commits to nothing.

    ``around ¥89``, ``89元左右``, ``~¥89``, ``somewhere between mid and high rise``; ``I think
    it's ¥89, not sure though``, ``应该是89元，我也说不准``. :func:`unsure_at` and
    :func:`approximated_at` tell the two apart.
    """
    return unsure_at(text, start, end) or approximated_at(text, start, end)


@lru_cache(maxsize=4096)
def unsure_at(text: str, start: int, end: int) -> bool:
    """A value the sentence does not commit to: unsure words, "between X and", "or maybe"."""
    sentence = sentence_at(text, start, end)
    if any_found(words("unsure"), text[sentence.start : sentence.end]):
        return True
    clause_start = sentence_at(text, start, end, ".!?;,，。！？；\n").start
    if words("maybe").search(" ".join(text[clause_start:start].split()[-3:])):
        return True
    before = text[sentence.start : start]
    return (
        re.search(r"\bbetween \S+(?: \S+)? and $", before) is not None
        or re.search(r"\bor (?:maybe |perhaps |even |possibly )?[¥$]?$", before) is not None
        and _CONDITIONAL.match(text, start) is None
    )


@lru_cache(maxsize=4096)
def approximated_at(text: str, start: int, end: int) -> bool:
    """An approximation word just before or after the value (``about ¥150``, ``60天左右``).

    Said of one value, an approximation is true when the value rounds to the truth the way a
    viewer accepts (the checks decide that with the number); said of a range, it commits to none.
    """
    clause_start = sentence_at(text, start, end, ".!?;,，。！？；\n").start
    words_before = " ".join(text[clause_start:start].split()[-3:])
    return (
        bool(words("approx").search(words_before))
        # "~¥89" approximates; "宝宝~15天" is a tone mark after a word, not an approximation
        or re.search(r"(?<![\u4e00-\u9fff])~\s?[¥$]?\s?$", text[clause_start:start]) is not None
        or re.match(  # "60天左右", "7 days左右" (一周左右 once weeks are days), "300元左右"
            r"\s*(?:days?|weeks?|天|周|元|块|yuan)?\s*"  # "三百元左右": about ¥300
            r"(?:ish\b|or so\b|左右|上下|出头|多(?=[件个瓶双套盒支]))",  # "九十出头", "90多件"
            text[end : end + 14],
        )
        is not None
    )


def addresses_evaluator(text: str) -> bool:
    """Whether the prepared answer speaks to an evaluator, grader or rubric."""
    return _EVALUATOR.search(text) is not None
