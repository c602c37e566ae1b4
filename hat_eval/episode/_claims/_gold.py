"""The verdict of an answer on a case's gold: each fact, the conclusions drawn, the claims beyond.

Every gold fact is checked by :mod:`._facts` (value, subject, polarity, commitment); an answer
that then concludes the opposite of its facts, says a stock or fee they contradict, or claims
what the world does not support (:mod:`._extra`) fails. The conclusions are read in
:mod:`._conclusions`, the claims about options and terms in :mod:`._options`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from hat_eval.world import Case, Fact, KnowledgeBase, numbers_in

from ._answer import _Answer, read_answer
from ._conclusions import _COMPARATIVE, _ZH_COMPARATIVE, _conclusions
from ._declines import CallRecordLike, data_state
from ._extra import unsupported_claims
from ._fact_text import REJECTED_CODE
from ._facts import _fact_verdict
from ._language import addresses_evaluator, declines, hedged_at
from ._lexicon import any_found, words
from ._mentions import STATED_ELSEWHERE
from ._offers import free_shipping_claim
from ._options import OPTION_CHECKERS
from ._regions import other_region_values
from ._screen import wrong_screen
from ._subjects import OURS, fact_subject, only_other_variant, product_words, says_any
from ._support import product_support
from ._text import clause_of
from ._verdict import Verdict

_FEE_WORDS = re.compile(r"\bshipping\b|\bdelivery fee\b|\bpostage\b|运费|邮费|快递费")


_THE_TWO = re.compile(
    r"这?(?:两|2) ?(?:张|个)(?:券)?|二者|\bboth(?: of them)?\b|\bthe two\b|\bthese two\b"
)
"""The pair a stacking claim is said of ("两张可以叠加"): the codes its sentence named."""


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
    declined = any_found(words("cannot_confirm"), a.text)
    found = [(f, _fact_verdict(a, f, declined, records)) for f in case.facts]
    if _price_if_in_stock(a):  # "sold out? If not, what does it cost?": sold out, no price asked
        found = [
            (f, v)
            for f, v in found
            if not (f.kind == "price" and (v.missing or v.reason.endswith(STATED_ELSEWHERE)))
        ]
    verdicts = [v for f, v in found if not (v.missing and f.optional)]
    if _comparison_declined(a, records, declined):  # "没法帮您对比，建议您点开详情页"
        verdicts.append(Verdict(0.0, "declines the comparison the tools' data answered"))
    elif (one_side := _one_side_only(a, records, declined)) is not None:
        verdicts.append(one_side)  # "Jade Valley的原味和香辣味…" asked how it differs from another
    elif not verdicts and not declined:  # every fact optional and none stated: needs more
        verdicts.append(_on_topic(a))
    elif not verdicts and _all_usable(case, records):  # "我这边没法确认发郑州能不能包邮"
        verdicts.append(
            Verdict(0.0, "declines what was asked, but the tool's data came back usable")
        )
    for f in case.facts:  # "290 pairs left in White" to a viewer who asked for pink
        if f.kind not in ("stock", "price"):  # "size L, Pink are ¥169" asked M: the same price
            continue
        other = only_other_variant(kb, fact_subject(case, f, kb), a.text)
        if other is not None:
            verdicts.append(Verdict(0.0, f"{f.value}: says {other!r}, not the asked option"))
            break
    verdicts += _conclusions(a, case)
    verdicts += other_region_values(a, case) + wrong_screen(a)
    rejected = {c.lower() for f in case.facts for c in REJECTED_CODE.findall(f.source)}
    if rejected:  # "they stack" contradicts it
        for m in words("stack_claim").finditer(a.text):
            before = a.text[max(0, m.start() - 80) : m.start()]
            said = re.split(r"[,，;；。！？!?.]", before)[-1]
            named = {c for c in case.coupon_codes if c.lower() in said}
            if not named and _THE_TWO.search(
                a.text, max(0, m.start() - 8), m.end()
            ):  # "GLOW10减¥18.9，VIP8减¥13.61，两张可以叠加"
                said = re.split(r"[;；。！？!?]|\.(?!\d)", before)[-1]
                named = {c for c in case.coupon_codes if c.lower() in said}
            if named and not named & rejected:
                continue  # "LIVE20（满199减20）可以叠加": said of a coupon that applies
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
        verdicts += [v for check in OPTION_CHECKERS for v in check(a, kb)]
        verdicts += unsupported_claims(a, a.world)
    return combine_verdicts(verdicts)


_IF_IN_STOCK = re.compile(
    r"\bif (?:not|so)\b|\bif (?:it is|it's|they are|they're) (?:still )?(?:in stock|available)|"
    r"如果(?:没|还有|有货)|(?:有货|还有|没卖完|没售罄)的话"
)
"""A question that asks the price only of an option still in stock ("sold out? If not, ...")."""


def _price_if_in_stock(a: _Answer) -> bool:
    """Whether the viewer asked the price only if in stock, and the answer says it is sold out."""
    return bool(_IF_IN_STOCK.search(a.case.message.lower())) and any(
        not in_stock for _, _, in_stock in a.statuses
    )


_TASK_WORDS = re.compile(
    "|".join((_COMPARATIVE.pattern, r"\b(?:both|either|neither|whereas|while|compared?)\b"))
    + r"|更(?:轻|重|便宜|贵|大|小|长|短|好)|(?:两|2)(?:款|个)|都是|比较|对比|相比"
)
"""Words of an answer that compares (the task of a comparison whose facts are all optional)."""


_COMPARING = re.compile(r"\bcompar\w*|对比|比较|比一比")


def _lookups_back(records: Sequence[CallRecordLike]) -> bool:
    """Whether the agent looked the products up and every lookup came back (the calls known)."""
    lookups = [r for r in records if r.function == "catalog.get_product"]
    return bool(lookups) and all(r.outcome == "ok" for r in lookups)


def _comparison_declined(a: _Answer, records: Sequence[CallRecordLike], declined: bool) -> bool:
    """Whether a comparison is declined and sent to the product pages though the tools answered.

    "具体的接口和价格我这边暂时没法帮您对比，建议您点开两款的商品详情页看看": every product's
    lookup came back, and the answer states no value of each (a dodge of facts it had).
    """
    case = a.case
    if case.intent != "comparison" or not (declined or declines(a.text)):
        return False
    if not (_COMPARING.search(a.text) and words("look_elsewhere").search(a.text)):
        return False
    if not _lookups_back(records):
        return False
    return not _each_with_own_values(a, case.product_ids)


_THE_OTHER = re.compile(
    r"\bthe other(?: one| product| brand| pair| set)?\b|\bboth\b|\bthe two\b|\beither\b|"
    r"\bneither\b|另(?:外)?(?:一|1)?(?:款|个)|另外那|后者|前者|(?:两|2)(?:款|者|个)|二者|这(?:两|2)|俩"
)
"""Words for the second product of a comparison, or for the pair, where its name is not said."""


def _all_usable(case: Case, records: Sequence[CallRecordLike]) -> bool:
    """Whether the calls that hold every fact of ``case`` gave the agent their data this time."""
    return bool(case.facts) and all(data_state(case, f, records) == "usable" for f in case.facts)


_THAN = re.compile(r"\bthan\b|比")
_NAMES = ("brand", "name", "name_zh", "type_name", "type_zh")


def _name_words(kb: KnowledgeBase, pid: str) -> set[str]:
    """The words that name a product: names, brand, type and the type's head ("keyboard", 键盘)."""
    said = product_words(kb, {pid}, _NAMES)
    product = kb.product(pid)
    if product is not None:
        said |= {str(product["type_name"]).split()[-1], str(product["type_zh"])[-2:]}
    return said


