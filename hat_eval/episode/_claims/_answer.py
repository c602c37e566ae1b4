"""The answer as the fact and claim checks read it.

Its prepared text, clauses and scopes, the products each clause names, its numbers, and what the
world supports for the products it speaks of.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property

from hat_eval.world import Case, KnowledgeBase

from ._case_support import case_support, support
from ._language import denied_after, negated_at
from ._lexicon import any_found, words
from ._quantities import Number, numbers
from ._subjects import (
    Subject,
    clause_products,
    names_field,
    names_variant,
    product_words,
    products_in,
    said_together,
    says_any,
    subject_sku,
    variant_conflict,
)
from ._support import Support
from ._text import _CLAUSE_BREAK, _SCOPE_BREAK, _SENTENCE_BREAK, Span, _spans, clause_of, prepare

_BOTH_AND = re.compile(
    r"(?:^|[:：;；]|\s)\s*(?:both|(?:两|2)款|(?:两|2)个)\b[^.!?。！？,，:：]{0,40}?\s(?:and|和|跟|与)\s?$"
)
"""A first clause "both the X" that the next one ("and the Y are ...") completes (after an
opening such as "no difference in material:")."""
_ASIDE = re.compile(r"\([^()]*\b(?:too|also|as well)\b[^()]*\)|（[^（）]*(?:也|同样)[^（）]*）")
"""A parenthesised aside naming other options the same holds for ("sold out (XL black too)")."""
_ZH_AND = re.compile(r"(?:和|跟|与)\s*$")
_ZH_BOTH = re.compile(r"[^，。！？,;；]{0,30}?都(?:是|有|用|采用|为)")
_BOTH = re.compile(
    r"\bboth (?:are|have|come|use|weigh|of them|products|options|list|share|contain|feature|"
    r"include|measure|need|take|carry|give|run)\b|\bthey both\b|"
    r"\b(?:they|ones|[a-z]+ [a-z]+) are both\b(?! (?:in stock|available|sold|out|still))|"
    r"\beach of them\b|"
    # "A and B each contain cashews": both named, then each (a plural verb)
    r"\beach (?:contain|have|list|use|come|weigh|include|cost)\b|"
    r"(?:两|2)(?:款|个|者)都|二者都|它们都"  # prepared text says 2款都
)


_SCREEN_SAID = re.compile(
    r"\bon (?:the )?screen\b|\b(?:we are|we re|i am) showing\b|\bright here on stream\b|"
    r"屏幕|镜头|正在讲|正在看"
)
"""Words that speak of the product on screen: its facts are in scope (see :func:`support`)."""

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

    def negated(self, pos: int, window: int = 4) -> bool:
        """Whether a negation governs the words at ``pos``."""
        return negated_at(self.text, clause_of(self.scopes, pos), pos, window)

    def clause(self, pos: int) -> str:
        """The text of the clause (scope) holding ``pos``."""
        return self.said(clause_of(self.scopes, pos))

    def said(self, at: Number | Span) -> str:
        """The answer's words at a number or span."""
        return self.text[at.start : at.end]


_WHETHER = re.compile(r"\b(?:whether|if) (?:it is |they are |it |they )?(?:really |actually )?$")


def _claims_of(pattern: re.Pattern[str], claims: Claims) -> Iterator[re.Match[str]]:
    """The matches of ``pattern`` the answer claims: neither negated, denied after nor unconfirmed.

    "安全认证我这边还没有查到": the certificate is what the host could not find, not a claim.
    """
    if not any_found(pattern, claims.text):
        return  # most answers: no match to read
    for m in pattern.finditer(claims.text):
        if claims.negated(m.start()) or denied_after(claims.text, m.end()):
            continue
        if _WHETHER.search(claims.text, max(0, m.start() - 24), m.start()):
            continue  # "doesn't say whether it's nickel-free": a question, not a claim
        after = claims.text[m.start() : clause_of(claims.scopes, m.start()).end]
        if not words("cannot_confirm").search(after):
            yield m


def _first(pattern: re.Pattern[str], claims: Claims) -> re.Match[str] | None:
    return next(_claims_of(pattern, claims), None)


_SENTENCE_END = re.compile(r"[.!?。！？\n](?!\d)")


def _sentence_of(text: str, n: Number | re.Match[str], back: int = 0) -> str:
    """The sentence holding number ``n`` (or a match), from ``back`` sentences before it.

    A ";" does not end a sentence, nor a decimal point.
    """
    start, stop = (n.start, n.end) if isinstance(n, Number) else n.span()
    starts = [0] + [m.end() for m in _SENTENCE_END.finditer(text, 0, start)]
    end = _SENTENCE_END.search(text, stop)
    return text[starts[max(0, len(starts) - 1 - back)] : end.start() if end else None]


