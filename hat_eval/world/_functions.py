"""The tools as real functions over the knowledge base, keyed by harness function id.

Each implementation takes ``(kb, session, args)``, returns a JSON-serialisable dict (a list for
``catalog.search``) and registers itself for its function id with ``@implementation(...)``
(:mod:`._function_registry` owns the table, and the argument schemas it reads from the default
harness; :data:`IMPLEMENTATIONS` is a view of the table).

A wrong argument raises :class:`ToolInputError` whose message says what was wrong and what was
expected. Unknown argument names are rejected too, so a tool surface renamed by augmentation
still has to send the schema's names.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from typing import Any

from hat_eval._cache import by_identity

from ._compliance import check_claim
from ._errors import ToolInputError
from ._function_registry import (
    _REGISTRY,
    Implementation,
    Result,
    _check_args,
    implementation,
)
from ._kb import KnowledgeBase
from ._pricing import active_promotions, compute_final_price
from ._session import LiveSession

# -- arguments -----------------------------------------------------------------------------------


def _product(kb: KnowledgeBase, product_id: str) -> dict[str, Any]:
    pid = product_id.strip().upper()
    product = kb.product(pid)
    if product is None:
        hint = "" if re.fullmatch(r"P\d{4}", pid) else " (ids look like 'P0042')"
        raise ToolInputError(
            f"product_id {product_id!r} is unknown{hint}, expected the id of a catalogue product: "
            "search the catalogue first"
        )
    return product


def _sku(kb: KnowledgeBase, sku: str) -> dict[str, Any]:
    code = sku.strip().upper()
    row = kb.sku(code)
    if row is None:
        pid = code.split("-", 1)[0]
        if kb.product(pid) is not None:
            known = ", ".join(s["sku"] for s in kb.skus(pid))
            raise ToolInputError(f"sku {sku!r} is unknown, expected one of {known}")
        raise ToolInputError(
            f"sku {sku!r} is unknown, expected a SKU id such as 'P0042-M-BLK' "
            "(get_product lists a product's SKUs)"
        )
    return row


def _sku_of(kb: KnowledgeBase, sku: str, product: dict[str, Any]) -> dict[str, Any]:
    """The SKU row of ``sku``, which must belong to ``product``."""
    row = _sku(kb, sku)
    if row["product_id"] != product["id"]:
        known = ", ".join(s["sku"] for s in kb.skus(product["id"]))
        raise ToolInputError(
            f"sku {sku!r} belongs to product {row['product_id']}, not "
            f"{product['id']}; expected one of {known}"
        )
    return row


def _fields(row: dict[str, Any], *keys: str) -> dict[str, Any]:
    """The ``keys`` of a knowledge-base row, in that order."""
    return {k: row[k] for k in keys}


def _named(product: dict[str, Any], *keys: str) -> dict[str, Any]:
    """A product's id and name, then its ``keys``: how results name the product they are about."""
    return {"product_id": product["id"], "name": product["name"], **_fields(product, *keys)}


# -- catalog.search ------------------------------------------------------------------------------


def _tokens(text: str) -> list[str]:
    """Search words: lower case, accents dropped, a plural ``s`` dropped from a longer word."""
    decomposed = unicodedata.normalize("NFKD", text.lower())
    folded = "".join(c for c in decomposed if not unicodedata.combining(c))
    words = re.findall(r"[a-z0-9]+", folded)
    return [w[:-1] if len(w) > 3 and w.endswith("s") else w for w in words]


_CJK = re.compile(r"[\u4e00-\u9fff]+")

_Indexed = tuple[dict[str, Any], frozenset[str], frozenset[str], frozenset[str]]


@by_identity(8)
def _search_index(kb: KnowledgeBase) -> list[_Indexed]:
    """Each product with its name, metadata and body words, tokenized once per knowledge base."""
    return [
        (
            p,
            frozenset(_tokens(p["name"])),
            frozenset(_tokens(f"{p['brand']} {p['type_name']} {p['line']} {p['category']}")),
            frozenset(_tokens(f"{p['description']} {p['material']}")),
        )
        for p in kb.products()
    ]


