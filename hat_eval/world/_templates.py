"""Viewer message templates per intent and register, read from ``world/templates/*.yaml``.

Each intent has three registers, one file each: ``en.yaml`` (clean English, also the base of
the ``typos`` and ``emoji`` styles), ``slang.yaml`` (live-chat English) and ``zh.yaml`` (Chinese
or Chinese-English mix; a template starting with ``zh|`` is pure Chinese, language "zh",
otherwise "mixed"). Slots are ``{name}`` fields; the case generator only picks templates whose
slots it can fill, and a template that must carry a slot (``{qty}`` when several units are
bought) is picked only then. The files' header comments say what each key means.

:func:`message_templates` reads and checks the three files once, on first use, into a frozen
:class:`Templates`: required keys, non-empty lists, and only slots the generator fills
(:data:`PRODUCT_SLOTS`, :data:`SCENE_SLOTS` and the names of the slot-value tables). A file
that does not fit raises :class:`~hat_eval._datafile.DataFileError` naming the file and key.
"""

from __future__ import annotations

import string
from dataclasses import dataclass, fields
from functools import cache
from importlib.resources import files
from typing import Annotated, Any

from pydantic import Field, StringConstraints

from hat_eval._datafile import DataFileError, DataModel, DataPath, load_model

T = dict[str, tuple[str, ...]]
"""Templates of one intent: register (``en``, ``slang``, ``zh``) -> templates."""

Slots = dict[str, tuple[tuple[str, str], ...]]
"""Slot name -> its values as (English, Chinese) pairs (``""``: no Chinese form)."""

REGISTERS = ("en", "slang", "zh")
"""The registers, one file each (``<register>.yaml``)."""

PRODUCT_SLOTS = frozenset(
    "this item variant noun noun_zh this_mix ref_zh item_zh variant_zh qty code code2 codes "
    "place height weight kg attr a b condition condition_zh other_brand order_no".split()
)
"""Slots the case builders fill about a product: references, variant, quantity, codes, ..."""

SCENE_SLOTS = frozenset("city city_zh city2 city2_zh x y country country_zh".split())
"""Slots of messages not about a product that the builders fill from the vocabulary or numbers
(besides the slot-value tables of the files)."""

_Text = Annotated[str, StringConstraints(min_length=1)]
_List = Annotated[list[str], Field(min_length=1)]
"""A non-empty list (entries may be ``""``: openers and prefixes use it for "nothing")."""
_Templates = Annotated[list[_Text], Field(min_length=1)]


class _Compliance(DataModel):
    """The claim families of ``compliance_bait``."""

    medical: _Templates
    weight: _Templates
    infant: _Templates
    investment: _Templates
    supernatural: _Templates
    absolute: _Templates
    comparative: _Templates


class _Escalation(DataModel):
    """What ``escalation`` messages report."""

    order: _Templates
    safety: _Templates


class _Multi(DataModel):
    """The question pairs of ``multi_intent``."""

    price_stock: _Templates
    stock_shipping: _Templates
    price_shipping: _Templates
    material_price: _Templates


class _Register(DataModel):
    """One register's file: the templates of every intent."""

    price: _Templates
    stacking: _Templates
    stock: _Templates
    size: _Templates
    material: _Templates
    ingredients: _Templates
    spec: _Templates
    shipping: _Templates
    returns: _Templates
    comparison: _Templates
    compliance: _Compliance
    escalation: _Escalation
    multi: _Multi
    out_of_scope: _Templates
    openers: _List
    chat_openers: _List
    chit_chat: _Templates


class _English(_Register):
    """``en.yaml``: the templates, the English slot values and the English-only word tables."""

    slot_values: dict[str, _Templates]
    chat_slot_values: dict[str, _Templates]
    nouns: dict[str, _Text]
    attr_phrases: dict[str, _Text]
    misspellings: dict[str, _Text]
    emoji: _Templates


class _Chinese(_Register):
    """``zh.yaml``: the templates and the Chinese forms of the English values."""

    slot_values: dict[str, dict[str, _Text]] = Field(default_factory=dict)
    chat_slot_values: dict[str, dict[str, _Text]] = Field(default_factory=dict)
    nouns: dict[str, _Text]


@dataclass(frozen=True)
class Templates:
    """Every template and word table of ``world/templates/`` (shared: do not mutate)."""

    price: T
    stacking: T
    stock: T
    size: T
    material: T
    ingredients: T
    spec: T
    shipping: T
    returns: T
    comparison: T
    compliance: dict[str, T]
    """Claim family -> its templates."""
    escalation: dict[str, T]
    multi: dict[str, T]
    out_of_scope: T
    """Questions the stream cannot answer; the builder fills the slots from :attr:`oos_slots`,
    places of the vocabulary and numbers."""
    openers: T
    """What a viewer may put before an off-topic question (per register)."""
    chat_openers: T
    """What a viewer may put before small talk (per register)."""
    chit_chat: T
    oos_slots: Slots
    """Slot values of :attr:`out_of_scope`, one drawn per slot in this order."""
    chat_slots: Slots
    """Slot values of :attr:`chit_chat`."""
    nouns: dict[str, tuple[str, str]]
    """Product type -> (English noun for "this ...", short Chinese noun)."""
    attr_phrases: dict[str, str]
    """How an English message calls a spec label that does not read as "the <label> of"."""
    misspellings: dict[str, str]
    """Common misspellings used by the ``typos`` style before random letter slips."""
    emoji: tuple[str, ...]
    """Emoji the ``emoji`` style sprinkles into a message."""