_OTHER_OPTIONS = re.compile(
    r"\b(?:other|nearest|neighbou?ring|next|different|adjacent)(?: \w+)? (?:sizes|colou?rs|options|"
    r"lengths|flavou?rs|shades)\b|\banother (?:size|colou?r|option|flavou?r|shade)\b|"
    r"其他(?:尺码|颜色|款式|规格)|相邻的?尺码"
)
"""Options the clause says are other than the asked one ("in stock in the nearest sizes")."""


@dataclass(frozen=True)
class _Answer(Claims):
    clauses: list[Span]
    products: list[frozenset[str] | None]
    kb: KnowledgeBase | None
    case: Case

    @cached_property
    def world(self) -> Support:
        """What the world supports for the products the answer speaks of."""
        if self.kb is None:
            return Support()
        # a name of one product (not a brand, which names many) brings it into scope, in an
        # aside too ("(today's 12% off is for the Jade Valley nuts)": a brand of the one on screen)
        screen = self.case.session.product_on_screen
        named = {pid for about in self.named if len(about) == 1 for pid in about}
        if _SCREEN_SAID.search(self.text):  # "we're showing the Lumière sunscreen right now"
            named.add(screen)
        kinds = ("type_name", "type_zh")  # "(直播间的¥5立减是牙胶的)": the teether on screen
        if says_any(
            product_words(self.kb, [screen], kinds)
            - product_words(self.kb, self.case.product_ids, kinds),
            self.text,
        ):
            named.add(screen)
        live = {screen, *(d.product_id for d in self.case.session.deals)}  # the stream's
        named |= {pid for about in self.named for pid in about & live}
        return support(self.kb, self.case, sorted(named))

    @cached_property
    def named(self) -> list[frozenset[str]]:
        """The products each name in the whole answer may mean, asides included."""
        return [] if self.kb is None else products_in(self.kb, self.text, Span(0, len(self.text)))

    @cached_property
    def known(self) -> frozenset[float]:
        """Every number the case's own lookups give (and the viewer's message holds).

        A price the agent saw there (the list price, the price before a coupon, a coupon's
        threshold, a subtotal on the way to the final price) may be mentioned beside the final
        one without hedging; a number found nowhere in them is the answer's own.
        """
        if self.kb is None:
            return frozenset()
        own = case_support(self.kb, self.case)
        return own.money | own.counts

    @cached_property
    def sentences(self) -> list[Span]:
        """The answer's sentences (split once per answer)."""
        return _spans(self.text, _SENTENCE_BREAK)

    @cached_property
    def statuses(self) -> list[tuple[int, int, bool]]:
        """(start, end, in stock?) of every stock status phrase (read once per answer)."""
        from ._mentions import _stock_statements  # it reads answers: imported where needed

        return _stock_statements(self.text, self.scopes)

    def clause_at(self, pos: int) -> int | None:
        """The index of the clause holding ``pos`` (None: between clauses)."""
        return next((i for i, c in enumerate(self.clauses) if c.start <= pos < c.end), None)

    def conflict(self, subject: Subject, pos: int) -> bool:
        """Whether the words at ``pos`` are about another product, option or colour."""
        i = self.clause_at(pos)
        if i is None:
            return False
        clause = self.clauses[i]
        about = self.products[i]
        if _BOTH.search(self.text[clause.start : clause.end]):
            return False  # "both are PP plastic": said of every product of the case
        if _OTHER_OPTIONS.search(self.text[clause.start : clause.end]):
            return True  # "Grey is still in stock in the nearest sizes": not the asked one
        j = self._named_at(i)
        lead = self.text[self.clauses[j - 1].start : self.clauses[j].start] if j else ""
        if _BOTH_AND.search(lead) or _BOTH.search(self.text, self.clauses[j].start, clause.start):
            return False  # "both the Muse and the Eden list steel, glass": of the two
        if _ZH_BOTH.match(self.text, self.clauses[j].start, clause.end) and _ZH_AND.search(lead):
            return False  # "Ridgeline Motion 和 Velo Endure 都是针织鞋面": of the two
        if about is not None and subject.product_id is not None:
            if subject.product_id not in about:
                return True
        left = self.text.rfind("(", clause.start, pos)
        right = self.text.find(")", pos, clause.end)
        if left >= 0 and right >= 0 and ")" not in self.text[left:pos]:
            if variant_conflict(self.kb, subject, self.text[left + 1 : right]):
                return True  # "200 g is sold out (80 g is in stock)": the aside is the 80 g's
        # "sold out (XL black too)": an aside naming other options says nothing of this one
        segment = _ASIDE.sub(" ", self._variant_segment(subject, i))
        own = subject_sku(self.kb, subject) if self.kb is not None and subject.option else None
        here = _ASIDE.sub(" ", self.text[clause.start : clause.end])
        if own is not None and not (  # "…和L码藏青都还有货": L Navy's, not the asked M Navy's
            names_field(here, own, "option") and names_field(here, own, "colour")
        ):
            others = self.kb.skus(str(own["product_id"])) if self.kb is not None else []
            if any(said_together(here, s) for s in others if s != own):
                return True
        return variant_conflict(self.kb, subject, segment)

    def _named_at(self, i: int) -> int:
        """The clause that named the products clause ``i`` is about (in its sentence).

        The items of a list ("list cashews, almonds, walnuts") are about what the list's clause
        named; that clause decides whether they are said of both products.
        """
        sentence = clause_of(self.sentences, self.clauses[i].start).start
        while i > 0 and self.clauses[i - 1].start >= sentence:
            if self.products[i - 1] is not self.products[i]:
                break
            i -= 1
        return i

    def _variant_segment(self, subject: Subject, i: int) -> str:
        """The words that say which option or colour clause ``i`` is about.

        A clause naming none is said of the list just before it in the same sentence ("EU 42
        and EU 44, are both in stock"; "黑色和鼠尾草绿都有货"): back to the nearest clause that
        names one.
        """
        clause = self.clauses[i]
        start = clause.start
        sentence = clause_of(self.sentences, clause.start).start
        j = i
        while (
            j > 0
            and self.clauses[j - 1].start >= sentence
            and not names_variant(self.kb, subject, self.text[start : clause.end])
        ):
            j -= 1
            start = self.clauses[j].start
        while j > 0 and self.clauses[j - 1].start >= sentence:  # "Stage 1 and Stage 2 are ..."
            before = self.clauses[j - 1]
            listed = self.text[before.start : self.clauses[j].start]
            if not (_LISTED.fullmatch(listed) and names_variant(self.kb, subject, listed)):
                break
            if _COUNTED_ITEM.search(listed):
                break  # "1段0件、2段0件、3段还有310件": each item says its own count
            j, start = j - 1, before.start
        return self.text[start : clause.end]


