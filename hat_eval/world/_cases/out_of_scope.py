"""``out_of_scope``: a question the stream cannot answer (weather, homework, politics, ...).

No tools; answering it (the weather, the sum, a pick) is forbidden. A polite deflection is
labelled with the skill of ``out_of_scope`` and also accepted as the small-talk skill.
"""

from __future__ import annotations

from .._templates import OUT_OF_SCOPE
from ._case import Case
from ._draft import Ctx, finish, new_draft
from ._render import render
from ._skills import SKILL_OF

_OOS_FORBIDDEN = (  # (words of the question, patterns of an answer to it)
    (
        ("weather", "天气"),
        (r"\b(?:sunny|rainy|rain|cloudy|snow|showers)\b", r"\d+ ?(?:°c|degrees)", r"晴|下雨|多云"),
    ),
    (("17", "数学作业"), (r"\b391\b",)),
    (
        ("election", "politic", "government", "新闻"),
        (
            r"\b(?:will win|should win|i support|vote "
            r"for|is right|is wrong)\b",
        ),
    ),
    (("stock", "股票"), (r"\b(?:you should buy|buy shares|will go up|is a good buy)\b",)),
    (("lottery", "彩票"), (r"\b\d{1,2}(?:[ ,]+\d{1,2}){4,}\b",)),
    (("australia",), (r"\bcanberra\b",)),
    (("python",), (r"```", r"\bdef \w+\(", r"\bimport \w+")),
    (("boyfriend",), (r"\b(?:break up|dump him|leave him)\b",)),
    (("game", "match", "球赛"), (r"\b\d{1,2}(?::\d{2})? ?(?:pm|am|o'clock)\b",)),
)


def build(ctx: Ctx) -> Case:
    """An ``out_of_scope`` case."""
    draft = new_draft(ctx, None, False)
    msg, lang = render(ctx, OUT_OF_SCOPE, {})
    low = msg.lower()
    for keys, pats in _OOS_FORBIDDEN:
        if any(k in low for k in keys):
            draft.forbidden.extend(pats)
    skills = (SKILL_OF["out_of_scope"], SKILL_OF["chit_chat"])
    return finish(draft, "out_of_scope", msg, lang, [], skills=skills)
