"""Claims an answer makes about the case's options and terms, checked in the knowledge base.

A stock count or status said of a named option (size, colour) must be that option's; an option
offered to the viewer must not be sold out; a free-shipping threshold needs a region that has
one, and a named coupon's threshold must be its own; a size-chart row said or a size said to fit
must agree with the chart; a named coupon's expiry date must be its own; every colour said in
stock must be; the live deal of the product on screen is not the asked product's; a product said
in stock must have some. :data:`OPTION_CHECKERS` lists them, each ``(answer, kb) -> failed or
undecided verdicts``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from hat_eval._cache import by_identity
from hat_eval.world import KnowledgeBase, stock_status

from ._answer import _Answer, _near
from ._claim_words import denied_components
from ._deal_dates import coupon_dates
from ._deals import _PERCENT_OFF
from ._facts import _bound_met
from ._lexicon import any_found, words
from ._mentions import _IN_STOCK
from ._offered import sold_out_in_range, sold_out_offered
from ._quantities import _ZH_UNIT_EN, rounds_to
from ._savings import wrong_savings
from ._specs import lead_time_unsaid, wrong_dimensions, wrong_spec_measures
from ._stock import _sku_stock
from ._subjects import _size_token, fact_subject, names_field, products_in, said_together
from ._support import product_support
from ._text import between_emoji, clause_of, prepare
from ._verdict import Verdict

_STOCK_CONTEXT = re.compile(r"\bleft\b|\bin stock\b|\bremain|\bunits?\b|\bpieces?\b|剩|库存|现货")


def _option_counts(a: _Answer, kb: KnowledgeBase) -> list[Verdict]:
    """A stock count said of one named option (size and colour) must be that option's stock.

    ``S in Black still has 261 left`` when 261 is the M Black's count: the world supports the
    number, but not for the option the clause names. Only clauses naming exactly one SKU of the
    case's products by both its option and its colour are read.
    """
    out = []
    for n in a.numbers:
        if n.kind != "count" or a.negated(n.start):
            continue
        segment = a.said(clause_of(a.clauses, n.start))
        if not _STOCK_CONTEXT.search(segment):
            continue
        named = [
            s
            for pid in a.case.product_ids
            for s in kb.skus(pid)
            if s.get("colour")
            and names_field(segment, s, "option")
            and names_field(segment, s, "colour")
        ]
        stock = float(named[0]["stock"]) if len(named) == 1 else n.low
        if stock != n.low and not _bound_met(a, n, stock, 0.1):  # "under ten left" of 9
            out.append(Verdict(0.0, f"gives {a.said(n)!r} for {_whose_stock(named[0])}"))
    return out


def _whose_stock(sku: dict[str, Any]) -> str:
    """A SKU named with its stock, for a reason: ``M Black, whose stock is 12``."""
    colour = f" {sku['colour']}" if sku.get("colour") else ""
    return f"{sku['option']}{colour}, whose stock is {sku['stock']}"


def _all_in_stock(a: _Answer, kb: KnowledgeBase) -> list[Verdict]:
    """Every colour or size said to be in stock must be.

    "S is in stock in all three colours" when S in Navy has 0 left. The options a clause (or
    else its sentence) names narrow the SKUs read; a case of several products is read only
    when one product has SKUs the clause names.
    """
    if not any_found(words("all_in_stock"), a.text):
        return []  # most answers: no such claim
    for m in words("all_in_stock").finditer(a.text):
        if a.negated(m.start()):
            continue
        segment = a.said(clause_of(a.clauses, m.start()))
        every = [s for pid in a.case.product_ids for s in kb.skus(pid)]
        if not any(names_field(segment, s, "option") for s in every):
            # "S码…，三个颜色都有货": the size the sentence names
            segment = a.said(clause_of(a.sentences, m.start()))
        if len({s["option"] for s in every if names_field(segment, s, "option")}) > 1:
            continue
        products = []
        for pid in a.case.product_ids:
            skus = kb.skus(pid)
            named = [s for s in skus if names_field(segment, s, "option")]
            if named or len(a.case.product_ids) == 1:
                products.append(named or skus)
        if len(products) != 1:
            continue
        gone = [s for s in products[0] if int(s["stock"]) == 0]
        if gone:
            said = m.group(0)
            return [Verdict(0.0, f"says {said!r}; {_whose_stock(gone[0])}")]
    return []


@by_identity(8)
def _coupon_days(kb: KnowledgeBase) -> dict[str, tuple[str, str]]:
    """Each coupon code -> (starts_at, ends_at), read once per knowledge base."""
    return {str(c["code"]): (str(c["starts_at"]), str(c["ends_at"])) for c in kb.coupons()}


def _coupon_dates(a: _Answer, kb: KnowledgeBase) -> list[Verdict]:
    """A named coupon's expiry or start date said must be its own (:func:`coupon_dates`)."""
    return coupon_dates(a, _coupon_days(kb))


