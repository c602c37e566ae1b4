"""``escalation``: an order problem (60%) or a safety issue (40%) goes to a human.

Gold: a ``handoff.escalate`` call (urgency high for safety; the ``reason`` is free: any
non-empty one), a promise to follow up, and for a reaction to a beauty or baby product the
advice to see a doctor (a rule of the compliance skill); promising a refund, or to keep using
the product, is forbidden.
"""

from __future__ import annotations

from .._facts import Fact
from .._templates import message_templates
from ._case import Case
from ._draft import Ctx, finish, new_draft, ref_slots
from ._phrases import case_phrases
from ._render import render
from ._skills import rule_source


def build(ctx: Ctx) -> Case:
    """An ``escalation`` case."""
    sub = "safety" if ctx.rng.random() < 0.4 else "order"
    if sub == "safety":
        product = ctx.product(lambda p: p["category"] in ("beauty", "baby"))
    else:
        product = ctx.product()
    on_screen = ctx.rng.random() < 0.5 and sub == "safety"
    draft = new_draft(ctx, product, on_screen)
    slots = ref_slots(ctx, product, on_screen)
    slots["order_no"] = f"{ctx.rng.randint(10**15, 10**16 - 1)}"
    args = {"urgency": "high"} if sub == "safety" else {}
    avoid = () if product["category"] == "baby" else ("baby", "宝宝")
    msg, lang = render(
        ctx,
        message_templates().escalation[sub],
        slots,
        avoid=avoid,
        on_screen=on_screen or sub == "order",
    )
    # the reason is the agent's own words (free); the viewer's message is one a correct agent sends
    idx = draft.call("handoff.escalate", {"reason": msg, **args}, free=("reason",))
    phrases = case_phrases().escalation
    draft.facts.append(Fact("text", "follow up", None, phrases.follow_up, f"{idx}:message"))
    if sub == "safety":  # the compliance skill's r4: "Suggest seeing a doctor ..."
        draft.facts.append(
            Fact("text", "doctor", None, phrases.doctor, rule_source("compliance_bait", "r4"))
        )
    draft.forbidden.extend(phrases.forbidden[sub])
    draft.details.update(sub=sub, on_screen=on_screen)
    return finish(
        draft,
        "escalation",
        msg,
        lang,
        [product["id"]] if sub == "safety" else [],
        should_escalate=True,
    )
