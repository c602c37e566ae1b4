"""The gold facts of a case, each verified in the answer: value, subject, polarity, commitment."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache, partial

from hat_eval.world import CJK, Case, Fact, KnowledgeBase, zh_forms

from ._declines import CallRecordLike, data_state, declines
from ._extra import FREE_SHIPPING, Claims, unsupported_claims
from ._language import (
    _NEGATORS,
    _NOT_NEGATING,
    addresses_evaluator,
    approximated_at,
    denied_after,
    hedged_at,
    negated_at,
    unsure_at,
)
from ._lexicon import groups, words
from ._quantities import Number, numbers, same_quantity
from ._subjects import (
    OURS,
    Subject,
    _size_token,
    _variant_words,
    clause_products,
    fact_subject,
    names_variant,
    variant_conflict,
)
from ._support import Support, case_support, numeric_leaves, support
from ._text import (
    _CLAUSE_BREAK,
    _SCOPE_BREAK,
    _SENTENCE_BREAK,
    Span,
    _norm_phrase,
    _spans,
    clause_of,
    find_phrase,
    prepare,
)
from ._verdict import Verdict

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
    "现货",
    "还有",
)
_OUT_OF_STOCK = (
    "sold out",
    "out of stock",
    "no stock",
    "none left",
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


_FEE_WORDS = re.compile(r"\bshipping\b|\bdelivery fee\b|\bpostage\b|运费|邮费|快递费")
_BOTH = re.compile(
    r"\bboth (?:are|have|come|use|of them|products|options)\b|\bthey both\b|\beach of them\b|"
    r"两款都|两个都|两者都|二者都|它们都"
)
_DELIVERY = re.compile(
    r"\b(?:ship|ships|shipping|deliver|delivery|delivered)\b|发货|配送|送达|快递"
)


def _stock_statements(text: str, spans: list[Span]) -> list[tuple[int, int, bool]]:
    """(start, end, in stock?) of every stock status phrase, polarity read through negation."""
    # "还有什么想了解的" (anything else?) holds 还有 and says nothing of stock
    taken: list[tuple[int, int]] = [m.span() for m in words("not_stock").finditer(text)]
    out = []
    for phrases, status in ((_OUT_OF_STOCK, False), (_IN_STOCK, True)):
        for phrase in sorted(phrases, key=len, reverse=True):
            for start, end in find_phrase(phrase, text):
                if any(a <= start < b or a < end <= b for a, b in taken):
                    continue
                taken.append((start, end))
                if text[max(0, start - 1) : start] == "有" and phrase.startswith("没"):
                    continue  # 有没有货: a question, not a status
                clause = clause_of(spans, start)
                if _DELIVERY.search(text[clause.start : start]):
                    continue  # "delivery there is not available" is about shipping, not stock
                flip = negated_at(text, clause, start, window=3)
                out.append((start, end, status != flip))
    return out


@lru_cache(maxsize=4)
def _spec_values(kb: KnowledgeBase) -> dict[str, frozenset[str]]:
    """Spec label -> every value it takes in the catalogue (prepared), for competing claims."""
    values: dict[str, set[str]] = {}
    for p in kb.products():
        for label, value in p["specs"].items():
            if isinstance(value, str) and len(value) <= 24:
                values.setdefault(label, set()).add(_norm_phrase(value))
    return {k: frozenset(v) for k, v in values.items()}


def known_values(case: Case, kb: KnowledgeBase | None) -> frozenset[float]:
    """Every number the case's own lookups give (and the viewer's message holds).

    A price the agent saw there (the list price, the price before a coupon, a coupon's
    threshold, a subtotal on the way to the final price) may be mentioned beside the final one
    without hedging; a number found nowhere in them is the answer's own.
    """
    if kb is None:
        return frozenset()
    own = case_support(kb, case)
    return own.money | own.counts


@dataclass
class _Answer:
    text: str
    original: str
    clauses: list[Span]
    scopes: list[Span]
    products: list[frozenset[str] | None]
    numbers: list[Number]
    kb: KnowledgeBase | None
    case: Case

    @cached_property
    def world(self) -> Support:
        """What the world supports for the products the answer speaks of."""
        if self.kb is None:
            return Support()
        # a name of one product (not a brand, which names many) brings it into scope
        named = {pid for about in self.products if about and len(about) == 1 for pid in about}
        return support(self.kb, self.case, sorted(named))

    @cached_property
    def known(self) -> frozenset[float]:
        """The numbers of the knowledge base's answers (looked up on first need)."""
        return known_values(self.case, self.kb)

    def conflict(self, subject: Subject, pos: int) -> bool:
        """Whether the words at ``pos`` are about another product, option or colour."""
        for i, clause in enumerate(self.clauses):
            if clause.start <= pos < clause.end:
                about = self.products[i]
                if _BOTH.search(self.text[clause.start : clause.end]):
                    return False  # "both are PP plastic": said of every product of the case
                if about is not None and subject.product_id is not None:
                    if subject.product_id not in about:
                        return True
                return variant_conflict(self.kb, subject, self._variant_segment(subject, i))
        return False

    def _variant_segment(self, subject: Subject, i: int) -> str:
        """The words that say which option or colour clause ``i`` is about.

        A clause naming none is said of the list just before it in the same sentence ("EU 42
        and EU 44, are both in stock"; "黑色和鼠尾草绿都有货"): back to the nearest clause that
        names one.
        """
        clause = self.clauses[i]
        start = clause.start
        sentence = clause_of(_sentences(self.text), clause.start).start
        j = i
        while (
            j > 0
            and self.clauses[j - 1].start >= sentence
            and not names_variant(self.kb, subject, self.text[start : clause.end])
        ):
            j -= 1
            start = self.clauses[j].start
        return self.text[start : clause.end]

    def negated(self, pos: int, window: int = 4) -> bool:
        """Whether a negation governs the words at ``pos``."""
        return negated_at(self.text, clause_of(self.scopes, pos), pos, window)


