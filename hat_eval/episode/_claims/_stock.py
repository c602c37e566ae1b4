"""A stock status or count checked in the answer (a gold fact of kind ``stock``).

"In stock" must not be said opposite, nor with a count the knowledge base does not give (another
option's count said of the asked one); a viewer who asked how many are left needs the count,
or a bound that says it ("well over a hundred" of 137, not "more than ten" of 52).
"""

from __future__ import annotations

import re

from hat_eval.world import ASKS_COUNT, CJK, Fact, KnowledgeBase

from ._answer import _Answer
from ._language import unsure_at
from ._quantities import Number, bound_before
from ._subjects import Subject, names_field, subject_sku, variant_conflict
from ._text import clause_of
from ._verdict import Verdict

_PER_PIECE = re.compile(r"\d(?:\s?(?:元|块|rmb|cny))?\s?(?:[(（][^)）]{0,8}[)）])?\s?(?:每|/)?$")
"""A price just before a count ("¥299.90（人民币）一件", "¥39.9/1件"): the count is its unit."""


def _check_stock(a: _Answer, fact: Fact, subject: Subject) -> Verdict:
    want = fact.value == "in stock"
    statements = [s for s in a.statuses if not a.conflict(subject, s[0])]
    if any(in_stock != want for _, _, in_stock in statements):
        return Verdict(0.0, f"{fact.value}: the answer also says the opposite")
    counts = [
        n
        for n in a.numbers
        if n.kind == "count"
        and not a.conflict(subject, n.start)
        and n.low not in a.world.counts  # a real stock of another option is the extras' to judge
        and not _PER_PIECE.search(a.text, max(0, n.start - 16), n.start)  # "¥299.90一件": a unit
    ]
    if counts and (not want or all(n.low < 10 for n in counts)):
        return Verdict(0.0, f"{fact.value}: the answer gives a stock count the KB does not")
    sku = subject_sku(a.kb, subject)
    own = None if sku is None else float(sku["stock"])
    for n in a.numbers:  # "EU 39 beige: 348 left" when 348 is the navy's
        if n.kind != "count" or sku is None or n.low == own:
            continue
        clause = a.said(clause_of(a.clauses, n.start))
        names_own = names_field(clause, sku, "option") or names_field(clause, sku, "colour")
        if not names_own and want and a.kb is not None:
            # "66 cm Pink is available, but only 9 left": of the option the sentence named (a
            # count beside "sold out" is an alternative's)
            said = a.said(clause_of(a.sentences, n.start))
            names_own = names_field(said, sku, "option") or names_field(said, sku, "colour")
            others = {float(s["stock"]) for s in a.kb.skus(sku["product_id"])}  # own: n.low != own
            names_own = names_own and n.low in others
            clause = clause if variant_conflict(a.kb, subject, clause) else said
            if not names_own and n.low in others and not variant_conflict(a.kb, subject, a.text):
                # "the 28 cm is available! We've got 453 in stock": the answer names no option
                # but the asked one, so the count is said of it
                names_own = names_field(a.text, sku, "option") or names_field(a.text, sku, "colour")
        if names_own and not variant_conflict(a.kb, subject, clause):
            return Verdict(0.0, f"{fact.value}: gives {a.said(n)!r}, another option's stock")
    if own == 0:  # "out of stock, though the system still shows 7 pairs left" (7: another size's)
        for n in a.numbers:
            if n.kind != "count" or n.low <= 0 or a.negated(n.start):
                continue
            said = a.said(clause_of(a.sentences, n.start))
            if not a.conflict(subject, n.start) and not variant_conflict(a.kb, subject, said):
                return Verdict(0.0, f"{fact.value}: also gives {a.said(n)!r} left")
    agreeing = [(start, end) for start, end, in_stock in statements if in_stock == want]
    if any(not unsure_at(a.text, start, end) for start, end in agreeing):
        # 还剩多少? 库存充足: L52's annotators passed it, L79's split
        zh = CJK.search(a.case.message) is not None
        counts = [n for n in a.numbers if _says_count(a.text, n, own)]
        if want and own and ASKS_COUNT.search(a.case.message) and not counts:
            # "how many are left?" "in stock, plenty available": the count it had, dodged
            why = f"asked how many are left; gives no count (the KB has {own:g})"
            return (
                Verdict(None, f"{why}; annotators split on it in Chinese")
                if zh
                else Verdict(0.0, why)
            )
        return Verdict(1.0)
    if agreeing:  # "seems to be in stock, but I can't say for sure": commits to nothing
        return Verdict(0.0, f"{fact.value}: hedged")
    if (
        want
        and own
        and any(  # "EU 42 Black have 130 pairs left": its own count says it
            n.kind == "count"
            and n.low == n.high == own
            and not a.negated(n.start)
            and not a.conflict(subject, n.start)
            and not unsure_at(a.text, n.start, n.end)
            for n in a.numbers
        )
    ):
        return Verdict(1.0)
    return Verdict(0.0, f"{fact.value}: not stated", missing=True)


def _says_count(text: str, n: Number, own: float | None) -> bool:
    """Whether ``n`` tells the count ``own`` to a viewer who asked how many are left.

    A count (not "17 Nov") or the stock itself does; so does a lower bound of at least half of
    it ("well over a hundred" of 137), and one under half does not ("more than ten left" of 52
    says no more than "plenty").
    """
    if own and bound_before(text, n.start) == "over":
        if n.low < own / 2:
            return False
        if n.low < own:
            return True
    return n.kind == "count" or n.low == own


def _sku_stock(kb: KnowledgeBase | None, subject: Subject) -> float | None:
    """The stock of the fact's SKU (None when the fact is not about one SKU)."""
    sku = subject_sku(kb, subject)
    return None if sku is None else float(sku["stock"])
