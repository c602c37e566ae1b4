"""Rule-based rewriting: new identifiers, display names, descriptions and rule paraphrases.

Texts are compiled once into templates (literal pieces and sets of alternatives) and cached, so
drawing a new paraphrase costs a few random numbers and a join: augmentation stays fast enough to
make thousands of variants a second.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Collection
from functools import cache, lru_cache

from ._banks import banks

Random = Callable[[], float]
"""A ``random.Random().random`` bound method: the only source of randomness used here."""

Segment = str | tuple[str, ...]
"""A literal piece of text, or alternatives whose first entry is the original wording."""


@cache
def _phrase_re() -> re.Pattern[str]:
    """The banks' phrases as one pattern, longest first (built on first use)."""
    phrases = sorted(banks().phrases, key=len, reverse=True)
    return re.compile(r"\b(" + "|".join(re.escape(k) for k in phrases) + r")\b", re.IGNORECASE)


_SENTENCE_RE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
_IDENT_SPLIT_RE = re.compile(r"[_\-\s]+|(?<=[a-z0-9])(?=[A-Z])")


def pick(r: Random, options: tuple[str, ...] | list[str]) -> str:
    """One option, uniformly."""
    return options[int(r() * len(options))]


def _match_case(original: str, alternative: str) -> str:
    if original[:1].isupper():
        return alternative[:1].upper() + alternative[1:]
    return alternative


@lru_cache(maxsize=8192)
def compile_text(text: str) -> tuple[Segment, ...]:
    """Split ``text`` into literal pieces and phrase slots with their alternatives."""
    segments: list[Segment] = []
    pos = 0
    for m in _phrase_re().finditer(text):
        if m.start() > pos:
            segments.append(text[pos : m.start()])
        word = m.group(0)
        alts = banks().phrases[word.lower()]
        segments.append((word, *(_match_case(word, a) for a in alts)))
        pos = m.end()
    if pos < len(text):
        segments.append(text[pos:])
    return tuple(segments)


def realize(template: tuple[Segment, ...], r: Random, strength: float) -> str:
    """Draw one wording of a compiled text: each slot changes with probability ``strength``."""
    out: list[str] = []
    add = out.append
    for seg in template:
        if seg.__class__ is str:
            add(seg)
        elif r() < strength:
            add(seg[1 + int(r() * (len(seg) - 1))])
        else:
            add(seg[0])
    return "".join(out)


@lru_cache(maxsize=4096)
def split_sentences(text: str) -> tuple[str, ...]:
    """Sentences of a description (on ``. `` followed by a capital)."""
    return tuple(s for s in _SENTENCE_RE.split(text.strip()) if s)


def _lower_first(text: str) -> str:
    if len(text) > 1 and text[1].isupper():  # an acronym such as "SKU": keep it
        return text
    return text[:1].lower() + text[1:]


def apply_frame(frame: str, body: str) -> str:
    """Put ``body`` into a frame of the banks (``{}`` as is, ``{lc}`` lower-cased first)."""
    if "{lc}" in frame:
        return frame.replace("{lc}", _lower_first(body))
    return frame.replace("{}", body)


def rewrite_text(
    text: str,
    r: Random,
    strength: float,
    frames: tuple[str, ...],
    tails: tuple[str, ...] = ("",),
    *,
    shuffle: bool = True,
) -> str:
    """A meaning-preserving rewrite of a description or rule; always differs from ``text``."""
    sentences = split_sentences(text)
    if shuffle and len(sentences) > 1 and r() < strength * 0.5:
        k = 1 + int(r() * (len(sentences) - 1))
        sentences = sentences[k:] + sentences[:k]
    body = " ".join(realize(compile_text(s), r, strength) for s in sentences)
    out = apply_frame(pick(r, frames), body) + pick(r, tails)
    if out == text:  # nothing drew a change: force the first slot, or a frame
        if any(not isinstance(seg, str) for s in sentences for seg in compile_text(s)):
            return rewrite_text(text, r, 1.0, frames, tails, shuffle=False)
        out = apply_frame(frames[-1], body) + pick(r, tails)
        if out == text:
            out = text + " " + frames[-1].replace("{lc}", "").replace("{}", "").strip()
    return out