def _one_side_only(a: _Answer, records: Sequence[CallRecordLike], declined: bool) -> Verdict | None:
    """A failed verdict when a comparison speaks of one of its two products only.

    "Jade Valley牛肉干的原味和香辣味主要就是口味不同" to "how does Jade Valley differ from Spice
    Route?": the answer names one product and says nothing of the other (no name, brand or
    word for it) though every lookup came back: it answers another question. None when the
    answer declines, a lookup failed, or the calls are unknown.
    """
    case, kb = a.case, a.kb
    compared = set(case.product_ids)
    if case.intent != "comparison" or kb is None or len(compared) != 2:
        return None
    if declined or declines(a.text) or not _lookups_back(records):
        return None
    named = set().union(*(p for p in a.products if p)) & compared
    if len(named) != 1 or _THE_OTHER.search(a.text) or OURS.search(a.text):
        return None
    if _COMPARATIVE.search(a.text) or _ZH_COMPARATIVE.search(a.text) or _THAN.search(a.text):
        return None  # "The Ridgeline one is lighter": a conclusion of the comparison
    (one,), (other,) = named, compared - named
    if says_any(_name_words(kb, other) - _name_words(kb, one), a.text):
        return None
    said, unsaid = (product_words(kb, {pid}, ("name",)) for pid in (one, other))
    return Verdict(0.0, f"speaks only of {min(said)}, nothing of {min(unsaid)}")


