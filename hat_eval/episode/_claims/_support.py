"""What the world supports: every value an answer may state about the products of a case.

An answer may say more than the gold asks (the list price beside the final one, the threshold of
a coupon that does not apply, the delivery time beside the fee): each such claim is true when the
knowledge base or the live session gives it. :func:`product_support` gathers, for one product,
the money amounts, percentages, day counts, stock counts, coupon codes and the product text
(name, type, description, specs, origin, policies) the claims are verified against;
:func:`._case_support.support` joins those of the products in scope with the case's lookups.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, fields, replace
from functools import lru_cache
from typing import Any

from hat_eval.world import (
    KnowledgeBase,
    LiveSession,
    ToolInputError,
    call_function,
    numbers_in,
)

from ._materials import spec_materials
from ._shipping import shipping_terms
from ._text import prepare


@dataclass(frozen=True)
class Deal:
    """A promotion of a product: when it runs, and the amounts and percentages it gives."""

    starts_at: str
    ends_at: str
    money: frozenset[float]
    percents: frozenset[float]
    prices: frozenset[float]
    list_prices: frozenset[float] = frozenset()
    """The list prices of the options the deal lowers (not the price while it runs)."""
    live_only: bool = False  # the promotion holds only on the live stream

    def running(self, now: str) -> bool:
        """Whether the deal runs at ``now`` (ISO times of one zone compare as text)."""
        return self.starts_at <= now <= self.ends_at


_KIND_WORDS = frozenset({"plastic", "foam", "rubber", "fabric", "material"})
"""Words that say what kind of material a name is ("PP plastic" of a BPA-free PP)."""


def _own_with_kind(term: str, materials: frozenset[str]) -> bool:
    """Whether ``term`` is an own material with its kind said ("pp plastic" of "bpa free pp")."""
    core = " ".join(w for w in term.split() if w not in _KIND_WORDS)
    return (
        bool(core)
        and core != term
        and any(re.search(rf"(?<![a-z0-9]){re.escape(core)}(?![a-z0-9])", own) for own in materials)
    )


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
    described: str = ""
    """Prepared text of the products' own details (name, description, specs, options), without
    the shipping regions: where an origin ("Inner Mongolian cashmere") must be found."""
    free_shipping: bool = False
    """Shipping is free somewhere, always or over a threshold the product reaches."""
    free_everywhere: bool = False
    """Shipping is free to every region it ships to (what "ships free anywhere" says)."""
    free_mainland: bool = False  # free to every region but Hong Kong, Macau and Taiwan
    free_over: frozenset[float] = frozenset()
    """The free-shipping thresholds (an order priced over the one the answer gives ships free)."""
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
    deals: tuple[Deal, ...] = ()
    """The products' promotions, whose amounts count only while they run (:meth:`at`)."""
    warranty_months: frozenset[float] = frozenset()
    """The warranty terms of the products in scope, in months (none: no warranty)."""
    shelf_life_months: frozenset[float] = frozenset()  # the shelf lives the specs give, months
    ships_from: frozenset[str] = frozenset()  # the places they ship from (lower case)
    attribute_days: frozenset[tuple[str, float, float]] = frozenset()
    """(attribute, low, high) of every day count of the policies and specs (returns, exchange,
    each region's delivery range and its ends, a made-to-order lead time), read by attribute."""
    coupon_money: frozenset[float] = frozenset()
    """Amounts only a coupon gives (value, threshold, cap): not a deal's without one."""
    live_money: frozenset[float] = frozenset()
    """Amounts of the deals running at the session's time (:meth:`at`)."""
    superseded: frozenset[float] = frozenset()
    """List prices a deal running at the session's time lowers: not what a viewer pays now."""
    current_prices: frozenset[float] = frozenset()
    """What a viewer pays now for some option (:meth:`at`): list prices no running deal lowers,
    and the running deals' prices."""
    now: str = ""
    """The session's time (ISO), when the support is a case's: deals' end dates are read at it."""

    @property
    def any_deal_money(self) -> frozenset[float]:
        """Amounts of every deal, running or not (for a deal mentioned with its dates)."""
        return frozenset().union(*(d.money for d in self.deals))

    @property
    def any_deal_percents(self) -> frozenset[float]:
        """Percentages of every deal, running or not."""
        return frozenset().union(*(d.percents for d in self.deals))

    def at(self, now: str) -> Support:
        """This support with the amounts of the deals running at ``now`` added."""
        running = [d for d in self.deals if d.running(now)]
        lowered = frozenset().union(*(d.list_prices for d in running))
        current = (self.prices - lowered).union(*(d.prices for d in running))
        if not running:
            return replace(self, current_prices=self.current_prices | current)
        return replace(
            self,
            money=self.money.union(*(d.money for d in running)),
            percents=self.percents.union(*(d.percents for d in running)),
            prices=self.prices.union(*(d.prices for d in running)),
            live_money=self.live_money.union(*(d.money for d in running)),
            superseded=self.superseded | lowered,
            current_prices=self.current_prices | current,
        )

    def rival_terms(self, text: str) -> list[str]:
        """Catalogue materials in ``text`` that none of the products in scope is made of."""
        said = _terms_in(self.catalogue_materials, text)
        return sorted(
            t
            for t in said
            if t not in self.text
            and not any(t in own or own in t for own in self.materials)
            and not _own_part(t, self.text)
            and not _own_with_kind(t, self.materials)
        )

    def __or__(self, other: Support) -> Support:
        """Both supports: sets and deals joined, texts one after the other, the faster delivery."""
        merged: dict[str, Any] = {}
        for name in _FIELDS:
            a, b = getattr(self, name), getattr(other, name)
            if name in ("text", "described"):
                merged[name] = a + "\n" + b
            elif name == "fastest_days":
                merged[name] = b if a is None else a if b is None else min(a, b)
            elif isinstance(a, bool | str):  # free_shipping, free_returns; now
                merged[name] = a or b
            else:
                merged[name] = a | b if isinstance(a, frozenset) else a + b
        return Support(**merged)


