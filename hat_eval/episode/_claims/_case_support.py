"""What the world supports for one case's answer: the case's own lookups and its products.

:func:`support` joins the products' support (:func:`._support.product_support`) with what the
case's expected calls return (coupons applied, quantities asked) and the viewer's numbers,
cached per case (:func:`per_case`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from typing import Any, TypeVar

from hat_eval.world import (
    Case,
    ExpectedCall,
    KnowledgeBase,
    ToolInputError,
    call_function,
    numbers_in,
)

from ._support import Support, _coupon_values, _price_steps, numeric_leaves, product_support
from ._text import prepare

T = TypeVar("T")


def per_case(fn: Callable[[KnowledgeBase, Case], T]) -> Callable[[KnowledgeBase, Case], T]:
    """Cache ``fn(kb, case)`` by case id, message and knowledge base.

    A case holds dicts, so it is not hashable; at 8,192 entries the cache starts over.
    """
    table: dict[tuple[str, str, int], T] = {}

    @functools.wraps(fn)
    def cached(kb: KnowledgeBase, case: Case) -> T:
        key = (case.id, case.message, kb.seed)
        if key not in table:
            if len(table) > 8192:
                table.clear()
            table[key] = fn(kb, case)
        return table[key]

    return cached


@per_case
def case_support(kb: KnowledgeBase, case: Case) -> Support:
    """The case's own lookups (coupons applied, quantities asked) and the viewer's numbers."""
    return _lookups(kb, case)


def lookup_results(kb: KnowledgeBase, case: Case) -> Iterator[tuple[ExpectedCall, Any]]:
    """Each of the case's expected calls with what it returns (one the world refuses left out)."""
    for call in case.expected_calls:
        try:
            yield call, call_function(kb, case.session, call.function, call.args)
        except (ToolInputError, KeyError):
            continue


def _lookups(kb: KnowledgeBase, case: Case) -> Support:
    money: set[float] = set()
    percents: set[float] = set()
    counts: set[float] = set(numbers_in(case.message))
    for call, result in lookup_results(kb, case):
        if call.function == "pricing.final_price" and isinstance(result, dict):
            steps, off = _price_steps(result)
            money.update(steps)
            percents.update(off)
        else:
            money.update(numeric_leaves(result))
        if "quantity" in call.args:
            counts.add(float(call.args["quantity"]))
    for code in case.coupon_codes:
        coupon = kb.coupon(code)
        if coupon is not None:
            m, p = _coupon_values(coupon)
            money.update(m)
            percents.update(p)
    money.update(numbers_in(case.message))
    return Support(
        money=frozenset(money),
        percents=frozenset(percents),
        counts=frozenset(counts),
        text=prepare(case.message),
    )


def support(kb: KnowledgeBase, case: Case, product_ids: Iterable[str]) -> Support:
    """What the world supports for a case's answer that speaks of ``product_ids``.

    The union over the case's products and ``product_ids`` (the product on screen where the
    case has none: a greeting speaks of it), plus the case's own lookups; money differences
    between two products are supported (a comparison says "¥50 cheaper"). The product on screen
    is not in scope of an answer about another that never names it: its fee, returns window or
    certificate said of the asked product is a wrong subject.
    """
    screen = [] if case.product_ids else [case.session.product_on_screen]
    scope = dict.fromkeys([*case.product_ids, *screen, *product_ids])
    out = case_support(kb, case)
    prices: list[frozenset[float]] = []
    for pid in scope:
        one = product_support(kb, pid).at(case.session.now)
        out = out | one
        prices.append(one.prices)
    if len(prices) == 2:
        diffs = {round(abs(a - b), 2) for a in prices[0] for b in prices[1]}
        out = out | Support(money=frozenset(diffs))
    return replace(out, now=case.session.now)
