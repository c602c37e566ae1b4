"""Shop-wide policy tables: coupons, shipping, returns and compliance rules.

These are fixed (not drawn from the seed): they are the rules of the shop, written the way a
merchant writes them. Times are China Standard Time (UTC+08:00); the stream season is
November 2026, around the Double 11 shopping festival.
"""

from __future__ import annotations

from dataclasses import dataclass

TZ = "+08:00"
SEASON_START = "2026-11-01T00:00:00+08:00"
SEASON_END = "2026-11-30T23:59:59+08:00"


@dataclass(frozen=True)
class CouponSpec:
    """A coupon code and its terms.

    ``issuer`` is ``platform`` (valid shop-wide, at most one per order) or ``shop`` (one
    category, at most one per order); a platform and a shop coupon stack with each other.
    ``kind`` is ``threshold`` (``value`` yuan off when the order reaches ``threshold``),
    ``fixed`` (``value`` yuan off, no threshold) or ``percent`` (``value`` % off, at most
    ``cap`` yuan). ``stacks_with_promotion`` False means it cannot be combined with a live deal.
    """

    code: str
    issuer: str
    kind: str
    value: float
    threshold: float
    cap: float | None
    category: str | None
    starts_at: str
    ends_at: str
    stacks_with_promotion: bool
    label: str


def _d(day: int, hms: str = "00:00:00", month: int = 11) -> str:
    return f"2026-{month:02d}-{day:02d}T{hms}{TZ}"


_END = "23:59:59"

