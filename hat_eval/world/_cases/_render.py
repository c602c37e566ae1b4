"""A viewer message from a template: register, style (typos, emoji, slang, mixed Chinese)."""

from __future__ import annotations

import random
import re
import string

from .._templates import T, message_templates
from ._draft import Ctx, Skip


def _typo_word(word: str, rng: random.Random) -> str:
    low = word.lower()
    misspellings = message_templates().misspellings
    if low in misspellings:
        fixed = misspellings[low]
        return fixed.capitalize() if word[:1].isupper() else fixed
    if len(word) < 4 or not word.isalpha():
        return word
    i = rng.randrange(1, len(word) - 2)
    op = rng.randrange(3)
    if op == 0:
        return word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    if op == 1:
        return word[:i] + word[i + 1 :]
    return word[:i] + word[i] + word[i:]


def _typos(literal: str, rng: random.Random, budget: list[int]) -> str:
    pieces = re.split(r"(\w+)", literal)
    for i, piece in enumerate(pieces):
        if budget[0] > 0 and piece.isalpha() and len(piece) >= 4 and rng.random() < 0.45:
            pieces[i] = _typo_word(piece, rng)
            budget[0] -= 1
    return "".join(pieces)


_FMT = string.Formatter()
_VARIANT_SLOTS = frozenset({"item", "variant", "item_zh", "variant_zh"})
_NAMING_SLOTS = frozenset({"this", "item", "this_mix", "ref_zh", "item_zh", "a", "b"})
"""Slots that name the product (a template without one relies on the product on screen)."""


def _fields(template: str) -> set[str]:
    return {f for _, f, _, _ in _FMT.parse(template) if f}


def render(
    ctx: Ctx,
    templates: T,
    slots: dict[str, str],
    require: frozenset[str] = frozenset(),
    avoid: tuple[str, ...] = (),
    *,
    on_screen: bool = True,
) -> tuple[str, str]:
    """Pick a template of the context's register that the slots fill; return (message, language).

    ``require``: slots the template must use; ``avoid``: words the template must not contain.
    When the slots name a variant (a product with several SKUs), the template must name it too;
    when the product is not on screen (``on_screen`` False), the template must name it.
    """
    filled = {k for k, v in slots.items() if v}
    sku_specific = "variant" in filled

    def fits(t: str) -> bool:
        fields = _fields(t)
        if sku_specific and not fields & _VARIANT_SLOTS:
            return False
        if not on_screen and not fields & _NAMING_SLOTS:
            return False
        return fields <= filled and require <= fields and not any(a in t for a in avoid)

    pool = list(filter(fits, templates[ctx.register])) or list(filter(fits, templates["en"]))
    if not pool:
        raise Skip
    template = ctx.rng.choice(pool)
    language = "en"
    if ctx.register == "zh" and template in templates["zh"]:
        language = "mixed"
        slots = {**slots, **{k[:-4]: v for k, v in slots.items() if k.endswith("@mix")}}
        if template.startswith("zh|"):
            template, language = template[3:], "zh"
            slots = {**slots, **{k[:-3]: v for k, v in slots.items() if k.endswith("@zh")}}
    if ctx.style == "typos":
        budget = [ctx.rng.randint(1, 2)]
        parts = []
        for literal, fname, spec, conv in _FMT.parse(template):
            parts.append(_typos(literal, ctx.rng, budget))
            if fname is not None:
                parts.append(
                    "{" + fname + (f"!{conv}" if conv else "") + (f":{spec}" if spec else "") + "}"
                )
        template = "".join(parts)
        if ctx.rng.random() < 0.4:
            template = template[:1].lower() + template[1:]
        if ctx.rng.random() < 0.3:
            template = template.rstrip("?.!")
    message = template.format_map(slots)
    if ctx.style in ("clean", "emoji") and language == "en":
        message = message[:1].upper() + message[1:]
    if ctx.style == "emoji":
        picks = ctx.rng.sample(message_templates().emoji, ctx.rng.randint(1, 3))
        where = ctx.rng.randrange(3)
        if where == 0:
            message = f"{message} {''.join(picks)}"
        elif where == 1:
            message = f"{picks[0]} {message} {''.join(picks[1:])}".strip()
        else:
            message = f"{message}{picks[0] * ctx.rng.randint(1, 3)}"
    return message, language
