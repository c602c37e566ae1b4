"""What the world supports: every value an answer may state about the products of a case.

An answer may say more than the gold asks (the list price beside the final one, the threshold of
a coupon that does not apply, the delivery time beside the fee): each such claim is true when the
knowledge base or the live session gives it. :func:`support` gathers, for the products in scope,
the money amounts, percentages, day counts, stock counts, coupon codes and the product text
(name, type, description, specs, origin, policies) the claims are verified against.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from hat_eval.world import Case, KnowledgeBase, ToolInputError, call_function, numbers_in

from ._text import prepare


@dataclass(frozen=True)
class Support:
    """The values the world gives for some products (and a case's own lookups)."""

    money: frozenset[float] = frozenset()
    percents: frozenset[float] = frozenset()
    days: frozenset[float] = frozenset()
    counts: frozenset[float] = frozenset()
    codes: frozenset[str] = frozenset()
    text: str = ""
    """Prepared text of everything the knowledge base says of the products, for claim words."""
    free_shipping: bool = False
    """Shipping is free somewhere, always or over a threshold the product reaches."""
    fastest_days: float | None = None
    """The shortest delivery time anywhere (None: no shipping data)."""
    free_returns: bool = False
    """The seller pays return shipping (or insures it) for some product in scope."""
    prices: frozenset[float] = frozenset()
    """Unit prices of the products' options (list and after each deal), for differences."""
    materials: frozenset[str] = frozenset()
    """Material terms of the products in scope (English and Chinese, prepared)."""
    catalogue_materials: frozenset[str] = frozenset()
    """Every material term the catalogue uses, for claims of a material the product lacks."""

    def rival_terms(self, text: str) -> list[str]:
        """Catalogue materials in ``text`` that none of the products in scope is made of."""
        said = [t for t in self.catalogue_materials if t in text]
        return sorted(
            t
            for t in said
            if t not in self.text and not any(t in own or own in t for own in self.materials)
        )

    def __or__(self, other: Support) -> Support:
        fastest = [d for d in (self.fastest_days, other.fastest_days) if d is not None]
        return Support(
            self.money | other.money,
            self.percents | other.percents,
            self.days | other.days,
            self.counts | other.counts,
            self.codes | other.codes,
            self.text + "\n" + other.text,
            self.free_shipping or other.free_shipping,
            min(fastest) if fastest else None,
            self.free_returns or other.free_returns,
            self.prices | other.prices,
            self.materials | other.materials,
            self.catalogue_materials | other.catalogue_materials,
        )


EMPTY = Support(
    frozenset(), frozenset(), frozenset(), frozenset(), frozenset(), "", False, None, False
)


def numeric_leaves(value: object) -> Iterator[float]:
    """Every number in a JSON-like value (booleans excepted)."""
    if isinstance(value, bool):
        return
    if isinstance(value, int | float):
        yield float(value)
    elif isinstance(value, dict):
        for v in value.values():
            yield from numeric_leaves(v)
    elif isinstance(value, list):
        for v in value:
            yield from numeric_leaves(v)


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def _price_steps(result: dict[str, Any]) -> Iterator[float]:
    """Every amount of a final-price result, and each subtotal on the way (list -> final)."""
    yield from numeric_leaves(result)
    running = float(result.get("list_price") or 0.0)
    for d in result.get("discounts") or []:
        running -= float(d.get("amount") or 0.0)
        yield round(running, 2)
    final = result.get("final_price")
    list_price = result.get("list_price")
    if isinstance(final, int | float) and isinstance(list_price, int | float) and list_price:
        yield round(list_price - final, 2)


def _percent_of(result: dict[str, Any]) -> Iterator[float]:
    final, list_price = result.get("final_price"), result.get("list_price")
    if isinstance(final, int | float) and isinstance(list_price, int | float) and list_price:
        off = 100.0 * (list_price - final) / list_price
        yield round(off, 1)
        yield float(round(off))


def _coupon_values(coupon: dict[str, Any]) -> tuple[list[float], list[float]]:
    money = [float(coupon[k]) for k in ("threshold", "cap") if coupon.get(k)]
    percents: list[float] = []
    if coupon.get("kind") == "percent":
        percents.append(float(coupon["value"]))
    else:
        money.append(float(coupon["value"]))
    return money, percents


@lru_cache(maxsize=2048)
def product_support(kb: KnowledgeBase, product_id: str) -> Support:
    """What the knowledge base says of one product, at any time of the season.

    Prices are those of each SKU with no deal and under each of its promotions (priced when
    the promotion starts): a price the product had or will have is a real price, not an
    invented one; whether it is the price *now* is the gold fact's to check.
    """
    from hat_eval.world import LiveSession

    product = kb.product(product_id)
    if product is None:
        return EMPTY
    promotions = kb.promotions(product_id)
    times = sorted({str(p["starts_at"]) for p in promotions}) or ["2026-11-01T00:00:00+08:00"]
    session = LiveSession(product_on_screen=product_id, now=times[0], deals=())
    money: set[float] = set()
    percents: set[float] = set()
    days: set[float] = set()
    counts: set[float] = set()
    prices: set[float] = set()
    details = call_function(kb, session, "catalog.get_product", {"product_id": product_id})
    assert isinstance(details, dict)
    texts: list[str] = list(_strings(details))
    texts.append(str(product.get("ships_from") or ""))
    for sku in kb.skus(product_id):
        counts.add(float(sku["stock"]))
        texts += [str(sku.get(k) or "") for k in ("option", "option_zh", "colour", "colour_zh")]
        money.add(float(sku["list_price"]))
        prices.add(float(sku["list_price"]))
        for when in times:
            at = LiveSession(product_on_screen=product_id, now=when, deals=())
            try:
                priced = call_function(kb, at, "pricing.final_price", {"sku": sku["sku"]})
            except ToolInputError:
                continue
            assert isinstance(priced, dict)
            money.update(_price_steps(priced))
            percents.update(_percent_of(priced))
            prices.add(float(priced["final_price"]))
    counts.add(float(sum(s["stock"] for s in kb.skus(product_id))))
    for promo in promotions:
        (percents if promo.get("kind") == "percent" else money).add(float(promo["value"]))
        texts.append(str(promo.get("label") or ""))
    codes = set()
    for coupon in kb.coupons():
        codes.add(str(coupon["code"]).upper())
        if coupon.get("category") in (None, product["category"]):
            m, p = _coupon_values(coupon)
            money.update(m)
            percents.update(p)
    policy = call_function(kb, session, "policy.shipping_returns", {"product_id": product_id})
    assert isinstance(policy, dict)
    free = False
    fastest: float | None = None
    lowest = min((float(s["list_price"]) for s in kb.skus(product_id)), default=0.0)
    for row in policy["shipping"]:
        money.update(float(x) for x in (row["fee"], row["free_shipping_over"]) if x is not None)
        if row["available"] and row["delivery_days"]:
            days.update(float(v) for v in row["delivery_days"].values())
            low = float(row["delivery_days"]["min"])
            fastest = low if fastest is None else min(fastest, low)
        if row["available"] and (
            row["fee"] == 0
            or (row["free_shipping_over"] is not None and lowest >= row["free_shipping_over"])
        ):
            free = True
        texts += list(row["regions"])
    returns = policy["returns"]
    days.update(float(v) for v in (returns["window_days"], returns["exchange_days"]) if v)
    texts += list(_strings(returns))
    days.update(numbers_in(str(returns.get("warranty") or "")))
    return Support(
        frozenset(money),
        frozenset(percents),
        frozenset(days),
        frozenset(counts),
        frozenset(codes),
        prepare("\n".join(t for t in texts if t)),
        free,
        fastest,
        "buyer pays" not in str(returns.get("return_shipping") or "buyer pays"),
        frozenset(prices),
        frozenset(_materials(details.get("specs") or {}, str(product["category"]), every=True)),
        catalogue_materials(kb),
    )


MATERIAL_LABELS = frozenset({"material", "materials", "shell"})
"""Spec labels whose values name what a product is made of."""


def _materials(specs: dict[str, Any], category: str, every: bool = False) -> set[str]:
    """Material terms of spec values (of every label with ``every``: a filling of silk)."""
    from hat_eval.world import zh_forms

    terms: set[str] = set()
    for label, value in specs.items():
        if not isinstance(value, str) or not (every or label in MATERIAL_LABELS):
            continue
        for part in re.split(r",|;| and | with |/|\(|\)", value):
            part = re.sub(r"^\d+% ?", "", part.strip())
            if len(part) < 4:
                continue
            words = part.split()
            tails = [" ".join(words[-k:]) for k in range(1, len(words))] if every else []
            zh = [z for form in (part, *tails) for z in zh_forms(form, category)]
            for term in (part, *zh, *tails):
                term = prepare(term)
                terms.add(term)
                terms.add(_GRADE.sub("", term))  # "316 stainless steel" also says "stainless steel"
    return {t for t in terms if t not in _NOT_MATERIALS and (len(t) >= 5 or not t.isascii())}


_GRADE = re.compile(r"^(?:\d+ ?[a-z]? |\d+)(?=\S{2})")
_NOT_MATERIALS = frozenset(
    {"outer", "grade a", "water repellent", "fully lined", "unlined", "wood grain finish", "防泼水"}
)
"""Spec words under a material label that describe a finish or grade, not a material."""


@lru_cache(maxsize=4)
def catalogue_materials(kb: KnowledgeBase) -> frozenset[str]:
    """Every material term of the catalogue (see :data:`MATERIAL_LABELS`)."""
    from hat_eval.world import LiveSession

    terms: set[str] = set()
    for p in kb.products():
        session = LiveSession(product_on_screen=p["id"], now="2026-11-01T00:00:00+08:00")
        details = call_function(kb, session, "catalog.get_product", {"product_id": p["id"]})
        assert isinstance(details, dict)
        terms |= _materials(details.get("specs") or {}, str(p["category"]))
    return frozenset(terms)


_CASES: dict[tuple[str, str, int], Support] = {}


def case_support(kb: KnowledgeBase, case: Case) -> Support:
    """The case's own lookups (coupons applied, quantities asked) and the viewer's numbers.

    Cached by case id, message and knowledge base (a case holds dicts, so it is not hashable).
    """
    key = (case.id, case.message, kb.seed)
    if key not in _CASES:
        if len(_CASES) > 8192:
            _CASES.clear()
        _CASES[key] = _lookups(kb, case)
    return _CASES[key]


def _lookups(kb: KnowledgeBase, case: Case) -> Support:
    money: set[float] = set()
    percents: set[float] = set()
    counts: set[float] = set(numbers_in(case.message))
    for call in case.expected_calls:
        try:
            result = call_function(kb, case.session, call.function, call.args)
        except ToolInputError:
            continue
        if call.function == "pricing.final_price" and isinstance(result, dict):
            money.update(_price_steps(result))
            percents.update(_percent_of(result))
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


def product_text(kb: KnowledgeBase, product_id: str) -> str:
    """Everything the knowledge base says of a product, prepared (name, specs, policies...)."""
    return product_support(kb, product_id).text


def support(kb: KnowledgeBase, case: Case, product_ids: Iterable[str]) -> Support:
    """What the world supports for a case's answer that speaks of ``product_ids``.

    The union over the case's products, the product on screen and ``product_ids``, plus the
    case's own lookups; money differences between two products are supported (a comparison
    says "¥50 cheaper").
    """
    scope = dict.fromkeys([*case.product_ids, case.session.product_on_screen, *product_ids])
    out = case_support(kb, case)
    prices: list[frozenset[float]] = []
    for pid in scope:
        one = product_support(kb, pid)
        out = out | one
        prices.append(one.prices)
    if len(prices) == 2:
        diffs = {round(abs(a - b), 2) for a in prices[0] for b in prices[1]}
        out = out | _money_only(diffs)
    return out


def _money_only(values: set[float]) -> Support:
    return Support(
        frozenset(values),
        frozenset(),
        frozenset(),
        frozenset(),
        frozenset(),
        "",
        False,
        None,
        False,
    )