COUPONS: tuple[CouponSpec, ...] = (
    CouponSpec(
        "LIVE20",
        "platform",
        "threshold",
        20,
        199,
        None,
        None,
        _d(1),
        _d(30, _END),
        True,
        "¥20 off orders over ¥199",
    ),
    CouponSpec(
        "LIVE50",
        "platform",
        "threshold",
        50,
        499,
        None,
        None,
        _d(1),
        _d(30, _END),
        True,
        "¥50 off orders over ¥499",
    ),
    CouponSpec(
        "LIVE100",
        "platform",
        "threshold",
        100,
        999,
        None,
        None,
        _d(10),
        _d(12, _END),
        True,
        "Double 11: ¥100 off orders over ¥999",
    ),
    CouponSpec(
        "NEWFAN10",
        "platform",
        "fixed",
        10,
        0,
        None,
        None,
        _d(1),
        _d(30, _END),
        False,
        "¥10 off for new followers, not with live deals",
    ),
    CouponSpec(
        "EARLY15",
        "platform",
        "threshold",
        15,
        99,
        None,
        None,
        _d(1),
        _d(7, _END),
        True,
        "Early bird: ¥15 off orders over ¥99",
    ),
    CouponSpec(
        "DOUBLE12",
        "platform",
        "threshold",
        30,
        299,
        None,
        None,
        _d(1, month=12),
        _d(12, _END, month=12),
        True,
        "Double 12: ¥30 off orders over ¥299",
    ),
    CouponSpec(
        "VIP8",
        "platform",
        "percent",
        8,
        0,
        80,
        None,
        _d(1),
        _d(30, _END),
        False,
        "Members: 8% off (up to ¥80), not with live deals",
    ),
    CouponSpec(
        "FLASH5",
        "platform",
        "percent",
        5,
        0,
        30,
        None,
        _d(15),
        _d(20, _END),
        True,
        "Flash week: 5% off (up to ¥30)",
    ),
    CouponSpec(
        "STYLE30",
        "shop",
        "threshold",
        30,
        299,
        None,
        "apparel",
        _d(1),
        _d(30, _END),
        True,
        "Apparel: ¥30 off over ¥299",
    ),
    CouponSpec(
        "BEAUTY20",
        "shop",
        "threshold",
        20,
        159,
        None,
        "beauty",
        _d(1),
        _d(30, _END),
        True,
        "Beauty: ¥20 off over ¥159",
    ),
    CouponSpec(
        "GLOW10",
        "shop",
        "percent",
        10,
        0,
        50,
        "beauty",
        _d(5),
        _d(15, _END),
        False,
        "Beauty: 10% off (up to ¥50), not with live deals",
    ),
    CouponSpec(
        "SNACK10",
        "shop",
        "threshold",
        10,
        79,
        None,
        "food",
        _d(1),
        _d(30, _END),
        True,
        "Food: ¥10 off over ¥79",
    ),
    CouponSpec(
        "TEA15",
        "shop",
        "threshold",
        15,
        129,
        None,
        "food",
        _d(1),
        _d(9, _END),
        True,
        "Food: ¥15 off over ¥129",
    ),
    CouponSpec(
        "TECH100",
        "shop",
        "threshold",
        100,
        999,
        None,
        "electronics",
        _d(1),
        _d(30, _END),
        True,
        "Electronics: ¥100 off over ¥999",
    ),
    CouponSpec(
        "TECH30",
        "shop",
        "threshold",
        30,
        299,
        None,
        "electronics",
        _d(20),
        _d(30, _END),
        True,
        "Electronics: ¥30 off over ¥299",
    ),
    CouponSpec(
        "HOME15",
        "shop",
        "threshold",
        15,
        149,
        None,
        "home",
        _d(1),
        _d(30, _END),
        True,
        "Home: ¥15 off over ¥149",
    ),
    CouponSpec(
        "NEST10",
        "shop",
        "percent",
        10,
        0,
        60,
        "home",
        _d(1),
        _d(30, _END),
        False,
        "Home: 10% off (up to ¥60), not with live deals",
    ),
    CouponSpec(
        "BABY25",
        "shop",
        "threshold",
        25,
        199,
        None,
        "baby",
        _d(1),
        _d(30, _END),
        True,
        "Baby: ¥25 off over ¥199",
    ),
    CouponSpec(
        "MOM5",
        "shop",
        "percent",
        5,
        0,
        40,
        "baby",
        _d(1),
        _d(12, _END),
        True,
        "Baby: 5% off (up to ¥40)",
    ),
    CouponSpec(
        "FIT20",
        "shop",
        "threshold",
        20,
        199,
        None,
        "sports",
        _d(1),
        _d(30, _END),
        True,
        "Sports: ¥20 off over ¥199",
    ),
    CouponSpec(
        "RUN50",
        "shop",
        "threshold",
        50,
        599,
        None,
        "sports",
        _d(8),
        _d(18, _END),
        True,
        "Sports: ¥50 off over ¥599",
    ),
    CouponSpec(
        "GOLD200",
        "shop",
        "threshold",
        200,
        2999,
        None,
        "jewellery",
        _d(1),
        _d(30, _END),
        True,
        "Jewellery: ¥200 off over ¥2999",
    ),
    CouponSpec(
        "SHINE30",
        "shop",
        "threshold",
        30,
        299,
        None,
        "jewellery",
        _d(1),
        _d(6, _END),
        True,
        "Jewellery: ¥30 off over ¥299",
    ),
)

STACKING_RULES: tuple[str, ...] = (
    "At most one live deal (promotion) applies per SKU: the one that saves the most.",
    "At most one platform coupon and at most one shop coupon per order; a platform coupon "
    "and a shop coupon stack with each other.",
    "A coupon marked 'not with live deals' is rejected when a live deal applies.",
    "A shop coupon is valid only for its own category.",
    "Coupon thresholds are checked against the price after the live deal.",
    "Discounts apply in order: live deal, shop coupon, platform coupon; a percentage coupon is "
    "taken off the running price and capped at its maximum.",
)
"""The stacking rules ``pricing.final_price`` implements, in words (returned to the agent)."""


@dataclass(frozen=True)
class ShippingSpec:
    """Delivery times and fees of one category to one region class.

    ``fee`` is charged unless the order reaches ``free_over``; ``free_over`` None means never
    free, ``fee`` 0 means always free. ``available`` False: the category does not ship there.
    """

    category: str
    region_class: str
    available: bool
    days_min: int
    days_max: int
    fee: float
    free_over: float | None