@lru_cache(maxsize=1024)
def _terms_in(terms: frozenset[str], text: str) -> tuple[str, ...]:
    """The ``terms`` that ``text`` holds (answers repeat: each is looked through once)."""
    return tuple(t for t in terms if t in text)


_FIELDS = tuple(f.name for f in fields(Support))
"""The fields :meth:`Support.__or__` joins (read once: ``fields`` is slow per call)."""

_ANY_TIME = "2026-11-01T00:00:00+08:00"
"""The session time of lookups whose results do not depend on it (details, policies)."""


def _leaves(value: object, keys: bool = False, out: list[object] | None = None) -> list[object]:
    """Every leaf of a JSON-like value, in order (and each dict key before its value).

    Gathered into ``out`` (a new list by default), not yielded: lookups return big nested
    results, and a generator per level cost more than the values.
    """
    out = [] if out is None else out
    if isinstance(value, dict):
        for k, v in value.items():
            if keys:
                out.append(str(k))
            _leaves(v, keys, out)
    elif isinstance(value, list):
        for v in value:
            _leaves(v, keys, out)
    else:
        out.append(value)
    return out


def numeric_leaves(value: object) -> Iterator[float]:
    """Every number in a JSON-like value (booleans excepted)."""
    leaves = _leaves(value)
    return (float(v) for v in leaves if isinstance(v, int | float) and not isinstance(v, bool))


def _strings(value: object) -> list[str]:
    """Every string of a JSON-like value, its keys included."""
    return [v for v in _leaves(value, keys=True) if isinstance(v, str)]


def _price_steps(result: dict[str, Any]) -> tuple[list[float], list[float]]:
    """A final-price result's amounts (each subtotal on the way, list -> final) and % off."""
    money = list(numeric_leaves(result))
    running = float(result.get("list_price") or 0.0)
    for d in result.get("discounts") or []:
        running -= float(d.get("amount") or 0.0)
        money.append(round(running, 2))
    percents: list[float] = []
    final, list_price = result.get("final_price"), result.get("list_price")
    if isinstance(final, int | float) and isinstance(list_price, int | float) and list_price:
        money.append(round(list_price - final, 2))
        off = 100.0 * (list_price - final) / list_price
        percents += [round(off, 1), float(round(off))]
    return money, percents


