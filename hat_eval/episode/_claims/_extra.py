"""Every checkable claim of an answer, beyond the gold facts, verified against the world.

An answer that states the asked price right and adds a free gift, a coupon code, an extra
percentage off, free or same-day shipping, a certification or "fireproof" has invented a claim
a viewer will act on. :func:`unsupported_claims` finds the claims of each kind the world can
verify and fails those the knowledge base and the live session do not support (:mod:`._support`):

- **money**: every amount in yuan is a price, discount, threshold, cap, fee or subtotal the
  world gives for a product in scope (or a difference between two of them);
- **discount**: a percentage off is a promotion's, a coupon's or the one the final price gives;
- **coupon code**: a code the knowledge base has;
- **gift or bundle**: the world has no gift promotions, so a free gift is always invented;
- **shipping**: free shipping where the product ships free, same-day or next-day delivery where
  the fastest delivery is that fast; delivery and returns day counts the policy gives;
- **returns**: free returns only where the seller pays return shipping; no refund promises
  (a full refund, a refund within a day), which no policy gives;
- **stock count**: a number left that is a SKU's or the product's stock;
- **spec, material, certification, origin** (:data:`CLAIM_WORDS`): a claim word ("organic",
  "fireproof", "BPA-free", 防水, 进口, "made in Italy") the product's own text supports; a
  material the catalogue uses elsewhere ("stainless steel" for a Tritan bottle) that none of
  the products in scope is made of.

A negated claim ("no free gift", "not waterproof") claims nothing. Each unsupported claim is a
failed :class:`Verdict` whose reason names it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ._language import denied_after, negated_at
from ._quantities import Number
from ._support import Support
from ._text import Span, clause_of, find_phrase
from ._verdict import Verdict


@dataclass(frozen=True)
class ClaimWord:
    """A kind of product claim: how an answer says it, and how the product's text must."""

    name: str
    said: re.Pattern[str]
    supported_by: re.Pattern[str]


def _w(name: str, said: str, supported_by: str) -> ClaimWord:
    return ClaimWord(name, re.compile(said), re.compile(supported_by))


CLAIM_WORDS: tuple[ClaimWord, ...] = (
    _w("organic", r"\borganic\b|有机", r"organic|有机"),
    _w(
        "natural",
        r"\b(?:100% natural|all natural|pure natural|natural ingredients)\b|纯天然|全天然",
        r"natural|天然",
    ),
    _w(
        "fireproof",
        r"\bfire ?(?:proof|resistant)\b|\bflame (?:retardant|resistant)\b|防火|阻燃",
        r"fire|flame|防火|阻燃",
    ),
    _w("waterproof", r"\bwater ?proof\b|防水", r"water ?proof|water resist|ipx?\d|防水"),
    _w("hypoallergenic", r"\bhypoallergenic\b|低敏|抗过敏|不过敏", r"hypoallergenic|低敏"),
    _w(
        "clinically tested",
        r"\b(?:clinically|dermatologically|dermatologist) (?:proven|tested|approved|recommended)"
        r"|\bdermatologist (?:tested|approved|recommended)\b|临床|皮肤科医生推荐",
        r"clinical|dermatolog|临床",
    ),
    _w(
        "certified",
        r"\bcertified\b|\bcertificat(?:e|ion)\b|\b(?:fda|sgs|gots|iso ?\d*) (?:approved|listed)\b|"
        r"\boeko ?tex\b|认证|证书",
        r"certif|证书|认证",
    ),
    _w("BPA-free", r"\bbpa ?free\b|不含 ?bpa|无 ?bpa", r"bpa"),
    _w("vegan", r"\bvegan\b|纯素", r"vegan|纯素"),
    _w("cruelty-free", r"\bcruelty ?free\b", r"cruelty"),
    _w("gluten-free", r"\bgluten ?free\b|无麸质", r"gluten|麸质"),
    _w("sugar-free", r"\bsugar ?free\b|\bno (?:added )?sugar\b|无糖|0糖|零糖", r"sugar|糖"),
    _w(
        "no additives",
        r"\bno (?:additives|preservatives)\b|无添加(?!糖)|零添加(?!糖)",
        r"additive|preserv|添加",
    ),
    _w("handmade", r"\bhand ?made\b|手工", r"hand ?made|手工"),
    _w("imported", r"\bimported\b|进口", r"import|进口"),
    _w("genuine leather", r"\b(?:genuine|real|full grain) leather\b|真皮", r"leather|真皮"),
    _w("silk", r"\b(?:pure|real|mulberry) silk\b|真丝|桑蚕丝", r"silk|丝"),
    _w("cashmere", r"\bcashmere\b|羊绒", r"cashmere|羊绒"),
    _w("solid gold", r"\b(?:solid|pure) gold\b|\b(?:18|24) ?k gold\b|足金|纯金", r"gold|金"),
    _w(
        "shrink-proof",
        r"\bpre ?shrunk\b|\b(?:will not|never|does not|doesn't|won't) shrink\b|不缩水|防缩",
        r"shrunk|shrink|缩水",
    ),
    _w(
        "fade-proof",
        r"\b(?:will not|never|does not|won't) fade\b|\bfade ?proof\b|不掉色|不褪色",
        r"fade|tarnish|褪色|掉色|变色|氧化",
    ),
    _w("anti-pilling", r"\banti ?pilling\b|\b(?:will not|never|won't) pill\b|不起球", r"pill|起球"),
    _w(
        "size advice",
        r"\bruns (?:(?:a bit|half a size|a size|slightly) )?(?:small|large|big)\b|\btrue to size\b|"
        r"\bsize (?:up|down)\b|偏大|偏小|正码",
        r"runs (?:[a-z ]{0,16} )?(?:small|large|big)|true to size|size (?:up|down)|偏大|偏小|正码",
    ),
    _w(
        "backlighting",
        r"\brgb\b|\bback ?lit\b|\bback ?light(?:ing|s)?\b|背光|rgb灯",
        r"rgb|back ?li|背光",
    ),
    _w("wireless charging", r"\bwireless(?:ly)? charg\w*|无线充", r"wireless charg|无线充"),
    _w(
        "fast charging",
        r"\bfast[- ]charg\w*|\bquick[- ]charg\w*|快充",
        r"fast charg|quick charg|快充",
    ),
    _w(
        "lifetime warranty",
        r"\blifetime (?:warranty|guarantee)\b|终身保修|终身质保",
        r"lifetime|终身",
    ),
)
"""The claim words checked against the product's own text (one owner; tests iterate it)."""