_FMT = string.Formatter()


def _check_slots(path: DataPath, key: str, template: str, known: frozenset[str]) -> None:
    try:
        names = {f for _, f, _, _ in _FMT.parse(template) if f is not None}
    except ValueError as err:  # an unmatched brace
        raise DataFileError(path, key, f"{err}; write a slot as {{name}}") from None
    if unknown := sorted(names - known):
        raise DataFileError(
            path, key, f"unknown slot {{{unknown[0]}}}; expected one of {', '.join(sorted(known))}"
        )


def _check_templates(path: DataPath, register: str, data: _Register, known: frozenset[str]) -> None:
    """Every template uses known slots only; ``zh|`` only in the zh register."""
    for group in _Register.model_fields:
        value = getattr(data, group)
        families = value.model_dump() if isinstance(value, DataModel) else {"": value}
        for family, templates in families.items():
            prefix = f"{group}.{family}" if family else group
            for i, template in enumerate(templates):
                _check_slots(path, f"{prefix}[{i}]", template, known)
                if template.startswith("zh|") and register != "zh":
                    raise DataFileError(
                        path, f"{prefix}[{i}]", "a zh| template outside zh.yaml; move it there"
                    )


def _check_chinese(path: DataPath, en: _English, zh: _Chinese) -> None:
    """zh.yaml translates values that en.yaml has, and names every product type of en.yaml."""
    for table in ("slot_values", "chat_slot_values"):
        en_table, zh_table = getattr(en, table), getattr(zh, table)
        for slot, forms in zh_table.items():
            if slot not in en_table:
                raise DataFileError(
                    path, f"{table}.{slot}", f"not a slot of en.yaml's {table}; remove it"
                )
            for value in forms:
                if value not in en_table[slot]:
                    raise DataFileError(
                        path,
                        f"{table}.{slot}.{value}",
                        f"not a value of en.yaml's {table}.{slot}; expected one of "
                        + ", ".join(en_table[slot]),
                    )
    if missing := [k for k in en.nouns if k not in zh.nouns]:
        raise DataFileError(path, f"nouns.{missing[0]}", "missing; every noun of en.yaml needs one")
    if extra := [k for k in zh.nouns if k not in en.nouns]:
        raise DataFileError(path, f"nouns.{extra[0]}", "not a product type of en.yaml's nouns")


def _slots(en: dict[str, list[str]], zh: dict[str, dict[str, str]]) -> Slots:
    return {s: tuple((v, zh.get(s, {}).get(v, "")) for v in values) for s, values in en.items()}


def load_templates(folder: DataPath | None = None) -> Templates:
    """Read and check ``en.yaml``, ``slang.yaml`` and ``zh.yaml`` of ``folder`` (uncached).

    ``folder`` defaults to the shipped ``hat_eval/world/templates``; use
    :func:`message_templates` for the shared, cached copy.

    Raises:
        DataFileError: A file is missing or does not fit (one line: file, key, expected).
    """
    root = folder if folder is not None else files("hat_eval.world").joinpath("templates")
    paths = {r: root.joinpath(f"{r}.yaml") for r in REGISTERS}
    en = load_model(paths["en"], _English)
    slang = load_model(paths["slang"], _Register)
    zh = load_model(paths["zh"], _Chinese)
    tables = [*en.slot_values, *en.chat_slot_values]
    known = PRODUCT_SLOTS | SCENE_SLOTS | {n for t in tables for n in (t, f"{t}_zh")}
    registers = dict(zip(REGISTERS, (en, slang, zh), strict=True))
    for register, data in registers.items():
        _check_templates(paths[register], register, data, known)
    _check_chinese(paths["zh"], en, zh)

    def group(name: str) -> Any:  # T, or family -> T
        if isinstance(getattr(en, name), DataModel):
            return {
                family: {r: tuple(getattr(getattr(d, name), family)) for r, d in registers.items()}
                for family in type(getattr(en, name)).model_fields
            }
        return {r: tuple(getattr(d, name)) for r, d in registers.items()}

    return Templates(
        **{f.name: group(f.name) for f in fields(Templates) if f.name in _Register.model_fields},
        oos_slots=_slots(en.slot_values, zh.slot_values),
        chat_slots=_slots(en.chat_slot_values, zh.chat_slot_values),
        nouns={k: (v, zh.nouns[k]) for k, v in en.nouns.items()},
        attr_phrases=dict(en.attr_phrases),
        misspellings=dict(en.misspellings),
        emoji=tuple(en.emoji),
    )


@cache
def message_templates() -> Templates:
    """The shipped templates, read and checked on first use (shared: do not mutate)."""
    return load_templates()


def attr_phrase(label: str) -> str:
    """The phrase a message uses for the attribute ``label``."""
    return message_templates().attr_phrases.get(label, label)
