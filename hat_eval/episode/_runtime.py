"""One sample's tool runtime: the world's functions under the harness's names, with its hooks.

The agent sees tools by the names and descriptions the harness (or its HSA variant) gives them;
each call resolves to a function id, runs against the knowledge base, may hit an injected fault,
is retried as the harness's retry policy says, and comes back wrapped the way its message
structure says. A harness with progressive skill disclosure has one tool bound to the built-in
function ``skills.load``: the runtime serves it from the harness itself (the body of the skill
named, under the harness's ids), never from the world, and records it like any other call.
Every call is recorded for the scorers: the agent puts each call's record in the
metadata of the tool message that answers it, so the trace lives in the transcript beside the
call it describes (``inspect view`` shows it there) and :func:`records_in` reads it back.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from hat_eval.harness import (
    FAULT_KINDS,
    SKILL_LOADER,
    Harness,
    MessageStructure,
    RetryPolicy,
    skill_body,
)
from hat_eval.world import FaultInjector, FaultPlan, KnowledgeBase, LiveSession

TRACE_KEY = "hat_eval_call"
"""The key under which a tool message's metadata holds its call's :class:`CallRecord` dict."""


CALL_OUTCOMES: tuple[str, ...] = (
    "ok",
    "input_error",
    "unknown_tool",
    "rejected",
    "parse_error",
    *(f"fault:{kind}" for kind in FAULT_KINDS),
)
"""Every :attr:`CallRecord.outcome` the runtime writes (the one list; readers derive theirs)."""


def records_in(messages: Iterable[Any]) -> list[CallRecord]:
    """The call records of a transcript's tool messages, in call order."""
    found = ((getattr(m, "metadata", None) or {}).get(TRACE_KEY) for m in messages)
    return [CallRecord.from_dict(data) for data in found if data is not None]


@dataclass
class CallRecord:
    """One tool call as the agent made it and as the runtime resolved it."""

    name: str
    function: str | None
    arguments: dict[str, Any]
    outcome: str
    """``ok``, ``input_error``, ``unknown_tool``, ``fault:<kind>`` (the agent saw a fault),
    ``rejected`` (a checking hook sent it back before it ran) or ``parse_error`` (the model's text
    of the call did not parse: it was not run, and the parser's error went back):
    :data:`CALL_OUTCOMES`."""
    attempts: int = 1
    faults: list[str] = field(default_factory=list)
    """Fault kinds met on the way (including those a retry recovered from)."""
    backoff_s: float = 0.0
    """Simulated time spent waiting between retries (the runtime does not sleep)."""
    skill_type: str | None = None
    """A skill load that succeeded: the type of the skill loaded (``reply`` or ``strategy``)."""

    def to_dict(self) -> dict[str, Any]:
        """Plain data for a tool message's metadata (``skill_type`` only for a skill load)."""
        data = asdict(self)
        if data["skill_type"] is None:
            del data["skill_type"]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CallRecord:
        """Inverse of :meth:`to_dict` (missing counters default as for a fresh record)."""
        function = data.get("function")
        return cls(
            name=str(data.get("name", function or "")),
            function=None if function is None else str(function),
            arguments=dict(data.get("arguments") or {}),
            outcome=str(data.get("outcome", "ok")),
            attempts=int(data.get("attempts", 1)),
            faults=list(data.get("faults", ())),
            backoff_s=float(data.get("backoff_s", 0.0)),
            skill_type=data.get("skill_type"),
        )


def skill_loads(records: Iterable[CallRecord]) -> list[CallRecord]:
    """The successful skill loads among ``records``, in call order."""
    return [r for r in records if r.function == SKILL_LOADER and r.outcome == "ok"]


def loaded_skill(record: CallRecord) -> str:
    """The id (under the harness in force) of the skill a successful load loaded.

    The loader takes exactly one argument (the harness validates its schema and the runtime
    refuses any other), so the id is that argument's value whatever the harness calls it.
    """
    return str(next(iter(record.arguments.values()), ""))