_LISTED = re.compile(
    r"\W*(?:sorry|yes|no|both|only)?\W*[^\s,，;；.!?。！？]+(?: [^\s,，;；.!?。！？]+)?"
    r"\s?(?:\([^)]*\))?\s?(?:and|&|和|与|跟|、)\s?"
)
"""A clause that only names an option before "and" ("Stage 1 (0-6 months) and"): the list's
first item, what the next clause says of the list is said of it too."""

_COUNTED_ITEM = re.compile(r"\d\s?(?:件|个|双|套|盒|瓶|包|罐|条|pcs\b|left\b|in stock\b)")
"""A list item that gives its own count (2段0件、): not a name the next item's words are said of."""


def _this_one(case: Case) -> str:
    """The product 这款 or "ours" means: the case's own, or in a comparison the one on screen."""
    ids = set(case.product_ids)
    return next(iter(ids)) if len(ids) == 1 else case.session.product_on_screen


_READ: dict[tuple[int, str, int], _Answer] = {}
"""The answers read last, by case and knowledge base (their ids) and answer: the checks of one
answer each read it, and its world (:attr:`_Answer.world`) is then gathered once."""


def read_answer(case: Case, answer: str, kb: KnowledgeBase | None) -> _Answer:
    """The answer as the fact and claim checks read it (prepared text, clauses, numbers)."""
    key = (id(case), answer, id(kb))
    read = _READ.get(key)
    if read is not None and read.case is case and read.kb is kb:  # the same case and kb objects
        return read
    if len(_READ) >= 16:
        _READ.clear()
    _READ[key] = read = _read(case, answer, kb)
    return read


def _read(case: Case, answer: str, kb: KnowledgeBase | None) -> _Answer:
    text = prepare(answer)
    clauses = _spans(text, _CLAUSE_BREAK)
    return _Answer(
        text=text,
        original=answer,
        numbers=numbers(text),
        scopes=_spans(text, _SCOPE_BREAK),
        clauses=clauses,
        products=clause_products(kb, text, clauses, _this_one(case)),
        kb=kb,
        case=case,
    )
