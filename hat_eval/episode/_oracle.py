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
from hat_eval.world import Case, reference_answer

from ._agent import ToolCall
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
    if name == "query":
        return case.message
    # e.g. ``claim``: the viewer's own words are what is to be checked
    return case.message


def oracle_calls(
    case: Case, tools: Sequence[Tool], *, skill: str | None = None
) -> tuple[ToolCall, ...]:
    """The case's required calls under the names ``tools`` give their functions.

    Args:
        case: the viewer case.
        tools: the tools of the harness in force.
        skill: the id in force of the skill to choose (the gold's ``skill``). When a tool of
            ``tools`` is bound to the skill loader (progressive disclosure), its load comes
            first; under inline disclosure it is ignored (the answer's tag chooses).

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
        for name in tool.parameters.get("required", ()):
            if name not in args:
                args[name] = _fill(name, case)
        calls.append(ToolCall(id=f"call_{len(calls)}", function=tool.name, arguments=args))
    return tuple(calls)


def oracle_answer(episode: Episode, ctx: EpisodeContext) -> str:
    """The final answer: the in-force skill tag, then the world's reference answer.

    Untagged under progressive disclosure (a tool bound to the skill loader in the gold's
    ``tools``), where the skill is chosen by loading it (:func:`oracle_calls`).
    """
    body = reference_answer(episode.case, ctx.kb)
    skill = episode.gold.skill
    if SKILL_LOADER in episode.gold.tools:
        return body
    return f"[skill: {skill}] {body}" if skill else body