_GIFT = re.compile(
    r"(?<![\w-])(?<!feel )free (?!shipping|delivery|returns?|exchanges?|of\b|from\b|to\b|since\b|"
    r"over\b|up\b|for\b|trial\b|size\b|time\b|\d)[a-z]+ (?:belt|bag|case|pouch|dispenser|bottle|"
    r"sample|samples|gift|cloth|box|mug|towel|keychain|strap|cover|brush|toy|set)\b|"
    r"\bwith every (?:pair|order|purchase)\b|\bgets? you (?:a|an) free\b|"
    r"\bfree (?:gift|sample|samples|bonus|pouch|bag|case|travel size|mystery gift|gift box)\b|"
    r"\b(?:mystery )?gifts? (?:with|included|for)\b|\bcomes with a free\b|\bfreebie\b|"
    r"\bbuy \d+ get (?:\d+|one)\b|\bbogo\b|\bthrow(?:ing)? in (?:a|an|one) \S+|"
    r"赠品|买\d+送\d+|买一送一|加赠|附赠|(?:免费|还|再|额外)送(?!运费险)|"
    r"送(?:\d+个|一个|一块|一份|小样|礼)"
)
_REFUND_PROMISE = re.compile(
    r"\b(?:full refund|refund(?:ed)? (?:within|in) \d+|guaranteed? (?:a |to be |you a )?refund\w*|"
    r"refund (?:is )?guaranteed)\b|全额退款|保证退款|\d+ ?(?:小时|hours?)内?退款"
)
FREE_SHIPPING = re.compile(
    r"\bfree (?:shipping|delivery)\b|\bships? (?:to [a-z]+(?: [a-z]+)? )?(?:for )?free\b|"
    r"\b(?:shipping|delivery)(?: to [a-z]+(?: [a-z]+)?)? is (?:also |totally |completely )?free\b|"
    r"\bno (?:shipping|delivery) (?:fee|cost|charge)s?\b|包邮|免运费|免邮|运费全免|不收运费"
)
"""A claim that shipping costs nothing ("shipping to Inner Mongolia is free", 包邮)."""
_SAME_DAY = re.compile(
    r"\bsame ?day\b|\b(?:ships?|arrives?|delivered) today\b|"
    r"当天(?:发货|到(?!手)|达|送达)|当日达|今天(?:就)?(?:发货|到(?!手)|送达)"
)
_NEXT_DAY = re.compile(
    r"\bnext ?day (?:shipping|delivery)\b|\b(?:arrives?|delivered|get it) tomorrow\b|"
    r"\bovernight (?:shipping|delivery)\b|次日达|明天(?:就)?(?:到|送达)|隔日达"
)
_FREE_RETURNS = re.compile(
    r"\bfree returns?\b|\bfree return shipping\b|\breturn shipping is (?:free|on us)\b|"
    r"退货(?:包|免)运费|运费险|免费退"
)
_PERCENT_OFF = re.compile(
    r"(?<![\d.])(\d+(?:\.\d+)?) ?% ?(?:off|discount)|"
    r"\b(?:extra|another|additional) (\d+(?:\.\d+)?) ?%|"
    r"(?:额外|再|多)(?:减|优惠|打)?(\d+(?:\.\d+)?) ?%"
)
_CODE = re.compile(r"(?<![A-Za-z0-9-])([A-Z]{2,}[0-9]{1,4})(?![A-Za-z0-9-])")
_SHIPPING_WORDS = re.compile(
    r"\b(?:ship|shipping|ships|shipped|deliver|delivery|delivered|arrive|arrives|arrival|"
    r"return|returns|refund|exchange|warranty)\b|发货|到货|送达|配送|快递|物流|退|换|保修"
)
_ANY_OFFER = re.compile(
    "|".join(
        f"(?:{p.pattern})"
        for p in (_GIFT, _REFUND_PROMISE, FREE_SHIPPING, _SAME_DAY, _NEXT_DAY, _FREE_RETURNS)
    )
)
_TIMING = re.compile(
    r"\b(?:starts?|begins?|ends?|ended|expired|until|from|tomorrow|yesterday|next|last|"
    r"not (?:yet|live|active|running))\b|开始|结束|明天|昨天|还没|已经过|过期|下周|之后"
)
"""A deal said with its timing ("the 12% off deal only starts tomorrow") is a real deal."""
_STOCK_WORDS = re.compile(r"\b(?:left|in stock|remaining|available|stock)\b|剩|库存|现货|还有|有货")
_MATCH = 0.005


