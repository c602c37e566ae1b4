"""The oracle: the case's required calls, then the world's reference answer.

The instrument's ceiling. It reads the gold (which calls a case needs, which skill is in force)
and answers with :func:`hat_eval.world.reference_answer`. It chooses the skill in force as the
harness has it chosen: a ``[skill: id]`` tag on the answer under inline disclosure; under
progressive disclosure a load of that skill, through the tool bound to the skill loader, ahead
of the required calls, and an untagged answer. The HSA-SFT trainer seats it in the
agent loop to make verified trajectories, and the ``hat/oracle`` model plays it in the suites,
so both share one definition.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hat_eval.harness import SKILL_LOADER, Tool
from hat_eval.world import Case, Fact, reference_answer

from ._agent import ToolCall
from ._claims import check_fact
from ._context import EpisodeContext
from ._record import Episode


def _fill(name: str, case: Case) -> Any:
    """A value for a required parameter the expected call leaves free, taken from the case."""
    if name == "product_id":
        return (case.product_ids or (case.session.product_on_screen,))[0]
    if name == "sku" and case.details.get("sku"):
        return case.details["sku"]
    if name == "reason":
        return f"the viewer needs a human ({case.intent}): {case.message}"
    # ``query``, and e.g. ``claim``: the viewer's own words are what is to be checked
    return case.message


def oracle_calls(
    case: Case, tools: Sequence[Tool], *, skill: str | None = None
) -> tuple[ToolCall, ...]:
    """The case's required calls under the names the harness in force's ``tools`` give them.

    ``skill``: the id in force of the skill to choose (the gold's ``skill``). When a tool of
    ``tools`` is bound to the skill loader (progressive disclosure), its load comes first;
    under inline disclosure it is ignored (the answer's tag chooses).

    Raises:
        KeyError: the harness binds no tool to a function the case requires.
    """
    by_function = {t.function: t for t in tools}
    calls = []
    loader = by_function.get(SKILL_LOADER)
    if loader is not None and skill is not None:
        param = next(iter(loader.parameters["properties"]))
        calls.append(ToolCall(id="call_0", function=loader.name, arguments={param: skill}))
    for expected in case.required_calls:
        tool = by_function[expected.function]
        args = dict(expected.args)
        args |= {n: _fill(n, case) for n in tool.parameters.get("required", ()) if n not in args}
        calls.append(ToolCall(id=f"call_{len(calls)}", function=tool.name, arguments=args))
    return tuple(calls)


def _stated(fact: Fact, zh: bool) -> str:
    """A sentence stating ``fact``, one an edit of the harness added to the case's gold."""
    if fact.source.endswith("returns.window_days") and isinstance(fact.value, float):
        w = int(fact.value)
        return f"{w}天可退。" if zh else f"{w}-day returns."
    if fact.source.endswith("returns.returnable"):
        return "不可退货。" if zh else "No returns."
    said = fact.aliases[0] if fact.aliases else str(fact.value)
    return f"{said}。" if zh else f"{said[:1].upper()}{said[1:]}."


def oracle_body(case: Case, ctx: EpisodeContext) -> str:
    """The world's reference answer, then a sentence for each gold fact it does not state.

    Whether it states a fact is the checks' own reading (:func:`check_fact`).
    The reference answer words what a case's intent asks; a harness edit in force (the
    ``evolution`` suite's changelog, :func:`~hat_eval.episode._evolution.edit_gold`) can add a fact
    to the gold (the returns window with every price answer), which the oracle then states too.
    """
    body = reference_answer(case, ctx.kb)
    zh = case.language in ("zh", "mixed")
    added = [_stated(f, zh) for f in case.facts if check_fact(case, f, body, ctx.kb).value != 1]
    return " ".join([body, *added])


def oracle_answer(episode: Episode, ctx: EpisodeContext) -> str:
    """The final answer: the in-force skill tag, then :func:`oracle_body`.

    Untagged under progressive disclosure (a tool bound to the skill loader in the gold's
    ``tools``), where the skill is chosen by loading it (:func:`oracle_calls`).
    """
    body = oracle_body(episode.case, ctx)
    skill = episode.gold.skill
    return f"[skill: {skill}] {body}" if skill and SKILL_LOADER not in episode.gold.tools else body
