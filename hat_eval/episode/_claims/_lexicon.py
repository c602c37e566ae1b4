"""The claim checks' word lists: one reader of ``lexicon/<language>.yaml``.

The rules of reading (negation scope, subjects, commitment) are code; *how answers say things*
(a decline, a redirect, an approximation, a commitment, a claim word) is data a reviewer can
read and extend: one YAML file per language, each key a list of regular expressions over the
prepared answer (:func:`~._text.prepare`). This module reads every file once, on first use,
checks it (known keys, lists of strings, each a valid pattern) and compiles each key to one
pattern over all languages.

Keys (:data:`KEYS` holds what each means): plain lists (``decline: [...]``), and grouped lists
(``commitments: {refund: [...], ...}``, ``value_forms: {<fact value>: [...]}``, ``claim_words:
{<name>: {said: [...], supported_by: [...], assures: true}}``), merged across languages group
by group.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib.resources import files
from itertools import groupby
from typing import Annotated, Any

from pydantic import AfterValidator, create_model

from hat_eval._datafile import DataModel, load_model

KEYS: dict[str, str] = {
    "cannot_confirm": "an answer says it cannot confirm a fact right now",
    "decline": "an answer declines what the viewer asks",
    "not_declining": "idioms with a declining word that decline nothing",
    "compare_offer": "an offer to look up and compare the shop's product with a baited brand",
    "redirect": "an answer turns the viewer to something it can help with",
    "off_topic_decline": "an off-topic question turned down as not the host's to answer",
    "handoff_words": "the viewer sent to a person, customer service or a follow-up",
    "self_service": "the viewer told to contact customer service themselves",
    "urgent": "a hand-off said to be urgent or put first",
    "wait_unknown": "a wait said to be unknown or long (not sure when, could take a while)",
    "dodge": "a comparison left to the viewer's taste with nothing compared",
    "look_elsewhere": "the viewer sent to look a fact up on a product page or listing",
    "engages": "a reply that engages the viewer",
    "acknowledges": "a reply that takes up what the viewer said before it redirects",
    "discloses": "the host says it is a digital host",
    "approx": "rounding words just before a value (true of one value that rounds to the truth)",
    "maybe": "uncertain words just before a value (the answer commits to nothing)",
    "unsure": "words that take back the commitment of a whole sentence",
    "condition": "words that make what follows in the sentence a condition, not a commitment",
    "fee_waived": "a fee said with the condition that waives it (the order's to meet)",
    "free_condition": "free shipping with the order amount it needs (a threshold, not a claim)",
    "free_threshold": "free shipping said with its threshold amount (free over ¥99, 满99包邮)",
    "reply_promise": "a reply promised after a hand-off (a follow-up: who'll get back to you)",
    "cannot_tell": "an answer says it cannot tell yet (a coupon named there is not denied)",
    "safe_lookalikes": "words holding a banned term that claim nothing (best-before, advice)",
    "stack_claim": "an answer that says the coupons stack (false when the KB rejects one)",
    "not_stock": "words holding a stock phrase that say nothing of stock (还有什么...)",
    "gift": "a free gift or bundle",
    "low_stock": "an option said to be nearly gone (low stock, only a few left, 库存紧张)",
    "all_in_stock": "every colour or size said to be in stock (in all three colours, 全色有货)",
    "ends_today": "a deal said to end today or tonight (today only, 今晚结束)",
    "ends_tomorrow": "a deal said to end tomorrow (until tomorrow night, 明晚截止)",
    "safety_assurance": "a safety or test claim about a body (dermatologist-tested, 不会过敏)",
    "refund_promise": "a refund promise no policy gives",
    "body_effects": "an effect on the body, mind or fortune (fades dark spots, 助眠)",
    "brand_verdict": "one brand's product said to beat another's (smarter buy, 比X好多了)",
    "other_brands": "brands other than the one praised (other brands, their blends, 别家)",
    "free_of_plain": "words before 'free' that name nothing a product is free of (ships, feel)",
    "effect_plain": "words of an effect claim that do not say which effect (helps, skin)",
    "claim_verbs": "verbs that say something of a product (is, has, comes with, leaves, keeps)",
    "not_a_claim": "a clause that asserts nothing of a product (a question, condition, offer)",
    "shelf_life": "words naming a shelf life (shelf life, best before, 保质期)",
    "disclaims": "the host declines to make a claim (I can't call it the best, 不敢说, 不是说)",
    "compared_to_others": "a product set against every other (no other set comes close, 比不上)",
    "affirms_declined": "a turn that affirms what was just disclaimed (but you just might)",
    "disclaim_turns": "the turn from a disclaimer to what the host says (but, 但)",
    "other_regions": "words naming another region class or the rest (metro cities, 偏远地区)",
    "restock_when": "when a sold-out option comes back (restocked within a week, 下周补货)",
    "forecast": "a weather forecast said (light sleet tonight, 降温, 小雨夹雪)",
    "plain_words": "whole words that carry nothing checkable (function words, stream talk)",
}
"""The plain keys: name -> what its forms say (one pattern each, over every language)."""

GROUPS: dict[str, str] = {
    "commitments": "actions and promises the host cannot make, by kind",
    "value_forms": "other wordings of a fact's value (a coupon's reason, a size, a condition)",
    "label_words": "words that speak of a spec label's attribute (a value there is unread)",
    "spec_words": "words that name a measured spec beside its value (battery life: 续航)",
    "attributes": "words naming a policy attribute a number belongs to (returns, exchange, ...)",
    "origins": "a country adjective -> the knowledge-base words that support it (australian)",
    "region_classes": "a shipping region class -> words naming it (metro: 一线城市, first-tier)",
    "colour_names": "a catalogue colour -> other plain names of it (sage green: 鼠尾草绿, sage)",
}
"""The grouped keys: name -> what its groups hold (one pattern per group)."""

_NEVER = re.compile(r"(?!)")


@dataclass(frozen=True)
class ClaimWord:
    """A kind of product claim: how an answer says it, and how the product's text must."""

    name: str
    said: re.Pattern[str]
    supported_by: re.Pattern[str]
    assures: bool = False
    """The claim assures the viewer (it will not shrink, it is safe for their skin): invented,
    it may break the compliance rules on guarantees, which the checks leave to the judge."""


