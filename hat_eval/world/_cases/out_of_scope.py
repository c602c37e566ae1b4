"""``out_of_scope``: a question the stream cannot answer (weather, homework, politics, ...).

No tools; answering it (the weather, the sum, a pick) is forbidden. A polite deflection is
labelled with the skill of ``out_of_scope`` and also accepted as the small-talk skill.
"""

from __future__ import annotations

from .._templates import message_templates
from ._case import Case
from ._chat import fill, with_openers
from ._draft import Ctx, finish, new_draft
from ._render import render
from ._skills import SKILL_OF

_OOS_FORBIDDEN = (  # (words of the question, patterns of an answer to it)
    (
        ("weather", "rain", "umbrella", "天气", "下雨"),
        (r"\b(?:sunny|rainy|rain|cloudy|snow|showers)\b", r"\d+ ?(?:°c|degrees)", r"晴|下雨|多云"),
    ),
    (
        ("election", "politic", "government", "policy", "新闻"),
        (
            r"\b(?:will win|should win|i support|vote "
            r"for|is right|is wrong)\b",
        ),
    ),
    (
        ("stock", "shares", "股票"),
        (r"\b(?:you should buy|buy shares|will go up|is a good buy)\b", r"会涨|买入"),
    ),
    (("lottery", "彩票"), (r"\b\d{1,2}(?:[ ,]+\d{1,2}){4,}\b",)),
    (
        ("python", "javascript", "java", "c++", "debug", "代码"),
        (r"```", r"\bdef \w+\(", r"\bimport \w+", r"\bfunction \w+\("),
    ),
    (("break up", "dump"), (r"\b(?:break up|dump (?:him|her|them)|leave (?:him|her|them))\b",)),
    (("game", "match", "球赛"), (r"\b\d{1,2}(?::\d{2})? ?(?:pm|am|o'clock)\b", r"\d{1,2}点")),
    (("movie", "电影"), (r"\byou should watch\b", r"\bi recommend\b", r"推荐你看")),
    (("train", "高铁"), (r"\b\d+ (?:hours?|minutes?)\b", r"\d+ ?(?:个)?小时")),
)

_CAPITALS = {  # country: (Chinese name, the answer's pattern)
    "Australia": ("澳大利亚", r"\bcanberra\b|堪培拉"),
    "Canada": ("加拿大", r"\bottawa\b|渥太华"),
    "Brazil": ("巴西", r"\bbras[ií]lia\b|巴西利亚"),
    "Turkey": ("土耳其", r"\bankara\b|安卡拉"),
    "Switzerland": ("瑞士", r"\bbern\b|伯尔尼"),
    "New Zealand": ("新西兰", r"\bwellington\b|惠灵顿"),
}


def build(ctx: Ctx) -> Case:
    """An ``out_of_scope`` case."""
    draft = new_draft(ctx, None, False)
    slots = fill(ctx, message_templates().oos_slots)
    x, y = ctx.rng.randint(12, 99), ctx.rng.randint(12, 99)
    country = ctx.rng.choice(sorted(_CAPITALS))
    slots.update(x=str(x), y=str(y), country=country, country_zh=_CAPITALS[country][0])
    msg, lang = render(ctx, with_openers("out_of_scope", "openers"), slots)
    low = msg.lower()
    for keys, pats in _OOS_FORBIDDEN:
        if any(k in low for k in keys):
            draft.forbidden.extend(pats)
    if str(x) in msg and str(y) in msg:
        draft.forbidden.append(rf"(?<![\d.,]){x * y}(?![\d.,]\d)")
    if country in msg or _CAPITALS[country][0] in msg:
        draft.forbidden.append(_CAPITALS[country][1])
    skills = (SKILL_OF["out_of_scope"], SKILL_OF["chit_chat"])
    return finish(draft, "out_of_scope", msg, lang, [], skills=skills)
