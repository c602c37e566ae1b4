"""Slots and openers of the messages that are not about a product (out of scope, chit-chat)."""

from __future__ import annotations

from functools import cache

from .._templates import Slots, T, message_templates
from .._vocab import REGION_ALIASES, REGIONS
from ._draft import Ctx

_SKIP_OPENER = ("主播", "Mia", "mia", "Hi", "hi", "Hello", "hello", "hey", "Good", "yo ")


@cache
def with_openers(group: str, openers: str) -> T:
    """The templates ``group``, each also after each opener of ``openers`` of its register.

    Both name a table of :func:`message_templates` (``"chit_chat"``, ``"chat_openers"``); an
    opener may be ``""``.
    """
    out = {}
    for register, ts in getattr(message_templates(), group).items():
        expanded = []
        for t in ts:
            body = t.removeprefix("zh|")
            prefix = t[: len(t) - len(body)]
            for opener in getattr(message_templates(), openers)[register]:
                if opener and body.startswith(_SKIP_OPENER):
                    continue
                # "Hi, " + "What's ..." -> "Hi, what's ..." (not after "主播: ", nor "SPF ...")
                lower = opener and not opener.endswith(": ") and body[1:2].islower()
                expanded.append(
                    f"{prefix}{opener}{body[:1].lower() if lower else body[:1]}{body[1:]}"
                )
        out[register] = tuple(expanded)
    return out


def fill(ctx: Ctx, table: Slots) -> dict[str, str]:
    """One (English, Chinese) value per slot of ``table``, plus two distinct cities."""
    slots: dict[str, str] = {}
    for name, values in table.items():
        en, zh = ctx.rng.choice(values)
        slots[name] = en
        slots[f"{name}_zh"] = zh
    places = [p for rc in ("metro", "mainland") for p in REGIONS[rc]]
    for name, place in zip(("city", "city2"), ctx.rng.sample(places, 2), strict=True):
        slots[name] = place
        slots[f"{name}_zh"] = next(
            (a for a in REGION_ALIASES.get(place, ()) if not a.isascii()), ""
        )
    return slots