@dataclass(frozen=True)
class Lexicon:
    """Every language's forms, compiled: one pattern per key and per group."""

    plain: dict[str, re.Pattern[str]]
    groups: dict[str, dict[str, re.Pattern[str]]]
    claim_words: tuple[ClaimWord, ...]


def words(key: str) -> re.Pattern[str]:
    """The pattern of a plain key over every language (a key no file fills matches nothing)."""
    if key not in KEYS:
        raise KeyError(f"unknown lexicon key {key!r}; expected one of {', '.join(KEYS)}")
    return lexicon().plain[key]


def groups(key: str) -> dict[str, re.Pattern[str]]:
    """The patterns of a grouped key: group name -> pattern over every language."""
    if key not in GROUPS:
        raise KeyError(f"unknown lexicon group {key!r}; expected one of {', '.join(GROUPS)}")
    return lexicon().groups[key]


def groups_named(key: str, text: str) -> list[str]:
    """The groups of a grouped key whose forms ``text`` holds, in the files' order."""
    return [name for name, form in groups(key).items() if form.search(text)]


def group_words(key: str, group: str) -> tuple[str, ...]:
    """A group's forms as the files write them (for groups of plain words, not patterns)."""
    form = groups(key).get(group)
    return () if form is None else _SOURCES.get(form.pattern, ())


def claim_words() -> tuple[ClaimWord, ...]:
    """The claim words, in the order the files first name them."""
    return lexicon().claim_words


def _compiles(form: str) -> str:
    if not form.strip():
        raise ValueError("empty; expected a pattern")
    try:
        re.compile(form)
    except re.error as err:
        raise ValueError(
            f"is not a valid regular expression ({err}); "
            "write it in single quotes so backslashes stay literal"
        ) from None
    return form


_Forms = list[Annotated[str, AfterValidator(_compiles)]]


class _ClaimWordForms(DataModel):
    """A ``claim_words`` entry: how an answer says it, what the product text holds."""

    said: _Forms = []
    supported_by: _Forms = []
    assures: bool = False


class _ClaimWords(DataModel):
    claim_words: dict[str, _ClaimWordForms] = {}


_FIELDS: dict[str, Any] = {key: (_Forms, []) for key in KEYS}
_FIELDS |= {key: (dict[str, _Forms], {}) for key in GROUPS}
# a lexicon file: one optional field per key of KEYS and GROUPS, plus claim_words
_LexiconFile = create_model("LexiconFile", __base__=_ClaimWords, **_FIELDS)


@cache
def lexicon() -> Lexicon:
    """Read, check and compile ``lexicon/*.yaml`` (once).

    Raises:
        DataFileError: a file that is not a mapping, an unknown key, a value of the wrong
            shape or a form that is not a valid regular expression (one line: the file, the
            key path and the problem).
    """
    folder = files("hat_eval.episode._claims").joinpath("lexicon")
    # English first (its forms come first in each pattern), then the rest by name
    paths = sorted(
        (f for f in folder.iterdir() if f.name.endswith(".yaml")),
        key=lambda f: (f.name != "en.yaml", f.name),
    )
    plain: dict[str, list[str]] = {k: [] for k in KEYS}
    grouped: dict[str, dict[str, list[str]]] = {k: {} for k in GROUPS}
    claims: dict[str, tuple[list[str], list[str]]] = {}
    assuring: set[str] = set()
    for path in paths:
        data = load_model(path, _LexiconFile)
        for key in KEYS:
            plain[key] += getattr(data, key)
        for key in GROUPS:
            for group, forms in getattr(data, key).items():
                grouped[key].setdefault(group, []).extend(forms)
        for name, entry in data.claim_words.items():
            said, supported_by = claims.setdefault(name, ([], []))
            said += entry.said
            supported_by += entry.supported_by
            if entry.assures:
                assuring.add(name)
    return Lexicon(
        {k: any_of(v) for k, v in plain.items()},
        {k: {g: any_of(f) for g, f in v.items()} for k, v in grouped.items()},
        tuple(
            ClaimWord(name, any_of(said), any_of(supported_by), name in assuring)
            for name, (said, supported_by) in claims.items()
        ),
    )


