"""The hooks that check: verdicts on an agent's tool calls and replies, and their records.

A harness may declare checking hooks (``hooks.checks``, :class:`~hat_eval.harness.HookCheck`).
The agent loop (:func:`~hat_eval.episode.agent_steps`) asks a :class:`HookRunner` for a verdict
on every tool call before it runs (``tool_arguments``) and on every reply that would be the final
answer (``skill_load``, ``reply_format``, ``factual_risk``). A verdict is ``pass``, ``reject``
(the step does not go through and the agent is told the hook's message) or ``let_through`` (the
check failed but the hook's rejection budget is spent, or no turn is left to fix a reply).

The checks are the episode's own, not second copies: arguments through the world's checker
(:meth:`ToolRuntime.argument_problem`), the word and emoji limits through
:func:`constraint_checks`, factual risk through the safety check's compliance rules
(:func:`compliance_risk`), the skill-load requirement through the runtime's call records.

Every verdict is a :class:`HookRecord`, kept in the transcript as call records are: in the
metadata (under :data:`HOOK_KEY`, a list) of the tool message answering a checked call, of the
harness message that rejects a reply, or of the reply itself when it goes through;
:func:`hook_records_in` reads them back in order.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Literal

from hat_eval.harness import HookCheck

from ._checks import (
    FAULT_OUTCOMES,
    constraint_checks,
    emoji_count,
    split_skill_tag,
    split_think,
    word_count,
)
from ._claims import compliance_risk
from ._record import HookFault
from ._runtime import ToolRuntime, skill_loads

HOOK_KEY = "hat_eval_hooks"
"""The key under which a message's metadata holds its hook verdicts (a list of dicts)."""

HookVerdict = Literal["pass", "reject", "let_through"]
"""``pass``: nothing wrong; ``reject``: the step was sent back; ``let_through``: something was
wrong but the step went through (the hook's budget was spent, or no turn was left)."""

FORMAT_LIMITS = ("max_words", "max_emojis")
"""The constraints the ``reply_format`` hook enforces, where the harness states them."""


@dataclass(frozen=True)
class HookRecord:
    """One hook's verdict on one step of an episode."""

    hook: str
    """The hook's name (its trigger unless the harness names it)."""
    trigger: str
    step: int
    """The model turn (1-based) whose tool call or reply was checked."""
    verdict: HookVerdict
    message: str = ""
    """What the agent was told (a rejection), else empty."""
    reason: str = ""
    """What the check found wrong (``reject`` and ``let_through``), else empty."""
    call_id: str | None = None
    """A ``tool_arguments`` verdict: the id of the call checked."""

    def to_dict(self) -> dict[str, Any]:
        """Plain data for a message's metadata."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HookRecord:
        """Inverse of :meth:`to_dict`."""
        return cls(
            hook=str(data["hook"]),
            trigger=str(data.get("trigger", data["hook"])),
            step=int(data.get("step", 0)),
            verdict=data.get("verdict", "pass"),
            message=str(data.get("message", "")),
            reason=str(data.get("reason", "")),
            call_id=data.get("call_id"),
        )


def hook_records_in(messages: Iterable[Any]) -> list[HookRecord]:
    """The hook verdicts recorded in a transcript's messages, in the order they were made."""
    found = ((getattr(m, "metadata", None) or {}).get(HOOK_KEY, ()) for m in messages)
    return [HookRecord.from_dict(data) for verdicts in found for data in verdicts]


def hook_metadata(records: Sequence[HookRecord]) -> dict[str, Any]:
    """``{HOOK_KEY: [record dicts]}`` for a message's metadata."""
    return {HOOK_KEY: [r.to_dict() for r in records]}


_MISFIRE_REASONS = {
    "factual_risk": "the risk check flagged the reply as a claim a public stream may not make",
    "reply_format": "the format check flagged the reply",
}


@dataclass(frozen=True)
class ReplyVerdict:
    """The hooks' verdicts on one reply."""

    records: tuple[HookRecord, ...]
    rejection: str | None
    """The message sending the reply back (None: the reply goes through)."""
    role: Literal["user", "system"] = "user"