_BASE = {  # category: (fee, free_over, extra days)
    "apparel": (8.0, 99.0, 0),
    "beauty": (8.0, 99.0, 0),
    "food": (6.0, 59.0, 0),
    "electronics": (0.0, None, 0),
    "home": (10.0, 129.0, 1),
    "baby": (8.0, 99.0, 0),
    "sports": (8.0, 99.0, 0),
    "jewellery": (0.0, None, 0),
}


def _shipping() -> tuple[ShippingSpec, ...]:
    rows: list[ShippingSpec] = []
    for cat, (fee, free_over, extra) in _BASE.items():
        rows.append(ShippingSpec(cat, "metro", True, 1 + extra, 2 + extra, fee, free_over))
        rows.append(ShippingSpec(cat, "mainland", True, 2 + extra, 4 + extra, fee, free_over))
        remote_fee = 0.0 if cat in ("electronics", "jewellery") else 15.0
        rows.append(ShippingSpec(cat, "remote", True, 4 + extra, 7 + extra, remote_fee, None))
        hk = cat not in ("food", "baby")
        rows.append(
            ShippingSpec(
                cat, "hk_mo_tw", hk, 5 if hk else 0, 10 if hk else 0, 30.0 if hk else 0.0, None
            )
        )
    return tuple(rows)


SHIPPING: tuple[ShippingSpec, ...] = _shipping()


@dataclass(frozen=True)
class ReturnsSpec:
    """The returns policy of a category."""

    category: str
    window_days: int
    conditions: tuple[str, ...]
    return_shipping: str
    exchange_days: int | None = None
    warranty: str | None = None


RETURNS: tuple[ReturnsSpec, ...] = (
    ReturnsSpec(
        "apparel",
        15,
        ("unworn and unwashed", "tags attached"),
        "free return shipping insurance included",
    ),
    ReturnsSpec(
        "beauty",
        7,
        ("unopened", "seal intact"),
        "buyer pays return shipping unless the item is faulty",
    ),
    ReturnsSpec(
        "food",
        7,
        ("unopened", "within its shelf life"),
        "buyer pays return shipping unless the item is faulty",
    ),
    ReturnsSpec(
        "electronics",
        7,
        ("unused", "all accessories and original box"),
        "buyer pays return shipping unless the item is faulty",
        15,
        "1-year manufacturer warranty",
    ),
    ReturnsSpec(
        "home", 15, ("unused", "original packaging"), "free return shipping insurance included"
    ),
    ReturnsSpec(
        "baby",
        7,
        ("unopened", "seal intact"),
        "buyer pays return shipping unless the item is faulty",
    ),
    ReturnsSpec(
        "sports", 15, ("unused", "tags attached"), "free return shipping insurance included"
    ),
    ReturnsSpec(
        "jewellery", 7, ("unworn", "certificate and original box"), "free insured return shipping"
    ),
)

CUSTOM_RETURNS = "made-to-order engraved items cannot be returned or exchanged unless faulty"


@dataclass(frozen=True)
class RuleSpec:
    """A compliance rule: phrases that may not be said on a public stream about a category."""

    id: str
    kind: str
    categories: tuple[str, ...]
    """Categories the rule applies to; empty = every category."""
    patterns: tuple[str, ...]
    """Lower-case regular expressions matched against the lower-cased claim."""
    reason: str


_MED_CONDITIONS = (
    r"eczema|psoriasis|dermatitis|rosacea|acne|pimples?|scars?|hair loss|baldness|diabetes|"
    r"blood sugar|blood pressure|hypertension|cancer|tumou?rs?|insomnia|arthritis|allerg(?:y|ies)|"
    r"infections?|colic|diaper rash|nappy rash|constipation|inflammation|cold sores?|flu|colds?"
)
"""Conditions a listing may not claim to affect (shared with the case generator)."""

MED_VERBS = (
    r"cures?|cured|curing|treats?|treated|treating|treatment|heals?|healed|healing|fix(?:es)?|"
    r"clears? up|gets? rid of|prevents?|preventing|stops?|eliminates?|reverses?|relieves?|"
    r"helps? with|good for|works? for|remed(?:y|ies)"
)

