"""``shipping_returns``: delivery to the viewer's place (50%), the returns policy (35%) or both.

Gold: delivery days and fee for the place's region class (or that it does not ship there), the
returns window and its condition (or that the product cannot be returned).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from .._facts import Fact
from .._templates import message_templates
from .._vocab import zh_forms
from ._case import Case
from ._draft import Ctx, Draft, finish, new_draft, ref_slots
from ._gold import cn_number, draw_place, ship_facts
from ._phrases import case_phrases
from ._render import render


def return_window_fact(returns: dict[str, Any], idx: int) -> Fact:
    """The returns window of a policy's ``returns`` (call ``idx``'s result): days, or none.

    A returnable product's window in days (``7 days``, ``7天``, ``七天``); ``no returns`` for a
    product that cannot be returned.
    """
    if not returns["returnable"]:
        return Fact(
            "text", "no returns", None, case_phrases().no_returns, f"{idx}:returns.returnable"
        )
    w = returns["window_days"]
    return Fact(
        "days",
        float(w),
        "days",
        (f"{w} days", f"{w}-day", f"{w} day", f"{w}天", f"{cn_number(w)}天", f"{w}日"),
        f"{idx}:returns.window_days",
    )


def _return_facts(draft: Draft, idx: int) -> None:
    ret = draft.results[idx]["returns"]
    draft.facts.append(return_window_fact(ret, idx))
    if not ret["returnable"]:
        draft.forbidden.extend(
            (
                r"\b\d+[- ]days? (?:no[- ]reason )?returns?\b",
                r"\bfree returns?\b",
                r"(?<!not )(?<!n't )\bcan (?:be )?return(?:ed)?\b",
            )
        )
        return
    w = ret["window_days"]
    cond = ret["conditions"][0]
    aliases = (*case_phrases().return_conditions.get(cond, ()), *zh_forms(cond))
    draft.facts.append(Fact("text", cond, None, aliases, f"{idx}:returns.conditions"))
    for n in sorted({7, 15, 30} - {w}):
        draft.forbidden.append(rf"(?<![\d.]){n}[- ]?days?(?: no[- ]reason)? returns?\b")
        draft.forbidden.append(rf"\bwithin {n} days\b")
        draft.forbidden.append(rf"{n}天(?:无理由)?退")


def build(ctx: Ctx) -> Case:
    """A ``shipping_returns`` case."""
    product = ctx.product()
    on_screen = ctx.rng.random() < 0.6
    sub = ctx.rng.choices(("ship", "returns", "both"), (50, 35, 15))[0]
    draft = new_draft(ctx, product, on_screen, lookup=True)
    idx = draft.call("policy.shipping_returns", {"product_id": product["id"]})
    slots = ref_slots(ctx, product, on_screen)
    parts = []
    if sub in ("ship", "both"):
        rc, place, written = draw_place(ctx)
        slots["place"] = written
        ship_facts(draft, idx, rc)
        msg, lang = render(ctx, message_templates().shipping, slots, on_screen=on_screen)
        parts.append(msg)
        draft.details.update(region_class=rc, place=place)
    if sub in ("returns", "both"):
        _return_facts(draft, idx)
        style_ctx = ctx
        if sub == "both":  # the second question refers back to the product of the first
            slots.update(this="it", ref_zh="那", this_mix="那")
            if ctx.style in ("typos", "emoji"):  # the style is already in the first question
                style_ctx = replace(ctx, style="clean")
            if ctx.register != "zh" and re.search(r"[A-Za-z0-9]$", parts[-1]):
                parts[-1] += "?"  # the typos style dropped it
        msg, lang2 = render(style_ctx, message_templates().returns, slots, on_screen=on_screen)
        parts.append(msg)
        lang = lang2 if sub == "returns" else lang
    draft.details.update(sub=sub, on_screen=on_screen)
    return finish(draft, "shipping_returns", " ".join(parts), lang, [product["id"]])
