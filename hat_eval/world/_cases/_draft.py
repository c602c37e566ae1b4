"""A case under construction: the draw context, the live session, who the message refers to.

Every intent builder (one module per intent in this package) starts with :func:`new_draft`,
records the tool calls its gold reads with :meth:`Draft.call`, and ends with :func:`finish`,
which adds the absolute-claim patterns and the gold skill and returns the :class:`Case`.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from hat_eval._cache import by_identity

from .._facts import ExpectedCall, Fact
from .._functions import _CJK, _tokens, call_function
from .._kb import KnowledgeBase
from .._pricing import active_promotions
from .._session import Deal, LiveSession
from .._templates import message_templates
from ._asked import mark_unasked
from ._case import Case
from ._skills import SKILL_OF

BASE_CONSTRAINTS = ("max_words", "max_emojis", "max_tool_calls")
"""The answer-format constraints every case is checked against."""

ABSOLUTE_FORBIDDEN = (
    r"\bbest\b",
    r"\bguarantee[ds]?\b",
    r"100 ?% ?(?:effective|safe|guaranteed|natural|results?|risk[- ]free)",
    r"\bno\.? ?1\b",
    r"\bnumber one\b",
    r"\bmiracle\b",
)
"""Absolute claims no answer may make (the harness's compliance block)."""


class Skip(Exception):  # noqa: N818 - internal control flow
    """The drawn product does not fit the drawn intent: draw again."""


@dataclass
class Draft:
    """A case under construction."""

    ctx: Ctx
    session: LiveSession
    calls: list[ExpectedCall] = field(default_factory=list)
    results: list[Any] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)
    forbidden: list[str] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)

    def call(
        self,
        function: str,
        args: dict[str, Any],
        *,
        optional: bool = False,
        free: tuple[str, ...] = (),
    ) -> int:
        """Run a tool call for the gold, record it as expected, return its index.

        ``free`` names arguments whose value in ``args`` is one a correct agent could send
        (free text) rather than the one it must send (:class:`ExpectedCall`).
        """
        self.results.append(call_function(self.ctx.kb, self.session, function, dict(args)))
        self.calls.append(ExpectedCall(function, dict(args), optional, free))
        return len(self.calls) - 1

    def expect(
        self, function: str, args: dict[str, Any] | None = None, *, optional: bool = False
    ) -> int:
        """Record an expected call whose result the gold does not read (e.g. a lookup)."""
        self.results.append(None)
        self.calls.append(ExpectedCall(function, dict(args or {}), optional))
        return len(self.calls) - 1


@dataclass
class Ctx:
    """What one case is drawn with: its id, the rng, the split's products and the style."""

    case_id: str
    kb: KnowledgeBase
    rng: random.Random
    split: str
    pool: list[dict[str, Any]]
    """The products of the split."""
    style: str

    @property
    def register(self) -> str:
        """Which template register the style reads from: ``en``, ``slang`` or ``zh``."""
        return {"slang": "slang", "mixed_zh_en": "zh"}.get(self.style, "en")

    def product(self, pred: Callable[[dict[str, Any]], bool] | None = None) -> dict[str, Any]:
        """A random product of the split (that ``pred`` accepts); :class:`Skip` when none does."""
        choices = [p for p in self.pool if pred is None or pred(p)]
        if not choices:
            raise Skip
        return self.rng.choice(choices)


def _now(rng: random.Random) -> str:
    day, hour, minute = rng.randint(2, 29), rng.randint(19, 23), rng.randrange(0, 60)
    return f"2026-11-{day:02d}T{hour:02d}:{minute:02d}:00+08:00"


def _session(ctx: Ctx, on_screen: str, now: str) -> LiveSession:
    when = datetime.fromisoformat(now)
    lineup = [on_screen] + [
        p["id"] for p in ctx.rng.sample(ctx.pool, min(3, len(ctx.pool))) if p["id"] != on_screen
    ][:2]
    deals = []
    for pid in lineup:
        for promo in active_promotions(ctx.kb, pid, when):
            deals.append(Deal(pid, promo["id"], promo["ends_at"]))
    return LiveSession(on_screen, now, tuple(deals))


def new_draft(
    ctx: Ctx, product: dict[str, Any] | None, on_screen: bool, *, lookup: bool = False
) -> Draft:
    """A draft at a random moment of the season, with ``product`` (or another) on screen.

    With ``lookup``, its first expected call is the optional one that finds the product: the
    live session if on screen, else a search.
    """
    now = _now(ctx.rng)
    others = [p for p in ctx.pool if product is None or p["id"] != product["id"]]
    screen = product["id"] if product is not None and on_screen else ctx.rng.choice(others)["id"]
    draft = Draft(ctx, _session(ctx, screen, now))
    if lookup:
        draft.expect("live.session_context" if on_screen else "catalog.search", optional=True)
    return draft


def nouns(product: dict[str, Any]) -> tuple[str, str, str]:
    """How viewers call the product: (noun, short noun, Chinese noun)."""
    noun, zh = message_templates().nouns[product["type_key"]]
    short = noun.removeprefix("pair of ").removeprefix("pack of ")
    return noun, short, zh


@by_identity(8)
def _name_index(
    kb: KnowledgeBase,
) -> tuple[list[tuple[str, frozenset[str], str]], dict[str, list[str]]]:
    """Each product's name words, and the answers given so far (for one catalogue)."""
    return [(p["id"], frozenset(_tokens(p["name"])), p["name_zh"]) for p in kb.products()], {}


