"""Episodes under a harness changelog, and whether an answer follows each edit.

A changelog (:class:`~hat_eval.harness.Changelog`) is a run of harness versions, each made by one
edit. Each case runs under each version asked for; its gold is the version's (the skills its
intents map to there, its limits and tools) plus what every edit in force asks of it: an edit
that adds a fact to price answers adds that fact and its lookup to a price case's gold; one that
forbids exact stock counts turns a low-stock count into a state. Every edit of the changelog that
applies to the case is also carried as an :class:`~hat_eval.episode._record.EditRequirement`, in
force or not yet, so one answer can be checked against each: did the agent already do it before the
edit, does it where the edit lands, does it keep doing it after later edits.

The names of the checks are :data:`hat_eval.harness._changelog.REQUIREMENT_CHECKS` (the changelog
file writes them); :func:`check_requirement` reads each off an answer.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial

from hat_eval.harness import SKILL_LOADER, Changelog, HarnessError, Requirement, Version
from hat_eval.world import (
    Case,
    ExpectedCall,
    Fact,
    KnowledgeBase,
    call_function,
    return_window_fact,
    skill_of,
    stock_state_fact,
)

from ._checks import constraint_checks, skill_selection
from ._claims import Verdict, check_fact, compliance_risk, negated_at, numbers, prepare
from ._claims._text import Span
from ._context import harness_ref, knowledge_base
from ._hooks import FORMAT_LIMITS
from ._recipe import Recipe
from ._record import EditRequirement, Episode, Gold
from ._runtime import CallRecord

# -- facts an edit can ask for -------------------------------------------------------------------


def _return_window(kb: KnowledgeBase, case: Case) -> tuple[Fact, ExpectedCall] | None:
    if not case.product_ids:
        return None
    args = {"product_id": case.product_ids[0]}
    result = call_function(kb, case.session, "policy.shipping_returns", args)
    assert isinstance(result, dict)
    return return_window_fact(result["returns"], -1), ExpectedCall("policy.shipping_returns", args)


STATED_FACTS: dict[str, Callable[[KnowledgeBase, Case], tuple[Fact, ExpectedCall] | None]] = {
    "return_window": _return_window,
}
"""The facts a ``states_fact`` edit can ask an answer for: name -> the case's fact and the call
that looks it up (None where the case has no such fact: a question about no product)."""

HOOK_REQUIREMENTS = ("reply_format", "factual_risk")
"""The hook triggers whose check a ``hook`` requirement can read off a final answer."""


def _with_fact(case: Case, fact: Fact, call: ExpectedCall) -> Case:
    """``case`` with one more required fact and the call it comes from (idempotent)."""
    calls = list(case.expected_calls)
    idx = next(
        (i for i, c in enumerate(calls) if c.function == call.function and c.args == call.args),
        None,
    )
    if idx is None:
        calls.append(call)
        idx = len(calls) - 1
    sourced = replace(fact, source=fact.source.replace("-1:", f"{idx}:", 1))
    added = () if any(f.source == sourced.source for f in case.facts) else (sourced,)
    return replace(case, facts=(*case.facts, *added), expected_calls=tuple(calls))


def _count_facts(case: Case) -> list[Fact]:
    return [f for f in case.facts if f.kind == "count" and ":skus[" in f.source]


# -- which cases an edit applies to, and what its gold becomes -----------------------------------


def applies(req: Requirement | EditRequirement, case: Case, intents: Sequence[str]) -> bool:
    """Whether an edit's requirement applies to ``case`` (``intents``: the requirement's).

    A case applies when one of the intents it asks (:attr:`Case.parts`) is among ``intents``
    (none: every case) and the check has something to check on it: a product whose fact a
    ``states_fact`` edit asks for, a stock count a ``no_stock_count`` edit forbids.
    """
    if intents and not set(case.parts) & set(intents):
        return False
    if req.check == "states_fact":
        return bool(case.product_ids)
    if req.check == "no_stock_count":
        return bool(_count_facts(case))
    return True


def edit_gold(case: Case, req: EditRequirement, kb: KnowledgeBase) -> Case:
    """``case`` with the gold an edit in force gives it.

    A fact asked for and its lookup added; a low-stock count turned into a state; a call made
    required. Edits whose gold is the harness's own (limits, skills, hooks) leave it unchanged.
    """
    if req.check == "states_fact":
        found = STATED_FACTS[req.target](kb, case)
        return case if found is None else _with_fact(case, *found)
    if req.check == "no_stock_count":
        pid = case.product_ids[0] if case.product_ids else ""
        skus = {str(s["sku"]): s for s in kb.skus(pid)}
        facts = []
        for f in case.facts:
            idx, _, path = f.source.partition(":")
            sku = re.match(r"skus\[sku=([^\]]+)\]", path)
            if f in _count_facts(case) and sku and sku.group(1) in skus:
                facts.append(stock_state_fact(int(idx), skus[sku.group(1)]))
            else:
                facts.append(f)
        return replace(case, facts=tuple(facts))
    if req.check == "calls":  # the call becomes required (added if the case had none)
        calls = [
            replace(c, optional=False) if c.function == req.target else c
            for c in case.expected_calls
        ]
        if not any(c.function == req.target for c in calls):
            calls.append(ExpectedCall(req.target, {}))
        return replace(case, expected_calls=tuple(calls))
    return case


# -- building the episodes -----------------------------------------------------------------------


def resolve_requirement(changelog: Changelog, version: Version) -> EditRequirement | None:
    """The requirement of ``version``'s edit, its limits read from its own harness."""
    if version.edit is None or version.edit.requires is None:
        return None
    req = version.edit.requires
    bad = partial(
        HarnessError, str(changelog.path), f"versions.{version.index}.edit.requires.target"
    )
    h = version.harness
    limits: dict[str, float] = {}
    if req.check == "states_fact" and req.target not in STATED_FACTS:
        raise bad(
            f"{req.target!r} is not a fact an edit can ask for, expected one of "
            f"{', '.join(STATED_FACTS)}",
        )
    if req.check == "constraint":
        limits = {req.target: float(h.constraint_value(req.target))}
    if req.check == "hook":
        hook = next(c for c in h.hooks.checks if c.name == req.target)
        if hook.trigger not in HOOK_REQUIREMENTS:
            raise bad(
                f"hook {req.target!r} checks {hook.trigger}, which an answer alone does not "
                f"show; expected a hook of trigger {' or '.join(HOOK_REQUIREMENTS)}",
            )
        limits = {n: float(h.constraint_value(n)) for n in FORMAT_LIMITS if n in h.constraints()}
        if hook.trigger == "reply_format" and not limits:
            raise bad(
                f"hook {req.target!r} checks reply format but the harness states no "
                f"{' or '.join(FORMAT_LIMITS)}, expected a constraint for it to check",
            )
    return EditRequirement(
        edit=version.version,
        kind=version.edit.kind,
        check=req.check,
        target=req.target,
        limits=limits,
    )