def _coupon_values(coupon: dict[str, Any]) -> tuple[list[float], list[float]]:
    money = [float(coupon[k]) for k in ("threshold", "cap") if coupon.get(k)]
    percents: list[float] = []
    if coupon.get("kind") == "percent":
        percents.append(float(coupon["value"]))
    else:
        money.append(float(coupon["value"]))
    return money, percents


_SKU_WORDS = ("option", "option_zh", "colour", "colour_zh")


def _coupons(kb: KnowledgeBase, category: object) -> tuple[set[str], list[float], list[float]]:
    """Every coupon code; the amounts and percentages of those that apply to ``category``."""
    codes = {str(c["code"]).upper() for c in kb.coupons()}
    values = [_coupon_values(c) for c in kb.coupons() if c.get("category") in (None, category)]
    return codes, [m for ms, _ in values for m in ms], [p for _, ps in values for p in ps]


def _day_spans(
    returns: dict[str, Any], specs: dict[str, Any]
) -> tuple[list[float], set[tuple[str, float, float]]]:
    """Days of the returns and exchange windows and of specs ("made to order in 3-5 days").

    Each count, and (attribute, low, high) of each window or spec, each end alone too.
    """
    days = [float(v) for v in (returns["window_days"], returns["exchange_days"]) if v]
    spans = {
        (name, float(returns[key]), float(returns[key]))
        for name, key in (("returns", "window_days"), ("exchange", "exchange_days"))
        if returns.get(key)
    }
    for label, value in specs.items():
        if isinstance(value, str) and re.search(r"\bdays?\b", value):
            found = [float(x) for x in re.findall(r"\d+(?:\.\d+)?", value)]
            if found:
                days += found
                spans.add((str(label), min(found), max(found)))
                spans |= {(str(label), v, v) for v in found}
    return days, spans


def _as_set(values: list[float]) -> frozenset[float]:
    """``values`` gathered into a set in their order, then frozen: the order a reason iterates."""
    return frozenset(set(values))


@lru_cache(maxsize=2048)
def product_support(kb: KnowledgeBase, product_id: str) -> Support:
    """What the knowledge base says of one product.

    Prices are the list prices of its SKUs; each promotion is a :class:`Deal` holding the
    amounts, percentages and final prices it gives (each SKU priced when it starts), which
    count only while it runs: a deal that ended or has not begun is an invented one now.
    """
    product = kb.product(product_id)
    if product is None:
        return Support()
    promotions = kb.promotions(product_id)
    session = LiveSession(product_on_screen=product_id, now=_ANY_TIME, deals=())
    details = call_function(kb, session, "catalog.get_product", {"product_id": product_id})
    assert isinstance(details, dict)
    specs = details.get("specs") or {}
    skus = kb.skus(product_id)
    prices = [float(s["list_price"]) for s in skus]
    counts = [*(float(s["stock"]) for s in skus), float(sum(s["stock"] for s in skus))]
    sku_words = [str(s.get(k) or "") for s in skus for k in _SKU_WORDS]
    deals = tuple(_deal(kb, product_id, promo) for promo in promotions)
    codes, coupon_money, percents = _coupons(kb, product["category"])
    policy = call_function(kb, session, "policy.shipping_returns", {"product_id": product_id})
    assert isinstance(policy, dict)
    shipping = shipping_terms(policy["shipping"], lowest=min(prices, default=0.0))
    returns = policy["returns"]
    days, spans = _day_spans(returns, specs)
    warranty = str(returns.get("warranty") or "")
    terms = TERM.finditer(warranty.lower())  # the warranty's length, in years or months
    shelf = TERM.finditer(f"{specs.get('shelf life')} {specs.get('shelf life after opening')}")
    texts = [
        *_strings(details),
        str(product.get("ships_from") or ""),
        *sku_words,
        *(str(promo.get("label") or "") for promo in promotions),
        *shipping.regions,
        *_strings(returns),
    ]
    return Support(
        money=_as_set([*prices, *coupon_money, *shipping.money]),
        percents=_as_set(percents),
        days=_as_set([*shipping.days, *days, *numbers_in(warranty)]),
        counts=_as_set(counts),
        codes=frozenset(codes),
        text=prepare("\n".join(t for t in texts if t)),
        described=prepare("\n".join(t for t in (*_strings(details), *sku_words) if t)),
        free_shipping=shipping.free,
        free_everywhere=shipping.everywhere,
        free_mainland=shipping.mainland,
        free_over=_as_set(shipping.free_over),
        fastest_days=shipping.fastest,
        free_returns="buyer pays" not in str(returns.get("return_shipping") or "buyer pays"),
        prices=_as_set(prices),
        materials=frozenset(spec_materials(specs, str(product["category"]), every=True)),
        catalogue_materials=catalogue_materials(kb),
        deals=deals,
        warranty_months=frozenset(term_months(*m.groups()) for m in terms),
        shelf_life_months=frozenset(term_months(*m.groups()) for m in shelf),
        ships_from=frozenset({str(product.get("ships_from") or "").lower()} - {""}),
        attribute_days=frozenset(spans | shipping.spans),
        coupon_money=_as_set(coupon_money),
    )