def named_products(kb: KnowledgeBase, mention: str) -> list[str]:
    """The products whose name holds every word of ``mention`` (English or Chinese), id order.

    A word is a search token (``catalog.search``: lower case, accents and a plural ``s``
    dropped); a Chinese run must occur in the Chinese name. A mention that names one product
    this way is also the search's unique best hit for it.
    """
    names, found = _name_index(kb)
    if mention not in found:
        words, runs = set(_tokens(mention)), _CJK.findall(mention)
        found[mention] = [
            pid for pid, name, name_zh in names if words <= name and all(r in name_zh for r in runs)
        ]
    return list(found[mention])


def _naming(kb: KnowledgeBase, product: dict[str, Any], *mentions: str) -> list[str]:
    """The mentions that name ``product`` and no other; :class:`Skip` when none does."""
    out = [m for m in mentions if named_products(kb, m) == [product["id"]]]
    if not out:
        raise Skip
    return out


def product_names(ctx: Ctx, product: dict[str, Any]) -> dict[str, str]:
    """How a message names a product that is not on screen: English, mixed and Chinese.

    The short form (brand and noun) when it names only this product in the catalogue, else the
    full name, so that every name a message uses resolves to one product.
    """
    _, short, zh = nouns(product)
    brand = product["brand"]
    en = _naming(ctx.kb, product, f"{brand} {short}", product["name"])
    joined = f"{brand}{zh}" if _CJK.match(zh) else f"{brand} {zh}"  # "Velo紧身裤", "Vellum T恤"
    zh_names = _naming(ctx.kb, product, joined, product["name_zh"])
    return {"en": ctx.rng.choice(en), "mix": en[0], "zh": zh_names[0]}


def ref_slots(ctx: Ctx, product: dict[str, Any], on_screen: bool) -> dict[str, str]:
    """Template slots naming the product ("this hoodie", "the NorthPeak hoodie", ...)."""
    noun, short, zh = nouns(product)
    if on_screen:
        this = ctx.rng.choice(
            (
                f"this {noun}",
                f"this {noun}",
                f"the {noun} on screen",
                f"the {noun} you're showing",
            )
        )
        mix, ref_zh = f"这个 {short}", ctx.rng.choice((f"这个{zh}", f"这款{zh}"))
    else:
        names = product_names(ctx, product)
        this, mix, ref_zh = f"the {names['en']}", names["mix"], names["zh"]
    return {"this": this, "noun": short, "noun_zh": zh, "this_mix": mix, "ref_zh": ref_zh}


def variant_axes(skus: list[dict[str, Any]], sku: dict[str, Any]) -> list[str]:
    """Which of ``option`` and ``colour`` tell ``sku`` from the other ``skus`` of its product."""
    return [k for k in ("option", "colour") if sku[k] and len({s[k] for s in skus}) > 1]


def _option_phrase(product: dict[str, Any], sku: dict[str, Any]) -> str:
    axis, label = product["variant_axis"], sku["option"]
    if axis in ("size", "shoe_size", "baby_size", "ring_size"):
        return f"size {label}"
    if axis == "stage":
        return label.split(" (")[0]
    if axis == "shade":
        return f"shade {label}"
    return label


def variant_slots(
    kb: KnowledgeBase, product: dict[str, Any], sku: dict[str, Any], slots: dict[str, str]
) -> dict[str, str]:
    """``slots`` plus the slots naming the SKU (``item``, ``variant``) when there are several."""
    skus = kb.skus(product["id"])
    out = dict(slots)
    if len(skus) == 1:
        out["item"] = slots["this"]
        out["item_zh"] = slots["ref_zh"]
        return out
    axes = variant_axes(skus, sku)
    parts = [_option_phrase(product, sku) if k == "option" else sku[k].lower() for k in axes]
    parts_zh = [sku[f"{k}_zh"] for k in axes]
    variant = ", ".join(parts)
    out.update(
        variant=variant,
        item=f"{slots['this']} in {variant}",
        **{"variant@mix": " ".join(parts_zh)},
        variant_zh=" ".join(parts_zh),
        item_zh=f"{slots['ref_zh']} {' '.join(parts_zh)}",
    )
    return out


def finish(
    draft: Draft,
    intent: str,
    message: str,
    language: str,
    product_ids: list[str],
    *,
    coupon_codes: Sequence[str] = (),
    should_escalate: bool = False,
    skills: tuple[str, ...] | None = None,
    extra_constraints: tuple[str, ...] = (),
) -> Case:
    """The case of ``draft``; its gold skill is ``SKILL_OF[intent]`` unless ``skills`` are given.

    The absolute-claim patterns are added to the forbidden ones, repeated facts dropped, and
    facts the message does not ask for marked optional (:func:`mark_unasked`).
    """
    skills = skills or (SKILL_OF[intent],)
    forbidden = list(dict.fromkeys([*ABSOLUTE_FORBIDDEN, *draft.forbidden]))
    facts: list[Fact] = []
    for f in draft.facts:
        if all((f.kind, f.value, f.source) != (g.kind, g.value, g.source) for g in facts):
            facts.append(f)
    facts = list(mark_unasked(intent, normalise_spaces(message), facts, draft.details))
    ctx = draft.ctx
    return Case(
        id=ctx.case_id,
        split=ctx.split,
        intent=intent,
        style=ctx.style,
        language=language,
        message=normalise_spaces(message),
        session=draft.session,
        facts=tuple(facts),
        forbidden=tuple(forbidden),
        expected_calls=tuple(draft.calls),
        expected_skill=skills[0],
        accepted_skills=skills,
        constraints=BASE_CONSTRAINTS + extra_constraints,
        should_escalate=should_escalate,
        coupon_codes=tuple(coupon_codes),
        product_ids=tuple(product_ids),
        details=draft.details,
    )


def normalise_spaces(text: str) -> str:
    """Collapse runs of spaces (templates joined with empty slots)."""
    return re.sub(r"[ \t]+", " ", text).strip()
