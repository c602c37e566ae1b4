"""The oracle: the case's required calls, then the world's reference answer.

The instrument's ceiling. It reads the gold (which calls a case needs, which skill is in force)
and answers with :func:`hat_eval.world.reference_answer`. The HSA-SFT trainer seats it in the
agent loop to make verified trajectories, and the ``hat/oracle`` model plays it in the suites,
so both share one definition.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hat_eval.harness import Tool
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


def oracle_calls(case: Case, tools: Sequence[Tool]) -> tuple[ToolCall, ...]:
    """The case's required calls under the names ``tools`` give their functions.

    Raises:
        KeyError: the harness binds no tool to a function the case requires.
    """
    by_function = {t.function: t for t in tools}
    calls = []
    for i, expected in enumerate(case.required_calls):
        tool = by_function[expected.function]
        args = dict(expected.args)
        for name in tool.parameters.get("required", ()):
            if name not in args:
                args[name] = _fill(name, case)
        calls.append(ToolCall(id=f"call_{i}", function=tool.name, arguments=args))
    return tuple(calls)


def oracle_answer(episode: Episode, ctx: EpisodeContext) -> str:
    """The final answer: the in-force skill tag, then the world's reference answer."""
    body = reference_answer(episode.case, ctx.kb)
    skill = episode.gold.skill
    return f"[skill: {skill}] {body}" if skill else body
