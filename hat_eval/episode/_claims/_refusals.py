"""A claim's words said inside a refusal to make them, or as the topic of a referral.

"I can't say the cream will clear acne" refuses the claim its words make; so does the Chinese
topic-first "投资保值这个我不能承诺", "For a weight-loss plan, please talk to a doctor" (a
referral's topic) and "减肥还是建议合理饮食加运动" (advice on the topic). The banned-claim
readers (:mod:`._safety`, :mod:`._unread`) skip such words.
"""

from __future__ import annotations

import re

from ._text import PROFESSIONS, between_emoji, sentence_at

_REFUSAL_BEFORE = re.compile(
    r"\b(?:can not|could not|will not|would not|do not|never|not able to|unable to) "
    r"(?:say|promise|claim|guarantee|call|describe|tell you|state|advertise|suggest|recommend|rank|"
    r"compare|rate|judge|predict|talk about|discuss|comment on|give advice on|advise on|"
    r"make (?:any |such )?(?:claims?|promises?|predictions?|guarantees?))\b|"
    r"\b(?:can not|could not|will not|would not|do not|not able to|unable to) [a-z ]{0,30}? "
    r"(?:or|nor) (?:say|promise|claim|guarantee|predict)\b|"  # "can't offer advice or promise"
    # "made to wear or give as a gift rather than as an investment"
    r"\b(?:rather than|instead of|not as|not meant as) "
    r"(?:(?:bought|buying|purchased|kept|treated|seen|viewed) )?(?:as )?(?:an? )?$|"
    r"\bno (?:promises?|guarantees?|claims?)\b|不能说|不敢说|没办法说|没法说|不能承诺|不敢承诺|"
    r"不能保证|没法保证|不敢保证|不能打包票|"
    r"(?:不能|不可以|无法|没法)(?:和|跟|与|同|代替|替代|取代)"  # 不能和母乳画等号
)
_REFUSAL_AFTER = re.compile(
    r"^[^.!?。！？]{0,16}?(?:这个|这点|这方面)?(?:我|咱们|我们)?(?:可|真的)?"
    r"(?:不能承诺|不能保证|不敢保证|没法保证|不敢说|不能说|说不了|保证不了|承诺不了|不能打包票|"
    r"给不了|提供不了|没法给|不能给|(?:没办法|没法|无法|不能)(?:提供|给出|回答)|"
    r"不在我[^.!?。！？]{0,8}范围)|"  # 投资建议我没办法提供, 投资方面的建议不在我能帮忙的范围内
    r"^[^.!?。！？]{0,4}(?:这类|这种|这样的)[^.!?。！？]{0,6}?(?:说法|话|词|承诺|保证)"
    r"[^.!?。！？]{0,6}(?:不能|不可以|不会|没法)|"
    r"^[^.!?]{0,12}\b(?:is|are) (?:not something|something) (?:i|we) (?:can|could) "
    r"(?:not )?(?:promise|claim|say)"
)


_GOAL_NAMED = re.compile(
    r"^\s?(?:in (?:just )?(?:a|one|two|three|\d+) [a-z]+\s)?(?:is|are|sounds like|would be) "
    r"(?:a |quite a |really |very |pretty )?"
    r"(?:big|huge|tough|ambitious|lot|serious|hard|steep|fast|quick|aggressive)\b"
)
"""The viewer's goal named and weighed ("losing 8 kg in a month is a big goal"): no promise."""
_TOPIC_OPENING = re.compile(r"\s*(?:for|about|regarding|关于|至于)\b[^,，;；]*$")
_REFERRAL = re.compile(
    r"\b(?:talk|speak) (?:to|with) (?:a|your) |\bconsult\b|\bcheck with (?:a|your) |"
    rf"\b{PROFESSIONS}\b|医生|咨询(?:医生|专业)|遵医嘱|就医"
)
"""Words that send the viewer to a professional: what opens their sentence is its topic."""


_TOPIC_ADVICE = re.compile(
    r"(?:的话)?[，,]?(?:还是|主要|最好)?(?:建议|要|得|靠)[^。！？]{0,12}(?:饮食|运动)"
)
"""Advice on the sentence's opening words ("减肥还是建议合理饮食加运动"): their topic."""


_OF_PROFESSIONAL = re.compile(
    rf"\b{PROFESSIONS},? (?:who|which|that|they) (?:can|will|could|would)? ?$"
)
"""A professional the sentence refers the viewer to, said to do what follows ("who can help")."""

_SEE_PROFESSIONAL = re.compile(
    rf"\b(?:see|visit|ask|consult) (?:a|your) {PROFESSIONS} (?:for|about|to)\b[^.!?]{{0,12}}$"
)
"""A professional the viewer is sent to for what follows ("see a doctor for help with")."""

_NO_DOT = re.compile(r"\bno\.(?=\s?1\b)")
_TURN = re.compile(
    r"\s(?:but|however|though|yet)\s|\b(?:what |all )?i can (?:say|tell you)\b|\bthat said\b|"
    r"\blet is just say\b|"  # "I'd never call X trash 😅 — let's just say they can't match"
    r"但是?|不过|可是"
)
"""Where a refusal ends: "but", or what the host says it can say ("I can't say it's the best 😅
What I can say is it's totally safe": the claim after the turn is made)."""


def refused(text: str, start: int, end: int) -> bool:
    """Whether the claim at ``start:end`` sits inside a refusal to make it.

    "I can't say the cream will clear or treat acne" (the refusal governs its whole
    complement, however long) and the Chinese topic-first "投资保值这个我不能承诺" (the refusal
    follows the claim).
    """
    # "No.1" is a word, not a sentence's end ("I can't call any dress 'No.1' or 'the best'")
    sentence = sentence_at(_NO_DOT.sub("no ", text), start, end, ".!?。！？\n")
    opening = between_emoji(text, sentence, start).start
    topic = _TOPIC_OPENING.match(text, opening, start)  # "... ride 🚴 For weight-loss advice, ..."
    if topic and _REFERRAL.search(text, end, sentence.end):
        return True  # "For a weight-loss plan, please talk to a doctor": the topic of a referral
    turn = [m.end() for m in _TURN.finditer(text, sentence.start, start)]
    if _REFUSAL_BEFORE.search(text[turn[-1] if turn else sentence.start : start]):
        return True  # "I won't say X is fake, but ours is the best": the refusal ends at "but"
    if text[opening:start].strip() == "" and _TOPIC_ADVICE.match(text, end):
        return True  # "减肥还是建议合理饮食加运动", as "For weight loss, talk to a doctor"
    if _GOAL_NAMED.search(text[end : end + 40]):
        return True  # "Losing 8 kg in a month is a big goal, so please talk to a doctor"
    return _REFUSAL_AFTER.search(text[end : end + 40]) is not None
