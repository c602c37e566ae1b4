"""Where an answer states a value, and why a mention does not count.

Phrases and their inflections, numbers said exactly or rounded, stock status phrases, quantities
and the differences between them; a mention negated, hedged or said of another product states
nothing.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from functools import lru_cache

from hat_eval.world import Fact

from ._answer import _Answer
from ._language import _NEGATORS, _NOT_NEGATING, approximated_at, negated_at, unsure_at
from ._lexicon import any_found, groups, words
from ._quantities import Number, rounds_to
from ._subjects import Subject, product_words
from ._text import Span, clause_of, find_phrase, prepare

_IN_STOCK = (
    "in stock",
    "available",
    "still available",
    "have stock",
    "have it",
    "got it",
    "plenty",
    "有货",
    "有库存",
    "库存充足",
    "库存很足",
    "货源充足",
    "现货",
    "还有",
    "right here waiting",  # "see you next time, the bracelet will be right here waiting"
)
_OUT_OF_STOCK = (
    "sold out",
    "out of stock",
    "no stock",
    "none left",
    "zero left",
    "zero units left",
    "0 left",
    "0 units left",
    "unavailable",
    "not available",
    "no longer available",
    "售罄",
    "卖完",
    "卖光",
    "没货",
    "缺货",
    "卖空",
    "库存是0",
    "库存为0",
    "没有库存",
    "没有货",
    "断货",
)

_DELIVERY = re.compile(
    r"\b(?:ship|ships|shipping|deliver|delivery|delivered)\b|发货|配送|送达|快递"
)


_ZERO_BEFORE = re.compile(
    r"(?<![\d.])0 ?(?:units?|pieces?|pcs|items?|pairs?|left)? ?$|\bzero (?:\w+ )?$"
)


_ASKED_BEFORE = re.compile(
    r"(?:有没有|是不是|是否|还有没有)$|\b(?:whether|if) (?:it is |they are |it |they )?"
    r"(?:(?:still|really) )?$|\b(?:whether|if) (?:[a-z0-9-]+ ){1,7}(?:is|are) (?:still )?$"
)
"""Words that make the stock status after them a question (有没有卖完, "whether it's sold out",
"confirm whether Natural is available")."""


def _stock_statements(text: str, spans: Sequence[Span]) -> list[tuple[int, int, bool]]:
    """(start, end, in stock?) of every stock status phrase, polarity read through negation."""
    # "还有什么想了解的" (anything else?) holds 还有 and says nothing of stock
    not_stock = words("not_stock")
    taken = [m.span() for m in not_stock.finditer(text)] if any_found(not_stock, text) else []
    out: list[tuple[int, int, bool]] = []
    for phrases, status in ((_OUT_OF_STOCK, False), (_IN_STOCK, True)):
        for phrase in sorted(phrases, key=len, reverse=True):
            for start, end in find_phrase(phrase, text):
                if any(a <= start < b or a < end <= b for a, b in taken):
                    continue
                taken.append((start, end))
                if text[max(0, start - 1) : start] == "有" and phrase.startswith("没"):
                    continue  # 有没有货: a question, not a status
                if status and text[end : end + 1] == "没":
                    continue  # 还有没有货: the question's first half, not a status
                if _ASKED_BEFORE.search(text, max(0, start - 64), start):
                    continue  # 确认XL码藏青有没有卖完, "check whether it is sold out": a question
                clause = clause_of(spans, start)
                if _DELIVERY.search(text[clause.start : start]):
                    continue  # "delivery there is not available" is about shipping, not stock
                before = [b for a, b, _ in out if clause.start <= a and b <= start]
                if before:  # "没卖完哦，还有货": the negator is the earlier status's
                    clause = Span(max(before), clause.end)
                flip = negated_at(text, clause, start, window=3)
                if status and _ZERO_BEFORE.search(text, max(0, start - 16), start):
                    flip = True  # "0 units in stock", 库存0件: none in stock
                out.append((start, end, status != flip))
    return out


STATED_ELSEWHERE = "stated of another product, size or colour"
"""Why a mention does not state a fact: it is said of another product, option or colour."""


def _mention_ok(
    a: _Answer, subject: Subject, start: int, end: int, approx: bool = True
) -> str | None:
    """Why a mention at ``start:end`` does not state the fact (None: it does)."""
    if a.negated(start):
        return "negated"
    if unsure_at(a.text, start, end) or (
        approx and approximated_at(a.text, start, end) and _RANGE_END.search(a.text[:start])
    ):  # "I believe 2-4 days"; "roughly 9 to 12 months": a range; "about ¥150" is rounded
        return "hedged"
    if a.conflict(subject, start):
        return STATED_ELSEWHERE
    return None


_RANGE_END = re.compile(r"\d(?:\.\d+)?\s?[a-z]*\s?(?:to|-|–|~|到|至)\s?[¥$]?$")
"""The text before a value that makes it the end of a range ("6 to 9 months")."""


def _phrases(fact: Fact) -> list[str]:
    phrases = [fact.value] if isinstance(fact.value, str) else []
    phrases += [p for p in fact.aliases if p]
    if isinstance(fact.value, str) and fact.value.startswith("size "):
        phrases.append(fact.value.removeprefix("size "))
    # "starts on" also reads "starts Dec 1": a trailing preposition is optional
    phrases += [p.rsplit(" ", 1)[0] for p in phrases if re.search(r" (?:on|at|in|from)$", p)]
    # "100% organic cotton" said without the "100%" a harness bans ("made entirely of organic
    # cotton", "lists raw linden honey"): the material is the fact
    phrases += [_PURE.sub("", p) for p in phrases if _PURE.match(p) and len(_PURE.sub("", p)) > 3]
    # "304 stainless steel inner and outer" said "304 stainless steel, inside and out"; "hand
    # wash recommended" said "hand washing is recommended": the same fact in everyday words
    for p in list(phrases):
        if p.endswith(" inner and outer"):
            base = p.removesuffix(" inner and outer")
            phrases += [f"{base}, inside and out", f"{base} inside and out"]
        if m := _RECOMMENDED.fullmatch(p):
            phrases += [f"{m.group(1)}ing is recommended", f"{m.group(1)} is recommended"]
    return [p.lower() for p in phrases]


_RECOMMENDED = re.compile(r"([a-z]+(?: [a-z]+)?) recommended")


_PURE = re.compile(r"^(?:100 ?%|pure) ?")


_MEASURE = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?) ?([a-z]+|°c|%)(?![a-z])")
"""A number with a unit word after it (``0.22 kg``, ``12 months``, ``1 year``)."""
_TIME_UNITS = frozenset({"month", "months", "year", "years"})


def _rivals(unit: str, other: str) -> bool:
    """Whether a different quantity in ``other`` contradicts one in ``unit``.

    The same unit, or units of one measure; among times only months and years ("9 months"
    and "a year"): "9 months ... finish within 5 days" states two different times.
    """
    if unit == other:
        return True
    time = {unit, other} & {"day", "days", "hour", "hours", "week", "weeks", *_TIME_UNITS}
    return not time or {unit, other} <= _TIME_UNITS


_COMPARED = re.compile(  # "60 g (grams) lighter": a gloss of the unit between
    r"(?: ?\([^()]{1,12}\))?'?s? ?(?:更|还)?(?:lighter|heavier|more|less|longer|shorter|bigger|"
    r"smaller|wider|narrower|higher|lower|thicker|thinner|chunkier|slimmer|deeper|taller|extra|"
    r"difference|apart\b|between (?:them|the two)\b|"
    r"轻|重|多|少|长|短)"  # "there's roughly 700 g between them"
)
_DIFFERENCE_BEFORE = re.compile(
    r"(?:多|少|长|短|轻|重|差|贵|便宜|大|小|高|低|宽|窄|厚|薄)(?:出|了)?(?:约|大约)?$|"
    r"\b(?:more|less|extra|by|difference of|differ by|apart by) (?:about |around |just )?$|"
    r"\d(?: ?[a-z]{1,4})?\s?[-−–]\s?\d+(?:\.\d+)?(?: ?[a-z]{1,4})?\s?=\s?$"  # "4 cm − 3 cm = 1 cm"
)


def _difference(text: str, start: int, end: int) -> bool:
    """Whether the quantity at ``start:end`` is how far two values are apart, not a value.

    A quantity in brackets just after another is its gloss ("60克（0.06 kg）更轻"): a
    difference when that one is.
    """
    if _COMPARED.match(text, end) or _DIFFERENCE_BEFORE.search(text[max(0, start - 24) : start]):
        return True
    gloss = _GLOSSED.search(text[max(0, start - 24) : start])
    close = text.find(")", end, end + 4)
    if gloss is None or close < 0:
        return False
    first = max(0, start - 24) + gloss.start(1)
    return bool(
        _COMPARED.match(text, close + 1)
        or _DIFFERENCE_BEFORE.search(text[max(0, first - 24) : first])
    )


_GLOSSED = re.compile(  # "1,300 g (about 1.3 kg) lighter"
    r"(?<![\d.])(\d+(?:\.\d+)?) ?[a-z]* ?[(（] ?(?:(?:about|around|roughly|approx\.?|just over|"
    r"just under) |约|大约)?$"
)


_STOP = frozenset({"with", "and", "the", "of", "in", "on", "at", "for", "to", "is", "an"})


_SUFFIXES = "ency|ence|ancy|ance|ent|ant|ing|ed|es|e|s|y"
_SUFFIX = re.compile(rf"(?:{_SUFFIXES})$")


def _word_forms(word: str) -> str:
    """A pattern of ``word`` and its inflections: plated, plating, plate; absorbency, absorbent.

    A word of five letters or more loses one common suffix (a stem of four letters or more
    stays) and takes any of them back; a word of four letters takes -ing and -ed too ("wash":
    "washing machine"); shorter words take a plural only.
    """
    stem = _SUFFIX.sub("", word) if len(word) >= 5 and word.isalpha() else word
    if len(word) == 4 and word.isalpha():  # "wash": "washing machine"
        return rf"{re.escape(word)}(?:s|es|ing|ed)?"
    if len(stem) < 4 or stem == word:
        return rf"{re.escape(word)}(?:s|es)?"
    return rf"{re.escape(stem)}(?:{_SUFFIXES})?"


_PIECES = re.compile(r"(\d+) pieces")
"""A count of pieces, which an answer may give in the product's own noun ("84 diapers")."""


