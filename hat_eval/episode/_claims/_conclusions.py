"""Conclusions an answer draws from its facts, checked against them.

A comparison of two measured values whose conclusion turns them round ("Zentek 1.1 kg, Nimbus
1.6 kg ... so the Nimbus is the lighter one"); a return condition waived in the next breath.
"""

from __future__ import annotations

import re

from hat_eval.world import Case

from ._answer import _Answer
from ._subjects import OURS, fact_subject, products_in
from ._support import product_support
from ._text import in_parentheses, prepare
from ._verdict import Verdict

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


def _conclusions(a: _Answer, case: Case) -> list[Verdict]:
    """Contradictions between stated facts and what the answer concludes from them.

    A comparison of two measured values ("Zentek 1.1 kg, Nimbus 1.6 kg") whose conclusion turns
    them round ("so the Nimbus is the lighter one") is *undecided*: on fresh answers the product
    a conclusion is about was misread far more often than not (all 7 answers it alone failed in
    rounds twenty-one to thirty-nine, each set scored once, were passed by annotators). A return
    condition ("if unopened") waived in the next breath ("even if you've opened it") fails.
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
                    why = "which product a conclusion is about is read too loosely to fail it"
                    out.append(
                        Verdict(None, f"concludes {m.group(0)!r} of the other product; {why}")
                    )
                    break
    out += _cheaper_now(a, case)
    for fact in case.facts:
        word = prepare(str(fact.value))
        if word.startswith("un") and "returns" in fact.source:
            for m in _PERMISSIVE.finditer(a.text):
                if m.group(1) == word[2:]:
                    out.append(Verdict(0.0, f"{fact.value}: then says {m.group(0)!r} is fine"))
    return out


_CHEAPER = re.compile(
    r"\b(?:cheaper|costs? less|less expensive|lower[- ]priced|more affordable)\b|"
    r"\blower price(?=\s?\?)|"  # "Lower price? Red Lantern."
    r"更便宜|便宜一些|便宜点|价格更低|价格低一些|更低价|花费少|花得少|花费更少|更省钱"
)
_PER_UNIT = re.compile(
    r"\bper (?:gram|g|ml|bag|pod|piece|unit|serving|cup|sheet|wipe|litre|kg|100)\b|"
    r"每(?:克|包|片|袋|杯|毫升|份|次|张|抽)|单价|均价|折合|算下来"
)
_LIST_SAID = re.compile(r"\blist(?:ed)? prices?\b|\boriginal price\b|原价|标价|吊牌价")


def _cheaper_now(a: _Answer, case: Case) -> list[Verdict]:
    """One of two products said to cost less when, at the session's time, it costs more.

    "Want the lower price per box, pick Red Lantern" (¥139.90) while a live deal makes the other
    ¥112.42: every price of the one named is above every current price of the other. A price
    per gram or bag, a list price said as one, and a clause naming both are not read; a question
    is read with the short answer after it ("Lower price? Red Lantern").
    """
    ids = list(dict.fromkeys(case.product_ids))
    if a.kb is None or len(ids) != 2 or not case.session.now or not _CHEAPER.search(a.text):
        return []  # most answers: no price conclusion, and no prices to gather
    now = {p: product_support(a.kb, p).at(case.session.now).current_prices for p in ids}
    if not all(now.values()):
        return []
    for m in _CHEAPER.finditer(a.text):
        i = a.clause_at(m.start())
        if i is None or a.negated(m.start()):
            continue
        clause = a.clauses[i]
        text = a.text[clause.start : clause.end + 1]
        asked = text.rstrip().endswith(("?", "？"))
        if asked and i + 1 < len(a.clauses):  # "Lower price? Red Lantern.": answered after it
            clause = a.clauses[i + 1]
            text = a.text[clause.start : clause.end + 1]
            asked = len(a.said(clause).split()) > 4  # a clause of its own, not a short answer
        per_unit = any(_PER_UNIT.search(t) for t in (text, a.clause(m.start())))
        if asked or per_unit or _LIST_SAID.search(text):
            continue
        named = {p for about in products_in(a.kb, a.text, clause) for p in about if p in ids}
        if len(named) != 1:
            continue
        (pid,) = named
        (other,) = [p for p in ids if p != pid]
        if min(now[pid]) > max(now[other]):
            said = m.group(0)
            why = f"now it costs from ¥{min(now[pid]):.2f}, the other ¥{min(now[other]):.2f}"
            return [Verdict(0.0, f"says {said!r} of the one that costs more; {why}")]
    return []


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
