"""The reference policy's keyword tables, read from ``baselines/vocab/<language>.yaml``.

``en.yaml`` holds every table (the words of tools' descriptions and skills, the words of a
viewer's message per intent, ...); ``zh.yaml`` adds the Chinese words of the tables a viewer's
message is read by. :func:`policy_vocab` reads and checks both once, on first use, into a frozen
:class:`PolicyVocab` whose tables are the English words followed by the Chinese ones. Function
ids must be functions of the world and intents its intents; a file that does not fit raises
:class:`~hat_eval._datafile.DataFileError` naming the file and key.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Annotated

from pydantic import Field, StringConstraints

from hat_eval._datafile import DataFileError, DataModel, DataPath, load_model

LANGUAGES = ("en", "zh")
"""The vocabulary files, in the order their words are joined."""

_Word = Annotated[str, StringConstraints(min_length=1)]
_Words = Annotated[list[_Word], Field(min_length=1)]


class _ViewerWords(DataModel):
    """The tables a viewer's message is read by (every language)."""

    intents: dict[str, _Words]
    on_screen: _Words
    return_words: _Words
    delivery_words: _Words
    urgent_words: _Words
    colours: dict[_Word, _Word] = Field(default_factory=dict)


class _English(_ViewerWords):
    """``en.yaml``: the viewer's words and the harness's (tools, skills: English)."""

    tool_words: dict[str, _Words]
    skill_words: dict[str, _Words]
    coupon_prefixes: _Words


@dataclass(frozen=True)
class PolicyVocab:
    """The reference policy's keyword tables, every language joined (shared: do not mutate)."""

    tool_words: dict[str, tuple[str, ...]]
    """Function id -> words of its tool's description."""
    skill_words: dict[str, tuple[str, ...]]
    """Intent -> words of the skill that handles it."""
    intents: tuple[tuple[str, tuple[str, ...]], ...]
    """(intent, words of a viewer's message asking for it), most specific intent first."""
    on_screen: tuple[str, ...]
    return_words: tuple[str, ...]
    delivery_words: tuple[str, ...]
    urgent_words: tuple[str, ...]
    colours: tuple[tuple[str, str], ...]
    """(a viewer's colour word, the English a listing writes), longest word first."""
    coupon_prefixes: tuple[str, ...]


def _check_keys(path: DataPath, table: str, keys: list[str], known: tuple[str, ...]) -> None:
    for key in keys:
        if key not in known:
            raise DataFileError(
                path, f"{table}.{key}", f"unknown; expected one of {', '.join(known)}"
            )


def load_policy_vocab(folder: DataPath | None = None) -> PolicyVocab:
    """Read and check ``en.yaml`` and ``zh.yaml`` of ``folder`` (uncached).

    ``folder`` defaults to the shipped ``hat_eval/baselines/vocab``; use :func:`policy_vocab`
    for the shared, cached copy.

    Raises:
        DataFileError: A file is missing or does not fit (one line: file, key, expected).
    """
    from hat_eval.world import IMPLEMENTATIONS, SINGLE_INTENTS

    root = folder if folder is not None else files("hat_eval.baselines").joinpath("vocab")
    paths = {lang: root.joinpath(f"{lang}.yaml") for lang in LANGUAGES}
    en = load_model(paths["en"], _English)
    zh = load_model(paths["zh"], _ViewerWords)
    _check_keys(paths["en"], "tool_words", list(en.tool_words), tuple(IMPLEMENTATIONS))
    _check_keys(paths["en"], "skill_words", list(en.skill_words), SINGLE_INTENTS)
    _check_keys(paths["en"], "intents", list(en.intents), SINGLE_INTENTS)
    _check_keys(paths["zh"], "intents", list(zh.intents), tuple(en.intents))
    both = (en, zh)

    def joined(table: str) -> tuple[str, ...]:
        return tuple(w for data in both for w in getattr(data, table))

    colours = [pair for data in both for pair in data.colours.items()]
    return PolicyVocab(
        tool_words={k: tuple(v) for k, v in en.tool_words.items()},
        skill_words={k: tuple(v) for k, v in en.skill_words.items()},
        intents=tuple(
            (intent, tuple(w for data in both for w in data.intents.get(intent, ())))
            for intent in en.intents
        ),
        on_screen=joined("on_screen"),
        return_words=joined("return_words"),
        delivery_words=joined("delivery_words"),
        urgent_words=joined("urgent_words"),
        colours=tuple(sorted(colours, key=lambda pair: -len(pair[0]))),
        coupon_prefixes=tuple(en.coupon_prefixes),
    )


@cache
def policy_vocab() -> PolicyVocab:
    """The shipped keyword tables, read and checked on first use (shared: do not mutate)."""
    return load_policy_vocab()