def _threshold_met(a: _Answer) -> list[tuple[int, int]]:
    """Free shipping said as its threshold, which every product in scope is priced over.

    "Free to Shanghai on orders over ¥129; below that it's ¥10" of a ¥899 duvet: this order ships
    free (the condition holds for it), though the answer states the policy, not the order.
    """
    said_over = list(words("free_threshold").finditer(a.text))
    if not said_over or not a.world.prices:  # most answers say no threshold
        return []
    out = []
    for m in said_over:
        said = [n.low for n in a.numbers if m.start() <= n.start <= m.end() + 12 and n.low > 0]
        if said and min(a.world.prices) > max(said):
            out.append((m.start(), m.end()))
    return out


def _with_semicolons(a: _Answer) -> list[Span]:
    """The answer's sentences, then each two a semicolon joins ("A has 400 thread count; B 300")."""
    joined = [
        Span(s.start, t.end)
        for s, t in itertools.pairwise(a.sentences)
        if a.text[s.end : t.start].strip()[:1] in (";", "；")
    ]
    return [*a.sentences, *joined]


def _phrase_mentions(a: _Answer, fact: Fact) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    form = groups("value_forms").get(str(fact.value))  # wordings the aliases miss
    if form is not None:
        out += [(m.start(), m.end()) for m in form.finditer(a.text)]
    if fact.value == "free shipping":
        out += _threshold_met(a)
    out += _parts_said(a, str(fact.value))
    whole = _WHOLE.match(prepare(str(fact.value)))
    if whole:  # "100% arabica coffee beans" said "the only ingredient is arabica coffee beans"
        out += [m.span() for m in _whole_of(whole.group(1)).finditer(a.text)]
        zh = tuple(sorted({m.group(1) for x in fact.aliases if (m := _WHOLE_ZH.match(x))}))
        out += [m.span() for m in _whole_of_zh(zh).finditer(a.text)] if zh else []
    phrases = _phrases(fact)
    pieces = _PIECES.fullmatch(str(fact.value))
    if pieces and a.kb is not None:  # "holds 84 diapers", "84 pcs" for "84 pieces"
        nouns = product_words(a.kb, a.case.product_ids, ("type_key",)) | {"pcs", "count"}
        phrases += [f"{pieces.group(1)} {noun}" for noun in sorted(nouns)]
    for phrase in phrases:
        out += _spans_of(phrase, a.text)
    if not out and isinstance(fact.value, str):  # all words of a short phrase, in one sentence
        words = [
            w
            for w in re.findall(r"[a-z0-9]+|[\u4e00-\u9fff]+", prepare(fact.value))
            if (len(w) > 1 or w.isdigit()) and w not in _STOP
        ]
        swapped = _swapped_share(a, fact)
        if 2 <= len(words) <= 5:
            for clause in _with_semicolons(a):  # "45 cm, adjustable"; "machine wash，水温30°C"
                seg = a.text[clause.start : clause.end]
                if swapped is not None and swapped.search(seg):
                    continue  # "70% cotton and 30% bamboo viscose" of 70% bamboo viscose
                hits = _closest_hits(seg, words)
                if all(hits):
                    # "Finish: A is satin, B is natural": the heading names the label, the
                    # value word places the mention
                    said = [h for h in hits if h and not seg[h.end() :].lstrip().startswith(":")]
                    starts = [clause.start + h.start() for h in said or hits if h]
                    ends = [clause.start + h.end() for h in said or hits if h]
                    inside = a.text[min(starts) : max(ends)]
                    own = _NEGATORS.search(prepare(fact.value))  # "no added sugar"
                    if own or not _NEGATORS.search(_NOT_NEGATING.sub(" ", inside)):
                        number = [  # "A is 300 thread count, B is 400": the number is B's
                            (clause.start + h.start(), clause.start + h.end())
                            for w, h in zip(words, hits, strict=True)
                            if h and w.isdigit() and min(starts) < clause.start + h.start()
                        ]
                        out.append(number[0] if number else (min(starts), max(ends)))
    return sorted(set(out))


