"""A gold fact with a text value checked in the answer: a phrase, a spec, a size, a measure.

The value (or a Chinese form of it) said of the fact's subject, no rival value of its spec label,
no choice of two sizes, no denial of its words, no other quantity of its measure; and where the
answer states none of it, whether it speaks of the fact in words the checks do not read
(undecided) or not at all (missing).
"""

from __future__ import annotations

import re
from functools import lru_cache

from hat_eval.world import CJK, Fact, KnowledgeBase, zh_forms

from ._amounts import PER_AMOUNT
from ._answer import _BOTH, _Answer
from ._language import _NEGATORS, _NOT_NEGATING, approximated_at, declines
from ._lexicon import groups, words
from ._mentions import (
    _MEASURE,
    _SHARE,
    _STOP,
    _difference,
    _mention_ok,
    _phrase_mentions,
    _rivals,
    _word_forms,
)
from ._quantities import TOTAL_WORDS_EN, TOTAL_WORDS_ZH, bound_before, in_unit, same_quantity
from ._subjects import Subject, _variant_words, fact_subject, products_in
from ._text import clause_of, find_phrase, in_parentheses, prepare
from ._verdict import Verdict


@lru_cache(maxsize=4)
def _spec_values(kb: KnowledgeBase) -> dict[str, frozenset[str]]:
    """Spec label -> every value it takes in the catalogue (prepared), for competing claims."""
    values: dict[str, set[str]] = {}
    for p in kb.products():
        for label, value in p["specs"].items():
            if isinstance(value, str) and len(value) <= 24:
                values.setdefault(label, set()).add(prepare(value))
    return {k: frozenset(v) for k, v in values.items()}


_SIZES = r"xxxl|xxl|xl|xs|s|m|l|2xl|3xl"
_SIZE_CHOICE = re.compile(
    rf"(?<![a-z0-9'-])({_SIZES})(?:码)?(?![a-z0-9'-])\s*(?:or|/|或|或者|to|到|-)\s*"
    rf"(?<![a-z0-9'-])({_SIZES})(?![a-z0-9'-])"
)


_NEAR_BEFORE = re.compile(
    r"\b(?:a little|just|slightly|a bit|a touch|barely) (?:under|over|below|above|less than|"
    r"more than|shy of)\s?$"
)
"""Words before a round figure said beside the exact one ("a little under 200 g")."""


_CAPACITY_BEFORE = re.compile(
    r"\b(?:up to|max(?:imum)?(?: load)?(?: of)?|holds?|supports?|carries|capacity(?: of)?|"
    r"load(?: of)?)\s?$|承重|最大"
)
"""A measure said as what the product holds ("takes a child up to 22 kg"): another attribute."""
_DIMENSION_BEFORE = re.compile(r"\d(?:\.\d+)?\s?(?:[a-z]{1,2}\s?)?[x×*]\s?$")
_DIMENSION_AFTER = re.compile(r"\s?[x×*]\s?\d")


def _in_dimensions(text: str, start: int, end: int) -> bool:
    """Whether the measure at ``start:end`` is one side of "60 x 40 cm" (another attribute)."""
    return bool(_DIMENSION_BEFORE.search(text, 0, start) or _DIMENSION_AFTER.match(text, end))


def _theirs(a: _Answer, subject: Subject, said: str, start: int) -> bool:
    """Whether ``said`` is another product's value of the case, in a clause naming no product.

    "Choose the 420 gsm one" after "Studio Mu at 320 gsm": the other hoodie's weight, said of it.
    """
    if a.kb is None or products_in(a.kb, a.text, clause_of(a.clauses, start)):
        return False
    return any(
        prepare(str(f.value)) == prepare(said)
        and fact_subject(a.case, f, a.kb).product_id not in (None, subject.product_id)
        for f in a.case.facts
    )


def _choice(a: _Answer, subject: Subject, other: str, core: str, start: int) -> bool:
    """Whether ``other``, another product's value in the case, is said beside the fact's own.

    "So it comes down to the look you like: satin or natural": the two products' values offered
    as a choice (each said of its product elsewhere), not a rival value of the fact's product.
    """
    if len(core) < 3 or a.kb is None:
        return False
    kb = a.kb
    if not any(
        re.search(rf"\b{re.escape(other)}\b", prepare(str(f.value)))  # "satin" of "satin finish"
        and fact_subject(a.case, f, kb).product_id not in (None, subject.product_id)
        for f in a.case.facts
    ):
        return False
    sentence = clause_of(a.sentences, start)
    return any(
        sentence.start <= m.start() < sentence.end and not a.negated(m.start())
        for m in re.finditer(rf"\b{re.escape(core)}\b", a.text)
    )