def _screen_deal(a: _Answer, kb: KnowledgeBase) -> list[Verdict]:
    """A live deal of the product on screen, said of the product the viewer asks about.

    "直播间8.2折活动到11月25日结束" of a ring when the 18% deal is the earbuds' on screen: the
    percentage is the world's, but not the asked product's. Read only when the on-screen product
    is not one the case is about and the answer never names it.
    """
    screen = a.case.session.product_on_screen
    if not screen or screen in a.case.product_ids:
        return []
    money_off = list(_MONEY_OFF.finditer(a.text))
    if not (money_off or _PERCENT_OFF.search(a.text)):
        return []
    if any(screen in about for about in a.named):
        return []  # the answer names the product on screen: its deal may be told apart
    now = a.case.session.now
    theirs, ours = (
        product_support(kb, screen).at(now),
        [product_support(kb, p).at(now) for p in a.case.product_ids],
    )
    said = [
        (m, float(next(g for g in m.groups() if g)), "percents")
        for m in _PERCENT_OFF.finditer(a.text)
    ]
    said += [(m, float(m.group(1) or m.group(2)), "live_money") for m in money_off]  # ¥10-off
    for m, value, kind in said:
        own = frozenset().union(*(getattr(s, kind) for s in ours))
        if kind == "live_money":  # "the full ¥10 off" of the asked product's ¥10 coupon
            own |= frozenset().union(*(s.coupon_money for s in ours))
        if a.negated(m.start()) or _near(value, own) or not _near(value, getattr(theirs, kind)):
            continue
        product = kb.product(screen)
        name = product["name"] if product else screen
        return [Verdict(0.0, f"says {m.group(0)!r}: the live deal of {name}, on screen")]
    return []


_MONEY_OFF = re.compile(r"[¥$]\s?(\d+(?:\.\d+)?)[- ]off\b|(?:立减|直降)\s?[¥$]?\s?(\d+(?:\.\d+)?)")


def _availability(a: _Answer, kb: KnowledgeBase) -> list[Verdict]:
    """A stock status said of the option a fact is about must be that option's.

    "EU 39 in sage green is ¥839.90 ... in stock and ready to ship" when that SKU has 0 left:
    a price case whose answer adds availability the knowledge base denies (a stock case's own
    status is its fact's to judge); "only a few left" of an option with ten or more.
    """
    stock_case = any(f.kind in ("stock", "count") for f in a.case.facts)
    seen = set()
    for fact in a.case.facts:
        subject = fact_subject(a.case, fact, kb)
        own = _sku_stock(kb, subject)
        if own is None or subject in seen:
            continue
        seen.add(subject)
        if stock_status(int(own)) == "in_stock":  # "only a few left" of 303: not low stock
            for m in words("low_stock").finditer(a.text):
                if not a.negated(m.start()) and not a.conflict(subject, m.start()):
                    return [Verdict(0.0, f"says {m.group(0)!r}; the KB has {own:g} left")]
        if stock_case:
            continue
        statements = [
            (start, end, in_stock)
            for start, end, in_stock in a.statuses
            if not a.negated(start) and not a.conflict(subject, start)
        ]
        if any(in_stock == (own > 0) for _, _, in_stock in statements):
            continue  # "the original is sold out, the spicy one is in stock": options told apart
        for start, end, _ in statements:
            said = a.text[start:end]
            return [Verdict(0.0, f"says {said!r} of {subject.option}; the KB has {own:g} left")]
    return []