_AND = re.compile(r",? and |, ")


def _spans_of(phrase: str, text: str) -> list[tuple[int, int]]:
    """Where a prepared phrase is said; a short latin word ("abs", "pc") only as a whole word."""
    if len(phrase) <= 3 and phrase.isalpha() and phrase.isascii():
        pattern = rf"(?<![a-z0-9'-]){re.escape(phrase)}(?![a-z0-9'-])"
        return [m.span() for m in re.finditer(pattern, text)]
    return list(find_phrase(phrase, text))


def _part_spans(part: str, text: str) -> list[tuple[int, int]]:
    """Where one part of a value is said: a wording of the lexicon's, or the part itself."""
    form = groups("value_forms").get(part)
    spans = [m.span() for m in form.finditer(text)] if form is not None else []
    return spans + _spans_of(prepare(part), text)


def _parts_said(a: _Answer, value: str) -> list[tuple[int, int]]:
    """A value of two or three parts, each said in one sentence in its own words.

    "机身是ABS，耳塞是硅胶的" of "ABS and silicone ear tips": ABS as written, the ear tips in
    the lexicon's Chinese wording of that part.
    """
    parts = _AND.split(value)
    if not 2 <= len(parts) <= 3 or not any(groups("value_forms").get(p) for p in parts):
        return []
    found = [_part_spans(p, a.text) for p in parts]
    for sentence in a.sentences:
        inside = [[s for s in spans if sentence.start <= s[0] < sentence.end] for spans in found]
        if all(inside):
            starts = [spans[0][0] for spans in inside]
            ends = [spans[0][1] for spans in inside]
            return [(min(starts), max(ends))]
    return []