class ToolRuntime:
    """Executes tool calls for one sample."""

    def __init__(
        self,
        harness: Harness,
        kb: KnowledgeBase,
        session: LiveSession,
        *,
        fault: FaultPlan | None = None,
        seed: int = 0,
    ) -> None:
        self.harness = harness
        self.kb = kb
        self.session = session
        self.by_name = {t.name: t.function for t in harness.tools}
        self.retry: RetryPolicy = harness.hooks.retry
        self.messages: MessageStructure = harness.hooks.messages
        self.faults = FaultInjector([fault] if fault else [], seed=seed)
        self.records: list[CallRecord] = []

    # -- execution ---------------------------------------------------------------------------------
    def call(self, name: str, arguments: dict[str, Any]) -> tuple[str, bool]:
        """Run one call; returns the text the agent sees and whether it is an error.

        Each attempt goes through the world's :class:`FaultInjector` (a down backend fails
        before the arguments are looked at); the hooks retry the faults they can see.
        """
        from hat_eval.world import ToolFault, ToolInputError

        function = self.by_name.get(name)
        record = CallRecord(name=name, function=function, arguments=dict(arguments), outcome="ok")
        self.records.append(record)
        if function is None:
            record.outcome = "unknown_tool"
            return self.error(
                "unknown_tool",
                f"there is no tool called {name!r}; the tools are {', '.join(self.by_name)}",
            ), True
        if function == SKILL_LOADER:
            return self._load_skill(name, arguments, record)
        while True:
            try:
                text = self.faults.call(self.kb, self.session, function, arguments)
            except ToolInputError as err:
                record.outcome = "input_error"
                return self.error("input_error", str(err)), True
            except ToolFault as fault:
                record.faults.append(fault.kind)
                if self._retry(record, fault.kind):
                    continue
                record.outcome = f"fault:{fault.kind}"
                return self.error(fault.kind, fault.message), True
            if text.kind is not None:
                record.faults.append(text.kind)
                # What the hooks can see: broken JSON or an empty result. Schema drift, a
                # partial-but-valid result and a slow answer look like success.
                detected = None if text.kind == "slow" else _detect(text)
                if detected is not None:
                    if self._retry(record, detected):
                        continue
                    record.outcome = f"fault:{detected}"
            return self.wrap(name, str(text)), record.outcome != "ok"

    def _load_skill(
        self, name: str, arguments: dict[str, Any], record: CallRecord
    ) -> tuple[str, bool]:
        """Serve the skill loader from the harness: the body of the skill its argument names."""
        problem = self._skill_problem(name, arguments)
        if problem is not None:
            record.outcome = "input_error"
            return self.error("input_error", problem), True
        skill = self.harness.skill(loaded_skill(record))
        record.skill_type = skill.type
        return self.wrap(name, skill_body(skill)), False

    def _skill_problem(self, name: str, arguments: dict[str, Any]) -> str | None:
        """What is wrong with a skill load's arguments (None: one known skill id)."""
        param = next(iter(self.harness.tool(name).parameters["properties"]))
        skill_id = arguments.get(param)
        if not isinstance(skill_id, str) or len(arguments) != 1:
            return f"{name} takes one argument, {param!r} (a skill id), got {sorted(arguments)}"
        if not any(s.id == skill_id for s in self.harness.skills):
            ids = ", ".join(s.id for s in self.harness.skills)
            return f"there is no skill {skill_id!r}; the skills are {ids}"
        return None

    def argument_problem(self, name: str, arguments: Any) -> str | None:
        """What is wrong with a call's arguments, checked without running it (None: nothing).

        The world's checks (:func:`hat_eval.world.check_arguments`: the schema, then product
        ids and SKUs against the knowledge base) or, for the skill loader, its one argument and
        the skill id under the harness in force. A tool the harness does not have is not an
        argument problem (the call reports it).
        """
        from hat_eval.world import ToolInputError, check_arguments

        function = self.by_name.get(name)
        if function is None:
            return None
        if not isinstance(arguments, dict):
            return f"arguments are a {type(arguments).__name__}, expected a JSON object"
        if function == SKILL_LOADER:
            return self._skill_problem(name, arguments)
        try:
            check_arguments(self.kb, function, arguments)
        except ToolInputError as err:
            return str(err)
        return None

    def unparsed(self, name: str) -> None:
        """Record a call whose text did not parse (outcome ``parse_error``, no function: not run).

        ``name`` is what the parser made of the tool's name (Inspect's ``unknown`` when it made
        nothing of it). The parser's error is what the model reads in the call's tool message.
        """
        self.records.append(CallRecord(name, None, {}, "parse_error"))

    def reject(self, name: str, arguments: dict[str, Any]) -> None:
        """Record a call a hook rejected before it ran (outcome ``rejected``)."""
        self.records.append(CallRecord(name, self.by_name.get(name), dict(arguments), "rejected"))

    def _retry(self, record: CallRecord, kind: str) -> bool:
        """Whether the hooks retry a ``kind`` fault now; if so, count the attempt and its wait.

        The n-th retry waits ``backoff_s * backoff_multiplier ** (n - 1)`` (simulated).
        """
        if kind in self.retry.retry_on and record.attempts <= self.retry.max_retries:
            record.backoff_s += self.retry.backoff_s * self.retry.backoff_multiplier ** (
                record.attempts - 1
            )
            record.attempts += 1
            return True
        return False

    # -- message structure ------------------------------------------------------------------------
    def wrap(self, name: str, text: str) -> str:
        """A successful result in the harness's result format, with its prefix."""
        fmt = self.messages.result_format
        if fmt == "text":
            try:
                body = _as_text(json.loads(text))
            except ValueError:
                body = text
        elif fmt == "xml":
            body = f'<tool_result name="{name}">{text}</tool_result>'
        else:
            body = text
        prefix = self.messages.result_prefix
        return f"{prefix} {body}" if prefix else body

    def error(self, kind: str, message: str) -> str:
        """An error as the harness's error template words it."""
        return self.messages.error_template.format(kind=kind, message=message)


def _detect(text: str) -> str | None:
    """The fault kind a result text shows on its face: malformed JSON or an empty result."""
    try:
        value = json.loads(text)
    except ValueError:
        return "malformed"
    if value in ({}, [], None, ""):
        return "empty"
    return None


def _as_text(value: Any, indent: str = "") -> str:
    """JSON as ``key: value`` lines, for the ``text`` result format."""
    if isinstance(value, dict):
        lines = []
        for k, v in value.items():
            if isinstance(v, dict | list):
                lines.append(f"{indent}{k}:")
                lines.append(_as_text(v, indent + "  "))
            else:
                lines.append(f"{indent}{k}: {v}")
        return "\n".join(lines)
    if isinstance(value, list):
        return "\n".join(f"{indent}- {_as_text(v, indent + '  ').lstrip()}" for v in value)
    return f"{indent}{value}"