@implementation("catalog.search")
def catalog_search(kb: KnowledgeBase, session: LiveSession, args: dict[str, Any]) -> Result:
    """Search the catalogue by keywords (English or Chinese), optionally in one category.

    Ranking: each query word found in a product's name scores 3, in its brand, type, line or
    category 2, in its description or material 1 (plural ``s`` and accents ignored); a
    Chinese run scores 3 when it occurs in the Chinese name. Ties go to the lower id.

    Returns a list (best first, at most ``max_results``, default 5) of
    ``{"product_id", "name", "name_zh", "category", "list_price", "list_price_max",
    "currency": "CNY"}`` where ``list_price`` is the lowest SKU list price; ``[]`` when nothing
    matches.
    """
    query = args["query"]
    limit = int(args.get("max_results") or 5)
    category = args.get("category")
    words = _tokens(query)
    runs = _CJK.findall(query)
    scored = []
    for p, name, meta, body in _search_index(kb):
        if category and p["category"] != category:
            continue
        score = sum(3 if w in name else 2 if w in meta else 1 if w in body else 0 for w in words)
        score += sum(3 for r in runs if r in p["name_zh"] or r in p["type_zh"])
        if score:
            scored.append((-score, p["id"], p))
    scored.sort(key=lambda t: (t[0], t[1]))
    out = []
    for _, _, p in scored[:limit]:
        prices = [s["list_price"] for s in kb.skus(p["id"])]
        out.append(
            {
                **_named(p, "name_zh", "category"),
                "list_price": min(prices),
                "list_price_max": max(prices),
                "currency": "CNY",
            }
        )
    return out


# -- catalog.get_product -------------------------------------------------------------------------


@implementation("catalog.get_product")
def catalog_get_product(kb: KnowledgeBase, session: LiveSession, args: dict[str, Any]) -> Result:
    """The full listing of one product.

    Returns ``{"product_id", "name", "name_zh", "brand", "category", "type", "description",
    "specs": {label: value, ...} (includes the material / ingredients label, e.g. "material":
    "100% cotton", and for apparel a "size chart" {size: "height a-b cm, weight c-d kg"}),
    "made_to_order": bool, "skus": [{"sku", "option", "colour", "list_price"}],
    "list_price": lowest SKU list price, "currency": "CNY"}``. Stock and deals are not
    included (see ``inventory.check_stock`` and ``pricing.final_price``).
    """
    p = _product(kb, args["product_id"])
    skus = kb.skus(p["id"])
    return {
        **_named(p, "name_zh", "brand", "category"),
        "type": p["type_name"],
        "description": p["description"],
        "specs": {p["material_label"]: p["material"], **p["specs"]},
        "made_to_order": p["custom"],
        "skus": [_fields(s, "sku", "option", "colour", "list_price") for s in skus],
        "list_price": min(s["list_price"] for s in skus),
        "currency": "CNY",
    }


# -- inventory.check_stock -----------------------------------------------------------------------


def stock_status(stock: int) -> str:
    """``out_of_stock`` (0), ``low_stock`` (1-9) or ``in_stock`` (10 or more)."""
    return "out_of_stock" if stock <= 0 else "low_stock" if stock < 10 else "in_stock"


@implementation("inventory.check_stock")
def inventory_check_stock(kb: KnowledgeBase, session: LiveSession, args: dict[str, Any]) -> Result:
    """Units in stock per SKU of a product (only the given SKU when ``sku`` is passed).

    Returns ``{"product_id", "name", "skus": [{"sku", "option", "colour", "stock": int,
    "status": "in_stock" | "low_stock" | "out_of_stock"}], "total_stock": int}``.
    """
    p = _product(kb, args["product_id"])
    rows = kb.skus(p["id"])
    if args.get("sku"):
        rows = [_sku_of(kb, args["sku"], p)]
    skus = [
        {**_fields(s, "sku", "option", "colour", "stock"), "status": stock_status(s["stock"])}
        for s in rows
    ]
    return {
        **_named(p),
        "skus": skus,
        "total_stock": sum(s["stock"] for s in rows),
    }