def _mention_ok(
    a: _Answer, subject: Subject, start: int, end: int, approx: bool = True
) -> str | None:
    """Why a mention at ``start:end`` does not state the fact (None: it does)."""
    if a.negated(start):
        return "negated"
    if approx and (
        unsure_at(a.text, start, end)
        or (approximated_at(a.text, start, end) and _RANGE_END.search(a.text[:start]))
    ):  # "roughly 9 to 12 months": a range; "about ¥150" alone is the checks' to round
        return "hedged"
    if a.conflict(subject, start):
        return "stated of another product, size or colour"
    return None


_RANGE_END = re.compile(r"\d(?:\.\d+)?\s?[a-z]*\s?(?:to|-|–|~|到|至)\s?[¥$]?$")
"""The text before a value that makes it the end of a range ("6 to 9 months")."""


def _same_subject(a: _Answer, subject: Subject, pos: int) -> bool:
    return not a.conflict(subject, pos)


def _phrases(fact: Fact) -> list[str]:
    phrases = [fact.value] if isinstance(fact.value, str) else []
    phrases += [p for p in fact.aliases if p]
    if isinstance(fact.value, str) and fact.value.startswith("size "):
        phrases.append(fact.value.removeprefix("size "))
    # "starts on" also reads "starts Dec 1": a trailing preposition is optional
    phrases += [p.rsplit(" ", 1)[0] for p in phrases if re.search(r" (?:on|at|in|from)$", p)]
    return [p.lower() for p in phrases]