_ELSEWHERE_ONLY = re.compile(
    r"\bonly (?:covers|applies|for|in)\b|\bdoes not (?:cover|apply)\b|仅限|只限|不包括|不适用"
)


def _threshold_where_none(a: _Answer, kb: KnowledgeBase) -> list[Verdict]:
    """A free-shipping threshold said for a region whose shipping has none.

    "Free on orders over ¥99" to Tibet, where the fee is always ¥15 (a region that ships free
    has no threshold either, and none to contradict).
    """
    m = words("free_threshold").search(a.text)
    if m is None or a.negated(m.start()):
        return []  # most answers: no threshold said, no fact to look at
    if _ELSEWHERE_ONLY.search(a.said(clause_of(a.sentences, m.start()))):
        return []  # "(free shipping over ¥99 only covers metro and mainland cities)"
    for fact in a.case.facts:
        region = re.search(r"shipping\[region_class=([^\]]+)\]\.fee$", fact.source)
        pid = fact_subject(a.case, fact, kb).product_id
        product = kb.product(pid) if region and pid else None
        if region is None or product is None or fact.value == "free shipping":
            continue
        rows = [r for r in kb.shipping(product["category"]) if r["region_class"] == region[1]]
        if rows and rows[0].get("free_over") is None:
            return [Verdict(0.0, f"says {m.group(0)!r}; {region[1]} shipping has no threshold")]
    return []


_THRESHOLD_BEFORE = re.compile(
    r"(?:\bover|\babove|\bat least|\bminimum(?: spend| order)?(?: of)?|\bneeds?(?: an? order of"
    r"| a spend of| a subtotal of| an?)?|\bspend(?:ing)?|\borders? (?:of|over|above|from)|满)"
    r"\s?(?:¥|cny|rmb)?\s?$"
)


@by_identity(8)
def _threshold_coupons(kb: KnowledgeBase) -> tuple[dict[str, float], re.Pattern[str]]:
    """The thresholds of the coupons that have one by lower-case code, and a pattern naming them."""
    needs = {str(c["code"]).lower(): float(c["threshold"]) for c in kb.coupons() if c["threshold"]}
    return needs, re.compile(rf"(?<![a-z0-9])(?:{'|'.join(map(re.escape, needs))})(?![a-z0-9])")


_NO_THRESHOLD = re.compile(
    r"\bno (?:minimum spend|min spend|minimum|threshold)\b|没有(?:使用)?门槛|无门槛|不限金额"
)


