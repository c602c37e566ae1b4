"""The answer as the checks read it: normalised text, phrases, clauses and sentences."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from hat_eval.world import phrase_spans

from ._quantities import normalise_quantities

_CONTRACTIONS = {
    "can't": "can not",
    "cannot": "can not",
    "won't": "will not",
    "shan't": "shall not",
    "we've": "we have",
    "you're": "you are",
    "they're": "they are",
    "we're": "we are",
    "i'm": "i am",
    "i've": "i have",
    "i'll": "i will",
    "we'll": "we will",
    "i'd": "i would",
    "we'd": "we would",
}
_CONTRACTION = re.compile(
    r"\b(?:" + "|".join(re.escape(k) for k in _CONTRACTIONS) + r")\b|n't\b|(?<=[a-z])'s\b"
)


_SAME_TERM = re.compile(r"双酚a")
"""A Chinese term hosts also write as its English abbreviation (不含BPA for 不含双酚A)."""


def _expand(m: re.Match[str]) -> str:
    word = m.group(0)  # a listed contraction, or a bare "n't" or "'s"
    return _CONTRACTIONS.get(word) or (" not" if word == "n't" else " is")


@lru_cache(maxsize=65536)
def prepare(text: str) -> str:
    """The answer as the checks read it: folded, lower-cased, contractions and numerals expanded.

    ``It's 8-9mm`` -> ``it is 8-9 mm``; ``只剩最后一件`` -> ``只剩最后1件``; ``24个月`` ->
    ``24 months``; ``high-rise`` -> ``high rise``; ``two hundred fifty-eight`` -> ``258``;
    ``99块9`` -> ``99.9元``; ``8折`` -> ``20% off``; digits spaced the way the gold writes them
    (quantities: :func:`normalise_quantities`).
    """
    # a full-width comma ends a phrase, never groups thousands ("立减¥150，999.9−150")
    t = unicodedata.normalize("NFKC", text.replace("，", ", ")).lower().replace("’", "'")
    if "'" in t or "cannot" in t:  # every contraction has an apostrophe, but "cannot"
        t = _CONTRACTION.sub(_expand, t)
    if "双酚a" in t:
        t = _SAME_TERM.sub("bpa", t)
    t = normalise_quantities(t.replace("aluminum", "aluminium"))  # the catalogue's spelling
    if not t.isascii():  # a space between Chinese and latin words, digits
        t = _CJK_SPACE.sub("", t)
    if "-" in t:
        t = _WORD_HYPHEN.sub(" ", t)  # high-rise -> high rise
    if "," in t:  # 1,299 -> 1299; "¥17.9,179−17.9" keeps its comma (no thousands after a decimal)
        t = _THOUSANDS_COMMA.sub("", t)
    t = _DIGIT_LETTER.sub(" ", t)  # 8-9mm -> 8-9 mm, 24h -> 24 h
    return " ".join(t.split())  # runs of white space as one space, none at the ends


_CJK_SPACE = re.compile(
    r"(?<=[a-z0-9%])\s+(?=[\u4e00-\u9fff])|(?<=[\u4e00-\u9fff])\s+(?=[a-z0-9¥])"
)
_WORD_HYPHEN = re.compile(r"(?<=[a-z])-(?=[a-z])")
_THOUSANDS_COMMA = re.compile(r"(?<=\d)(?<!\.\d)(?<!\.\d\d),(?=\d{3}\b)")
_DIGIT_LETTER = re.compile(r"(?<=\d)(?=[a-z])")


def find_phrase(phrase: str, text: str) -> Iterator[tuple[int, int]]:
    """Spans of ``phrase`` (prepared) in prepared ``text``, on word boundaries at latin ends."""
    return phrase_spans(prepare(phrase), text)


# -- clauses ---------------------------------------------------------------------------------------

EMOJI = "[\U0001f300-\U0001faff\u2600-\u27bf]"
"""An emoji, which ends a phrase (and what a stock status is said of) as punctuation does."""
_BREAK = (
    r"[.!?;\n。！？；,，、]|\s[—–-]\s|—|\s(?:vs\.?|versus)\s|对比|相比|但是?|而|不过|"
    r"(?<![\d~])~(?![\d~¥$])|"  # a tone mark ending a Chinese phrase (~ between numbers: a range)
    r"(?<=[哦啊呀哈吧呢啦嘛噢哟喔])~|"  # ... after a closing particle, before a number too (哦~400)
    f"{EMOJI}"  # an emoji ends a phrase as punctuation does
)
_CONTRAST = r"\s(?:but|while|whereas|however|although|though|and)\s|和"
_CLAUSE_BREAK = re.compile(rf"{_BREAK}|{_CONTRAST}|\sor\s|或")
"""Where one claim ends and the next begins: what a product, option or colour is said of."""
_SENTENCE_BREAK = re.compile(r"[.!?;\n。！？；]")
_SCOPE_BREAK = re.compile(rf"{_BREAK}|{_CONTRAST}|[:：(（]")
"""How far a negation reaches: across "or" ("I won't say X or Y"), not across a colon
("Neither works: FLASH5 expired") nor into an aside ("not applicable (home category only)")."""


@dataclass(frozen=True)
class Span:
    """A stretch of the prepared answer: a clause or a sentence."""

    start: int
    end: int


_SPANS: dict[tuple[str, str, int], tuple[Span, ...]] = {}
"""Spans split lately, by text and break pattern (its text and flags): the checks of one answer
each split it the same way."""


def _spans(text: str, breaks: re.Pattern[str]) -> list[Span]:
    key = (text, breaks.pattern, breaks.flags)  # not the pattern: its hash is slow to compute
    spans = _SPANS.get(key)
    if spans is None:
        if len(_SPANS) >= 1024:
            _SPANS.clear()
        spans = _SPANS[key] = tuple(_split(text, breaks))
    return list(spans)


def _split(text: str, breaks: re.Pattern[str]) -> list[Span]:
    out, start = [], 0
    for m in breaks.finditer(text):
        # a decimal point or a thousands separator is not a break
        if m.group(0) in ".," and 0 < m.start() < len(text) - 1:
            if text[m.start() - 1].isdigit() and text[m.start() + 1].isdigit():
                continue
        out.append(Span(start, m.start()))
        start = m.end()
    out.append(Span(start, len(text)))
    return [s for s in out if s.end > s.start]


def clause_of(spans: Sequence[Span], pos: int) -> Span:
    """The span holding position ``pos``."""
    for s in spans:
        if s.start <= pos < s.end:
            return s
    return Span(pos, pos)


PROFESSIONS = (
    r"(?:doctor|gp|paediatrician|pediatrician|dermatologist|pharmacist|dietitian|nutritionist|"
    r"physician|midwife|professional)s?"
)
"""The professionals an answer sends a viewer to (one list for every referral reading)."""
INFLECTION = re.compile(r"(?<=[a-z-]{4})(?:ing|ed|es|s|ly)$")
"""An inflection a word loses when it is looked up in a listing (a stem of four letters stays)."""


def sentence_at(text: str, start: int, end: int, stops: str = ".!?;。！？；\n") -> Span:
    """The sentence holding ``text[start:end]``: from the last of ``stops`` before to the next."""
    after = _stop_at(stops).search(text, end)
    upto = start if start >= 0 else len(text) + start  # (a negative end counts from the end)
    last = _last_stop(stops).match(text, 0, upto)  # the last stop before it, if any
    return Span(last.end() if last else 0, after.start() if after else len(text))


@lru_cache(maxsize=8)
def _stop_at(stops: str) -> re.Pattern[str]:
    return re.compile(f"[{re.escape(stops)}]")


@lru_cache(maxsize=8)
def _last_stop(stops: str) -> re.Pattern[str]:
    """Everything up to the last of ``stops`` (one backward scan, not one per stop)."""
    return re.compile(f"(?s).*[{re.escape(stops)}]")


def in_parentheses(text: str, pos: int) -> bool:
    """Whether ``pos`` stands inside an open parenthesis: a gloss ("NBR foam (a rubber foam)")."""
    opened = max(text.rfind("(", 0, pos), text.rfind("（", 0, pos))
    return opened >= 0 and not re.search(r"[)）]", text[opened:pos])


_EMOJI = re.compile(EMOJI)


def between_emoji(text: str, sentence: Span, pos: int) -> Span:
    """The part of ``sentence`` between the emoji around ``pos``.

    "XL in Brown is sold out 😢 XL is still in stock in Navy and Black": an emoji ends what a
    status is said of, as a full stop does; "... while you ride 🚴 For weight-loss advice, ..."
    opens a new topic after it.
    """
    before = [m.end() for m in _EMOJI.finditer(text, sentence.start, pos)]
    after = _EMOJI.search(text, pos, sentence.end)
    return Span(before[-1] if before else sentence.start, after.start() if after else sentence.end)