def _on_topic(a: _Answer) -> Verdict:
    """Evidence that an answer stating none of the (optional) facts answers the case at all.

    An answer that names none of the case's products (by name, brand or type, in any language)
    and neither compares nor speaks of an asked attribute is about something else: it fails
    ("game-changers in the world of gaming" for two water bottles). One that says a value of
    each product's own record of it passes (:func:`_each_with_own_values`); one that leaves the
    choice to taste and states no value fails (lexicon ``dodge``: 各有各的特色, "it depends on
    your taste"). Any other is undecided: the checks cannot tell a fair comparison in other
    words from a vague one.
    """
    case, kb = a.case, a.kb
    if kb is None:
        return Verdict(None, "states none of the case's facts")
    own = set(case.product_ids)
    named = any(about and about & own for about in a.products)
    names = product_words(kb, own, ("brand", "type_name", "type_zh", "name_zh"))
    labels = {f.source.rpartition(".")[2] for f in case.facts if "specs." in f.source}
    named = named or says_any(names | labels, a.text)
    if named and _each_with_own_values(a, case.product_ids):
        return Verdict(1.0, "states each product's own values")
    dodge = words("dodge").search(a.text) if len(case.product_ids) > 1 else None
    if dodge and not any(  # a price or deal of one product compares nothing
        n.kind not in ("plain", "price") or (n.low in a.known and n.kind != "price")
        for n in a.numbers
    ):
        return Verdict(0.0, f"leaves the choice to taste ({dodge.group(0)!r}), compares nothing")
    if named or _TASK_WORDS.search(a.text) or OURS.search(a.text):
        return Verdict(None, "states none of the case's facts; speaks of its products")
    return Verdict(0.0, "about something else: none of the case's facts or products")


@lru_cache(maxsize=512)
def own_values(kb: KnowledgeBase, product_id: str) -> frozenset[float]:
    """Every number one product's own record gives: prices, stock, days, the specs' values."""
    own = product_support(kb, product_id)
    return own.money | own.counts | own.days | frozenset(numbers_in(own.described))


def _each_with_own_values(a: _Answer, product_ids: Sequence[str]) -> bool:
    """Whether the answer states, for each of two or more products, a value of its own record.

    "Kinetiq Flow: 5 modes, IPX8, ¥179.99. Lumo Edge: 65 W, 10000mAh ¥109.99" compares the two
    with values the knowledge base gives each; unhedged and said of that product, they are
    the evidence a comparison whose facts are all optional was answered ("两款都差不多" states
    none). Any value the world does not support fails on its own (:mod:`._extra`).
    """
    if len(product_ids) < 2 or a.kb is None:
        return False
    kb, compared = a.kb, set(product_ids)
    told: set[str] = set()
    for n in a.numbers:
        i = a.clause_at(n.start)
        about = (a.products[i] or frozenset()) & compared if i is not None else set()
        if len(about) != 1 or hedged_at(a.text, n.start, n.end):
            continue  # said of both, of neither, or not committed to
        (pid,) = about
        if n.low in own_values(kb, pid) or n.high in own_values(kb, pid):
            told.add(pid)
    return told == compared


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
    return _fact_verdict(a, fact, any_found(words("cannot_confirm"), a.text), records)


def combine_verdicts(verdicts: Sequence[Verdict]) -> Verdict:
    """Failed if any failed (reasons joined), else undecided if any is, else passed."""
    failed = [v for v in verdicts if v.value == 0.0]
    if failed:
        return Verdict(0.0, "; ".join(dict.fromkeys(v.reason for v in failed)))
    undecided = [v for v in verdicts if v.value is None]
    if undecided:
        return Verdict(None, "; ".join(v.reason for v in undecided))
    return Verdict(1.0)
