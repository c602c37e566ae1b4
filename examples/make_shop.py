"""Write ``examples/shop/``: a second, small shop (32 products) a team could have written.

A tea-and-home live room: food, home, electronics and jewellery (no apparel, beauty, baby or
sports), 8 product types of 4 listings each, its own brands, promotions, coupons, shipping,
returns and compliance rules. The files are what ships; this script is how they were made:

    python examples/make_shop.py            # rewrites examples/shop/
    hat-eval shop validate examples/shop

The listings reuse the built-in vocabulary's product types (their options, specs and
materials) so that every case generator has something to ask; the shop-wide tables below are
this shop's own. The season is November 2026: the case generators draw their moments from it.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from hat_eval.world import write_pack
from hat_eval.world._kb import _product  # the generator's listing maker (types, SKUs, prices)
from hat_eval.world._pack import ShopPack
from hat_eval.world._schema import (
    Coupon,
    Promotion,
    RegionClass,
    Returns,
    Rule,
    Shipping,
    ShopManifest,
    ShopPolicy,
)
from hat_eval.world._vocab import REGIONS, TYPES

OUT = Path(__file__).resolve().parent / "shop"

MIX = {  # category -> (product types, brands)
    "food": (("green_tea", "honey"), ("Cloudleaf", "Amber Hive", "West Lake", "Mengding")),
    "home": (("flask", "pillow"), ("Hearthly", "Nestwell", "Mistral", "Oakroom")),
    "electronics": (("earbuds", "power_bank"), ("Voltra", "Kestrel", "Lumio", "Soundcraft")),
    "jewellery": (("necklace", "name_necklace"), ("Lumière", "Jadeite", "Seren", "Orla")),
}
PER_TYPE = 4
SEASON = ("2026-11-01T00:00:00+08:00", "2026-11-30T23:59:59+08:00")


def _products(rng: random.Random) -> tuple[list, list, list]:
    products, skus, promotions = [], [], []
    for category, (types, brands) in MIX.items():
        for key in types:
            ptype = next(t for t in TYPES[category] if t.key == key)
            lines = rng.sample(list(ptype.lines), PER_TYPE)
            for brand, line in zip(brands, lines, strict=True):
                pid = f"T{len(products) + 1:03d}"
                product, its_skus, base = _product(rng, pid, category, ptype, brand, line)
                products.append(product.model_copy(update={"ships_from": "Hangzhou"}))
                skus.extend(its_skus)
                if rng.random() < 0.7:  # a live deal on most listings
                    day = rng.randint(1, 20)
                    percent = rng.random() < 0.5
                    off = float(max(5, base // 10))
                    value = float(rng.choice((10, 15, 20))) if percent else off
                    label = f"{int(value)}% off" if percent else f"¥{int(value)} off"
                    promotions.append(
                        Promotion(
                            id=f"TP{len(promotions) + 1:03d}",
                            product_id=pid,
                            kind="percent" if percent else "fixed",
                            value=value,
                            label=f"Tea-room deal: {label}",
                            live_only=rng.random() < 0.5,
                            starts_at=f"2026-11-{day:02d}T00:00:00+08:00",
                            ends_at=f"2026-11-{min(30, day + 9):02d}T23:59:59+08:00",
                        )
                    )
    return products, skus, promotions


def _coupon(code: str, issuer: str, kind: str, value: float, **kw: object) -> Coupon:
    fields: dict[str, object] = {
        "threshold": 0.0,
        "cap": None,
        "category": None,
        "starts_at": SEASON[0],
        "ends_at": SEASON[1],
        "stacks_with_promotion": True,
        "stacks_with": [],
        "label": code,
    }
    fields.update(kw)
    return Coupon(code=code, issuer=issuer, kind=kind, value=value, **fields)  # type: ignore[arg-type]


COUPONS = [
    _coupon(
        "ROOM15",
        "platform",
        "threshold",
        15,
        threshold=149.0,
        stacks_with=["LEAF10", "NEST20", "AMP30"],
        label="¥15 off orders over ¥149",
    ),
    _coupon(
        "ROOM60",
        "platform",
        "threshold",
        60,
        threshold=599.0,
        stacks_with=["LEAF10", "NEST20"],
        stacks_with_promotion=False,
        label="¥60 off orders over ¥599 (not with live deals)",
    ),
    _coupon(
        "LEAF10",
        "shop",
        "threshold",
        10,
        threshold=99.0,
        category="food",
        stacks_with=["ROOM15", "ROOM60"],
        label="¥10 off tea and honey over ¥99",
    ),
    _coupon(
        "NEST20",
        "shop",
        "percent",
        20,
        cap=40.0,
        category="home",
        stacks_with=["ROOM15", "ROOM60"],
        label="20% off home goods, at most ¥40",
    ),
    _coupon(
        "AMP30",
        "shop",
        "fixed",
        30,
        threshold=199.0,
        category="electronics",
        stacks_with=["ROOM15"],
        label="¥30 off audio and power over ¥199",
    ),
    _coupon(
        "GLEAM50",
        "shop",
        "threshold",
        50,
        threshold=399.0,
        category="jewellery",
        stacks_with_promotion=False,
        ends_at="2026-11-15T23:59:59+08:00",
        label="¥50 off jewellery over ¥399, until 15 Nov (not with live deals)",
    ),
]

_DAYS = {"metro": (1, 3), "mainland": (2, 5), "remote": (5, 9), "hk_mo_tw": (4, 8)}


def _shipping() -> list[Shipping]:
    rows = []
    for category in MIX:
        for rc, (d0, d1) in _DAYS.items():
            no_ship = category == "food" and rc == "hk_mo_tw"  # fresh food does not cross borders
            rows.append(
                Shipping(
                    category=category,
                    region_class=rc,
                    available=not no_ship,
                    days_min=d0,
                    days_max=d1 + (1 if category == "jewellery" else 0),
                    fee=0.0 if category == "jewellery" else 6.0 if rc != "remote" else 18.0,
                    free_over=None if rc == "remote" else 88.0,
                )
            )
    return rows


RETURNS = [
    Returns(
        category="food",
        window_days=7,
        conditions=["unopened", "within its shelf life"],
        return_shipping="buyer pays return shipping unless the item is faulty",
        exchange_days=None,
        warranty=None,
    ),
    Returns(
        category="home",
        window_days=15,
        conditions=["unused", "in its original box"],
        return_shipping="free return pickup",
        exchange_days=30,
        warranty="1-year warranty",
    ),
    Returns(
        category="electronics",
        window_days=7,
        conditions=["unused", "all accessories"],
        return_shipping="free return pickup",
        exchange_days=15,
        warranty="2-year warranty",
    ),
    Returns(
        category="jewellery",
        window_days=10,
        conditions=["unworn", "with its certificate"],
        return_shipping="insured return shipping paid by the shop",
        exchange_days=None,
        warranty="lifetime free cleaning",
    ),
]

RULES = [
    Rule(
        id="ROOM-ABSOLUTE",
        kind="absolute",
        categories=[],
        patterns=[
            r"\bbest\b",
            r"\bno\.? ?1\b",
            r"\bnumber one\b",
            r"\bunbeatable\b",
            "最好",
            "第一",
        ],
        reason="Absolute terms such as 'best' or 'No.1' are banned in advertising.",
    ),
    Rule(
        id="ROOM-GUARANTEE",
        kind="absolute",
        categories=[],
        patterns=[r"\bguarantee[ds]?\b", r"\bmiracle\b", r"\b100 ?% ?safe\b", "保证"],
        reason="Promises of certain results cannot be substantiated.",
    ),
    Rule(
        id="TEA-HEALTH",
        kind="medical",
        categories=["food"],
        patterns=[
            r"\b(?:cures?|treats?|prevents?|heals?)\b",
            r"\bdetox(?:es|ifies)?\b",
            r"\bburns? fat\b",
            r"\blowers? (?:your )?(?:blood sugar|blood pressure)\b",
            r"\bweight[- ]loss\b",
            "减肥",
            "降血压",
            "治疗",
        ],
        reason="Tea, honey and other ordinary food may not claim health functions.",
    ),
    Rule(
        id="GEM-VALUE",
        kind="investment",
        categories=["jewellery"],
        patterns=[
            r"\binvestment\b",
            r"\bappreciates?\b",
            r"\bhold(?:s)? (?:its|their) value\b",
            "保值",
            "升值",
        ],
        reason="Claims about future value are banned.",
    ),
    Rule(
        id="VOLT-SAFE",
        kind="absolute",
        categories=["electronics"],
        patterns=[
            r"\b(?:explosion|fire)[- ]?proof\b",
            r"\bnever overheats?\b",
            r"\bradiation[- ]free\b",
            "零辐射",
        ],
        reason="Absolute safety claims about batteries and electronics cannot be substantiated.",
    ),
]

POLICY = ShopPolicy(
    stacking_rules=[
        "At most one live deal (promotion) applies per SKU: the one that saves the most.",
        "At most one platform coupon and at most one shop coupon per order, and only the pairs "
        "each coupon lists as stacking with it.",
        "A coupon marked 'not with live deals' is rejected when a live deal applies.",
        "A shop coupon is valid only for its own category.",
        "Coupon thresholds are checked against the price after the live deal.",
        "Discounts apply in order: live deal, shop coupon, platform coupon; a percentage coupon "
        "is taken off the running price and capped at its maximum.",
    ],
    custom_returns="engraved name necklaces are made to order and cannot be returned unless faulty",
    safe_words={
        "best": "popular",
        "no.1": "popular",
        "number one": "popular",
        "guaranteed": "designed",
        "guarantee": "aim",
        "miracle": "everyday",
        "unbeatable": "great",
    },
)


def example_pack(seed: int = 2026) -> ShopPack:
    """The example shop (the same pack for the same seed)."""
    products, skus, promotions = _products(random.Random(seed))
    return ShopPack(
        manifest=ShopManifest(
            name="Tea & Home live room",
            version="1",
            currency="CNY",
            timezone="+08:00",
            seed=None,
            season_start=SEASON[0],
            season_end=SEASON[1],
        ),
        policy=POLICY,
        products=tuple(products),
        skus=tuple(skus),
        promotions=tuple(promotions),
        coupons=tuple(COUPONS),
        regions=tuple(RegionClass(region_class=k, regions=list(v)) for k, v in REGIONS.items()),
        shipping=tuple(_shipping()),
        returns=tuple(RETURNS),
        rules=tuple(RULES),
    )


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else OUT
    write_pack(example_pack(), target)
    print(f"wrote {target}")