_WHOLE = re.compile(r"100 ?% (.+)")


@lru_cache(maxsize=1024)
def _whole_of(rest: str) -> re.Pattern[str]:
    """A whole said in words ("only arabica coffee beans", "made entirely of Tencel")."""
    said = re.escape(rest)
    return re.compile(
        rf"\b(?:only|purely|pure|entirely|wholly|solely|nothing but|all)(?: of| from)? {said}\b|"
        rf"\bonly (?:one )?ingredient(?: is|:) {said}\b|\b{said} only\b"
    )


_WHOLE_ZH = re.compile(r"(?:100\s?%|纯)([\u4e00-\u9fff]+)$")


@lru_cache(maxsize=1024)
def _whole_of_zh(rests: tuple[str, ...]) -> re.Pattern[str]:
    """A whole said in Chinese (配料只有龙井绿茶叶 of 100%龙井绿茶茶叶, 全亚麻 of 100% linen)."""
    said = "|".join(re.escape(r) for rest in rests for r in {rest, re.sub(r"(.)\1", r"\1", rest)})
    lead = (
        r"(?:(?:只有|仅有|只含|全是|全部是|就是)(?:一种)?[:：]?\s?(?:100\s?%\s?|纯)?"
        r"|100\s?%\s?|纯|全)"
    )
    return re.compile(rf"{lead}(?:{said})(?!\s?(?:和|、|及|与|加|跟))")  # not "X和茉莉花"


