"""``out_of_scope``: a question the stream cannot answer (weather, homework, politics, ...).

No tools; answering it (the weather, the sum, a pick) is forbidden. A polite deflection is
labelled with the skill of ``out_of_scope`` and also accepted as the small-talk skill.
"""

from __future__ import annotations

from .._templates import message_templates
from ._case import Case
from ._chat import fill, with_openers
from ._draft import Ctx, finish, new_draft
from ._phrases import case_phrases
from ._render import render
from ._skills import SKILL_OF


def build(ctx: Ctx) -> Case:
    """An ``out_of_scope`` case."""
    draft = new_draft(ctx, None, False)
    slots = fill(ctx, message_templates().oos_slots)
    x, y = ctx.rng.randint(12, 99), ctx.rng.randint(12, 99)
    phrases = case_phrases().out_of_scope
    country = ctx.rng.choice(sorted(phrases.capitals))
    capital = phrases.capitals[country]
    slots.update(x=str(x), y=str(y), country=country, country_zh=capital.zh)
    msg, lang = render(ctx, with_openers("out_of_scope", "openers"), slots)
    low = msg.lower()
    for topic in phrases.forbidden:
        if any(k in low for k in topic.question):
            draft.forbidden.extend(topic.answer)
    if str(x) in msg and str(y) in msg:
        draft.forbidden.append(rf"(?<![\d.,]){x * y}(?![\d.,]\d)")
    if country in msg or capital.zh in msg:
        draft.forbidden.append(capital.answer)
    skills = (SKILL_OF["out_of_scope"], SKILL_OF["chit_chat"])
    return finish(draft, "out_of_scope", msg, lang, [], skills=skills)