RULES: tuple[RuleSpec, ...] = (
    RuleSpec(
        "ABS-SUPERLATIVE",
        "absolute",
        (),
        (
            r"\bbest\b",
            r"\bno\.? ?1\b",
            r"\bnumber one\b",
            r"\bworld[- ]class\b",
            r"\bthe (?:cheapest|greatest|finest|safest)\b",
            r"\bunbeatable\b",
            r"最好",
            r"第一",
            r"最佳",
            r"顶级",
            r"国家级",
            r"全网最",
            r"没有之一",
        ),
        "Absolute terms such as 'best', 'No.1' or 'top' are banned in advertising "
        "(PRC Advertising Law, art. 9).",
    ),
    RuleSpec(
        "ABS-GUARANTEE",
        "absolute",
        (),
        (
            r"\bguarantee[ds]?\b",
            r"100 ?% ?(?:effective|safe|guaranteed|natural|results?|"
            r"satisfaction|risk[- ]free|works?)",
            r"\b(?:risk|side[- ]effects?)[- ]free\b",
            r"\bno side[- ]effects?\b",
            r"\bmiracle\b",
            r"\bnever (?:fails|breaks|fades)\b",
            r"保证",
            r"百分百有效",
            r"100%有效",
            r"无副作用",
            r"100 ?% ?(?:non[- ]?toxic|pure|harmless)",
            r"(?:100%|百分百|绝对)安全",
        ),
        "Promises of certain results or absolute safety cannot be substantiated "
        "(PRC Advertising Law, arts. 4 and 28).",
    ),
    RuleSpec(
        "CMP-DISPARAGE",
        "comparative",
        (),
        (
            r"\bbetter than (?:any|all|every|other|the others?|the rest)\b",
            r"\b(?:other|rival|competitors?'?) (?:brands?|shops?|products?) (?:are|is) "
            r"(?:fake|bad|worse|rubbish|trash|junk|toxic)\b",
            r"\bunlike (?:other|cheap|those) brands\b",
            r"\bbeats (?:all|every|any)\b",
            r"\bcheaper than (?:any|every|all)\b",
            r"吊打",
            r"秒杀其他",
            r"比.{0,6}都好",
        ),
        "Comparisons with, or disparagement of, other brands are banned "
        "(PRC Advertising Law, art. 13).",
    ),
    RuleSpec(
        "MED-CLAIM",
        "medical",
        ("beauty", "food", "baby"),
        (
            rf"\b(?:{MED_VERBS})\b[^.!?]{{0,30}}\b(?:{_MED_CONDITIONS})\b",
            rf"\b(?:{_MED_CONDITIONS})\b[^.!?]{{0,20}}\b(?:will|would|should) (?:go away|"
            r"disappear|clear up|be gone)",
            r"\banti[- ]?inflammatory\b",
            r"\bmedical[- ]grade\b",
            r"\bantibacterial\b",
            r"\b(?:cures?|heals?)\b",
            r"治疗",
            r"治愈",
            r"药用",
            r"消炎",
        ),
        "Cosmetics, food and baby products may not claim to cure, treat or prevent a disease "
        "(PRC Advertising Law, arts. 17 and 28).",
    ),
    RuleSpec(
        "MED-PERMANENT",
        "medical",
        ("beauty",),
        (
            r"\bpermanent(?:ly)?\b",
            r"\b(?:removes?|erases?|eliminates?|gets? rid of) (?:all )?"
            r"(?:wrinkles|scars|spots|freckles|dark spots|fine lines)\b",
            r"\bwhiten(?:ing|s)?\b",
            r"\bovernight results\b",
            r"美白",
            r"祛斑",
            r"永久",
        ),
        "Permanent or whitening effects are special-use cosmetic claims that need a "
        "registration this listing does not have (Cosmetics Supervision Regulations).",
    ),
    RuleSpec(
        "HEALTH-FOOD",
        "medical",
        ("food",),
        (
            r"\bboosts? (?:your |the )?immun(?:e system|ity)\b",
            r"\blowers? (?:your )?(?:blood sugar|blood pressure|cholesterol)\b",
            r"\bdetox(?:es|ifies|ify)?\b",
            r"\bburns? fat\b",
            r"\banti[- ]?aging\b",
            r"增强免疫力",
            r"降血糖",
            r"降血压",
            r"排毒",
        ),
        "Ordinary food may not claim health functions (Food Safety Law, art. 73).",
    ),
    RuleSpec(
        "WEIGHT-LOSS",
        "medical",
        ("food", "sports", "beauty"),
        (
            r"\b(?:lose|losing|lost|drop|shed) (?:\d+ ?(?:kg|kilos?|pounds|lbs|jin)|weight|fat)\b",
            r"\bweight[- ]loss\b",
            r"\bfat[- ]burn(?:ing|er)\b",
            r"\bslimming\b",
            r"减肥",
            r"瘦身",
            r"燃脂",
            r"刮油",
            r"掉秤",
            r"(?:能|可以|帮你|让你|包你|保证)[^。！？，,]{0,4}瘦",
            r"瘦(?:了)?\s?(?:\d+|[一二两三四五六七八九十]+)\s?(?:斤|公斤|kg)",
            r"掉\s?(?:\d+|[一二两三四五六七八九十]+)\s?(?:斤|公斤|kg)",
        ),
        "Promises of weight loss are banned for food, fitness and cosmetics "
        "(PRC Advertising Law, art. 28).",
    ),
    RuleSpec(
        "INFANT-FORMULA",
        "infant",
        ("baby",),
        (
            r"\b(?:as good as|better than|replaces?|same as|substitutes? for|just like) "
            r"(?:breast ?milk|mother'?s milk)\b",
            r"\b(?:smarter|higher iq|boosts? iq)\b",
            r"\bbrain development\b",
            r"母乳",
            r"更聪明",
        ),
        "Infant formula may not be advertised as a substitute for breast milk or with "
        "development claims (PRC Advertising Law, art. 20).",
    ),
    RuleSpec(
        "INVESTMENT",
        "investment",
        ("jewellery",),
        (
            r"\b(?:investment|appreciates?|hold(?:s)? (?:its|their) value|"
            r"(?:go|goes|going) up in value|value will (?:rise|go up))\b",
            r"保值",
            r"升值",
            r"保持价值",
            r"投资",
        ),
        "Claims about future value or investment return are banned (PRC Advertising Law, art. 25).",
    ),
    RuleSpec(
        "SUPERNATURAL",
        "supernatural",
        ("jewellery",),
        (
            r"\b(?:healing (?:crystal|stone|energy|powers?)|heals?|chakras?|wards? off|"
            r"brings? (?:good )?luck|lucky charm|attracts? (?:wealth|money|love))\b",
            r"开光",
            r"招财",
            r"辟邪",
            r"转运",
        ),
        "Jewellery may not be sold with health, luck or supernatural claims "
        "(PRC Advertising Law, art. 28).",
    ),
    RuleSpec(
        "SAFETY-ABS",
        "absolute",
        ("electronics", "baby"),
        (
            r"\b(?:explosion|fire)[- ]?proof\b",
            r"\bradiation[- ]free\b",
            r"\bnever overheats?\b",
            r"\bcompletely safe\b",
            r"\b(?:totally|perfectly) safe\b",
            r"绝对安全",
            r"零辐射",
        ),
        "Absolute safety claims cannot be substantiated (PRC Advertising Law, art. 28).",
    ),
)

SAFE_WORDS = {
    "best": "popular",
    "no.1": "popular",
    "no. 1": "popular",
    "no 1": "popular",
    "number one": "popular",
    "guaranteed": "designed",
    "guarantees": "is designed to",
    "guarantee": "aim",
    "miracle": "everyday",
    "unbeatable": "great",
    "permanently": "",
    "permanent": "long-wearing",
}
"""Softer words ``compliance.check_claim`` substitutes in its suggested rephrasing."""