def _coupon_thresholds(a: _Answer, kb: KnowledgeBase) -> list[Verdict]:
    """The order amount a named coupon needs must be that coupon's threshold.

    "LIVE50 only kicks in on orders over ¥199" when LIVE50 needs ¥499: the world has ¥199 (another
    coupon's threshold), but not for this code; "LIVE50 没有使用门槛" when it needs ¥499. A sentence
    naming several codes is read from each to the next, any named code's threshold allowed
    ("FIT20 needs a ¥299 spend and LIVE50 needs ¥499"; "LIVE50 and FIT20 need ¥499 and ¥199").
    """
    needs, codes = _threshold_coupons(kb)
    if not a.numbers or not codes.search(a.text):
        return []  # most answers: no code named
    for sentence in a.sentences:
        if not (named := list(codes.finditer(a.text, sentence.start, sentence.end))):
            continue
        one = len({m.group(0) for m in named}) == 1
        if one and _NO_THRESHOLD.search(a.said(sentence)):  # "LIVE50 可以直接用，没有使用门槛"
            code, why = named[0][0], f"it needs ¥{needs[named[0][0]]:g}"
            return [Verdict(0.0, f"says {code.upper()} has no threshold; {why}")]
        ends = [m.start() for m in named[1:]] + [sentence.end]
        spans = [(m[0], m.end(), e) for m, e in zip(named, ends, strict=True)]
        spans = [(named[0][0], sentence.start, sentence.end)] if one else spans
        allowed = {needs[m.group(0)] for m in named}
        for code, start, end in spans:
            for n in a.numbers:
                said = start <= n.start < end and n.kind == "price" and not a.negated(n.start)
                near = any(rounds_to(n.low, v, "price") for v in allowed)
                before = a.text[max(0, n.start - 24) : n.start]
                if said and not near and _THRESHOLD_BEFORE.search(before):
                    why = f"it needs ¥{needs[code]:g}"
                    return [Verdict(0.0, f"says {code.upper()} needs {a.said(n)!r}; {why}")]
    return []


_ANY_IN_STOCK = re.compile(
    "|".join(sorted({re.escape(max(p.split(), key=len)) for p in _IN_STOCK}))
)
"""The longest word of each in-stock phrase: the statuses are read only where one is."""


def gone_said_in_stock(a: _Answer, kb: KnowledgeBase) -> list[Verdict]:
    """A product said to be in stock must have some stock.

    "The Gildmore Muse bracelet ... it's in stock right now" when every option of it has 0 left
    (read in a clause about one product that names none of its options).
    """
    if not _ANY_IN_STOCK.search(a.text):
        return []
    for start, end, in_stock in a.statuses:
        if not in_stock or a.negated(start):
            continue
        i = a.clause_at(start)
        about = None if i is None else a.products[i]
        if i is None or not about or len(about) != 1:
            continue
        (pid,) = about
        skus = kb.skus(pid)
        clause = a.said(a.clauses[i])
        if not skus or any(names_field(clause, s, k) for s in skus for k in ("option", "colour")):
            continue
        if all(int(s["stock"]) == 0 for s in skus):
            product = kb.product(pid)
            name = product["name"] if product else pid
            return [Verdict(0.0, f"says {a.text[start:end]!r}; every option of {name} is sold out")]
    return []


_BOTH_LISTED = re.compile(r"\bboth\b|两(?:款|个|种)?都|都有货|都还有")
"""Options listed under one status ("both black and beige are in stock", 黑色和米色都有货)."""
_PLAIN_STATUS = re.compile(r"stock|sold|available|有货|没货|售罄|卖完|缺货|现货|库存")
"""A status phrase that can only be one ("还有" may be "there is also")."""


_SOFT_END = re.compile(r"(?<=[\u4e00-\u9fff])[～~]")
"""A sentence ended with a tilde (可以考虑哦～ XL码棕色到手价…): 哦～ closes it, as 。 would."""


def _own_part(sentence: str, at: int) -> str:
    """The part of ``sentence`` between the tildes that end its parts, around offset ``at``."""
    ends = [m.end() for m in _SOFT_END.finditer(sentence)]
    start = max((e for e in ends if e <= at), default=0)
    end = min((e for e in ends if e > at), default=len(sentence))
    return sentence[start:end]


