"""Which gold facts the viewer asked for: the rest are optional.

A case's gold is computed from the tools, which return more than the viewer asked: the fee
beside the delivery time, every attribute of a comparison. A fact the message does not ask for
may be left out of a correct answer (it must still not be misstated): it is marked
``optional``. The rule reads only the intent, the message and the fact, so it can be applied to
cases stored before it existed (the hand-labelled corpus).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from .._facts import Fact

_ASKS_FEE = re.compile(
    r"how much|\bfees?\b|\bcost|\bfree\b|\bcharge|\bprice|\bpay\b|运费|邮费|包邮|多少钱|收费|免邮",
    re.IGNORECASE,
)
_FEE_SOURCE = re.compile(r"\.fee$|free_shipping_over$")
_ASKS_TIME = re.compile(
    r"how long|how fast|how soon|how quick|how many days|\bwhen\b|\bdays?\b|\barriv|\bdeliver|"
    r"\btakes?\b|\bget (?:it|here|there|to)\b|\bquick|\bfast|\bsoon|"
    r"多久|几天|多长时间|什么时候|多快|到货|送到|到手|时效|几号|能到",
    re.IGNORECASE,
)
_ASKS_RETURNS = re.compile(r"\breturn|\brefund|\bexchange|退|换货", re.IGNORECASE)
_TIME_SOURCE = re.compile(r"\.delivery_days$")


def mark_unasked(
    intent: str, message: str, facts: Sequence[Fact], details: dict[str, Any]
) -> tuple[Fact, ...]:
    """``facts`` with those the message does not ask for marked optional.

    - ``shipping_returns``: the shipping fee when the viewer asked only how long or whether
      it ships ("How long does shipping to Xi'an take?"); the delivery time when the viewer
      asked only what shipping costs or about returns ("shipping to Xiamen free or nah?");
    - ``comparison``: every attribute fact when the message names no attribute
      ("A和B有什么区别?"): any supported difference answers it.
    """
    out = []
    for fact in facts:
        optional = fact.optional
        if intent in ("shipping_returns", "multi_intent") and _FEE_SOURCE.search(fact.source):
            optional = optional or not _ASKS_FEE.search(message)
        if intent in ("shipping_returns", "multi_intent") and _TIME_SOURCE.search(fact.source):
            # asked what shipping costs, not how long ("free or nah?"); "do you ship to X?"
            # asks nothing else, so its delivery time stays the answer
            asks_else = _ASKS_FEE.search(message) or _ASKS_RETURNS.search(message)
            optional = optional or (not _ASKS_TIME.search(message) and bool(asks_else))
        if intent == "comparison" and details.get("attribute"):
            optional = optional or not _names_attribute(message, str(details["attribute"]))
        out.append(replace(fact, optional=optional) if optional != fact.optional else fact)
    return tuple(out)


def _names_attribute(message: str, label: str) -> bool:
    from .._templates import attr_phrase
    from .._vocab import zh_forms

    text = message.lower()
    forms = [label.lower(), attr_phrase(label).lower(), *zh_forms(label, None)]
    return any(len(f) > 1 and f in text for f in forms)