_RATIO = re.compile(r"(?<![\d.])(\d{1,2})/(\d{1,2}) ([a-z]+)[-/ ]([a-z]+)\b")
"""A blend said as a ratio ("a 60/40 bamboo-cotton blend": 60% bamboo, 40% cotton)."""


def _other_share(a: _Answer, fact: Fact, subject: Subject) -> str | None:
    """Another share of the fact's material ("60% bamboo", "60/40 bamboo-cotton" of 70%)."""
    own = _SHARE.match(prepare(str(fact.value)))
    if own is None:
        return None
    share, word = float(own.group(1)), own.group(2)
    said = [(m.group(1), m.group(2), m) for m in _SHARE.finditer(a.text)]
    for m in _RATIO.finditer(a.text):
        if int(m.group(1)) + int(m.group(2)) == 100:
            said += [(m.group(1), m.group(3), m), (m.group(2), m.group(4), m)]
    for value, material, m in said:
        if material != word or abs(float(value) - share) < 0.5:
            continue
        if not a.negated(m.start()) and not a.conflict(subject, m.start()):
            return m.group(0)
    return None


def _rival_spec_value(a: _Answer, fact: Fact, subject: Subject, label: str) -> str | None:
    """Another value the catalogue gives spec ``label``, said of the fact's subject (None: none).

    "regular fit" for leggings whose fit is "relaxed fit": a value of the same label the
    catalogue gives another product, which states something else than the fact.
    """
    if a.kb is None or label not in _spec_values(a.kb) or not isinstance(fact.value, str):
        return None
    own = prepare(fact.value)
    core = own.replace(prepare(label), "").strip()  # "natural" of "natural finish"
    said = list(find_phrase(own, a.text))
    for other in sorted(_spec_values(a.kb)[label] - {own}):  # one reason, whatever the hash seed
        if other in own or own in other or other == prepare(label):
            continue  # "stackable: foldable" names the label, not a rival value
        for start, end in find_phrase(other, a.text):
            if any(s < end and start < e for s, e in said):
                continue  # "velvet matte finish": the fact's own value, with its label
            if _difference(a.text, start, end):
                continue  # "轻了130g", "130 g lighter": how far apart, not a value
            if _choice(a, subject, other, core, start):
                continue  # "go satin for a soft sheen, natural for a skin-like look"
            if _between(a.text, start, end):
                continue  # "a soft sheen that sits between matte and glossy": a scale's end
            if a.negated(start) or a.conflict(subject, start):
                continue
            if _theirs(a, subject, other, start):
                continue
            return other
    return None


_BETWEEN_BEFORE = re.compile(r"\bbetween\s(?:[\w-]+\s){0,3}(?:and\s)?$|介于\w{0,6}(?:和|与)?$")
_BETWEEN_AFTER = re.compile(r"^\s(?:and\s[\w-]+|\w{0,6}之间)|^(?:和|与)?\w{0,6}之间")


def _between(text: str, start: int, end: int) -> bool:
    """Whether the value at ``start:end`` is one end of a scale said with "between ... and ...".

    "a soft sheen that sits between matte and glossy", "介于哑光和亮面之间": a place on a
    scale, not the value said of the product.
    """
    before = _BETWEEN_BEFORE.search(text, max(0, start - 40), start)
    return before is not None and (
        before.group(0).rstrip().endswith(("and", "和", "与"))
        or _BETWEEN_AFTER.search(text[end : end + 16]) is not None
    )


_TEXTILE = re.compile(r"(?:棉|cotton|thread|支)\s?$")
"""A count of threads before "T" ("全棉233T"): a thread count, no weight in tonnes."""


_TERM_AFTER = re.compile(r"\s?[−–+-]\s?\d+(?:\.\d+)?\s?[a-z]{0,4}\s?=")
_TERM_BEFORE = re.compile(r"\d(?:\s?[a-z]{1,4})?\s?[−–+-]\s?$")
_EQUALS = re.compile(r"\s?=")


def _operand(text: str, start: int, end: int) -> bool:
    """Whether the quantity at ``start:end`` is a term of a sum worked out ("45 g − 38 g = 7 g")."""
    if _TERM_AFTER.match(text, end):
        return True
    return bool(_TERM_BEFORE.search(text, max(0, start - 16), start) and _EQUALS.match(text, end))


