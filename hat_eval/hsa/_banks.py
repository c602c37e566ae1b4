"""Offline paraphrase banks: the vocabulary Harness State Augmentation draws on.

The banks are package data, ``hsa/banks/en.yaml`` (its header comments say what each key
means): identifier words map to synonyms a business might plausibly rename a tool or skill to;
phrases map to meaning-preserving rewrites of descriptions and rules; frames, tails, prefixes and
hook messages vary the text around them. :func:`banks` reads and checks the file once, on first
use, into a frozen :class:`Banks`: every list non-empty, no digit in what goes into texts
(phrases, frames, tails: numbers in rules are never touched), frames with only ``{}`` or
``{lc}``, error templates and hook messages with only the placeholders the harness allows. A
file that does not fit raises :class:`~hat_eval._datafile.DataFileError` naming the file and
key.
"""

from __future__ import annotations

import string
from functools import cache
from importlib.resources import files
from typing import Annotated

from pydantic import AfterValidator, BaseModel, Field, ValidationError

from hat_eval._datafile import DataModel, DataPath, load_model
from hat_eval.harness import HookCheck, MessageStructure

_FMT = string.Formatter()


def _no_digit(value: str) -> str:
    if any(ch.isdigit() for ch in value):
        raise ValueError(f"{value!r} contains a digit; banks never touch numbers, write it out")
    return value


def _frame(value: str) -> str:
    try:
        names = {f for _, f, _, _ in _FMT.parse(value) if f is not None}
    except ValueError as err:
        raise ValueError(f"{value!r}: {err}; write {{}} or {{lc}}") from None
    if not names or not names <= {"", "lc"}:
        raise ValueError(f"{value!r} must hold the text as {{}} (as is) or {{lc}} (lower-cased)")
    return value


def _harness_field(model: type[BaseModel], field: str, **others: str) -> AfterValidator:
    """Check a value as the harness checks ``model.field`` (one owner of its placeholders)."""

    def check(value: str) -> str:
        try:
            model.model_validate({field: value, **others})
        except ValidationError as err:
            raise ValueError(err.errors()[0]["msg"].removeprefix("Value error, ")) from None
        return value

    return AfterValidator(check)


_Word = Annotated[str, AfterValidator(_no_digit)]
_LIST = Field(min_length=1, strict=False)
"""A non-empty list in the file, read into a tuple."""

_Words = Annotated[tuple[_Word, ...], _LIST]
"""Words put into texts (descriptions, rules): no digits."""
_Names = Annotated[tuple[str, ...], _LIST]
"""Pieces of identifiers and display names (``_v2`` is fine there)."""
_Frames = Annotated[tuple[Annotated[_Word, AfterValidator(_frame)], ...], _LIST]


class Banks(DataModel):
    """The paraphrase banks, ``banks/en.yaml`` (shared: do not mutate)."""

    ident_words: dict[str, _Names]
    """Synonyms for the words identifiers are made of."""
    name_prefixes: _Names
    name_suffixes: _Names
    skill_prefixes: _Names
    skill_suffixes: _Names
    code_names: _Names
    """Opaque names: a variant may call a skill or tool something that says nothing of its
    job."""
    display_joiners: _Names
    display_tails: _Names
    phrases: dict[_Word, _Words]
    """Phrase -> meaning-preserving alternatives (matched as whole words, case-adapted)."""
    tool_frames: _Frames
    """Frames a rewritten tool description may be put in; ``{lc}`` starts lower-case."""
    skill_frames: _Frames
    rule_frames: _Frames
    tool_tails: _Words
    skill_tails: _Words
    result_prefixes: _Words
    error_templates: Annotated[
        tuple[Annotated[_Word, _harness_field(MessageStructure, "error_template")], ...], _LIST
    ]
    hook_messages: Annotated[
        tuple[Annotated[_Word, _harness_field(HookCheck, "message", trigger="reply_format")], ...],
        _LIST,
    ]
    """Rejection messages of checking hooks (placeholders ``{hook}``, ``{reason}``,
    ``{left}``)."""


def load_banks(path: DataPath | None = None) -> Banks:
    """Read and check a banks file (uncached; default the shipped ``hsa/banks/en.yaml``).

    Raises:
        DataFileError: The file is missing or does not fit (one line: file, key, expected).
    """
    path = path if path is not None else files("hat_eval.hsa").joinpath("banks", "en.yaml")
    return load_model(path, Banks)


@cache
def banks() -> Banks:
    """The shipped banks, read and checked on first use (shared: do not mutate)."""
    return load_banks()