def _near(value: float, values: frozenset[float]) -> bool:
    return any(abs(value - v) < _MATCH for v in values)


@dataclass(frozen=True)
class Claims:
    """An answer as claims are read from it: prepared text, original text, numbers, scopes."""

    text: str
    original: str
    numbers: Sequence[Number]
    scopes: Sequence[Span]

    def negated(self, pos: int) -> bool:
        """Whether a negation governs the words at ``pos``."""
        return negated_at(self.text, clause_of(self.scopes, pos), pos, window=4)

    def clause(self, pos: int) -> str:
        """The text of the clause (scope) holding ``pos``."""
        span = clause_of(self.scopes, pos)
        return self.text[span.start : span.end]


def _first(pattern: re.Pattern[str], claims: Claims) -> re.Match[str] | None:
    for m in pattern.finditer(claims.text):
        if not claims.negated(m.start()) and not denied_after(claims.text, m.end()):
            return m
    return None


def _share_of_price(value: float, world: Support) -> bool:
    """Whether ``value`` is a percentage of a price the world has: a discount worked out.

    "10% would only be ¥7.90 off" of a ¥79 box with a 10% coupon: the answer shows its work.
    """
    percents = world.percents | world.any_deal_percents
    return any(abs(value - round(p * q / 100, 2)) < _MATCH for p in world.prices for q in percents)


def _money(claims: Claims, world: Support) -> list[Verdict]:
    out = []
    for n in claims.numbers:
        if n.kind != "price" or claims.negated(n.start):
            continue
        for value in {n.low, n.high}:
            if (
                not _near(value, world.money)
                and not _share_of_price(value, world)
                and not (
                    _near(value, world.any_deal_money) and _TIMING.search(claims.clause(n.start))
                )
            ):
                shown = claims.text[n.start : n.end]
                out.append(Verdict(0.0, f"unsupported amount {shown!r}: no such price or deal"))
                break
    return out


def _percents(claims: Claims, world: Support) -> list[Verdict]:
    out = []
    for m in _PERCENT_OFF.finditer(claims.text):
        value = float(next(g for g in m.groups() if g))
        timed = _TIMING.search(claims.clause(m.start())) and _near(value, world.any_deal_percents)
        if not claims.negated(m.start()) and not _near(value, world.percents) and not timed:
            out.append(Verdict(0.0, f"unsupported discount {m.group(0)!r}"))
    return out