def listed_statuses(a: _Answer, kb: KnowledgeBase) -> list[Verdict]:
    """A stock status said of one option in named colours must hold for each colour named.

    "S is in stock in White, Brown and Grey" when S White and S Grey have 0 left; of a product
    without colours, "the 200 g bag is still in stock" when the 200 g has 0 left. Only a
    sentence with one status phrase (and no count) that names exactly one option of a product
    in scope (or exactly one colour, with options; or colours of a product with one option) is
    read; the SKUs it names are that option in each colour named (or that colour in each option
    named).
    """
    statements = [s for s in a.statuses if not a.negated(s[0])]
    for start, end, in_stock in statements:
        sentence = between_emoji(a.text, clause_of(a.sentences, start), start)
        if sum(sentence.start <= s[0] < sentence.end for s in statements) != 1 or any(
            n.kind == "count" and sentence.start <= n.start < sentence.end for n in a.numbers
        ):  # "S in black is sold out, and only 6 are left in sage green": two statuses
            continue
        said = _own_part(a.text[sentence.start : sentence.end], start - sentence.start)
        screen = a.case.session.product_on_screen  # a chit-chat answer speaks of the one on screen
        names = products_in(kb, a.text, sentence)
        for pid in a.case.product_ids or ((screen,) if screen else ()):
            if names and not any(pid in ids for ids in names):
                continue  # "Veloura：30ml 199元、50ml 299元，都有货": another product's options
            every = kb.skus(pid)
            if every and not any(s.get("colour") for s in every):  # "the 200 g bag is in stock"
                if not _PLAIN_STATUS.search(a.text, start, end):  # 长度17cm，还有3cm延长链
                    continue
                named = [s for s in every if names_field(said, s, "option")]
                wrong = [s for s in named if (float(s["stock"]) > 0) != in_stock]
                listed = len({s["option"] for s in named}) == 1 or _BOTH_LISTED.search(said)
                if listed and wrong:  # "both black and beige are in stock" of a sold-out black
                    return [Verdict(0.0, f"says {a.text[start:end]!r} of {_whose_stock(wrong[0])}")]
                continue
            skus = [s for s in every if s.get("colour")]
            options = {s["option"] for s in skus if names_field(said, s, "option")}
            if not options and len({s["option"] for s in skus}) == 1:
                options = {s["option"] for s in skus}  # one option only: colours name the SKUs
            colours = {s["colour"] for s in skus if names_field(said, s, "colour")}
            if not options or not colours or min(len(options), len(colours)) != 1:
                continue
            named = [s for s in skus if s["option"] in options and s["colour"] in colours]
            paired = [s for s in named if said_together(said, s)]  # "M码鼠尾草绿和L码藏青都有货"
            named = paired if len(options) > 1 and paired else named
            wrong = [s for s in named if (float(s["stock"]) > 0) != in_stock]
            if wrong:
                return [Verdict(0.0, f"says {a.text[start:end]!r} of {_whose_stock(wrong[0])}")]
    return []


_CHART_RANGE = re.compile(r"(\d+(?:\.\d+)?)\s?-\s?(\d+(?:\.\d+)?)\s?(cm|kg)")
_RANGE_UNIT = re.compile(r"\s?(cm|kg|厘米|公斤)")


def _size_charts(a: _Answer, kb: KnowledgeBase) -> list[dict[str, str]]:
    """The size charts (size -> its row) of the case's products that have one."""
    charts = [(kb.product(p) or {}).get("specs", {}).get("size chart") for p in a.case.product_ids]
    return [c for c in charts if isinstance(c, dict)]


def _chart_ranges(a: _Answer, kb: KnowledgeBase) -> list[Verdict]:
    """A height or weight range said of one size must be that size's row of the size chart.

    "Our chart has M for 160-170 cm" when the chart gives M as 165-172 cm. Only a sentence that
    names exactly one size of a product in scope with a size chart is read.
    """
    for chart in _size_charts(a, kb):
        for n in a.numbers:
            unit = _RANGE_UNIT.match(a.text, n.end)
            if n.low == n.high or unit is None or a.negated(n.start):
                continue
            said = a.said(clause_of(a.sentences, n.start))
            sizes = [size for size in chart if _size_token(prepare(size), said)]
            if len(sizes) != 1:
                continue
            rows = {
                (float(lo), float(hi), u) for lo, hi, u in _CHART_RANGE.findall(chart[sizes[0]])
            }
            said_unit = _ZH_UNIT_EN.get(unit.group(1), unit.group(1))
            if rows and (n.low, n.high, said_unit) not in rows:
                shown = a.text[n.start : unit.end()]
                return [
                    Verdict(0.0, f"gives {shown!r} for {sizes[0]}; the chart: {chart[sizes[0]]}")
                ]
    return []


