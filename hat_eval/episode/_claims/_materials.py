"""Material terms of a product's specs: what the answer may say it is made of.

A spec value such as "304 stainless steel inner, PP lid" names materials in runs of words and in
Chinese forms; :func:`spec_materials` gathers them as prepared terms, for a claim of a material
the product has or lacks (:mod:`._support`).
"""

from __future__ import annotations

import re
from typing import Any

from hat_eval.world import zh_forms

from ._text import prepare

MATERIAL_LABELS = frozenset({"material", "materials", "shell", "ingredients", "key ingredients"})
"""Spec labels whose values name what a product is made of."""


def spec_materials(specs: dict[str, Any], category: str, every: bool = False) -> set[str]:
    """Material terms of spec values (of every label with ``every``: a filling of silk)."""
    terms: set[str] = set()
    for label, value in specs.items():
        if not isinstance(value, str) or not (every or label in MATERIAL_LABELS):
            continue
        found: set[str] = set()
        for whole in zh_forms(value, category) if every else ():  # 内外304不锈钢: also 不锈钢
            found.add(prepare(whole))
            found.update(m.group(0) for m in re.finditer(r"[\u4e00-\u9fff]{2,}", whole))
        for part in re.split(r",|;| and | with |/|\(|\)", value):
            part = re.sub(r"^\d+% ?", "", part.strip())
            if _ACRONYM.fullmatch(part) and label not in _INGREDIENTS:
                terms.add(part.lower())  # a material named by its acronym alone: TPE, PPSU
            if len(part) < 4:
                continue
            words = part.split()
            n = len(words)  # every run of words: "stainless steel" of "304 stainless steel inner"
            runs = [" ".join(words[i:j]) for i in range(n) for j in range(i + 1, n + 1)]
            tails = runs if every and n <= 6 else []
            zh = [z for form in (part, *tails) for z in zh_forms(form, category)]
            for term in (part, *zh, *tails):
                term = prepare(term)
                found.add(term)
                found.add(_GRADE.sub("", term))  # "316 stainless steel" also says "stainless steel"
        # a material is a term of its own; an ingredient list's short words (water, 水, salt)
        # name too many things to be claims
        short = (5, 2) if label not in _INGREDIENTS else (8, 3)
        terms |= {t for t in found if len(t) >= (short[0] if t.isascii() else short[1])}
    return terms - _NOT_MATERIALS


_INGREDIENTS = frozenset({"ingredients", "key ingredients"})
_ACRONYM = re.compile(r"[A-Z]{3,4}")
_GRADE = re.compile(r"^(?:\d+ ?[a-z]? |\d+)(?=\S{2})")
_NOT_MATERIALS = frozenset(
    {
        "outer",
        "grade a",
        "water repellent",
        "fully lined",
        "unlined",
        "wood grain finish",
        "防泼水",
        "mips",
    }
)
"""Spec words under a material label that describe a finish or grade, not a material."""