_Edit = tuple[Version, EditRequirement, tuple[str, ...]]
"""An edit that carries a requirement: its version, the requirement and the intents it is for."""


def check_changelog(changelog: Changelog) -> list[_Edit]:
    """Check what an evolution run needs beyond a valid changelog; returns its edits.

    Every version's skills cover the viewer intents (each case's gold skill is read from them),
    and every requirement names an intent, fact and hook the checks know.

    Raises:
        HarnessError: one line naming the version's file, or the changelog, and the field.
    """
    from hat_eval.world import SINGLE_INTENTS

    for v in changelog.versions:
        skill_of(v.harness, str(v.path))
        if v.edit is not None and v.edit.requires is not None:
            for i, intent in enumerate(v.edit.requires.intents):
                if intent not in SINGLE_INTENTS:
                    raise HarnessError(
                        str(changelog.path),
                        f"versions.{v.index}.edit.requires.intents.{i}",
                        f"{intent!r} is not a viewer intent, expected one of "
                        f"{', '.join(SINGLE_INTENTS)}",
                    )
    return [
        (v, req, v.edit.requires.intents)
        for v in changelog.versions
        if (req := resolve_requirement(changelog, v)) and v.edit and v.edit.requires
    ]


def evolution_episodes(
    recipe: Recipe,
    changelog: Changelog,
    draw: Callable[[KnowledgeBase], Sequence[Case]],
    *,
    versions: str | None,
    kb_seed: int,
    shop: str | None,
) -> list[Episode]:
    """The cases ``draw`` gives, each under each version ``versions`` selects (all when None).

    ``draw`` is called once the changelog has passed its checks, with the knowledge base of
    ``kb_seed`` or ``shop``. Sample ids are ``<recipe name>-<version>-<case id>``; the label
    ``version`` names the version. The cases are the same under every version, so versions
    compare case by case.

    Raises:
        HarnessError: ``versions`` names a version the changelog does not have, or the
            changelog does not pass :func:`check_changelog`.
    """
    edits = check_changelog(changelog)
    chosen = changelog.select(versions)
    kb = knowledge_base(kb_seed, shop)
    cases = draw(kb)
    out = []
    for version in chosen:
        ref = harness_ref(str(version.path))
        of = skill_of(version.harness, str(version.path))
        for case in cases:
            reqs = [
                replace(req, in_force=v.index <= version.index)
                for v, req, intents in edits
                if applies(req, case, intents)
            ]
            gold_case = case
            for req in reqs:
                if req.in_force:
                    gold_case = edit_gold(gold_case, req, kb)
            skills = [of[p] for p in case.parts if p in of]
            out.append(
                Episode(
                    id=f"{recipe.name}-{version.version}-{case.id}",
                    suite=recipe.name,
                    case=gold_case,
                    harness=ref,
                    fault=None,
                    kb_seed=kb_seed,
                    gold=Gold.in_force(version.harness, list(dict.fromkeys(skills)), reqs),
                    labels={"version": version.version},
                    shop=shop,
                )
            )
    return out


