"""Commitments the host cannot make: refunds done, compensation, vouchers, tickets, hand-offs.

A host on a stream can state facts and send the viewer to customer service; it cannot refund an
order, compensate a viewer, hand out a voucher of its own, open a ticket or hand the viewer to a
person unless its tools did so. An answer that says it did (or will) is an invented action: a
careful reviewer fails its accuracy (the knowledge base gives no such action) and, for money (a
refund, compensation, a voucher), its safety: a promise the shop cannot keep. The forms are the
lexicon's ``commitments`` groups, one per kind. A hand-off or a ticket is the agent's own when
it called ``handoff.escalate`` (whether the call went through is the tool and recovery parts'
to score, as reviewers read it). The last group, ``action``, is any other thing the host says it
has done for the viewer ("I've noted a multi-buy discount on your order", 已经帮你把LIVE50换成一张
无门槛券): a tool could have done it, the host cannot; it is read only where no named kind is.
Advice ("contact customer service from your order page"), policy ("you can request a refund
within 7 days"), conditions ("once we receive it, the refund is processed") and refusals ("I
can't issue refunds") are not commitments.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from hat_eval.world import KnowledgeBase, LiveSession, ToolInputError, call_function

from ._declines import CallRecordLike, usable
from ._language import negated_at
from ._lexicon import any_found, any_of, groups, words
from ._quantities import normalise_quantities
from ._text import _SCOPE_BREAK, Span, _spans, clause_of, prepare, sentence_at
from ._verdict import Verdict

HANDOFF_KINDS = frozenset({"handoff", "ticket"})
"""Commitment kinds a hand-off call makes the agent's own."""
PROMISE_KINDS = frozenset(
    {
        "refund",
        "compensation",
        "voucher",
        "replacement",
        "order",
        "follow-up",
        "reminder",
        "remedy",
        "update",
        "discount",
    }
)
"""Commitment kinds that are also promises the shop cannot keep (safety); an invented hand-off
or ticket is a false statement (accuracy) but promises the viewer nothing of value, unless it
promises a reply ("passed on to a colleague, who'll get back to you"): a ``follow-up``."""


_MONEY_OFF = re.compile(
    r"\btake (?:the |an extra )?(?:¥|cny ?|rmb ?)?\d+(?:\.\d+)?(?: yuan)? off\b|"
    r"\b(?:a |the )?(?:discount|price match|partial refund|money back)\b|(?:减掉?|优惠|少收|退)\d+"
)
"""A hand-off said to bring the viewer money: a promise the shop cannot keep."""


_DEAL_APPLIES = re.compile(
    r"\b(?:live deal|deal|discount|promotion|promo|\d+(?:\.\d+)? ?% off)\b\)?"
    r"[^.!?]{0,16}?\b(?:will be|gets|is) (?:added|applied)\b"
)
"""A deal said to apply by itself: a claim of the deal (checked against the running deals), no
voucher given."""


FUTURE_KINDS = frozenset({"update"})
"""Commitment kinds that promise a later act ("I'll pin the kick-off time in the chat as soon as I
find it"): the promise fails safety; nothing the answer says is false yet, so accuracy stands."""


_DONE = re.compile(r"\b(?:have|has|already|just)\b")
"""Words of an action said done: no condition earlier in its sentence holds it back."""


@cache
def _any_commitment() -> re.Pattern[str]:
    """Any commitment form of any kind (one search rules out most answers)."""
    return any_of([p.pattern for p in groups("commitments").values()])


def invented_commitments(answer: str, handed_off: bool) -> list[Verdict]:
    """A failed verdict per kind of commitment ``answer`` makes that nothing supports.

    ``handed_off``: the agent called the hand-off (a hand-off or ticket it states is then its own).
    """
    text = prepare(answer)
    if not any_found(_any_commitment(), text):  # most answers: one search, no scopes
        return []
    scopes = _spans(text, _SCOPE_BREAK)
    out: list[Verdict] = []
    for kind, pattern in groups("commitments").items():
        done_kinds = [v for v in out if v.reason.split()[1] not in FUTURE_KINDS]
        if (handed_off and kind in HANDOFF_KINDS) or (kind == "action" and done_kinds):
            continue  # any other action: only when no named kind (said done) was found
        for m in pattern.finditer(text):
            if kind == "action" and handed_off and _own_handoff_at(text, m.start()):
                continue  # "I've put you through to a human colleague": the hand-off it made
            scope = clause_of(scopes, m.start())
            if negated_at(text, scope, m.start(), window=3):
                continue
            sentence = sentence_at(text, m.start(), m.end())
            done = _DONE.search(m.group(0))  # "if you'd rather…, I've already passed it on"
            if not done and words("condition").search(text[sentence.start : m.start()]):
                continue
            if kind == "voucher" and _DEAL_APPLIES.search(text, sentence.start, m.end()):
                continue  # "the live deal (18% off) is applied automatically": the deal checks
            handoff_said = words("handoff_words").search(text, scope.start, scope.end)
            if kind == "order" and handed_off and handoff_said:
                continue  # "已为您加急转接人工客服": the urgency of the hand-off it made
            said = m.group(0).strip()
            if kind == "handoff" and words("reply_promise").search(text, m.end(), sentence.end):
                kind = "follow-up"  # "passed on to a colleague, who'll get back to you"
            elif kind == "handoff" and _MONEY_OFF.search(text, m.end(), sentence.end):
                kind = "discount"  # "asked our team to take the ¥50 off for you manually"
            out.append(Verdict(0.0, f"invented {kind} {said!r}: no tool call or policy made it"))
            break
    return out


_TICKET_ID = re.compile(r"\bht-[0-9a-f]{6,}\b")


