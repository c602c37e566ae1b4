"""Options offered to the viewer that are sold out: the viewer cannot order them.

"You can pick the 45 cm chain" of a sold-out chain, "available in sizes US 5 to US 9" when US 6
has none left.

A bare list of the options a product comes in ("comes in US 5-9", "listed in sizes") offers
nothing; an offer that says the option is sold out is no offer.
"""

from __future__ import annotations

import re

from hat_eval.world import KnowledgeBase

from ._answer import _Answer
from ._lexicon import any_found
from ._subjects import names_field
from ._verdict import Verdict

_OFFER = re.compile(
    r"\byou (?:can|could) (?:pick|choose|get|order|grab|go for|go with|select|buy|snag)\b"
    r"[^.!?;]{0,60}|"
    # the imperative with its choices ("Choose Colombia, Ethiopia Yirgacheffe or House Blend")
    r"(?:^|[.!?] )(?:choose|pick|select) (?:from |between )?(?:(?!\bfor\b)[^.!?;]){0,40}"
    r"\bor\b[^.!?;,]{0,24}|(?:可以选|可以拍|可以下单|就能下单|直接下单)[^。！？；]{0,30}"
    r"|[^。！？；，,]{1,30}(?<!不)(?:可选|任选|随便选)"  # 有微辣、中辣、特辣三种口味可选
    # the viewer urged to buy ("grab it before then", 赶紧下单)
    r"|\b(?:grab|snap up) (?:it|one|yours)\b[^.!?;]{0,30}|(?:赶紧|快)(?:下单|拍|抢)"
)


def sold_out_offered(a: _Answer, kb: KnowledgeBase) -> list[Verdict]:
    """An option offered to the viewer ("you can pick 80 sheets x 3 or x 10") that is sold out.

    Every SKU of a product in the case that the offer names (by option, and by colour where it
    names one) has none left: the viewer cannot pick it. A bare list of the options a product
    comes in offers nothing, and an offer that says the option is sold out is no offer.
    """
    if not any_found(_OFFER, a.text):
        return []  # most answers offer nothing (and the search tries 30 characters at each)
    for m in _OFFER.finditer(a.text):
        span = m.group(0)
        if a.negated(m.start()) or any(not in_stock for *_, in_stock in a.statuses):
            continue
        named_in = span
        if not any(names_field(span, s, "option") for p in a.case.product_ids for s in kb.skus(p)):
            if len(a.case.product_ids) > 1:
                continue  # "喜欢芦荟成分可选Dandelion": a product chosen of two, no option offered
            named_in = a.text  # "直接搜索名字就能下单": the one option the answer is about
            options = {
                s["option"]
                for p in a.case.product_ids
                for s in kb.skus(p)
                if names_field(a.text, s, "option")
            }
            if len(options) != 1:
                continue
        for pid in a.case.product_ids:
            skus = [s for s in kb.skus(pid) if names_field(named_in, s, "option")]
            for option in dict.fromkeys(str(s["option"]) for s in skus):
                named = [s for s in skus if s["option"] == option]
                named = [s for s in named if names_field(named_in, s, "colour")] or named
                if all(int(s["stock"]) == 0 for s in named):
                    return [Verdict(0.0, f"offers {option!r} ({span.strip()!r}); it is sold out")]
    return []


_AVAILABLE_RANGE = re.compile(
    r"\bavailable (?:in|from) (?:sizes? )?([a-z]{0,3} ?\d+(?:\.\d+)?|[a-z]{1,3}) ?"
    r"(?:to|through|-|–) ?([a-z]{0,3} ?\d+(?:\.\d+)?|[a-z]{1,3})\b"
)
"""Options said available as a run ("available in sizes US 5 to US 9", "available in S-XL")."""


def sold_out_in_range(a: _Answer, kb: KnowledgeBase) -> list[Verdict]:
    """A run of options said available when an option within it is sold out.

    "It's available in sizes US 5 to US 9" of a ring whose US 6 has none left (both annotators of
    L503 failed it); "comes in" or "listed in" the same sizes is the listing, not read here.
    """
    if "available" not in a.text:
        return []
    for m in _AVAILABLE_RANGE.finditer(a.text):
        if a.negated(m.start()):
            continue
        for pid in a.case.product_ids:
            options = list(dict.fromkeys(str(s["option"]) for s in kb.skus(pid) if s.get("option")))
            first, last = (_index(options, m.group(i)) for i in (1, 2))
            if first is None or last is None or first >= last:
                continue
            for option in options[first : last + 1]:
                skus = [s for s in kb.skus(pid) if s.get("option") == option]
                if all(int(s["stock"]) == 0 for s in skus):
                    why = f"says {m.group(0)!r}; {option} is sold out"
                    return [Verdict(0.0, why)]
    return []


def _index(options: list[str], said: str) -> int | None:
    """Where the option ``said`` stands in the product's options (None: not one of them)."""
    said = said.strip()
    for i, option in enumerate(options):
        forms = {option.lower(), option.lower().replace(" ", "")}
        if said in forms or said.replace(" ", "") in forms or option.lower().endswith(" " + said):
            return i
    return None