_FRACTION = re.compile(r"\b(?:half|quarters?|thirds?)(?: of)? $")
"""A unit's fraction before a quantity ("three-quarters of a year (9 months)"): not that value."""

_WANTED_NONE = re.compile(
    r"\b(?:prefers?|wants?|likes?|needs?|looking for|rather have)\s(?:no|zero)\s$|"
    r"(?:喜欢|想要|偏爱)(?:无|没有)$"
)


def _rough_gloss(a: _Answer, value: float, unit: str, m: re.Match[str]) -> bool:
    """Whether measure ``m`` glosses ``value unit`` roughly, as people do.

    "820 g, or about 0.8 kilograms" (within 5%; in brackets 15%, "580 g (about 1.6 lb)" is
    no gloss of 1.28 lb); "8 mm (just under 1 cm)", "198 grams, a little
    under 200 g", "820 g, a little under 1 kilogram" (a round figure on the right side of it,
    within a quarter).
    """
    said = in_unit(float(m.group(1)), m.group(2), unit)
    if said is None:
        return False
    if approximated_at(a.text, m.start(), m.end()) and (
        abs(said - value) <= (0.15 if in_parentheses(a.text, m.start()) else 0.05) * value
    ):  # "580 g (about 1.6 lb)" is 1.28 lb: no gloss
        return True
    near = _NEAR_BEFORE.search(a.text, max(0, m.start() - 24), m.start())
    if near is None or abs(said - value) > 0.25 * value:
        return False
    below = re.search(r"under|below|less|shy", near.group(0)) is not None
    return said >= value if below else said <= value


def _check_text(a: _Answer, fact: Fact, subject: Subject) -> Verdict:
    mentions = _phrase_mentions(a, fact)
    if not mentions and isinstance(fact.value, str):  # the vocabulary's Chinese forms
        product = a.kb.product(subject.product_id) if a.kb and subject.product_id else None
        forms = zh_forms(fact.value, str(product["category"]) if product else None)
        for form in forms:
            mentions += list(find_phrase(form, a.text))
        for form in forms if not mentions and CJK.search(a.text) else ():
            mentions += [m.span() for m in _spread(form).finditer(a.text)]  # 可以放洗碗机清洗
    why = [_mention_ok(a, subject, s, e) or _other_coupon(a, fact, s) for s, e in mentions]
    label = fact.source.partition(":")[2].removeprefix("specs.") if "specs." in fact.source else ""
    rival = _rival_spec_value(a, fact, subject, label) or _other_share(a, fact, subject)
    if rival is not None:
        return Verdict(0.0, f"{fact.value}: the answer says {rival!r} instead")
    if isinstance(fact.value, str) and fact.value.startswith("size "):
        size = fact.value.removeprefix("size ").lower()
        for m in _SIZE_CHOICE.finditer(a.text):
            if size in (m.group(1), m.group(2)) and m.group(1) != m.group(2):
                return Verdict(0.0, f"{fact.value}: offers {m.group(0)!r}, not one size")
    negative = _NEGATORS.search(prepare(str(fact.value))) is not None  # "not valid yet"
    # "size XL": the word "size" names the attribute ("without its size chart" denies nothing)
    # "wood-grain finish": "not solid wood" denies no wood grain (a compound's first word)
    modifiers = {t.split("-")[0] for t in str(fact.value).lower().split() if "-" in t}
    for word in [] if negative else prepare(str(fact.value)).removeprefix("size ").split():
        if len(word) > 3 and not word.isdigit() and word not in _STOP | modifiers:
            for start, _ in find_phrase(word, a.text):
                if _WANTED_NONE.search(a.text, max(0, start - 30), start):
                    continue  # "suits parents who prefer no scent": a wish, no denial
                if bound_before(a.text, start) == "at most":
                    continue  # "水温别超过40°C", "no hotter than 40°C": a bound, no denial
                if a.negated(start, window=2) and not any(s <= start < e for s, e in mentions):
                    if a.conflict(subject, start):
                        continue  # "while the Skinfolk contains no silicones": the other's
                    return Verdict(0.0, f"{fact.value}: the answer also denies {word!r}")
    measured = re.fullmatch(r"(\d+(?:\.\d+)?)\s?([a-z°%]+)", prepare(str(fact.value)))
    if measured:  # the same quantity in another unit states it; another quantity contradicts it
        value, unit = float(measured.group(1)), measured.group(2)
        for m in _MEASURE.finditer(a.text):
            same = same_quantity(value, unit, float(m.group(1)), m.group(2))
            if same is None or a.conflict(subject, m.start()) or a.negated(m.start()):
                continue
            clause = clause_of(a.clauses, m.start())
            if _theirs(a, subject, m.group(0), m.start()) and not _BOTH.search(
                a.text, clause.start, clause.end
            ):  # "Both are sheets soaked with about 30 ml each": of the fact's own too
                continue
            if same:
                why.append(_mention_ok(a, subject, m.start(), m.end()))
            elif (
                _rivals(unit, m.group(2))
                and not _difference(a.text, m.start(), m.end())
                and not _an_option(a, m.group(0))  # "the bangle in 54 mm": a size, not its width
                and not _in_dimensions(a.text, m.start(), m.end())  # "60 x 40 cm": its footprint
                and not _CAPACITY_BEFORE.search(a.text, max(0, m.start() - 24), m.start())
                and not _rough_gloss(a, value, unit, m)
                and not _worked_total(a, value, float(m.group(1)), m.start())
                and not _another_spec(a, m)  # "a 2.2 mm band" beside a 6 mm stone
                and not _per_amount(a.text, m.start())  # "约¥20/100 g": a price's unit
                and not _FRACTION.search(a.text, max(0, m.start() - 20), m.start())
                and not _operand(a.text, m.start(), m.end())  # "45 g − 38 g = 7 g"
                and not (m.group(2) == "t" and _TEXTILE.search(a.text, 0, m.start()))
            ):
                return Verdict(0.0, f"{fact.value}: the answer also gives {m.group(0)!r}")
    why += [_mention_ok(a, subject, s, e) for s, e in _dimensions_in_unit(a, str(fact.value))]
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
    spoken = [start for start in spoken if not _asked_elsewhere(a, start)]
    if any(not a.conflict(subject, start) for start in spoken):  # of this product, unread
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