# -- pricing.final_price -------------------------------------------------------------------------


@implementation("pricing.final_price", maximum={"quantity": 99})
def pricing_final_price(kb: KnowledgeBase, session: LiveSession, args: dict[str, Any]) -> Result:
    """What the viewer pays for ``quantity`` (default 1) of a SKU at ``session.now``.

    Applies the live deal and the coupons that stack (rules in ``_pricing``). Returns
    ``{"sku", "product_id", "name", "option", "colour", "quantity", "currency": "CNY",
    "priced_at", "unit_list_price", "list_price" (unit x quantity), "discounts": [{"type":
    "promotion", "id", "label", "amount", "ends_at"} | {"type": "coupon", "code", "issuer",
    "label", "amount"}], "promotions_not_applied": [{"promotion_id", "label", "reason"}],
    "rejected_coupons": [{"code", "reason"}], "total_discount", "final_price"}``; amounts are
    yuan with two decimals.
    """
    sku = _sku(kb, args["sku"])
    return compute_final_price(
        kb,
        sku=sku,
        quantity=int(args.get("quantity") or 1),
        coupon_codes=list(args.get("coupon_codes") or []),
        now=session.now_dt,
    )


# -- policy.shipping_returns ---------------------------------------------------------------------


@implementation("policy.shipping_returns")
def policy_shipping_returns(
    kb: KnowledgeBase, session: LiveSession, args: dict[str, Any]
) -> Result:
    """Delivery times, shipping fees and the returns policy of a product.

    Returns ``{"product_id", "name", "category", "ships_from", "currency": "CNY", "shipping":
    [{"region_class": "metro" | "mainland" | "remote" | "hk_mo_tw", "regions": [...],
    "available": bool, "delivery_days": {"min", "max"} | None, "fee", "free_shipping_over":
    yuan | None (never free)}], "returns": {"returnable": bool, "window_days": int (0 when not
    returnable), "conditions": [...], "return_shipping", "exchange_days", "warranty",
    "note"}}``. A fee of 0 means shipping is always free there.
    """
    p = _product(kb, args["product_id"])
    places = {rc.region_class: rc.regions for rc in kb.pack.regions}
    shipping = [
        {
            "region_class": row["region_class"],
            "regions": list(places[row["region_class"]]),
            "available": row["available"],
            "delivery_days": (
                {"min": row["days_min"], "max": row["days_max"]} if row["available"] else None
            ),
            "fee": row["fee"],
            "free_shipping_over": row["free_over"],
        }
        for row in kb.shipping(p["category"])
    ]
    policy = kb.returns(p["category"])
    returns: dict[str, Any] = {
        "returnable": not p["custom"],
        "window_days": 0 if p["custom"] else policy["window_days"],
        "conditions": [] if p["custom"] else policy["conditions"],
        "return_shipping": policy["return_shipping"],
        "exchange_days": policy["exchange_days"],
        "warranty": policy["warranty"],
        "note": (
            kb.pack.policy.custom_returns
            if p["custom"]
            else f"{policy['window_days']}-day returns: " + ", ".join(policy["conditions"])
        ),
    }
    return {
        **_named(p, "category", "ships_from"),
        "currency": "CNY",
        "shipping": shipping,
        "returns": returns,
    }


# -- compliance.check_claim ----------------------------------------------------------------------


@implementation("compliance.check_claim")
def compliance_check_claim(kb: KnowledgeBase, session: LiveSession, args: dict[str, Any]) -> Result:
    """Whether ``claim`` about a product may be said on stream, under its category's rules.

    Returns ``{"product_id", "category", "claim", "allowed": bool, "violations": [{"rule_id",
    "kind": "absolute" | "comparative" | "medical" | "infant" | "investment" | "supernatural",
    "matched", "reason"}], "suggestion": a safe rephrasing (the claim itself when allowed)}``.
    """
    p = _product(kb, args["product_id"])
    return check_claim(kb, p, args["claim"])


