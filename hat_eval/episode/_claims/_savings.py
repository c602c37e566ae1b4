"""A saving said beside the final price must be what the final price saves.

"到手 ¥247.48，相当于帮你省了 ¥26.90" when the list price is ¥269: the saving is ¥21.52. Every
amount in the answer is checked against the world elsewhere (:mod:`._amounts`), but ¥26.90 is a
world amount too (another coupon's 10% of ¥269), so there it passes. Here a saving said ("省了",
"save", "a saving of") is read against the case's final price: it must be some price of the
products in scope less the final price, a difference of two of their prices, or an amount the
case's own lookups gave (a coupon's or a deal's value).
"""

from __future__ import annotations

import re

from hat_eval.world import KnowledgeBase

from ._answer import _Answer
from ._verdict import Verdict

_SAVING = re.compile(
    r"(?:省了?|节省了?|少花了?|\bsav(?:e|es|ed|ing)(?: of)?(?: you)?\s|\bknocks? off\s)\s?"
    r"(约|about |around |roughly )?[¥$]?\s?(\d+(?:\.\d+)?)"
)

_FROM_TO = re.compile(
    r"\bfrom [¥$]?\s?(\d+(?:\.\d+)?)(?: yuan)? (?:down )?to [¥$]?\s?(\d+(?:\.\d+)?)(?: yuan)?"
    r"[^.!?;\d]{0,12}$|"
    r"从[¥$]?(\d+(?:\.\d+)?)元?(?:降|减|便宜)?到[¥$]?(\d+(?:\.\d+)?)元?[^。！？；\d]{0,8}$"
)
"""A price's drop said just before its saving ("from ¥389.90 to ¥370.40, saving you ...")."""


def wrong_savings(a: _Answer, kb: KnowledgeBase) -> list[Verdict]:
    """A saving said that the case's final price does not give (see the module)."""
    finals = [float(f.value) for f in a.case.facts if f.source.endswith(":final_price")]
    if not finals or not _SAVING.search(a.text):
        return []
    prices = a.world.prices
    for m in _SAVING.finditer(a.text):
        said = float(m.group(2))
        # cents as said; "you save about ¥48" of ¥47.98 is a rounding
        slack = max(1.0, 0.02 * said) if m.group(1) else 0.011
        if a.negated(m.start()):
            continue
        drop = _FROM_TO.search(a.text, max(0, m.start() - 60), m.start())
        if drop:  # "goes from ¥389.90 to ¥370.40, saving you ¥40": the drop said is the saving
            high, low = (x for x in drop.groups() if x is not None)
            gap = float(high) - float(low)
            if abs(said - gap) > slack:
                why = f"says a saving of {m.group(0)!r}; {drop.group(0)!r} saves ¥{gap:.2f}"
                return [Verdict(0.0, why)]
            continue
        if any(abs(said - k) <= slack for k in a.known):
            continue  # the case's own lookups gave it (a coupon's or a deal's value)
        if any(abs(said - (p - q)) <= slack for p in prices for q in (*prices, *finals)):
            continue  # a price less the final one, or the difference of two prices
        final = ", ".join(f"¥{f:g}" for f in finals)
        return [Verdict(0.0, f"says a saving of {m.group(0)!r}; the final price is {final}")]
    return []