def _codes(claims: Claims, world: Support) -> list[Verdict]:
    out = []
    for m in _CODE.finditer(claims.original):
        code = m.group(1)
        if code.upper() in world.codes or code.lower() in world.text:
            continue
        if re.fullmatch(r"PR?\d{4}", code):
            continue  # a promotion's or product's id in the world's records, not a coupon code
        out.append(Verdict(0.0, f"unsupported coupon code {code!r}: the shop has no such code"))
    return out


def _shipping(claims: Claims, world: Support) -> list[Verdict]:
    out: list[Verdict] = []
    if _ANY_OFFER.search(claims.text):
        out += _offers(claims, world)
    for n in claims.numbers:
        if n.kind != "days" or claims.negated(n.start):
            continue
        if not _SHIPPING_WORDS.search(claims.clause(n.start)):
            continue
        if not all(_near(v, world.days) for v in {n.low, n.high}):
            shown = claims.text[n.start : n.end]
            out.append(Verdict(0.0, f"unsupported time {shown!r}: the policy gives no such days"))
    return out


def _offers(claims: Claims, world: Support) -> list[Verdict]:
    """Gifts, refund promises, free or fast shipping, free returns."""
    out = []
    gift = _first(_GIFT, claims)
    if gift:
        out.append(Verdict(0.0, f"unsupported gift {gift.group(0)!r}: no gift promotion"))
    refund = _first(_REFUND_PROMISE, claims)
    if refund:
        out.append(Verdict(0.0, f"unsupported promise {refund.group(0)!r}: no policy gives it"))
    free = _first(FREE_SHIPPING, claims)
    if free and not world.free_shipping:
        out.append(Verdict(0.0, f"unsupported {free.group(0)!r}: shipping is not free"))
    same = _first(_SAME_DAY, claims)
    if same and (world.fastest_days is None or world.fastest_days > 0):
        out.append(Verdict(0.0, f"unsupported {same.group(0)!r}: fastest delivery is longer"))
    nxt = _first(_NEXT_DAY, claims)
    if nxt and (world.fastest_days is None or world.fastest_days > 1):
        out.append(Verdict(0.0, f"unsupported {nxt.group(0)!r}: fastest delivery is longer"))
    free_returns = _first(_FREE_RETURNS, claims)
    if free_returns and not world.free_returns:
        out.append(Verdict(0.0, f"unsupported {free_returns.group(0)!r}: the buyer pays returns"))
    return out


def _counts(claims: Claims, world: Support) -> list[Verdict]:
    out = []
    for n in claims.numbers:
        if n.kind == "count" and n.low == n.high and not claims.negated(n.start):
            if _STOCK_WORDS.search(claims.clause(n.start)) and not _near(n.low, world.counts):
                shown = claims.text[n.start : n.end]
                out.append(Verdict(0.0, f"unsupported stock count {shown!r}"))
    return out


_ANY_WORD = re.compile("|".join(f"(?:{w.said.pattern})" for w in CLAIM_WORDS) + r"|\bmade in\b")
"""Any claim word at all: one search rules out most answers before each word is looked for."""


def _words(claims: Claims, world: Support) -> list[Verdict]:
    out: list[Verdict] = []
    for term in world.rival_terms(claims.text):
        for start, _ in find_phrase(term, claims.text):
            if not claims.negated(start):
                out.append(Verdict(0.0, f"unsupported material {term!r}: not what it is made of"))
                break
    if not _ANY_WORD.search(claims.text):
        return out
    for word in CLAIM_WORDS:
        m = _first(word.said, claims)
        if m and not word.supported_by.search(world.text):
            out.append(Verdict(0.0, f"unsupported {word.name} claim {m.group(0)!r}"))
    for m in re.finditer(r"\bmade in ([a-z]+(?: [a-z]+)?)", claims.text):
        place = m.group(1)
        if not claims.negated(m.start()) and place.split()[0] not in world.text:
            out.append(Verdict(0.0, f"unsupported origin {m.group(0)!r}"))
    return out


CHECKERS: tuple[Callable[[Claims, Support], list[Verdict]], ...] = (
    _money,
    _percents,
    _codes,
    _shipping,
    _counts,
    _words,
)
"""One verifier per kind of claim, each ``(claims, support) -> failed verdicts``."""


def unsupported_claims(claims: Claims, world: Support) -> list[Verdict]:
    """A failed verdict for every claim of the answer the world does not support."""
    return [v for check in CHECKERS for v in check(claims, world)]