_FITS = re.compile(
    r"\b(?:would|will|could|can|should|also|too)\b[^.!?,;]{0,12}?\b(?:work|fit|suit|do)\b|"
    r"\b(?:fits|suits|works for)\b|\b(?:works|fits|suits) (?:too|as well)\b|"
    r"\bget away with\b|\b(?:could|might|can) (?:also |even )?(?:go|size) (?:for|with|down|up)\b|"
    r"\b(?:also|too) covers? you\b|"
    r"也能穿|也可以穿|也能选|也可以选|也合适|能穿|可以穿"
)
_BY_CHART = re.compile(r"\b(?:on|by|per|according to) the (?:size )?chart\b|按尺码表|尺码表上")
"""A fit said of the chart ("Size S also covers you on the chart"): a fact, no style choice."""
_MEASURE = re.compile(r"(\d+(?:\.\d+)?)\s?(cm|kg|厘米|公斤)")
_GLOSS = re.compile(r"[(（][^)）]*[)）]")
_PART = re.compile(r"[,，;；]")
_DENIED = re.compile(r"\b(?:not|no|never)\b|不|没")


def _fitting_sizes(a: _Answer, kb: KnowledgeBase) -> list[Verdict]:
    """A size said to fit a viewer its chart row does not hold: undecided.

    "L would also work for you" to a viewer of 181 cm and 78 kg, when the chart gives L as
    172-180 cm and 65-75 kg, is false if it claims a fit and fine as a style choice ("XL would
    work too if you like a roomier feel"): the checks cannot tell which, the judge decides. Only
    a clause that names exactly one size and says it fits is read.
    """
    viewer = {_ZH_UNIT_EN.get(u, u): float(v) for v, u in _MEASURE.findall(prepare(a.case.message))}
    if not viewer or _FITS.search(a.text) is None:
        return []
    for chart in _size_charts(a, kb):
        sentences = (a.said(s) for s in a.sentences)
        for said in (p for s in sentences for p in _PART.split(_GLOSS.sub(" ", s))):
            fits = _FITS.search(said)
            if fits is None or _DENIED.search(said, 0, fits.end()):  # "L would not fit you"
                continue
            sizes = [size for size in chart if _size_token(prepare(size), said)]
            if len(sizes) != 1:
                continue
            for lo, hi, unit in _CHART_RANGE.findall(chart[sizes[0]]):
                if unit in viewer and not float(lo) <= viewer[unit] <= float(hi):
                    why = f"the viewer is off its chart row ({chart[sizes[0]]})"
                    if _BY_CHART.search(said):
                        return [Verdict(0.0, f"says {sizes[0]} fits by the chart: {why}")]
                    return [Verdict(None, f"says {sizes[0]} fits: {why}; a style choice or not")]
    return []


OPTION_CHECKERS: tuple[Callable[[_Answer, KnowledgeBase], list[Verdict]], ...] = (
    _threshold_where_none,
    sold_out_offered,
    sold_out_in_range,
    _coupon_thresholds,
    _coupon_dates,
    _option_counts,
    _availability,
    _all_in_stock,
    _screen_deal,
    gone_said_in_stock,
    listed_statuses,
    _chart_ranges,
    _fitting_sizes,
    denied_components,
    wrong_spec_measures,
    wrong_dimensions,
    wrong_savings,
    lead_time_unsaid,
)
"""The claims beyond the facts read against the knowledge base, in the order reasons name them."""