def _asked_elsewhere(a: _Answer, start: int) -> bool:
    """Whether the attribute at ``start`` is named as what the answer does not give.

    "For the bottle's material, please check its product page"; "I'm not able to compare the
    protection of these two": a decline in the clause before it, or a page to look it up on.
    """
    sentence = clause_of(a.sentences, start)
    if words("look_elsewhere").search(a.text, sentence.start, sentence.end):
        return True
    return declines(a.text[clause_of(a.scopes, start).start : start])


_DIMENSIONS = re.compile(
    r"(?<![\d.])(\d+(?:\.\d+)?)\s?[x×*]\s?(\d+(?:\.\d+)?)(?:\s?[x×*]\s?(\d+(?:\.\d+)?))?"
    r"\s?(mm|cm|m|毫米|厘米|米)(?![a-z])"
)
_UNIT_ZH = {"毫米": "mm", "厘米": "cm", "米": "m"}


def dimensions_of(m: re.Match[str]) -> tuple[list[float], str]:
    """The sides (in the order said) and the unit of a ``_DIMENSIONS`` match ("15 x 20 mm")."""
    return [float(x) for x in m.groups()[:3] if x], _UNIT_ZH.get(m.group(4), m.group(4))


def _dimensions_in_unit(a: _Answer, value: str) -> list[tuple[int, int]]:
    """Where the answer gives dimensions ``value`` ("15 x 20 mm") in another unit (1.5 × 2 cm)."""
    own = _DIMENSIONS.fullmatch(prepare(value))
    if own is None:
        return []
    sizes = [float(x) for x in own.groups()[:3] if x]
    out = []
    for m in _DIMENSIONS.finditer(a.text):
        said, unit = dimensions_of(m)
        if len(said) == len(sizes) and all(
            same_quantity(v, own.group(4), w, unit) for v, w in zip(sizes, said, strict=True)
        ):
            out.append(m.span())
    return out


@lru_cache(maxsize=1024)
def _spread(form: str) -> re.Pattern[str]:
    """A Chinese form with one more character allowed between any two of its own.

    含树坚果 for 含坚果, 可以放洗碗机清洗 for 可以洗碗机清洗; a shorter form as it is.
    """
    if len(form) < 3 or not CJK.fullmatch(form[0]):
        return re.compile(re.escape(form))
    return re.compile("[^，。！？,.!?、；;]?".join(map(re.escape, form)))


REJECTED_CODE = re.compile(r"rejected_coupons\[code=([^\]]+)\]")
"""The code of a rejected coupon a fact's source names (``rejected_coupons[code=X].reason``)."""
_JOINS = re.compile(r"^(?:\s|,|，|、|and|和|与|跟|or|&)*$")


