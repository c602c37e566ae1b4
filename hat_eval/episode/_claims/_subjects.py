"""Who a claim is about: the products, options and colours a clause names."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from hat_eval.world import Case, ExpectedCall, Fact, KnowledgeBase

from ._lexicon import group_words
from ._text import Span, find_phrase, prepare


@dataclass(frozen=True)
class Subject:
    """Who a fact is about: a product and, for SKU facts, its option and colour."""

    product_id: str | None
    option: str | None = None
    colour: str | None = None


@lru_cache(maxsize=4)
def _name_index(kb: KnowledgeBase) -> dict[str, tuple[tuple[str, frozenset[str]], ...]]:
    """First word of every product name (English, Chinese, id) and brand -> (name, product ids).

    A brand names every product of that brand ("Zentek" in "lighter than the Zentek"); a full
    name or an id names one product. Keyed by first word so an answer is only searched for the
    names whose first word it contains.
    """
    owner: dict[str, set[str]] = {}
    for p in kb.products():
        for name in (p["id"], p["name"], p.get("name_zh"), p["brand"]):
            key = prepare(str(name or ""))
            if len(key) >= 3:
                owner.setdefault(key, set()).add(str(p["id"]))
    index: dict[str, list[tuple[str, frozenset[str]]]] = {}
    for key, ids in owner.items():
        index.setdefault(_first_word(key), []).append((key, frozenset(ids)))
    return {k: tuple(sorted(v, key=lambda x: -len(x[0]))) for k, v in index.items()}


def _first_word(text: str) -> str:
    m = re.match(r"[a-z0-9]+|\S", text)
    return m.group(0) if m else text


def products_in(kb: KnowledgeBase, text: str, span: Span) -> list[frozenset[str]]:
    """The products each name in a stretch of prepared text may mean (name, id or brand).

    A name inside a longer name (the brand of a full product name) means nothing of its own.
    """
    return [ids for _, ids, _, _ in named_spans(kb, text[span.start : span.end])]


@lru_cache(maxsize=8192)
def named_spans(kb: KnowledgeBase, text: str) -> tuple[tuple[str, frozenset[str], int, int], ...]:
    """(name, the products it may mean, start, end) of each product name in prepared ``text``.

    Cached: answers repeat their clauses, and each is read once.

    A name inside a longer name means nothing of its own: "the Bamboo Hill Homestyle Dried
    Mango" names the mango, not every Bamboo Hill product.
    """
    index = _name_index(kb)
    words = set(re.findall(r"[a-z0-9]+", text)) | set(re.findall(r"[^\x00-\x7f]", text))
    spans: list[tuple[str, frozenset[str], int, int]] = []
    for word in words & index.keys():
        for name, ids in index[word]:
            spans += [(name, ids, start, end) for start, end in find_phrase(name, text)]
    return tuple(
        sorted(
            (
                (name, ids, start, end)
                for name, ids, start, end in spans
                if not any(s <= start and end <= e and e - s > end - start for _, _, s, e in spans)
            ),
            key=lambda span: (span[2], span[3]),
        )
    )


def source_call(case: Case, fact: Fact) -> ExpectedCall | None:
    """The expected call whose result holds ``fact`` (None for a fact of the harness's rules)."""
    idx = fact.source.partition(":")[0]
    if not idx.isdigit() or int(idx) >= len(case.expected_calls):
        return None
    return case.expected_calls[int(idx)]


def fact_subject(case: Case, fact: Fact, kb: KnowledgeBase | None) -> Subject:
    """The product (and SKU option/colour) a fact's source call is about."""
    call = source_call(case, fact)
    if call is None or kb is None:
        return Subject(None)
    args = call.args
    path = fact.source.partition(":")[2]
    sku_id = args.get("sku")
    sku = kb.sku(str(sku_id)) if sku_id else None
    m = re.search(r"skus\[sku=([^\]]+)\]", path)
    if m and sku is None:
        sku = kb.sku(m.group(1))
    if sku is not None:
        return Subject(str(sku["product_id"]), str(sku["option"]), sku.get("colour"))
    pid = args.get("product_id")
    return Subject(str(pid) if pid else None)


_BED = re.compile(r"(?<=\d)(?: ?m bed| ?米床)$")


@lru_cache(maxsize=4096)
def _forms(value: str) -> tuple[str, ...]:
    """An option's or colour's prepared forms.

    "1.8 m bed" is said "1.8 m" too (1.8米床, 1.8米); "Stage 3 (12-36 months)", "Stage 3"; a
    colour by the lexicon's other names of it (Sage Green: 鼠尾草绿).
    """
    word = prepare(value)
    forms = dict.fromkeys(
        [
            word,
            *group_words("colour_names", word),
            _BED.sub(lambda m: " m" if "m" in m.group(0) else "米", word),
        ]
    )
    forms[re.sub(r"\s?\([^)]*\)$", "", word)] = None
    if " x " in word:  # "2 x 10 kg" said "2×10 kg", "2x10kg"
        forms[word.replace(" x ", "×")] = forms[word.replace(" x ", "x")] = None
    counted = _COUNTED.fullmatch(word)  # "5 sheets": 5片装, 5片
    if counted is not None:
        number = counted.group(1)
        for zh in _COUNT_ZH.get(counted.group(2), ()):
            forms[f"{number}{zh}装"] = forms[f"{number}{zh}"] = None
    return tuple(f for f in forms if f)


_COUNT_ZH = {
    "sheet": ("片",),
    "piece": ("件", "个"),
    "pc": ("件", "个", "片"),
    "bag": ("包", "袋"),
    "pack": ("包",),
    "capsule": ("粒",),
    "pair": ("双",),
}
"""What an option counts (:data:`_COUNTED`'s unit), and the Chinese measure words for it."""


@lru_cache(maxsize=4096)
def _variant_words(kb: KnowledgeBase, product_id: str) -> dict[str, frozenset[str]]:
    """Prepared option and colour words of a product's SKUs (English and Chinese)."""
    skus = kb.skus(product_id)
    return {
        kind: frozenset(
            w for s in skus for f in (kind, f"{kind}_zh") if s.get(f) for w in _forms(str(s[f]))
        )
        for kind in ("option", "colour")
    }


def product_words(kb: KnowledgeBase, product_ids: Iterable[str], keys: Sequence[str]) -> set[str]:
    """The products' ``keys`` fields (brand, type name, ...) as the catalogue writes them."""
    return {str(p[k]) for p in map(kb.product, product_ids) if p is not None for k in keys}


def says_any(names: Iterable[str], text: str) -> bool:
    """Whether prepared ``text`` says any of ``names`` (a phrase of any case)."""
    return any(next(find_phrase(n.lower(), text), None) for n in names if n)


OURS = re.compile(r"\bours\b|\bthis one\b|\bour (?:one|pick)\b|咱们这款|我们这款|这款")
"""Words for the product on screen ("ours", 这款) where the answer does not name it."""


_ASIDE = re.compile(r"\([^()]{12,}\)|（[^（）]{6,}）")
"""A parenthesised aside long enough to be a sentence of its own: a product it names
("(tonight's ¥15-off deal is for the Moonbeam romper)") is not what the answer goes on about."""


def clause_products(
    kb: KnowledgeBase | None, text: str, clauses: Sequence[Span], own: str | None = None
) -> list[frozenset[str] | None]:
    """Per clause, the products it is about: those it names, else the last ones named.

    None before any product is named: the case's own product. A clause that names none but
    says "ours" or 这款 is about ``own``, the product on screen. A name may mean several
    products (a brand); a clause is about any of them.
    """
    out: list[frozenset[str] | None] = []
    current: frozenset[str] | None = None
    aside = _ASIDE.sub(lambda m: " " * len(m.group(0)), text)  # "(the ¥15 deal is the romper's)"
    for clause in clauses:
        named = products_in(kb, aside, clause) if kb is not None else []
        if named:
            current = frozenset().union(*named)
        elif own is not None and OURS.search(text[clause.start : clause.end]):
            current = frozenset({own})
        out.append(current)
    return out


def subject_sku(kb: KnowledgeBase | None, subject: Subject) -> dict[str, Any] | None:
    """The SKU a fact is about (None when it is not about one SKU)."""
    if kb is None or subject.product_id is None or subject.option is None:
        return None
    skus = kb.skus(subject.product_id)
    return next(
        (s for s in skus if s["option"] == subject.option and s.get("colour") == subject.colour),
        None,
    )


def names_field(segment: str, sku: dict[str, Any], key: str) -> bool:
    """Whether ``segment`` names the SKU's option or colour (``key``), in English or Chinese."""
    return any(
        _size_token(form, segment)
        for w in (sku.get(key), sku.get(f"{key}_zh"))
        if w
        for form in _forms(str(w))
    )


def said_together(segment: str, sku: dict[str, Any]) -> bool:
    """Whether ``segment`` names the SKU's option and colour side by side ("L码藏青", "L navy")."""
    names = (sku.get("option"), sku.get("option_zh"), sku.get("colour"), sku.get("colour_zh"))
    pattern = _together(*(str(n) if n else "" for n in names))
    return pattern is not None and pattern.search(segment) is not None


@lru_cache(maxsize=4096)
def _together(option: str, option_zh: str, colour: str, colour_zh: str) -> re.Pattern[str] | None:
    """One pattern of an option's forms right before a colour's (None: no colour)."""
    options = [re.escape(f) for w in (option, option_zh) if w for f in _forms(w)]
    colours = [re.escape(f) for w in (colour, colour_zh) if w for f in _forms(w)]
    if not options or not colours:
        return None
    return re.compile(
        rf"(?<![a-z0-9])(?:{'|'.join(options)})\s?(?:码|号)?\s?(?:in )?(?:{'|'.join(colours)})"
    )


def variant_conflict(kb: KnowledgeBase | None, subject: Subject, segment: str) -> bool:
    """Whether a clause names another option or colour of the fact's product, not its own."""
    if kb is None or subject.product_id is None or subject.option is None:
        return False
    sku = subject_sku(kb, subject)
    words = _variant_words(kb, subject.product_id)
    own = {
        kind: {w for f in (kind, f"{kind}_zh") if sku and sku.get(f) for w in _forms(str(sku[f]))}
        for kind in ("option", "colour")
    }
    return any(  # another colour (or option) named, and not its own
        any(_size_token(w, segment) for w in words[kind] - own[kind])
        and not any(_size_token(w, segment) for w in own[kind])
        for kind in ("colour", "option")
    )


def only_other_variant(kb: KnowledgeBase | None, subject: Subject, text: str) -> str | None:
    """Another colour or option of the fact's product the answer names, never the asked one.

    "EU 41 have 290 pairs left in White" to a viewer who asked for pink, "The Original flavour
    has 24 packs left" to one who asked for Spicy: the answer is for another SKU.
    """
    if kb is None or subject.product_id is None:
        return None
    sku = subject_sku(kb, subject)
    words = _variant_words(kb, subject.product_id)
    for kind, asked in (("colour", subject.colour), ("option", subject.option)):
        own = {w for f in (kind, f"{kind}_zh") if sku and sku.get(f) for w in _forms(str(sku[f]))}
        if asked is None or not own or any(_size_token(w, text) for w in own):
            continue
        other = next((w for w in sorted(words[kind] - own) if _size_token(w, text)), None)
        if other is not None:
            return other
    return None


def names_variant(kb: KnowledgeBase | None, subject: Subject, segment: str) -> bool:
    """Whether a clause names any option or colour of the fact's product (its own or another)."""
    if kb is None or subject.product_id is None or subject.option is None:
        return False
    words = _variant_words(kb, subject.product_id)
    return any(_size_token(w, segment) for kind in ("colour", "option") for w in words[kind])


def _size_token(word: str, segment: str) -> bool:
    if len(word) <= 3 and word.isalpha() and word.isascii():  # s, m, l, xl: a standalone token
        return re.search(rf"(?<![a-z0-9'-]){re.escape(word)}(?![a-z0-9'-])", segment) is not None
    counted = _COUNTED.fullmatch(word)
    if counted:  # "7 packs" is also "7-pack" and "7 pack"
        number, unit = re.escape(counted.group(1)), re.escape(counted.group(2))
        form = rf"(?<![\d.]){number}[- ]?{unit}(?:s|es)?(?![a-z])"
        return re.search(form, segment) is not None
    return any(True for _ in find_phrase(word, segment))


_COUNTED = re.compile(r"(\d+(?:\.\d+)?) ([a-z]+?)(?:es|s)?")