# -- handoff.escalate ----------------------------------------------------------------------------

_ETA = {"low": 60, "normal": 15, "high": 3}


@implementation("handoff.escalate")
def handoff_escalate(kb: KnowledgeBase, session: LiveSession, args: dict[str, Any]) -> Result:
    """Open a ticket for a human agent.

    Returns ``{"ticket_id": "HT-xxxxxxxx" (derived from the reason and time, so stable),
    "status": "queued", "urgency", "reason", "eta_minutes", "message"}``.
    """
    urgency = args.get("urgency") or "normal"
    digest = hashlib.sha256(f"{session.now}|{args['reason']}".encode()).hexdigest()[:8]
    return {
        "ticket_id": f"HT-{digest.upper()}",
        "status": "queued",
        "urgency": urgency,
        "reason": args["reason"],
        "eta_minutes": _ETA[urgency],
        "message": "A human customer-service colleague will follow up in the chat.",
    }


# -- live.session_context ------------------------------------------------------------------------


@implementation("live.session_context")
def live_session_context(kb: KnowledgeBase, session: LiveSession, args: dict[str, Any]) -> Result:
    """The product on screen, the current time and the time-limited deals of the session.

    Returns ``{"now", "product_on_screen": {"product_id", "name", "name_zh", "category"},
    "deals": [{"product_id", "name", "promotion_id", "label", "ends_at"}]}``; only deals still
    running at ``now`` are listed.
    """
    p = kb.product(session.product_on_screen)
    on_screen = _named(p, "name_zh", "category") if p else None
    deals = []
    now = session.now_dt
    for d in session.deals:
        running = active_promotions(kb, d.product_id, now)
        promo = next((x for x in running if x["id"] == d.promotion_id), None)
        dp = kb.product(d.product_id)
        if promo is None or dp is None:
            continue
        deals.append(
            {
                "product_id": d.product_id,
                "name": dp["name"],
                "promotion_id": d.promotion_id,
                "label": promo["label"],
                "ends_at": d.ends_at,
            }
        )
    return {"now": session.now, "product_on_screen": on_screen, "deals": deals}


IMPLEMENTATIONS: dict[str, Implementation] = {fn: e.run for fn, e in _REGISTRY.items()}
"""Function id -> implementation, as registered (every id of ``hat_eval.harness.FUNCTIONS``)."""


def check_arguments(kb: KnowledgeBase, function_id: str, args: Any) -> None:
    """Check a call's arguments as :func:`call_function` would, without running it.

    The schema (unknown, missing or ill-typed arguments: the checks every call goes through)
    and the knowledge base: a ``product_id`` or ``sku`` argument must name a catalogue product
    or SKU, and a SKU given with a product must be one of its SKUs. What a checking hook
    validates before a call executes (``hat_eval.episode``).

    Raises:
        ToolInputError: unknown function id or bad arguments (the message is for the agent).
    """
    checked = _checked(function_id, args)
    product = _product(kb, checked["product_id"]) if checked.get("product_id") else None
    if checked.get("sku"):
        if product is None:
            _sku(kb, checked["sku"])
        else:
            _sku_of(kb, checked["sku"], product)


def call_function(
    kb: KnowledgeBase, session: LiveSession, function_id: str, args: dict[str, Any] | None = None
) -> Result:
    """Run the implementation of ``function_id`` with ``args`` (JSON-able result).

    Raises:
        ToolInputError: unknown function id or bad arguments (the message is for the agent).
    """
    checked = _checked(function_id, {} if args is None else args)
    return IMPLEMENTATIONS[function_id](kb, session, checked)


def _checked(function_id: str, args: Any) -> dict[str, Any]:
    """``args`` checked against the schema of ``function_id``, which must be registered."""
    if function_id not in IMPLEMENTATIONS:
        raise ToolInputError(
            f"function {function_id!r} is unknown, expected one of {', '.join(IMPLEMENTATIONS)}"
        )
    return _check_args(function_id, args)