def _other_coupon(a: _Answer, fact: Fact, pos: int) -> str | None:
    """Why a coupon reason at ``pos`` is said of another coupon than the fact's (None: it is not).

    The codes of the case named last before the reason in its sentence, a few words before it
    ("FLASH5 and SHINE30 have expired"), are the ones it is said of. It counts against the
    fact only when none of them is the fact's coupon and their own reason differs (a reason
    two coupons share may be said once for both: "FLASH5 starts Nov 15 and DOUBLE12 on Dec 1").
    """
    own = REJECTED_CODE.search(fact.source)
    if own is None:
        return None
    reasons = {
        m.group(1).lower(): str(f.value)
        for f in a.case.facts
        if (m := REJECTED_CODE.search(f.source)) is not None
    }
    sentence = clause_of(a.sentences, pos)
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
    code = REJECTED_CODE.search(fact.source)
    if code is not None:
        for start, _ in find_phrase(code.group(1).lower(), a.text):
            clause = a.clause(start)
            if words("cannot_tell").search(clause):
                continue  # "I can't confirm yet whether HOME15 and NEST10 stack": a decline
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
    said = prepare(said)
    return any(said in _variant_words(a.kb, pid)["option"] for pid in a.case.product_ids)


def _partly_said(a: _Answer, fact: Fact, subject: Subject) -> bool:
    """Whether a word or number of a latin ``fact`` sits in the answer, of its subject (PU, 304)."""
    value = prepare(str(fact.value))
    if value.startswith("size "):
        return False  # a size, which the checks read in any language
    words = [w for w in re.findall(r"[a-z]+|\d+(?:\.\d+)?", value) if w not in _UNIT_WORDS]
    if not any(len(w) > 2 and w.isalpha() for w in words):
        return False  # a number or a code, which the checks read in any language
    for w in {w for w in words if (len(w) > 1 or w.isdigit()) and w not in _STOP}:
        for m in re.finditer(rf"(?<![a-z0-9.]){re.escape(w)}(?![a-z0-9])", a.text):
            if not a.conflict(subject, m.start()) and not a.negated(m.start()):
                return True
    return False


_TOTAL_SAID = re.compile(rf"\b(?:{TOTAL_WORDS_EN}|comes? to|in all)\b|{TOTAL_WORDS_ZH}")
_PACK_COUNT = re.compile(
    r"(?<![\d.])(\d{1,3})(?:[- ]?(?:packs?|pieces?|pcs|sheets?|bags?|x)\b|\s?[片包袋个件])"
)


def _worked_total(a: _Answer, value: float, other: float, at: int) -> bool:
    """Whether ``other`` is ``value`` times a pack count the answer gives, said as a total.

    "Each pack holds 26 g, so the 7-pack option comes to 182 grams in total": a sum the answer
    works out, not a second value of the pack's weight.
    """
    if not _TOTAL_SAID.search(a.said(clause_of(a.sentences, at))):
        return False
    counts = {int(m.group(1)) for m in _PACK_COUNT.finditer(a.text)}
    return any(k > 1 and abs(k * value - other) <= 0.005 * other for k in counts)


def _per_amount(text: str, start: int) -> bool:
    """Whether the measure at ``start`` is the amount a price is per ("¥20/100 g", "每100克")."""
    return any(m.start(1) == start for m in PER_AMOUNT.finditer(text, max(0, start - 6)))


def _another_spec(a: _Answer, measure: re.Match[str]) -> bool:
    """Whether ``measure`` is another spec's value, named as that spec beside it.

    "An 8 mm stone ... a 2.2 mm band": the listing's band width is 2.2 mm and the answer names
    the band, so it is not a second stone size; "an 8 mm natural moonstone" names the stone at a
    compound's end. "11 cm high, about 40 cm when fluffed" names no
    other spec: still a rival height.
    """
    said = prepare(measure.group(0)).replace(" ", "")
    near = a.text[max(0, measure.start() - 16) : measure.end() + 24]
    for pid in a.case.product_ids:
        product = a.kb.product(pid) if a.kb else None
        specs = product.get("specs", {}) if product else {}
        for label, value in specs.items():
            words = [re.escape(w) for w in label.lower().split() if len(w) > 2]
            if said in prepare(str(value)).replace(" ", ""):
                if any(re.search(rf"\b{w}|{w}\b", near) for w in words):
                    return True
    return False