class HookRunner:
    """The enabled checking hooks of one episode, with the rejections each has left."""

    def __init__(self, runtime: ToolRuntime, fault: HookFault | None = None) -> None:
        self.harness = runtime.harness
        self.runtime = runtime
        self.checks = tuple(c for c in self.harness.hooks.checks if c.enabled)
        self.left = {c.name: c.budget for c in self.checks}
        self.records: list[HookRecord] = []
        self.fault = fault
        self.misfired = 0

    def __bool__(self) -> bool:
        return bool(self.checks) or self.fault is not None

    def _misfire(self, step: int, last_turn: bool) -> HookRecord | None:
        """The fault's verdict on a reply: a rejection while it has some left, then a pass."""
        if self.fault is None:
            return None
        check = HookCheck(trigger=self.fault.trigger)  # the default message and role
        if self.misfired < self.fault.times and not last_turn:
            self.misfired += 1
            reason = _MISFIRE_REASONS[self.fault.trigger]
            message = check.render(reason, self.fault.times - self.misfired)
            return HookRecord(check.name, check.trigger, step, "reject", message, reason)
        if self.misfired:
            return HookRecord(check.name, check.trigger, step, "pass")
        return None

    def _verdict(
        self, check: HookCheck, step: int, reason: str | None, *, can_reject: bool = True, **kw: Any
    ) -> HookRecord:
        if reason is None:
            record = HookRecord(check.name, check.trigger, step, "pass", **kw)
        elif can_reject and self.left[check.name] > 0:
            self.left[check.name] -= 1
            message = check.render(reason, self.left[check.name])
            record = HookRecord(check.name, check.trigger, step, "reject", message, reason, **kw)
        else:
            record = HookRecord(check.name, check.trigger, step, "let_through", "", reason, **kw)
        self.records.append(record)
        return record

    def check_call(
        self, step: int, call_id: str, name: str, arguments: Any
    ) -> tuple[HookRecord, ...]:
        """The ``tool_arguments`` hooks' verdicts on one call, before it runs."""
        out = []
        for check in self.checks:
            if check.trigger == "tool_arguments":
                problem = self.runtime.argument_problem(name, arguments)
                out.append(self._verdict(check, step, problem, call_id=call_id))
        return tuple(out)

    def check_reply(self, step: int, text: str, *, last_turn: bool) -> ReplyVerdict:
        """The reply hooks' verdicts on a reply that would be the final answer.

        On the last turn a failed check lets the reply through (the agent could not fix it).
        """
        body = split_skill_tag(split_think(text)[1])[1]
        misfire = self._misfire(step, last_turn)
        if misfire is not None:
            self.records.append(misfire)
            if misfire.verdict == "reject":
                return ReplyVerdict((misfire,), misfire.message)
        records = [misfire] if misfire is not None else []
        roles = []  # of the checks that rejected the reply
        for check in self.checks:
            if check.trigger != "tool_arguments":
                problem = self._reply_problem(check, body)
                records.append(self._verdict(check, step, problem, can_reject=not last_turn))
                if records[-1].verdict == "reject":
                    roles.append(check.role)
        if not roles:
            return ReplyVerdict(tuple(records), None)
        message = "\n\n".join(r.message for r in records if r.verdict == "reject")
        return ReplyVerdict(tuple(records), message, roles[0])

    def _reply_problem(self, check: HookCheck, body: str) -> str | None:
        if check.trigger == "skill_load":
            if any(r.skill_type == "reply" for r in skill_loads(self.runtime.records)):
                return None
            loader = self.harness.skill_loader()
            how = f" with {loader.name}" if loader is not None else ""
            return f"no reply skill is loaded; load the reply skill that fits{how} first"
        if check.trigger == "reply_format":
            constraints = self.harness.constraints()
            values = {n: constraints[n].value for n in FORMAT_LIMITS if n in constraints}
            checks = constraint_checks(FORMAT_LIMITS, values, body, 0)
            said = {
                "max_words": f"{word_count(body)} words",
                "max_emojis": f"{emoji_count(body)} emoji",
            }
            broken = [
                f"{said[n]}, at most {values[n]:g} allowed" for n, ok in checks.items() if not ok
            ]
            return "; ".join(broken) or None
        # factual_risk: the products on screen and those the agent looked up
        products = [self.runtime.session.product_on_screen] + [
            str(r.arguments["product_id"])
            for r in self.runtime.records
            if r.outcome == "ok" and isinstance(r.arguments.get("product_id"), str)
        ]
        verdict = compliance_risk(body, self.runtime.kb, dict.fromkeys(products))
        return None if verdict.value == 1.0 else f"{verdict.reason}, a public stream must not"


HOOK_REJECTIONS = "hook_rejections_"
"""Prefix of a score's per-hook rejection count (``hook_rejections_tool_arguments``, ...)."""
HOOK_RECOVERED = "hook_recovered"
"""The score key of whether an episode recovered from its hooks' rejections."""


def hook_summary(records: Sequence[HookRecord], *, answer_ok: bool = True) -> dict[str, float]:
    """Per hook that ran, its rejections (``hook_rejections_<name>``), and ``hook_recovered``.

    A :class:`HookFault`'s rejections count under the hook it misfires as.

    An episode *recovered* when a hook rejected a step and the agent then satisfied every hook
    that had rejected it (each one's last verdict is ``pass``, no step was let through) with an
    answer that does its task (``answer_ok``, as :func:`hook_fault_values` asks of a recovery:
    a summary must not say "100% recovered" beside a recovery of 0 because the agent passed
    the hooks with an empty or failed answer). NaN without a rejection (nothing to recover
    from); empty without records.
    """
    out: dict[str, float] = {}
    last: dict[str, str] = {}
    for r in records:
        key = HOOK_REJECTIONS + r.hook
        out[key] = out.get(key, 0.0) + (r.verdict == "reject")
        last[r.hook] = r.verdict
    if not records:
        return out
    rejecting = {r.hook for r in records if r.verdict == "reject"}
    if not rejecting:
        out[HOOK_RECOVERED] = math.nan
    else:
        through = any(r.verdict == "let_through" for r in records)
        ok = answer_ok and not through and all(last[h] == "pass" for h in rejecting)
        out[HOOK_RECOVERED] = 1.0 if ok else 0.0
    return out


def hook_fault_values(
    fault: HookFault, records: Sequence[HookRecord], answer_ok: bool
) -> dict[str, float]:
    """What a :class:`HookFault` did, in the robustness scorer's terms.

    ``fault_visible`` when it rejected a reply (a rejection always reaches the agent), else
    ``fault_not_reached`` (the agent never replied before its last turn). ``recovery``: 1.0 when
    the agent then answered again and the answer went through and does its task (``answer_ok``:
    not empty or evasive, accuracy not failed); 0.0 when it did not; NaN when not reached.
    """
    mine = [r for r in records if r.trigger == fault.trigger and r.hook == fault.trigger]
    reached = any(r.verdict == "reject" for r in mine)
    out = {f"fault_{o}": 0.0 for o in FAULT_OUTCOMES}
    out["fault_visible" if reached else "fault_not_reached"] = 1.0
    out["recovery"] = float(mine[-1].verdict == "pass" and answer_ok) if reached else math.nan
    return out