_SOURCES: dict[str, tuple[str, ...]] = {}
"""The forms each :func:`any_of` union was joined from, by its pattern (:func:`any_found`)."""


def any_of(forms: Sequence[str]) -> re.Pattern[str]:
    """One pattern matching any of ``forms`` (none: a pattern that never matches)."""
    if not forms:
        return _NEVER
    union = re.compile("|".join(f"(?:{f})" for f in forms))
    _SOURCES[union.pattern] = tuple(forms)
    return union


def any_found(union: re.Pattern[str], text: str) -> bool:
    """Whether ``union`` (:func:`any_of` forms) matches ``text``, mostly without its search.

    That search tries every form at every position; the words each form needs settle most texts,
    and where some form's words are all there, only those forms are searched. The answer is
    kept a while: the checks look for one union in one text (an answer, a sentence) many times.
    """
    key = (union.pattern, union.flags, text)
    found = _FOUND.get(key)
    if found is None:
        if len(_FOUND) >= 65536:
            _FOUND.clear()
        found = _FOUND[key] = _found(union, text)
    return found


_FOUND: dict[tuple[str, int, str], bool] = {}
""":func:`any_found` of the texts looked in lately, by the union's text and flags and the text."""


def _found(union: re.Pattern[str], text: str) -> bool:
    index = _needed_words(union.pattern, union.flags)
    if index is None:
        return union.search(text) is not None
    words, forms = index
    maybe = {
        i
        for word, entries in words.items()
        if word in text
        for rest, i in entries
        if all(any(w in text for w in ws) for ws in rest)
    }
    return any(forms[i].search(text) for i in sorted(maybe))


@cache
def _parser() -> Any:
    """The standard library's pattern parser (``re._parser``, not public; None if it moved)."""
    try:
        return importlib.import_module("re._parser")
    except ImportError:  # a later Python: every search is run, as before this shortcut
        return None


_Index = tuple[dict[str, list[tuple[list[frozenset[str]], int]]], list[re.Pattern[str]]]


@lru_cache(maxsize=256)
def _needed_words(pattern: str, flags: int) -> _Index | None:
    """The words each form needs, and the source forms compiled (None: a form needs none).

    Each form by every word of its rarest needed set -> (its other sets, the source form it
    belongs to). A union :func:`any_of` did not build is one source form. Cached by the
    union's text and flags, not the compiled union: a compiled pattern's hash is computed
    afresh from its whole program on every call (tens of microseconds for a long union).
    """
    parser = _parser()
    if parser is None or flags & re.IGNORECASE:
        return None
    sources = _SOURCES.get(pattern, (pattern,))
    index: dict[str, list[tuple[list[frozenset[str]], int]]] = {}
    for i, source in enumerate(sources):
        for form in _forms(parser, parser.parse(source, flags)):
            needs = _needs(parser, form)
            if not needs:
                return None
            for word in needs[0]:
                index.setdefault(word, []).append((needs[1:], i))
    return index, [re.compile(source, flags) for source in sources]


def _forms(p: Any, items: Any) -> list[Any]:
    """The parsed pattern's alternatives, a group of alternatives opened."""
    if len(items) == 1:
        op, av = items[0]
        if op is p.SUBPATTERN and not av[1] & re.IGNORECASE:
            return _forms(p, av[3])
        if op is p.BRANCH:
            return [form for alternative in av[1] for form in _forms(p, alternative)]
    return [items]


def _needs(p: Any, items: Any) -> list[frozenset[str]]:
    """Sets of words a match of parsed ``items`` holds one of each of, the rarest set first."""
    out: list[frozenset[str]] = []
    for literal, run in groupby(items, lambda item: item[0] is p.LITERAL):
        if literal:
            out.append(frozenset(["".join(chr(av) for _, av in run)]))
            continue
        for op, av in run:
            if op is p.SUBPATTERN and not av[1] & re.IGNORECASE:
                out += _needs(p, av[3])
            elif op is p.BRANCH:  # a word of one set of each alternative
                rarest = [needs[0] for alt in av[1] if (needs := _needs(p, alt))]
                out += [frozenset().union(*rarest)] if len(rarest) == len(av[1]) else []
            elif op in (p.MAX_REPEAT, p.MIN_REPEAT, p.POSSESSIVE_REPEAT):
                out += _needs(p, av[2]) if av[0] > 0 else []
    return sorted(out, key=lambda words: -min(map(len, words)))
