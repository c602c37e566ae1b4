"""The verdict of an answer on a case's gold: each fact, the conclusions drawn, the claims beyond.

Every gold fact is checked by :mod:`._facts` (value, subject, polarity, commitment); an answer
that then concludes the opposite of its facts, says a stock or fee they contradict, or claims
what the world does not support (:mod:`._extra`) fails.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from hat_eval._cache import by_identity
from hat_eval.world import Case, Fact, KnowledgeBase, stock_status

from ._answer import _Answer, read_answer
from ._declines import CallRecordLike
from ._extra import unsupported_claims
from ._facts import _fact_verdict, _sku_stock
from ._language import addresses_evaluator
from ._lexicon import words
from ._mentions import rounds_to
from ._offers import free_shipping_claim
from ._quantities import _ZH_UNIT_EN
from ._subjects import (
    OURS,
    _size_token,
    fact_subject,
    names_field,
    product_words,
    products_in,
    says_any,
)
from ._text import clause_of, in_parentheses, prepare
from ._verdict import Verdict

_FEE_WORDS = re.compile(r"\bshipping\b|\bdelivery fee\b|\bpostage\b|运费|邮费|快递费")
_LOWER = ("lighter", "cheaper", "shorter", "smaller", "lower", "less", "fewer", "thinner")
_HIGHER = ("heavier", "pricier", "longer", "bigger", "larger", "higher", "more", "brighter")
_COMPARATIVE = re.compile(r"\b(" + "|".join(_LOWER + _HIGHER) + r")\b")
_ZH_LOWER = ("轻", "便宜", "短", "小", "低", "少", "薄")
_ZH_COMPARATIVE = re.compile(
    r"更(" + "|".join(_ZH_LOWER + ("重", "贵", "长", "大", "高", "多", "厚")) + ")"
)
"""更轻 (lighter), 更贵 (pricier): a conclusion of a comparison in Chinese."""
_ZH_PRICED = re.compile(r"(?:价格|价钱|售价|到手价)\s?$")
_PRONOUN = re.compile(
    r"\b(?:it|it's|its|this one|that one|this|that|they|which)\b|它|这款|这个|那款"
)
"""A subject that refers back to a product named before (what a clause without a name means)."""
_PERMISSIVE = re.compile(
    r"\b(?:even if|even when|fine if|ok if|okay if|no problem if|also if)\b[^.!?;]{0,24}?"
    r"\b(?:you(?: have|'ve)? )?(opened|used|worn|washed|tried)\b"
)
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
        if len(named) == 1 and float(named[0]["stock"]) != n.low:
            out.append(Verdict(0.0, f"gives {a.said(n)!r} for {_whose_stock(named[0])}"))
    return out


def _whose_stock(sku: dict[str, Any]) -> str:
    """A SKU named with its stock, for a reason: ``M Black, whose stock is 12``."""
    return f"{sku['option']} {sku['colour']}, whose stock is {sku['stock']}"


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


_OFFER = re.compile(
    r"\byou (?:can|could) (?:pick|choose|get|order|grab|go for|go with|select|buy|snag)\b"
    r"[^.!?;]{0,60}|(?:可以选|可以拍|可以下单|就能下单|直接下单)[^。！？；]{0,30}"
)


def _sold_out_offered(a: _Answer, kb: KnowledgeBase) -> list[Verdict]:
    """An option offered to the viewer ("you can pick 80 sheets x 3 or x 10") that is sold out.

    Every SKU of a product in the case that the offer names (by option, and by colour where it
    names one) has none left: the viewer cannot pick it. A bare list of the options a product
    comes in offers nothing, and an offer that says the option is sold out is no offer.
    """
    for m in _OFFER.finditer(a.text):
        span = m.group(0)
        if a.negated(m.start()) or any(not in_stock for *_, in_stock in a.statuses):
            continue
        named_in = span
        if not any(names_field(span, s, "option") for p in a.case.product_ids for s in kb.skus(p)):
            named_in = a.text  # "直接搜索名字就能下单": the one option the answer is about
            options = {
                s["option"]
                for p in a.case.product_ids
                for s in kb.skus(p)
                if names_field(a.text, s, "option")
            }
            if len(options) != 1:
                continue
        for pid in a.case.product_ids:
            skus = [s for s in kb.skus(pid) if names_field(named_in, s, "option")]
            for option in dict.fromkeys(str(s["option"]) for s in skus):
                named = [s for s in skus if s["option"] == option]
                named = [s for s in named if names_field(named_in, s, "colour")] or named
                if all(int(s["stock"]) == 0 for s in named):
                    return [Verdict(0.0, f"offers {option!r} ({span.strip()!r}); it is sold out")]
    return []


def _threshold_where_none(a: _Answer, kb: KnowledgeBase) -> list[Verdict]:
    """A free-shipping threshold said for a region whose shipping has none.

    "Free on orders over ¥99" to Tibet, where the fee is always ¥15 (a region that ships free
    has no threshold either, and none to contradict).
    """
    m = words("free_threshold").search(a.text)
    if m is None or a.negated(m.start()):
        return []  # most answers: no threshold said, no fact to look at
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
    r"| a spend of| a subtotal of)?|\bspend(?:ing)?|\borders? (?:of|over|above|from)|满)"
    r"\s?(?:¥|cny|rmb)?\s?$"
)


@by_identity(8)
def _threshold_coupons(kb: KnowledgeBase) -> tuple[dict[str, float], re.Pattern[str]]:
    """The thresholds of the coupons that have one by lower-case code, and a pattern naming them."""
    needs = {str(c["code"]).lower(): float(c["threshold"]) for c in kb.coupons() if c["threshold"]}
    return needs, re.compile(rf"(?<![a-z0-9])(?:{'|'.join(map(re.escape, needs))})(?![a-z0-9])")


def _coupon_thresholds(a: _Answer, kb: KnowledgeBase) -> list[Verdict]:
    """The order amount a named coupon needs must be that coupon's threshold.

    "LIVE50 only kicks in on orders over ¥199" when LIVE50 needs ¥499: the world has ¥199 (another
    coupon's threshold), but not for this code. Only a sentence naming exactly one code is read.
    """
    needs, codes = _threshold_coupons(kb)
    if not a.numbers or not codes.search(a.text):
        return []  # most answers: no code named
    for sentence in a.sentences:
        named = set(codes.findall(a.said(sentence)))
        if len(named) != 1:
            continue
        (code,) = named
        for n in a.numbers:
            said = sentence.start <= n.start < sentence.end and n.kind == "price"
            if said and _THRESHOLD_BEFORE.search(a.text[max(0, n.start - 24) : n.start]):
                if not (rounds_to(n.low, needs[code], "price") or a.negated(n.start)):
                    why = f"it needs ¥{needs[code]:g}"
                    return [Verdict(0.0, f"says {code.upper()} needs {a.said(n)!r}; {why}")]
    return []


def _listed_statuses(a: _Answer, kb: KnowledgeBase) -> list[Verdict]:
    """A stock status said of one option in named colours must hold for each colour named.

    "S is in stock in White, Brown and Grey" when S White and S Grey have 0 left. Only a
    sentence with one status phrase (and no count) that names exactly one option of a product
    in scope (or exactly one colour, with options; or colours of a product with one option) is
    read; the SKUs it names are that option in each colour named (or that colour in each option
    named).
    """
    statements = [s for s in a.statuses if not a.negated(s[0])]
    for start, end, in_stock in statements:
        sentence = clause_of(a.sentences, start)
        if sum(sentence.start <= s[0] < sentence.end for s in statements) != 1 or any(
            n.kind == "count" and sentence.start <= n.start < sentence.end for n in a.numbers
        ):  # "S in black is sold out, and only 6 are left in sage green": two statuses
            continue
        said = a.text[sentence.start : sentence.end]
        for pid in a.case.product_ids:
            skus = [s for s in kb.skus(pid) if s.get("colour")]
            options = {s["option"] for s in skus if names_field(said, s, "option")}
            if not options and len({s["option"] for s in skus}) == 1:
                options = {s["option"] for s in skus}  # one option only: colours name the SKUs
            colours = {s["colour"] for s in skus if names_field(said, s, "colour")}
            if not options or not colours or min(len(options), len(colours)) != 1:
                continue
            named = [s for s in skus if s["option"] in options and s["colour"] in colours]
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
    r"也能穿|也可以穿|也能选|也可以选|也合适|能穿|可以穿"
)
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
            if fits is None or _DENIED.search(said, 0, fits.start()):
                continue
            sizes = [size for size in chart if _size_token(prepare(size), said)]
            if len(sizes) != 1:
                continue
            for lo, hi, unit in _CHART_RANGE.findall(chart[sizes[0]]):
                if unit in viewer and not float(lo) <= viewer[unit] <= float(hi):
                    why = f"the viewer is off its chart row ({chart[sizes[0]]})"
                    return [Verdict(None, f"says {sizes[0]} fits: {why}; a style choice or not")]
    return []


def _conclusions(a: _Answer, case: Case) -> list[Verdict]:
    """Contradictions between stated facts and what the answer concludes from them.

    A comparison of two measured values ("Zentek 1.1 kg, Nimbus 1.6 kg") whose conclusion turns
    them round ("so the Nimbus is the lighter one"); a return condition ("if unopened") waived in
    the next breath ("even if you've opened it, that's fine").
    """
    out = []
    measured: dict[str, float] = {}
    units = set()
    for fact in case.facts:
        m = re.fullmatch(r"(\d+(?:\.\d+)?)\s?([a-z]+)", prepare(str(fact.value)))
        pid = fact_subject(case, fact, a.kb).product_id
        if m and pid:
            measured[pid] = float(m.group(1))
            units.add(m.group(2))
    if len(measured) == 2 and len(set(measured.values())) == 2:
        low = min(measured, key=measured.__getitem__)
        found = [*_COMPARATIVE.finditer(a.text), *_ZH_COMPARATIVE.finditer(a.text)]
        for m in sorted(found, key=lambda m: m.start()):
            if not all(u in _ONLY_OF.get(m.group(1), (u,)) for u in units):
                continue  # "a lighter look" of two foundations in ml: not their volume
            if _PRICED.match(a.text, m.end()) or _ZH_PRICED.search(a.text, 0, m.start()):
                continue  # "lower-priced", 价格更低 of two weights: the price, another dimension
            if in_parentheses(a.text, m.start()):
                continue  # "(gsm: grams per square metre, so higher is thicker)": a gloss
            about = None
            for i, clause in enumerate(a.clauses):
                if clause.start <= m.start() < clause.end:
                    lead = re.split(r"[:：]", a.text[clause.start : m.start()])[-1]
                    asked = a.text[m.end() : clause.end + 1].rstrip().endswith(("?", "？"))
                    if _CONDITION.match(lead) or asked:
                        break  # a wish: "if more pieces matter, Honeybee"; "...: prefer higher"
                    if "比" in a.text[clause.start : m.start()]:
                        break  # "比Ashgrove更轻": the one named is what it is compared with
                    about = a.products[i]
                    head = a.text[clause.start : m.start()]
                    if not _PRONOUN.search(head) and not (
                        a.kb and products_in(a.kb, a.text, clause)
                    ):
                        about = None  # "so about 100 gsm more": the one meant is not said
                    if OURS.search(a.text[clause.start : clause.end]):  # "so ours is lighter"
                        about = frozenset({case.session.product_on_screen})
                    typed = _typed(a, list(measured), a.text[clause.start : m.start()])
                    if typed is not None:  # "so the charger is 65 g lighter": its type noun
                        about = typed
                    other = _after_than(a, list(measured), m.end(), clause.end)
                    if len(other) == 1:  # "25 grams less than our Stridex": the other one
                        about = frozenset(p for p in measured if p not in other)
            said = {p for p in measured if about and p in about}
            if len(said) == 1 and not a.negated(m.start()):
                (pid,) = said
                if (pid == low) != (m.group(1) in _LOWER + _ZH_LOWER):
                    out.append(Verdict(0.0, f"concludes {m.group(0)!r} of the wrong product"))
                    break
    for fact in case.facts:
        word = prepare(str(fact.value))
        if word.startswith("un") and "returns" in fact.source:
            for m in _PERMISSIVE.finditer(a.text):
                if m.group(1) == word[2:]:
                    out.append(Verdict(0.0, f"{fact.value}: then says {m.group(0)!r} is fine"))
    return out


_THAN = re.compile(r"[^.!?;,]{0,12}?\bthan\b")


def _typed(a: _Answer, pids: list[str], words_before: str) -> frozenset[str] | None:
    """The one product of ``pids`` whose type noun ("charger", "power bank") the words name."""
    if a.kb is None:
        return None
    named = set()
    for pid in pids:
        kind = str((a.kb.product(pid) or {}).get("type_name", "")).lower()
        forms = {kind, kind.rsplit(" ", 1)[-1]} - {""}  # "GaN Charger" said "the charger"
        if any(re.search(rf"\b{re.escape(f)}\b", words_before) for f in forms):
            named.add(pid)
    return frozenset(named) if len(named) == 1 else None


def _after_than(a: _Answer, pids: list[str], end: int, clause_end: int) -> frozenset[str]:
    """The products of ``pids`` whose brand is named after "than" ("less than our Stridex")."""
    m = _THAN.match(a.text, end)
    if m is None or a.kb is None:
        return frozenset()
    rest = a.text[m.end() : clause_end]
    brands = {pid: str((a.kb.product(pid) or {}).get("brand", "")).lower() for pid in pids}
    return frozenset(
        pid for pid, b in brands.items() if b and re.search(rf"\b{re.escape(b)}\b", rest)
    )


_PRICED = re.compile(r"[- ]?(?:priced|price|cost|in price)\b")

_ONLY_OF: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("lighter", "heavier", "轻", "重"), ("g", "kg", "mg", "jin", "lb")),
    **dict.fromkeys(("thinner", "薄", "厚"), ("mm", "cm", "m")),
}
"""Comparatives that speak of one dimension only ("lighter" of grams); the rest ("more",
"bigger") fit any."""


_CONDITION = re.compile(
    r"\s*(?:\bif\b|\bwhen\b|\bshould\b|\bwant\b|\bprefer\b|\bneed\b|\blooking for\b|"
    r"\bfor (?:a|an|more|less|extra)\b|如果|要是|假如|若是|想要|喜欢|需要)"
)
"""A clause that opens with a condition: what the viewer may want, said of no product."""


def check_facts(
    case: Case,
    answer: str,
    kb: KnowledgeBase | None,
    records: Sequence[CallRecordLike] = (),
) -> Verdict:
    """The accuracy verdict of ``answer`` (without its skill tag) on a case with facts.

    Every required gold fact stated (an optional one, which the viewer did not ask for, may be
    left out but not misstated); every further checkable claim supported by the world
    (:mod:`._extra`); a fact the answer honestly declines is handled when its tool gave nothing
    usable (:mod:`._declines`, from the call ``records``) and missing when the data was there.
    """
    a = read_answer(case, answer, kb)
    if addresses_evaluator(a.text):
        return Verdict(0.0, "the answer addresses the evaluator")
    declined = words("cannot_confirm").search(a.text) is not None
    found = [(f, _fact_verdict(a, f, declined, records)) for f in case.facts]
    verdicts = [v for f, v in found if not (v.missing and f.optional)]
    if not verdicts and not declined:  # every fact optional and none stated: a pass needs more
        verdicts.append(_on_topic(a))
    verdicts += _conclusions(a, case)
    if any("rejected_coupons" in f.source for f in case.facts):  # "they stack" contradicts it
        for m in words("stack_claim").finditer(a.text):
            if not a.negated(m.start()):
                verdicts.append(Verdict(0.0, f"says {m.group(0)!r} but the KB rejects a coupon"))
                break
    if any(f.value == "free shipping" for f in case.facts):  # a fee stated contradicts it
        for n in a.numbers:
            if n.kind != "price" or n.low <= 0 or n.context or a.negated(n.start):
                continue
            scope = clause_of(a.scopes, n.start)
            sentence = a.text[clause_of(a.sentences, n.start).start : scope.end + 40]
            if (
                _FEE_WORDS.search(a.said(scope))
                and not words("fee_waived").search(sentence)
                and n.low not in a.world.prices  # "the pillow is ¥359.9, over the free line"
            ):
                verdicts.append(Verdict(0.0, f"free shipping: says shipping {a.said(n)!r}"))
                break
    for fact in case.facts:  # a fee to the viewer's region: "free shipping" contradicts it
        if fact.kind == "price" and re.search(r"shipping\[.*\]\.fee$", fact.source):
            free = free_shipping_claim(a)
            if free is not None:
                verdicts.append(
                    Verdict(0.0, f"says {free.group(0)!r}; the fee there is ¥{fact.value:g}")
                )
    if kb is not None:  # the claims beyond the facts, against the knowledge base
        verdicts += _threshold_where_none(a, kb)
        verdicts += _sold_out_offered(a, kb)
        verdicts += _coupon_thresholds(a, kb)
        verdicts += _option_counts(a, kb)
        verdicts += _availability(a, kb)
        verdicts += _listed_statuses(a, kb)
        verdicts += _chart_ranges(a, kb)
        verdicts += _fitting_sizes(a, kb)
        verdicts += unsupported_claims(a, a.world)
    return combine_verdicts(verdicts)


_TASK_WORDS = re.compile(
    "|".join((_COMPARATIVE.pattern, r"\b(?:both|either|neither|whereas|while|compared?)\b"))
    + r"|更(?:轻|重|便宜|贵|大|小|长|短|好)|(?:两|2)(?:款|个)|都是|比较|对比|相比"
)
"""Words of an answer that compares (the task of a comparison whose facts are all optional)."""


def _on_topic(a: _Answer) -> Verdict:
    """Evidence that an answer stating none of the (optional) facts answers the case at all.

    An answer that names none of the case's products (by name, brand or type, in any language)
    and neither compares nor speaks of an asked attribute is about something else: it fails
    ("game-changers in the world of gaming" for two water bottles). One that does is
    undecided: the checks cannot tell a fair comparison in other words from a vague one.
    """
    case, kb = a.case, a.kb
    if kb is None:
        return Verdict(None, "states none of the case's facts")
    own = set(case.product_ids)
    named = any(about and about & own for about in a.products)
    words = product_words(kb, own, ("brand", "type_name", "type_zh", "name_zh"))
    labels = {f.source.rpartition(".")[2] for f in case.facts if "specs." in f.source}
    named = named or says_any(words | labels, a.text)
    if named or _TASK_WORDS.search(a.text) or OURS.search(a.text):
        return Verdict(None, "states none of the case's facts; speaks of its products")
    return Verdict(0.0, "about something else: none of the case's facts or products")


def check_fact(
    case: Case,
    fact: Fact,
    answer: str,
    kb: KnowledgeBase | None,
    records: Sequence[CallRecordLike] = (),
) -> Verdict:
    """Whether ``answer`` states one fact of ``case`` (a fact of its gold), and nothing else.

    The verdict :func:`check_facts` gives that fact (value, subject, polarity, commitment; an
    honest decline when its tool gave nothing usable), without judging the answer's other
    claims: what a harness edit that asks for one more fact checks.
    """
    a = read_answer(case, answer, kb)
    if addresses_evaluator(a.text):
        return Verdict(0.0, "the answer addresses the evaluator")
    return _fact_verdict(a, fact, words("cannot_confirm").search(a.text) is not None, records)


def combine_verdicts(verdicts: Sequence[Verdict]) -> Verdict:
    """Failed if any failed (reasons joined), else undecided if any is, else passed."""
    failed = [v for v in verdicts if v.value == 0.0]
    if failed:
        return Verdict(0.0, "; ".join(dict.fromkeys(v.reason for v in failed)))
    undecided = [v for v in verdicts if v.value is None]
    if undecided:
        return Verdict(None, "; ".join(v.reason for v in undecided))
    return Verdict(1.0)