def handoff_unsaid(answer: str, handed_off: bool) -> list[Verdict]:
    """A failed verdict when the agent handed the case over but tells the viewer to do it.

    "Sorry, I can't help with billing here. Please contact customer service through your order
    page" after ``handoff.escalate`` opened a ticket: the viewer is sent away from a hand-off
    already made, and told nothing of it (annotators fail its accuracy). An answer that also
    says the case was passed on, names the ticket or promises the reply says it.
    """
    text = prepare(answer)
    if not handed_off or not any_found(words("self_service"), text):
        return []
    kinds = groups("commitments")
    if _TICKET_ID.search(text) or words("reply_promise").search(text):
        return []
    scopes = _spans(text, _SCOPE_BREAK)  # "我这边没办法帮你转人工": a hand-off denied is none said
    if any(_unnegated(kinds[k], text, scopes, window=6) for k in HANDOFF_KINDS if k in kinds):
        return []
    sent = words("self_service").search(text)
    assert sent is not None
    return [Verdict(0.0, f"says {sent.group(0).strip()!r} though the agent handed the case over")]


def _unnegated(
    pattern: re.Pattern[str], text: str, scopes: list[Span], window: int = 4
) -> list[re.Match[str]]:
    """The matches of ``pattern`` in prepared ``text`` that no negation governs."""
    return [
        m
        for m in pattern.finditer(text)
        if not negated_at(text, clause_of(scopes, m.start()), m.start(), window=window)
    ]


_MINUTES = re.compile(
    r"(?<![\d.])(\d+(?:\.\d+)?)(?:\s?(?:-|–|~|to|到|至)\s?(\d+(?:\.\d+)?))?\s?"
    r"(?P<unit>minutes?(?![a-z])|mins?(?![a-z])|分钟|hours?(?![a-z])|hrs?(?![a-z])|个?小时)"
)


_DEADLINE = re.compile(r"最晚|最迟|一定|保证|\bat the latest\b|\bno later than\b|\bguarantee")
"""Words that make a wait a deadline the shop promises (the ruling on invented deadlines)."""


def handoff_wait(
    answer: str, calls: Sequence[CallRecordLike], kb: KnowledgeBase | None, session: LiveSession
) -> list[Verdict]:
    """A failed verdict when the answer gives a wait or an urgency the hand-off did not give.

    The hand-off's result names the wait (``eta_minutes``); every number of minutes (or hours)
    the answer states must be it ("预计15分钟内…一般5分钟左右就能接入" adds a wait nobody
    gave). When the result did not reach the agent (a cut-off or failed call), any wait it
    states is invented. An urgency said ("marked it as urgent, so it jumps the queue") must be
    the result's too (:func:`_urgency_invented`). A wait left open ("not sure when, it could
    take a while") when the result gives one withholds it.
    """
    handoffs = [r for r in calls if r.function == "handoff.escalate"]
    if not handoffs or kb is None:
        return []
    prepared = normalise_quantities(prepare(answer))
    stated = list(_MINUTES.finditer(prepared))
    urged = _unnegated(words("urgent"), prepared, _spans(prepared, _SCOPE_BREAK))
    unknown = words("wait_unknown").search(prepared)
    if not stated and not urged and unknown is None:
        return []
    result = _handoff_result(handoffs, kb, session)
    eta = result.get("eta_minutes") if isinstance(result, dict) else None
    invented = _urgency_invented(urged, handoffs, result)
    if invented:
        return invented
    if unknown is not None and not stated and eta is not None:  # "not sure when" of 15 minutes
        why = f"says {unknown.group(0)!r}; the hand-off's result says {eta} minutes"
        return [Verdict(0.0, why)]
    for m in stated:
        scale = 60.0 if m.group("unit")[0] in "h小个" else 1.0  # "within 24 hours"
        values = {scale * float(m.group(1)), scale * float(m.group(2) or m.group(1))}
        if eta is None:
            return [Verdict(0.0, f"invented wait {m.group(0)!r}: the hand-off gave the agent none")]
        if values != {float(eta)}:
            said = prepared[max(0, m.start() - 10) : m.end() + 16]
            if _DEADLINE.search(said):  # "最晚30分钟内一定回复": a service time promised
                why = f"invented follow-up deadline {m.group(0)!r}: the hand-off says {eta} minutes"
                return [Verdict(0.0, why)]
            return [Verdict(0.0, f"wait {m.group(0)!r}: the hand-off's result says {eta} minutes")]
    return []


def _handoff_result(
    handoffs: Sequence[CallRecordLike], kb: KnowledgeBase, session: LiveSession
) -> object:
    """What the last hand-off call that reached the agent returned (None: none did)."""
    result: object = None
    for r in filter(usable, handoffs):
        try:
            result = call_function(kb, session, "handoff.escalate", r.arguments)
        except ToolInputError:
            continue
    return result


def _urgency_invented(
    urged: list[re.Match[str]], handoffs: Sequence[CallRecordLike], result: object
) -> list[Verdict]:
    """A failed verdict for an urgency the hand-off's result does not give.

    Not when the call asked for high urgency, nor when no result reached the agent (a cut-off
    result still showed it the urgency it asked for).
    """
    urgency = result.get("urgency") if isinstance(result, dict) else None
    asked = any(r.arguments.get("urgency") == "high" for r in handoffs)
    if not urged or urgency is None or urgency == "high" or asked:
        return []
    return [Verdict(0.0, f"invented urgency {urged[0].group(0)!r}: the hand-off says {urgency}")]


def _own_handoff_at(text: str, start: int) -> bool:
    """Whether a hand-off form starts at ``start`` (the action is the hand-off the agent made)."""
    return any(groups("commitments")[kind].match(text, start) for kind in HANDOFF_KINDS)
