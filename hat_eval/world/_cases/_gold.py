"""Gold that several intents share: prices, stock, product attributes, shipping.

Each section has the alias phrases that count as stating a fact and the patterns of wrong
claims; the facts themselves are read from tool results (``<call index>:<path>`` sources).
"""

from __future__ import annotations

import re
from typing import Any

from .._facts import Fact, price_aliases, price_pattern, value_aliases
from .._functions import stock_status
from .._kb import KnowledgeBase
from .._vocab import REGION_ALIASES, REGIONS, material_parts, zh_forms
from ._draft import Ctx, Draft, variant_axes
from ._phrases import case_phrases

# -- prices ----------------------------------------------------------------------------------------


_CN_DIGITS = "零一二三四五六七八九"


def cn_number(n: int) -> str:
    """``n`` (0-99) in Chinese numerals: 7 -> 七, 15 -> 十五, 30 -> 三十."""
    if not 0 <= n < 100:
        raise ValueError(f"n {n} is out of range, expected 0 <= n < 100")
    tens, ones = divmod(n, 10)
    if tens == 0:
        return _CN_DIGITS[ones]
    head = "" if tens == 1 else _CN_DIGITS[tens]
    return f"{head}十{_CN_DIGITS[ones] if ones else ''}"


def price_fact(idx: int, value: float, path: str = "final_price") -> Fact:
    """The price at ``path`` of call ``idx``'s result, in CNY."""
    return Fact("price", value, "CNY", price_aliases(value), f"{idx}:{path}")