@lru_cache(maxsize=16384)
def rule_paraphrases(text: str, strength: float, size: int = 48) -> tuple[str, ...]:
    """``size`` paraphrases of ``text`` drawn once (seeded by the text) and cached.

    Rules are paraphrased from a bank rather than afresh: a variant picks one with a single
    random number, which keeps augmentation fast; the bank depends only on its arguments.
    """
    r = random.Random(f"{strength}|{text}").random
    return tuple(
        dict.fromkeys(
            rewrite_text(text, r, strength, banks().rule_frames, shuffle=False) for _ in range(size)
        )
    )


@lru_cache(maxsize=4096)
def ident_tokens(identifier: str) -> tuple[str, ...]:
    """Words of an identifier: ``calculate_final_price`` / ``calculateFinalPrice`` -> words."""
    return tuple(t.lower() for t in _IDENT_SPLIT_RE.split(identifier) if t)


@lru_cache(maxsize=4096)
def _ident_options(identifier: str) -> tuple[tuple[str, ...], ...]:
    """Each word of an identifier with its synonyms (the word itself first)."""
    return tuple((t, *banks().ident_words.get(t, ())) for t in ident_tokens(identifier))


def _case(words: list[str], r: Random) -> str:
    flat = "_".join(words).split("_")
    x = r()
    if x < 0.6:
        return "_".join(flat)
    if x < 0.85:
        return flat[0] + "".join(p[:1].upper() + p[1:] for p in flat[1:])
    return "-".join(flat)


def new_identifier(
    old: str,
    r: Random,
    prefixes: tuple[str, ...],
    suffixes: tuple[str, ...],
    taken: Collection[str],
) -> str:
    """A new identifier for ``old``: synonyms, word order, affixes, casing; never in ``taken``.

    The casing (snake, camel or kebab) applies to the affixes too, so names stay consistent.
    """
    options = _ident_options(old)
    for _ in range(20):
        if r() < 0.12:
            words = [pick(r, banks().code_names), str(2 + int(r() * 98))]
        else:
            words = [
                o[1 + int(r() * (len(o) - 1))] if len(o) > 1 and r() < 0.8 else o[0]
                for o in options
                if not (o[0] == "to" and r() < 0.7)
            ] or ["fn"]
            if len(words) > 1 and r() < 0.15:
                words.reverse()
            if r() < 0.3:
                words.append(str(2 + int(r() * 98)))
        prefix, suffix = pick(r, prefixes).strip("_"), pick(r, suffixes).strip("_")
        name = _case([w for w in (prefix, *words, suffix) if w], r)
        if name != old and name not in taken and len(name) <= 64:
            return name
    n = 2
    while f"{old}_{n}" in taken:
        n += 1
    return f"{old}_{n}"


@lru_cache(maxsize=4096)
def _display_parts(name: str) -> tuple[tuple[tuple[str, ...], ...], ...]:
    """Words of a display name, grouped by joiner, each with its synonyms (first: itself)."""
    parts = re.split(r"\s+(?:and|&|/|\+)\s+|,\s+", name)
    return tuple(
        tuple(
            (w, *(a.replace("_", " ").title() for a in banks().ident_words.get(w.lower(), ())))
            for w in part.split()
        )
        for part in parts
    )


def new_display_name(old: str, r: Random) -> str:
    """A new human-readable skill name: synonyms, a different joiner, an optional tail."""
    words = [
        " ".join(w[1 + int(r() * (len(w) - 1))] if len(w) > 1 and r() < 0.8 else w[0] for w in part)
        for part in _display_parts(old)
    ]
    name = pick(r, banks().display_joiners).join(words) + pick(r, banks().display_tails)
    return name if name != old else name + " Desk"