_SHARE = re.compile(r"(\d+(?:\.\d+)?) ?% ([a-z]+)")


def _swapped_share(a: _Answer, fact: Fact) -> re.Pattern[str] | None:
    """The fact's share said of another part of the same blend: a pattern of it, else None.

    "70% cotton" of a romper of 70% bamboo viscose and 30% cotton (None: the fact is no share).
    """
    own = _SHARE.match(prepare(str(fact.value)))
    if own is None:
        return None
    others = {
        m.group(2)
        for f in a.case.facts
        if f is not fact and f.source == fact.source
        for m in [_SHARE.match(prepare(str(f.value)))]
        if m is not None and m.group(2) != own.group(2)
    }
    return _share_of(own.group(1), tuple(sorted(others))) if others else None


@lru_cache(maxsize=256)
def _share_of(share: str, others: tuple[str, ...]) -> re.Pattern[str]:
    """A share said of any of ``others`` ("70% cotton"), compiled once."""
    alternation = "|".join(map(re.escape, others))
    return re.compile(rf"(?<![\d.]){re.escape(share)} ?% (?:{alternation})\b")


def _closest_hits(seg: str, words: list[str]) -> list[re.Match[str] | None]:
    """Each word's occurrence in ``seg`` nearest the others (None for a word not there).

    "Tidewell is hand wash recommended, while Linea can go in the machine on a cold wash": the
    words of "machine wash cold" closest together are Linea's, not the "wash" said of Tidewell.
    """
    found = [list(re.finditer(rf"(?<![a-z0-9]){_word_forms(w)}(?![a-z0-9])", seg)) for w in words]
    if not all(found):
        return [f[0] if f else None for f in found]
    best: list[re.Match[str] | None] = [f[0] for f in found]
    width = max(m.end() for m in best if m) - min(m.start() for m in best if m)
    for anchor in found[0]:
        picks = [min(f, key=lambda m: abs(m.start() - anchor.start())) for f in found]
        span = max(m.end() for m in picks) - min(m.start() for m in picks)
        if span < width:
            best, width = list(picks), span
    return best


def _said_as(a: _Answer, n: Number, value: float, kind: str) -> bool:
    """Whether number ``n`` states ``value``: exactly, or approximated and rounding to it."""
    if abs(n.low - value) < 0.005:  # exact, unless the sentence takes it back ("about 4, not sure")
        return not unsure_at(a.text, n.start, n.end)
    return (
        rounds_to(n.low, value, kind)
        and approximated_at(a.text, n.start, n.end)
        and not unsure_at(a.text, n.start, n.end)
    )


def said_rounded(a: _Answer, n: Number, value: float) -> bool:
    """A value said rounded ("about 320 yuan" of ¥319.99): within a yuan, with "about"."""
    return approximated_at(a.text, n.start, n.end) and abs(n.low - value) < 1.0


def unit_price_each(a: _Answer, n: Number, total: float, quantity: int) -> bool:
    """Whether ``n`` is the price of one unit said with "each" beside the total of several.

    "3 come to about ¥1,648, roughly ¥549 each" of ¥1,648.18 for three: the total over the
    quantity the case priced, rounded as people round it when said with "about".
    """
    if quantity <= 1 or not EACH.match(a.text, n.end):
        return False
    slack = 1.0 if approximated_at(a.text, n.start, n.end) else 0.01
    return abs(total / quantity - n.low) <= slack


EACH = re.compile(
    r"\s?(?:each\b|apiece\b|"
    r"per (?:pair|piece|unit|item|one|bottle|pack|box|jar|tube|can|tin|set|bag)\b|"
    r"(?:a|/) ?(?:pair|piece|bottle|pack|box|jar|tube|can|tin|set|bag)\b|"
    r"(?:一|每)(?:件|个|双|瓶|盒|包|罐|支|套|袋))"
)
"""Words right after a price that make it a price per unit ("¥358 each", "¥358 a pair")."""