def price_gold(draft: Draft, args: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """``pricing.final_price`` called for the gold: its index and result (final price a fact).

    When something is taken off, quoting the unit list price is forbidden.
    """
    idx = draft.call("pricing.final_price", args)
    res = draft.results[idx]
    draft.facts.append(price_fact(idx, res["final_price"]))
    if res["total_discount"] > 0:
        draft.forbidden.append(price_pattern(res["unit_list_price"]))
    return idx, res


# -- stock -----------------------------------------------------------------------------------------


def stock_state_fact(idx: int, sku: dict[str, Any]) -> Fact:
    """The SKU's stock as a state only (no count): in stock (a few left, when low) or sold out.

    What a harness rule that forbids exact counts makes the gold of a low-stock SKU.
    """
    status = stock_status(sku["stock"])
    path = f"{idx}:skus[sku={sku['sku']}].status"
    words = case_phrases().stock
    if status == "out_of_stock":
        return Fact("stock", "sold out", None, words.out_of_stock, path)
    aliases = words.in_stock + (words.few_left if status == "low_stock" else ())
    return Fact("stock", "in stock", None, aliases, path)


def stock_fact(idx: int, sku: dict[str, Any]) -> Fact:
    """The SKU's stock in call ``idx``'s result: a count when low, else in stock / sold out."""
    if stock_status(sku["stock"]) != "low_stock":
        return stock_state_fact(idx, sku)
    n = sku["stock"]
    cns = [cn_number(n)] + (["两"] if n == 2 else [])
    zh = [f"{form}{c}件" for c in cns for form in ("剩", "还剩", "只剩")]
    if n == 1:
        zh += ["最后一件", "只剩一件"]
    return Fact(
        "count",
        float(n),
        "units",
        (
            f"{n} left",
            f"only {n}",
            f"{n} units",
            f"{n} pieces",
            f"剩{n}",
            f"还剩{n}",
            f"{n}件",
            *zh,
        ),
        f"{idx}:skus[sku={sku['sku']}].stock",
    )


def stock_forbidden(kb: KnowledgeBase, product: dict[str, Any], sku: dict[str, Any]) -> list[str]:
    """Wrong stock claims for a SKU.

    "Sold out" for a SKU in stock; "<variant> is in stock" for one that is sold out (a
    neighbouring variant may still be called available).
    """
    status = stock_status(sku["stock"])
    if status != "out_of_stock":
        return [
            r"(?:is|are|it's|its|they're) (?:already |now |currently )?(?:sold out|"
            r"out of stock)",
            r"(?:已经)?(?:卖完了|售罄了|没货了)",
        ]
    names = [re.escape(sku[k].lower()) for k in variant_axes(kb.skus(product["id"]), sku)]
    subject = rf"(?<![\w'])(?:{'|'.join(names)})\b" if names else r"\b(?:it|this|they)"
    return [
        rf"{subject}(?:(?!sold out|out of stock|\bbut\b|\bnot\b|n't)[^.!?;]){{0,25}}"
        r"\b(?:is|are|'s) (?:still )?(?:in stock|available)\b",
        r"\b(?:yes|yep|yeah)\b[,!]? (?:it'?s |we have it |we've got it )?(?:in stock|"
        r"available)",
    ]


def stock_target(ctx: Ctx) -> tuple[dict[str, Any], dict[str, Any]]:
    """A (product, SKU) of the split: sold out 35%, low stock 25%, in stock 40% of the time."""
    r = ctx.rng.random()
    want = "out_of_stock" if r < 0.35 else "low_stock" if r < 0.6 else "in_stock"
    skus = [s for p in ctx.pool for s in ctx.kb.skus(p["id"]) if stock_status(s["stock"]) == want]
    sku = ctx.rng.choice(skus)
    product = ctx.kb.product(sku["product_id"])
    assert product is not None
    return product, sku


# -- product attributes ----------------------------------------------------------------------------

_CRISP = re.compile(r"^[\w.#%+°/-]+(?: [\w.#%+°/-]+){0,3}$")


def spec_labels(product: dict[str, Any]) -> list[str]:
    """The product's specs whose values are short enough to quote (not the size chart)."""
    return sorted(
        k
        for k, v in product["specs"].items()
        if k != "size chart" and isinstance(v, str) and _CRISP.match(v)
    )


def attribute_facts(idx: int, product: dict[str, Any], label: str) -> list[Fact]:
    """The material (up to three parts) or spec ``label`` of call ``idx``'s product."""
    if label == product["material_label"]:
        parts = material_parts(product["material"])[:3]
    else:
        parts = [product["specs"][label]]
    facts = []
    for part in parts:
        aliases = set(value_aliases(part))
        m = re.fullmatch(r"(\d+)% (.+)", part)
        if m:
            aliases |= {f"{m.group(1)} % {m.group(2)}", f"{m.group(2)} {m.group(1)}%"}
        zh = zh_forms(part, product["category"])
        facts.append(Fact("text", part, None, (*sorted(aliases), *zh), f"{idx}:specs.{label}"))
    return facts


# -- shipping --------------------------------------------------------------------------------------

_REGION_WEIGHTS = {"metro": 35, "mainland": 35, "remote": 20, "hk_mo_tw": 10}
"""How often viewers ask about each region class."""


def draw_place(ctx: Ctx) -> tuple[str, str, str]:
    """(region class, canonical place, what the viewer writes)."""
    rc = ctx.rng.choices(list(_REGION_WEIGHTS), list(_REGION_WEIGHTS.values()))[0]
    place = ctx.rng.choice(REGIONS[rc])
    aliases = REGION_ALIASES.get(place, ())
    latin = [a for a in aliases if a.isascii()]
    zh = [a for a in aliases if not a.isascii()]
    if ctx.register == "zh" and zh:
        written = zh[0]
    elif ctx.register == "slang" and latin and ctx.rng.random() < 0.6:
        written = latin[0]
    else:
        written = place
    return rc, place, written


def ship_facts(draft: Draft, idx: int, rc: str) -> None:
    """Delivery time and fee to region class ``rc`` (call ``idx`` is ``shipping_returns``)."""
    res = draft.results[idx]
    row = next(r for r in res["shipping"] if r["region_class"] == rc)
    base = f"{idx}:shipping[region_class={rc}]"
    if not row["available"]:
        draft.facts.append(
            Fact("text", "not available", None, case_phrases().not_shipped, f"{base}.available")
        )
        draft.forbidden.append(r"(?<!\d)\d+ ?(?:-|–|to) ?\d+ (?:business |working )?days\b")
        return
    days = row["delivery_days"]
    draft.facts.append(
        Fact(
            "days",
            f"{days['min']}-{days['max']}",
            "days",
            (
                f"{days['min']}-{days['max']} days",
                f"{days['min']} to {days['max']} days",
                f"{days['min']}-{days['max']}天",
                f"{days['min']}到{days['max']}天",
                f"{days['min']}至{days['max']}天",
            ),
            f"{base}.delivery_days",
        )
    )
    for other in res["shipping"]:
        od = other["delivery_days"]
        if od and (od["min"], od["max"]) != (days["min"], days["max"]):
            draft.forbidden.append(
                rf"(?<![\d.]){od['min']} ?(?:-|–|to) ?{od['max']}(?![\d.])"
                r" ?(?:business |working )?(?:days|天)"
            )
    if row["fee"] == 0:
        draft.facts.append(
            Fact(
                "text",
                "free shipping",
                None,
                case_phrases().free_shipping,
                f"{base}.fee",
            )
        )
    elif row["free_shipping_over"] is None:
        draft.facts.append(price_fact(idx, row["fee"], f"shipping[region_class={rc}].fee"))
        draft.forbidden.append(r"(?<!no )(?<!not )(?<!isn't )\bfree (?:shipping|delivery)\b")
    else:  # free over a threshold: what this product costs to ship there
        prices = [float(k["list_price"]) for k in draft.ctx.kb.skus(str(res["product_id"]))]
        over = float(row["free_shipping_over"])
        if prices and min(prices) >= over:
            draft.facts.append(
                Fact(
                    "text",
                    "free shipping",
                    None,
                    (
                        "free shipping",
                        "ships free",
                        "shipping is free",
                        "free delivery",
                        "包邮",
                        "免运费",
                    ),
                    f"{base}.free_shipping_over",
                )
            )
        elif prices and max(prices) < over:
            draft.facts.append(price_fact(idx, row["fee"], f"shipping[region_class={rc}].fee"))