_PARTS = frozenset({"body", "shell", "handle", "frame", "case", "casing", "housing", "cover"})


def _own_part(term: str, text: str) -> bool:
    """Whether ``term`` is a part made of a material the text names ("ABS body" of an "ABS" one)."""
    *material, part = term.split()
    named = re.search(rf"\b{' '.join(material)}\b", text) is not None
    return part in _PARTS and bool(material) and named


TERM = re.compile(
    r"(?<![\d.])(\d+(?:\.\d+)?|\bone\b|\btwo\b|\bthree\b|[一两二三]) ?-?"
    r"(years?|yrs?|months?|年|个月)"
)
"""A length of time in years or months ("1-year", "one-year", "24 months", 2年), as warranties
are given."""
_WORD_NUMBER = {"one": 1.0, "two": 2.0, "three": 3.0, "一": 1.0, "两": 2.0, "二": 2.0, "三": 3.0}


def term_months(value: str, unit: str) -> float:
    """Months of a :data:`TERM` match's number and unit."""
    number = _WORD_NUMBER.get(value) or float(value)
    return number * (12 if unit.startswith(("y", "年")) else 1)


def _deal(kb: KnowledgeBase, product_id: str, promo: dict[str, Any]) -> Deal:
    """A promotion's amounts: its value, and each SKU's price steps while it runs."""
    money: set[float] = set()
    percents: set[float] = set()
    prices: set[float] = set()
    lowered: set[float] = set()
    (percents if promo.get("kind") == "percent" else money).add(float(promo["value"]))
    at = LiveSession(product_on_screen=product_id, now=str(promo["starts_at"]), deals=())
    for sku in kb.skus(product_id):
        try:
            priced = call_function(kb, at, "pricing.final_price", {"sku": sku["sku"]})
        except ToolInputError:
            continue
        assert isinstance(priced, dict)
        steps, off = _price_steps(priced)
        money.update(steps)
        percents.update(off)
        prices.add(float(priced["final_price"]))
        if float(priced["final_price"]) < float(priced["list_price"]):
            lowered.add(float(priced["list_price"]))
    return Deal(
        str(promo["starts_at"]),
        str(promo["ends_at"]),
        frozenset(money),
        frozenset(percents),
        frozenset(prices),
        frozenset(lowered),
        bool(promo.get("live_only")),
    )


@lru_cache(maxsize=4)
def catalogue_materials(kb: KnowledgeBase) -> frozenset[str]:
    """Every material term of the catalogue (see :data:`._materials.MATERIAL_LABELS`)."""
    terms: set[str] = set()
    for p in kb.products():
        session = LiveSession(product_on_screen=p["id"], now=_ANY_TIME)
        details = call_function(kb, session, "catalog.get_product", {"product_id": p["id"]})
        assert isinstance(details, dict)
        terms |= spec_materials(details.get("specs") or {}, str(p["category"]))
    # "jadeite" of "natural jadeite", 翡翠 of 天然翡翠: the material without its qualifier
    bare = {re.sub(r"^(?:natural |天然)", "", t) for t in terms}
    return frozenset(terms | {t for t in bare if len(t) >= 2})