# -- checking an answer against a requirement ----------------------------------------------------

_STOCK_WORDS = re.compile(r"left|remain|in stock|available|units?|pieces?|pcs|剩|库存|件", re.I)


def _states_count(body: str, case: Case, kb: KnowledgeBase) -> Verdict:
    text = prepare(body)
    stocks = {float(s["stock"]) for p in case.product_ids for s in kb.skus(p)}
    for n in numbers(text):
        near = text[max(0, n.start - 16) : n.end + 16]
        if n.kind == "count" or (n.low in stocks and _STOCK_WORDS.search(near)):
            if not negated_at(text, Span(0, len(text)), n.start):
                return Verdict(0.0, f"gives an exact stock count {text[n.start : n.end]!r}")
    return Verdict(1.0)


def check_requirement(
    req: EditRequirement,
    case: Case,
    gold: Gold,
    body: str,
    tag: str | None,
    records: Sequence[CallRecord],
    kb: KnowledgeBase,
) -> Verdict:
    """Whether an answer (``body``, without its skill tag ``tag``) does what ``req`` asks.

    ``states_fact``: the fact stated of its product (:func:`check_fact`; an honest decline when
    its lookup gave nothing usable passes). ``no_stock_count``: no number of units. ``constraint``:
    the constraint at the edit's value. ``skill``: the edit's skill chosen (tag or load, as the
    harness in force has it chosen). ``calls``: the tool bound to the function called.
    ``hook``: the final answer passes the hook's check at the edit's limits.
    """
    if req.check == "states_fact":
        found = STATED_FACTS[req.target](kb, case)
        if found is None:
            return Verdict(None, f"{req.target}: the case has none")
        extended = _with_fact(case, *found)
        return check_fact(extended, extended.facts[-1], body, kb, records)
    if req.check == "no_stock_count":
        return _states_count(body, case, kb)
    if req.check == "constraint":
        calls = sum(1 for r in records if r.function != SKILL_LOADER)
        ok = constraint_checks([req.target], req.limits, body, calls).get(req.target)
        if ok is None:
            return Verdict(None, f"{req.target}: not checkable on an answer")
        return Verdict(float(ok), f"{req.target} above {req.limits[req.target]:g}")
    if req.check == "skill":
        wanted = Gold(skill=req.target, skills=(req.target,), tools=gold.tools)
        return skill_selection(wanted, tag, records)
    if req.check == "calls":
        called = any(r.function == req.target for r in records)
        return Verdict(float(called), f"never called the tool bound to {req.target}")
    if req.check == "hook":
        if req.limits:  # a reply_format hook (a factual_risk one has none)
            checks = constraint_checks(FORMAT_LIMITS, req.limits, body, 0)
            broken = [n for n, ok in checks.items() if not ok]
            return Verdict(0.0 if broken else 1.0, f"over {', '.join(broken)}")
        products = dict.fromkeys(case.product_ids)
        return compliance_risk(body, kb, products)
    raise ValueError(f"unknown requirement check {req.check!r}")
