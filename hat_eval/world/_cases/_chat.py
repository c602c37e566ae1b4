"""Slots and openers of the messages that are not about a product (out of scope, chit-chat)."""

from __future__ import annotations

from .._templates import Slots, T
from .._vocab import REGION_ALIASES, REGIONS
from ._draft import Ctx

_SKIP_OPENER = ("主播", "Mia", "mia", "Hi", "hi", "Hello", "hello", "hey", "Good", "yo ")


def with_openers(templates: T, openers: T) -> T:
    """``templates`` and each of them after each opener of its register (``""`` included)."""
    out = {}
    for register, ts in templates.items():
        expanded = []
        for t in ts:
            body = t.removeprefix("zh|")
            prefix = t[: len(t) - len(body)]
            for opener in openers[register]:
                if opener and body.startswith(_SKIP_OPENER):
                    continue
                if (
                    opener
                    and not opener.endswith(": ")
                    and body[:1].isupper()
                    and body[1:2].islower()
                ):
                    body_after = body[:1].lower() + body[1:]
                else:
                    body_after = body
                expanded.append(f"{prefix}{opener}{body_after}")
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