_SIZES = r"xxxl|xxl|xl|xs|s|m|l|2xl|3xl"
_SIZE_CHOICE = re.compile(
    rf"(?<![a-z0-9'-])({_SIZES})(?:码)?(?![a-z0-9'-])\s*(?:or|/|或|或者|to|到|-)\s*"
    rf"(?<![a-z0-9'-])({_SIZES})(?![a-z0-9'-])"
)
_LOWER = ("lighter", "cheaper", "shorter", "smaller", "lower", "less", "fewer", "thinner")
_HIGHER = ("heavier", "pricier", "longer", "bigger", "larger", "higher", "more", "brighter")
_COMPARATIVE = re.compile(r"\b(" + "|".join(_LOWER + _HIGHER) + r")\b")
_ZH_LOWER = ("轻", "便宜", "短", "小", "低", "少", "薄")
_ZH_COMPARATIVE = re.compile(
    r"更(" + "|".join(_ZH_LOWER + ("重", "贵", "长", "大", "高", "多", "厚")) + ")"
)
"""更轻 (lighter), 更贵 (pricier): a conclusion of a comparison in Chinese."""
_PERMISSIVE = re.compile(
    r"\b(?:even if|even when|fine if|ok if|okay if|no problem if|also if)\b[^.!?;]{0,24}?"
    r"\b(?:you(?: have|'ve)? )?(opened|used|worn|washed|tried)\b"
)
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
    r"(?: ?\([^()]{1,12}\))? ?(?:更|还)?(?:lighter|heavier|more|less|longer|shorter|bigger|"
    r"smaller|wider|narrower|higher|lower|extra|difference|轻|重|多|少|长|短)"
)
_DIFFERENCE_BEFORE = re.compile(
    r"(?:多|少|长|短|轻|重|差|贵|便宜|大|小|高|低)了?(?:约|大约)?$|"
    r"\b(?:more|less|extra|by|difference of|differ by|apart by) (?:about |around |just )?$"
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


_GLOSSED = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?) ?[a-z]* ?\( ?$")


_STOP = frozenset({"with", "and", "the", "of", "in", "on", "at", "for", "to", "is", "an"})


_SUFFIX = re.compile(r"(?:ency|ence|ancy|ance|ent|ant|ing|ed|es|e|s|y)$")


def _word_forms(word: str) -> str:
    """A pattern of ``word`` and its inflections: plated, plating, plate; absorbency, absorbent.

    A word of five letters or more loses one common suffix (a stem of four letters or more
    stays) and takes any of them back; shorter words take a plural only.
    """
    stem = _SUFFIX.sub("", word) if len(word) >= 5 and word.isalpha() else word
    if len(stem) < 4 or stem == word:
        return rf"{re.escape(word)}(?:s|es)?"
    return rf"{re.escape(stem)}(?:ency|ence|ancy|ance|ent|ant|ing|ed|es|e|s|y)?"


def _phrase_mentions(a: _Answer, fact: Fact) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    form = groups("value_forms").get(str(fact.value))  # wordings the aliases miss
    if form is not None:
        out += [(m.start(), m.end()) for m in form.finditer(a.text)]
    for phrase in _phrases(fact):
        if len(phrase) <= 3 and phrase.isalpha() and phrase.isascii():
            out += [
                (m.start(), m.end())
                for m in re.finditer(rf"(?<![a-z0-9'-]){re.escape(phrase)}(?![a-z0-9'-])", a.text)
            ]
        else:
            out += list(find_phrase(phrase, a.text))
    if not out and isinstance(fact.value, str):  # all words of a short phrase, in one sentence
        words = [
            w
            for w in re.findall(r"[a-z0-9]+|[\u4e00-\u9fff]+", _norm_phrase(fact.value))
            if (len(w) > 1 or w.isdigit()) and w not in _STOP
        ]
        if 2 <= len(words) <= 5:
            for clause in _sentences(a.text):  # "45 cm, adjustable"; "machine wash，水温30°C"
                seg = a.text[clause.start : clause.end]
                hits = [
                    re.search(rf"(?<![a-z0-9]){_word_forms(w)}(?![a-z0-9])", seg) for w in words
                ]
                if all(hits):
                    starts = [clause.start + h.start() for h in hits if h]
                    ends = [clause.start + h.end() for h in hits if h]
                    inside = a.text[min(starts) : max(ends)]
                    own = _NEGATORS.search(_norm_phrase(fact.value))  # "no added sugar"
                    if own or not _NEGATORS.search(_NOT_NEGATING.sub(" ", inside)):
                        out.append((min(starts), max(ends)))
    return sorted(set(out))


def rounds_to(said: float, value: float, kind: str) -> bool:
    """Whether a viewer takes ``said`` for ``value``: the same, or money to the whole yuan.

    "about ¥150" for ¥149.99 and "about ¥630" for ¥629.99 are the same amount to a viewer;
    "about ¥140" is another. Counts and days round to nothing but themselves.
    """
    if abs(said - value) < 0.005:
        return True
    return kind == "price" and said == round(said) and abs(said - value) < 1.0


def _said_as(a: _Answer, n: Number, value: float, kind: str) -> bool:
    """Whether number ``n`` states ``value``: exactly, or approximated and rounding to it."""
    if abs(n.low - value) < 0.005:
        return True
    return (
        rounds_to(n.low, value, kind)
        and approximated_at(a.text, n.start, n.end)
        and not unsure_at(a.text, n.start, n.end)
    )


def _check_number(a: _Answer, fact: Fact, subject: Subject, others: set[float]) -> Verdict:
    assert isinstance(fact.value, float)
    kind = "price" if fact.kind == "price" else "count"
    value = fact.value
    good = [n for n in a.numbers if n.low == n.high and _said_as(a, n, value, kind)]
    good = [n for n in good if n.kind in (kind, "plain")]
    why = [_mention_ok(a, subject, n.start, n.end) for n in good]
    stated = any(w is None for w in why)
    rival = [
        n
        for n in a.numbers
        if (n.kind == kind or (n.kind == "plain" and hedged_at(a.text, n.start, n.end)))
        and not (n.kind == "plain" and _MEASURE.match(a.text, n.start))  # "up to 45 dB"
        and not n.context
        and (n.low != n.high or not _said_as(a, n, value, kind))
        and not any(abs(n.low - o) < 0.005 and n.low == n.high for o in others)
        and not (n.low == n.high and n.low in a.known and not hedged_at(a.text, n.start, n.end))
        and _same_subject(a, subject, n.start)
    ]
    if rival:
        shown = a.text[rival[0].start : rival[0].end]
        return Verdict(0.0, f"{fact.value:g}: another value {shown!r} given for the same thing")
    if kind == "count":
        for start, _, in_stock in _stock_statements(a.text, a.scopes):
            if not in_stock and _same_subject(a, subject, start):
                return Verdict(0.0, f"{value:g} left, but the answer also says it is sold out")
    if stated:
        return Verdict(1.0)
    reason = next((w for w in why if w), "not stated")
    return Verdict(0.0, f"{fact.value:g}: {reason}", missing=not why)


def _check_stock(a: _Answer, fact: Fact, subject: Subject) -> Verdict:
    want = fact.value == "in stock"
    statements = [s for s in _stock_statements(a.text, a.scopes) if _same_subject(a, subject, s[0])]
    if any(in_stock != want for _, _, in_stock in statements):
        return Verdict(0.0, f"{fact.value}: the answer also says the opposite")
    counts = [
        n
        for n in a.numbers
        if n.kind == "count"
        and _same_subject(a, subject, n.start)
        and n.low not in a.world.counts  # a real stock of another option is the extras' to judge
    ]
    if counts and (not want or all(n.low < 10 for n in counts)):
        return Verdict(0.0, f"{fact.value}: the answer gives a stock count the KB does not")
    own = _sku_stock(a.kb, subject)
    for n in a.numbers:  # "EU 39 beige: 348 left" when 348 is the navy's
        if n.kind == "count" and own is not None and n.low != own and _names_own(a, subject, n):
            clause = clause_of(a.clauses, n.start)
            if variant_conflict(a.kb, subject, a.text[clause.start : clause.end]):
                continue
            shown = a.text[n.start : n.end]
            return Verdict(0.0, f"{fact.value}: gives {shown!r}, another option's stock")
    if any(in_stock == want for _, _, in_stock in statements):
        return Verdict(1.0)
    return Verdict(0.0, f"{fact.value}: not stated", missing=True)


def _sentences(text: str) -> list[Span]:
    return _spans(text, _SENTENCE_BREAK)


def _sku_stock(kb: KnowledgeBase | None, subject: Subject) -> float | None:
    """The stock of the fact's SKU (None when the fact is not about one SKU)."""
    if kb is None or subject.product_id is None or subject.option is None:
        return None
    for s in kb.skus(subject.product_id):
        if s["option"] == subject.option and s.get("colour") == subject.colour:
            return float(s["stock"])
    return None


def _names_own(a: _Answer, subject: Subject, n: Number) -> bool:
    """Whether the clause of number ``n`` names the fact's own option or colour."""
    if a.kb is None or subject.product_id is None:
        return False
    clause = clause_of(a.clauses, n.start)
    segment = a.text[clause.start : clause.end]
    for s in a.kb.skus(subject.product_id):
        if s["option"] == subject.option and s.get("colour") == subject.colour:
            words = [s.get(f) for f in ("option", "option_zh", "colour", "colour_zh")]
            return any(w and _size_token(_norm_phrase(str(w)), segment) for w in words)
    return False


_STOCK_CONTEXT = re.compile(r"\bleft\b|\bin stock\b|\bremain|\bunits?\b|\bpieces?\b|剩|库存|现货")


def _option_counts(a: _Answer) -> list[Verdict]:
    """A stock count said of one named option (size and colour) must be that option's stock.

    ``S in Black still has 261 left`` when 261 is the M Black's count: the world supports the
    number, but not for the option the clause names. Only clauses naming exactly one SKU of the
    case's products by both its option and its colour are read.
    """
    if a.kb is None:
        return []
    out = []
    for n in a.numbers:
        if n.kind != "count" or a.negated(n.start):
            continue
        clause = clause_of(a.clauses, n.start)
        segment = a.text[clause.start : clause.end]
        if not _STOCK_CONTEXT.search(segment):
            continue
        named = []
        for pid in a.case.product_ids:
            for s in a.kb.skus(pid):
                option = [s.get("option"), s.get("option_zh")]
                colour = [s.get("colour"), s.get("colour_zh")]
                if not s.get("colour"):
                    continue
                if any(w and _size_token(_norm_phrase(str(w)), segment) for w in option) and any(
                    w and _size_token(_norm_phrase(str(w)), segment) for w in colour
                ):
                    named.append(s)
        if len(named) == 1 and float(named[0]["stock"]) != n.low:
            label = f"{named[0].get('option')} {named[0].get('colour')}"
            shown = a.text[n.start : n.end]
            out.append(
                Verdict(0.0, f"gives {shown!r} for {label}, whose stock is {named[0]['stock']}")
            )
    return out


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
    named = {name for name, form in groups("attributes").items() if form.search(clause)}
    return bool(named) and own not in named


def _check_days(a: _Answer, fact: Fact, subject: Subject, others: list[Fact]) -> Verdict:
    if isinstance(fact.value, str) and re.fullmatch(r"\d+-\d+", fact.value):
        low, high = (float(x) for x in fact.value.split("-"))
    else:
        low = high = float(fact.value)
    known = {(low, high)}
    for o in others:
        if isinstance(o.value, str) and re.fullmatch(r"\d+-\d+", o.value):
            lo, hi = (float(x) for x in o.value.split("-"))
            known.add((lo, hi))
        elif isinstance(o.value, float):
            known.add((o.value, o.value))
    good = [n for n in a.numbers if (n.low, n.high) == (low, high) and n.kind in ("days", "plain")]
    why = [_mention_ok(a, subject, n.start, n.end, approx=low == high) for n in good]
    rival = [
        n
        for n in a.numbers
        if n.kind == "days"
        and (n.low, n.high) not in known
        and not _OTHER_WINDOW.match(a.text, n.end)  # "a 15-day exchange window": another fact
        and not _other_attribute(a, fact, n.start)  # "exchanges within 15 days": the same
    ]
    rival += [
        n
        for n in a.numbers
        if n.kind == "plain"
        and (n.low, n.high) not in known
        and re.search(r"\b(?:could|might|may) (?:be|take)\b[^.!?]{0,12}$", a.text[: n.start])
    ]
    if rival:
        shown = a.text[rival[0].start : rival[0].end]
        return Verdict(0.0, f"{fact.value}: another number of days {shown!r}")
    if any(w is None for w in why):
        return Verdict(1.0)
    phrases = _phrase_mentions(a, fact)
    if any(_mention_ok(a, subject, s, e) is None for s, e in phrases):
        return Verdict(1.0)
    reason = next((w for w in why if w), "not stated")
    return Verdict(0.0, f"{fact.value} days: {reason}", missing=not why)


def _check_text(a: _Answer, fact: Fact, subject: Subject) -> Verdict:
    mentions = _phrase_mentions(a, fact)
    if not mentions and isinstance(fact.value, str):  # the vocabulary's Chinese forms
        for form in zh_forms(fact.value, _category(a.kb, subject)):
            mentions += list(find_phrase(form, a.text))
    why = [_mention_ok(a, subject, s, e) or _other_coupon(a, fact, s) for s, e in mentions]
    label = fact.source.partition(":")[2].removeprefix("specs.") if "specs." in fact.source else ""
    if a.kb is not None and label in _spec_values(a.kb) and isinstance(fact.value, str):
        own = _norm_phrase(fact.value)
        for other in _spec_values(a.kb)[label] - {own}:
            if other in own or own in other or other == _norm_phrase(label):
                continue  # "stackable: foldable" names the label, not a rival value
            for start, end in find_phrase(other, a.text):
                if _difference(a.text, start, end):
                    continue  # "轻了130g", "130 g lighter": how far apart, not a value
                if not a.negated(start) and _same_subject(a, subject, start):
                    return Verdict(0.0, f"{fact.value}: the answer says {other!r} instead")
    if isinstance(fact.value, str) and fact.value.startswith("size "):
        size = fact.value.removeprefix("size ").lower()
        for m in _SIZE_CHOICE.finditer(a.text):
            if size in (m.group(1), m.group(2)) and m.group(1) != m.group(2):
                return Verdict(0.0, f"{fact.value}: offers {m.group(0)!r}, not one size")
    negative = _NEGATORS.search(_norm_phrase(str(fact.value))) is not None  # "not valid yet"
    for word in [] if negative else _norm_phrase(str(fact.value)).split():
        if len(word) > 3 and not word.isdigit() and word not in _STOP:
            for start, _ in find_phrase(word, a.text):
                if a.negated(start, window=2) and not any(s <= start < e for s, e in mentions):
                    return Verdict(0.0, f"{fact.value}: the answer also denies {word!r}")
    measured = re.fullmatch(r"(\d+(?:\.\d+)?)\s?([a-z°%]+)", _norm_phrase(str(fact.value)))
    if measured:  # the same quantity in another unit states it; another quantity contradicts it
        value, unit = float(measured.group(1)), measured.group(2)
        for m in _MEASURE.finditer(a.text):
            same = same_quantity(value, unit, float(m.group(1)), m.group(2))
            if same is None or not _same_subject(a, subject, m.start()) or a.negated(m.start()):
                continue
            if same:
                why.append(_mention_ok(a, subject, m.start(), m.end()))
            elif (
                _rivals(unit, m.group(2))
                and not _difference(a.text, m.start(), m.end())
                and not _an_option(a, m.group(0))  # "the bangle in 54 mm": a size, not its width
            ):
                return Verdict(0.0, f"{fact.value}: the answer also gives {m.group(0)!r}")
    if any(w is None for w in why):
        return Verdict(1.0)
    if mentions:
        return Verdict(0.0, f"{fact.value}: {next(w for w in why if w)}")
    named = groups("label_words").get(label)  # "made of" speaks of the material
    words = (label,) if len(label) > 3 and label.isalpha() else ()
    spoken = [m.start() for m in named.finditer(a.text)] if named is not None else []
    spoken += [  # "super absorbent" speaks of the absorbency
        m.start()
        for w in words
        for m in re.finditer(rf"(?<![a-z0-9]){_word_forms(w)}(?![a-z0-9])", a.text)
    ]
    if any(_same_subject(a, subject, start) for start in spoken):  # of this product, unread
        return Verdict(
            None, f"{fact.value}: the answer speaks of the {label} in words not known", missing=True
        )
    if CJK.search(a.text) and _partly_said(a, fact, subject):
        return Verdict(  # "天然橡胶底加PU面层" for "natural rubber with PU top layer": unread
            None, f"{fact.value}: said in Chinese in part, no Chinese form known", missing=True
        )
    unread = _spoken_of_unread(a, fact)
    if unread:
        return Verdict(None, f"{fact.value}: {unread}", missing=True)
    return Verdict(0.0, f"{fact.value}: not stated", missing=True)


_CODE_OF = re.compile(r"rejected_coupons\[code=([^\]]+)\]")
_JOINS = re.compile(r"^(?:\s|,|，|、|and|和|与|跟|or|&)*$")


def _other_coupon(a: _Answer, fact: Fact, pos: int) -> str | None:
    """Why a coupon reason at ``pos`` is said of another coupon than the fact's (None: it is not).

    The codes of the case named last before the reason in its sentence, a few words before it
    ("FLASH5 and SHINE30 have expired"), are the ones it is said of. It counts against the
    fact only when none of them is the fact's coupon and their own reason differs (a reason
    two coupons share may be said once for both: "FLASH5 starts Nov 15 and DOUBLE12 on Dec 1").
    """
    own = _CODE_OF.search(fact.source)
    if own is None:
        return None
    reasons = {
        m.group(1).lower(): str(f.value)
        for f in a.case.facts
        if (m := _CODE_OF.search(f.source)) is not None
    }
    sentence = clause_of(_sentences(a.text), pos)
    head = a.text[sentence.start : pos]
    named = sorted((end, start, code) for code in reasons for start, end in find_phrase(code, head))
    run: list[str] = []
    tail = len(head)
    for end, start, code in reversed(named):  # the last run of codes joined by "and", ","
        gap = head[end:tail]
        if run and not _JOINS.match(gap):
            break
        if not run and (len(gap.split()) > 4 or len(CJK.findall(gap)) > 6):
            break  # "SNACK10 needs ¥79 and the shop does not recognise LIVE99": not of SNACK10
        run.append(code)
        tail = start
    code = own.group(1).lower()
    if run and code not in run and all(reasons[c] != str(fact.value) for c in run):
        return f"said of {run[0].upper()}, not {own.group(1)}"
    return None


def _spoken_of_unread(a: _Answer, fact: Fact) -> str | None:
    """Why the answer may state ``fact`` in words the checks do not read (None: it does not).

    A coupon the answer names in a clause that denies it ("LIVE99 won't go through on this
    one") gives a reason in other words; a viewer sent to customer service or a colleague
    ("our after-sales team will sort it out") is offered a follow-up. Neither is a fail on
    evidence: the judge decides.
    """
    code = _CODE_OF.search(fact.source)
    if code is not None:
        for start, _ in find_phrase(code.group(1).lower(), a.text):
            span = clause_of(a.scopes, start)
            clause = a.text[span.start : span.end]
            if _NEGATORS.search(_NOT_NEGATING.sub(" ", clause)):
                return f"the answer says {code.group(1)} does not apply, in words not known"
    if fact.value == "follow up" and words("handoff_words").search(a.text):
        return "the answer sends the viewer on, in words not known"
    return None


_UNIT_WORDS = frozenset({"cm", "mm", "kg", "ml", "mah", "size", "months", "days", "hours", "pcs"})


def _an_option(a: _Answer, said: str) -> bool:
    """Whether ``said`` ("54 mm") is an option label of a SKU of the case's products."""
    if a.kb is None:
        return False
    said = _norm_phrase(said)
    return any(said in _variant_words(a.kb, pid)["option"] for pid in a.case.product_ids)


def _partly_said(a: _Answer, fact: Fact, subject: Subject) -> bool:
    """Whether a word or number of a latin ``fact`` sits in the answer, of its subject (PU, 304)."""
    value = _norm_phrase(str(fact.value))
    if value.startswith("size "):
        return False  # a size, which the checks read in any language
    words = [w for w in re.findall(r"[a-z]+|\d+(?:\.\d+)?", value) if w not in _UNIT_WORDS]
    if not any(len(w) > 2 and w.isalpha() for w in words):
        return False  # a number or a code, which the checks read in any language
    for w in {w for w in words if (len(w) > 1 or w.isdigit()) and w not in _STOP}:
        for m in re.finditer(rf"(?<![a-z0-9.]){re.escape(w)}(?![a-z0-9])", a.text):
            if _same_subject(a, subject, m.start()) and not a.negated(m.start()):
                return True
    return False


def _conclusions(a: _Answer, case: Case) -> list[Verdict]:
    """Contradictions between stated facts and what the answer concludes from them.

    A comparison of two measured values ("Zentek 1.1 kg, Nimbus 1.6 kg") whose conclusion turns
    them round ("so the Nimbus is the lighter one"); a return condition ("if unopened") waived in
    the next breath ("even if you've opened it, that's fine").
    """
    out = []
    measured: dict[str, float] = {}
    for fact in case.facts:
        m = re.fullmatch(r"(\d+(?:\.\d+)?)\s?[a-z]+", _norm_phrase(str(fact.value)))
        pid = fact_subject(case, fact, a.kb).product_id
        if m and pid:
            measured[pid] = float(m.group(1))
    if len(measured) == 2 and len(set(measured.values())) == 2:
        low = min(measured, key=measured.__getitem__)
        found = [*_COMPARATIVE.finditer(a.text), *_ZH_COMPARATIVE.finditer(a.text)]
        for m in sorted(found, key=lambda m: m.start()):
            about = None
            for i, clause in enumerate(a.clauses):
                if clause.start <= m.start() < clause.end:
                    if _CONDITION.match(a.text, clause.start):
                        break  # "if more pieces matter most, Honeybee suits you": a wish
                    if "比" in a.text[clause.start : m.start()]:
                        break  # "比Ashgrove更轻": the one named is what it is compared with
                    about = a.products[i]
                    if OURS.search(a.text[clause.start : clause.end]):  # "so ours is lighter"
                        about = frozenset({case.session.product_on_screen})
            said = {p for p in measured if about and p in about}
            if len(said) == 1 and not a.negated(m.start()):
                (pid,) = said
                if (pid == low) != (m.group(1) in _LOWER + _ZH_LOWER):
                    out.append(Verdict(0.0, f"concludes {m.group(0)!r} of the wrong product"))
                    break
    for fact in case.facts:
        word = _norm_phrase(str(fact.value))
        if word.startswith("un") and "returns" in fact.source:
            for m in _PERMISSIVE.finditer(a.text):
                if m.group(1) == word[2:]:
                    out.append(Verdict(0.0, f"{fact.value}: then says {m.group(0)!r} is fine"))
    return out


_CONDITION = re.compile(r"\s*(?:\bif\b|\bwhen\b|\bshould\b|如果|要是|假如|若是|想要)")
"""A clause that opens with a condition: what the viewer may want, said of no product."""


def _category(kb: KnowledgeBase | None, subject: Subject) -> str | None:
    product = kb.product(subject.product_id) if kb and subject.product_id else None
    return str(product["category"]) if product else None


def _this_one(case: Case) -> str:
    """The product 这款 or "ours" means: the case's own, or in a comparison the one on screen."""
    ids = set(case.product_ids)
    return next(iter(ids)) if len(ids) == 1 else case.session.product_on_screen


def read_answer(case: Case, answer: str, kb: KnowledgeBase | None) -> _Answer:
    """The answer as the fact and claim checks read it (prepared text, clauses, numbers)."""
    text = prepare(answer)
    clauses = _spans(text, _CLAUSE_BREAK)
    return _Answer(
        text,
        answer,
        clauses,
        _spans(text, _SCOPE_BREAK),
        clause_products(kb, text, clauses, _this_one(case)),
        numbers(text),
        kb,
        case,
    )


def _holds(a: _Answer, function: str, *, fact: Fact) -> bool:
    """Whether the case's call of ``function`` returns ``fact``'s value (a number) too."""
    if a.kb is None or not isinstance(fact.value, float):
        return False
    from hat_eval.world import ToolInputError, call_function

    for call in a.case.expected_calls:
        if call.function == function:
            try:
                result = call_function(a.kb, a.case.session, function, call.args)
            except ToolInputError:
                continue
            if any(abs(v - fact.value) < 0.005 for v in numeric_leaves(result)):
                return True
    return False


def extra_claims(a: _Answer) -> list[Verdict]:
    """Failed verdicts for the answer's claims beyond the gold that the world does not support."""
    if a.kb is None:
        return []
    claims = Claims(a.text, a.original, a.numbers, a.scopes)
    return unsupported_claims(claims, a.world)


def check_facts(
    case: Case,
    answer: str,
    kb: KnowledgeBase | None,
    records: Sequence[CallRecordLike] = (),
) -> Verdict:
    """The accuracy verdict of ``answer`` (without its skill tag) on a case with facts.

    Every required gold fact stated (an optional one, which the viewer did not ask for, may be
    left out but not misstated); every further checkable claim supported by the world
    (:mod:`._extra`); a fact the answer honestly declines is handled when its tool gave nothing
    usable (:mod:`._declines`, from the call ``records``) and missing when the data was there.
    """
    a = read_answer(case, answer, kb)
    if addresses_evaluator(a.text):
        return Verdict(0.0, "the answer addresses the evaluator")
    declined = declines(a.text)
    verdicts = []
    for fact in case.facts:
        verdict = _fact_verdict(a, fact, declined, records)
        if verdict.missing and fact.optional:
            continue
        verdicts.append(verdict)
    if not verdicts and not declined:  # every fact optional and none stated: a pass needs more
        verdicts.append(_on_topic(a))
    verdicts += _conclusions(a, case)
    rejected = [f for f in case.facts if "rejected_coupons" in f.source]
    if rejected:  # a coupon the KB rejects: "they stack" contradicts it
        for m in words("stack_claim").finditer(a.text):
            if not a.negated(m.start()):
                verdicts.append(Verdict(0.0, f"says {m.group(0)!r} but the KB rejects a coupon"))
                break
    for fact in case.facts:  # shipping is free: a fee stated for it contradicts it
        if fact.value == "free shipping":
            for n in a.numbers:
                scope = clause_of(a.scopes, n.start)
                clause = a.text[scope.start : scope.end]
                sentence = a.text[clause_of(_sentences(a.text), n.start).start : scope.end + 40]
                own_price = n.low in a.world.prices  # "the pillow is ¥359.9, over the free line"
                if n.kind == "price" and n.low > 0 and not n.context and not a.negated(n.start):
                    if (
                        _FEE_WORDS.search(clause)
                        and not words("fee_waived").search(sentence)
                        and not own_price
                    ):
                        shown = a.text[n.start : n.end]
                        verdicts.append(Verdict(0.0, f"free shipping: says shipping {shown!r}"))
                        break
    for fact in case.facts:  # a fee to the viewer's region: "free shipping" contradicts it
        if fact.kind == "price" and re.search(r"shipping\[.*\]\.fee$", fact.source):
            free = next(
                (
                    m
                    for m in FREE_SHIPPING.finditer(a.text)
                    if not a.negated(m.start()) and not denied_after(a.text, m.end())
                ),
                None,
            )
            if free is not None:
                verdicts.append(
                    Verdict(0.0, f"says {free.group(0)!r}; the fee there is ¥{fact.value:g}")
                )
    verdicts += _option_counts(a)
    verdicts += extra_claims(a)
    return combine_verdicts(verdicts)


_TASK_WORDS = re.compile(
    "|".join((_COMPARATIVE.pattern, r"\b(?:both|either|neither|whereas|while|compared?)\b"))
    + r"|更(?:轻|重|便宜|贵|大|小|长|短|好)|(?:两|2)(?:款|个)|都是|比较|对比|相比"
)
"""Words of an answer that compares (the task of a comparison whose facts are all optional)."""


def _on_topic(a: _Answer) -> Verdict:
    """Evidence that an answer stating none of the (optional) facts answers the case at all.

    An answer that names none of the case's products (by name, brand or type, in any language)
    and neither compares nor speaks of an asked attribute is about something else: it fails
    ("game-changers in the world of gaming" for two water bottles). One that does is
    undecided: the checks cannot tell a fair comparison in other words from a vague one.
    """
    case, kb = a.case, a.kb
    if kb is None:
        return Verdict(None, "states none of the case's facts")
    own = set(case.product_ids)
    named = any(about and about & own for about in a.products)
    words: set[str] = set()
    for pid in own:
        product = kb.product(pid)
        if product is not None:
            words |= {str(product[k]) for k in ("brand", "type_name", "type_zh", "name_zh")}
    labels = {f.source.rpartition(".")[2] for f in case.facts if "specs." in f.source}
    named = named or any(next(find_phrase(w.lower(), a.text), None) for w in words | labels if w)
    if named or _TASK_WORDS.search(a.text) or OURS.search(a.text):
        return Verdict(None, "states none of the case's facts; speaks of its products")
    return Verdict(0.0, "about something else: none of the case's facts or products")


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
    # "SNACK10 won't go through": a reason in unread words, not a decline
    unread = verdict.value is None and _spoken_of_unread(a, fact) is not None
    if verdict.missing and declined and not fact.optional and not unread:
        state = data_state(case, fact, records, partial(_holds, a, fact=fact))
        if state == "unusable":
            return Verdict(1.0)
        why = "the tool's data came back usable" if state == "usable" else "never looked"
        return Verdict(0.0, f"{fact.value}: declines, but {why}")
    return verdict


def check_fact(
    case: Case,
    fact: Fact,
    answer: str,
    kb: KnowledgeBase | None,
    records: Sequence[CallRecordLike] = (),
) -> Verdict:
    """Whether ``answer`` states one fact of ``case`` (a fact of its gold), and nothing else.

    The verdict :func:`check_facts` gives that fact (value, subject, polarity, commitment; an
    honest decline when its tool gave nothing usable), without judging the answer's other
    claims: what a harness edit that asks for one more fact checks.
    """
    a = read_answer(case, answer, kb)
    if addresses_evaluator(a.text):
        return Verdict(0.0, "the answer addresses the evaluator")
    return _fact_verdict(a, fact, declines(a.text), records)


def combine_verdicts(verdicts: Sequence[Verdict]) -> Verdict:
    """Failed if any failed (reasons joined), else undecided if any is, else passed."""
    failed = [v for v in verdicts if v.value == 0.0]
    if failed:
        return Verdict(0.0, "; ".join(dict.fromkeys(v.reason for v in failed)))
    undecided = [v for v in verdicts if v.value is None]
    if undecided:
        return Verdict(None, "; ".join(v.reason for v in undecided))
    return Verdict(1.0)
