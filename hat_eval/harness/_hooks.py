"""A harness's behaviour around tool calls: retry policy, message structure and hooks."""

from __future__ import annotations

from typing import Any, Literal, get_args

from pydantic import Field, field_validator, model_validator

from ._model_base import IDENTIFIER, FaultKind, _Frozen, one_of, only_placeholders

__all__ = [
    "HOOK_TRIGGERS",
    "HookCheck",
    "HookTrigger",
    "Hooks",
    "MessageStructure",
    "REPLY_TRIGGERS",
    "RetryPolicy",
]


class RetryPolicy(_Frozen):
    """How a failed tool call is retried before the agent sees the error."""

    max_retries: int = Field(default=1, ge=0, le=10)
    backoff_s: float = Field(default=0.0, ge=0.0, le=60.0)
    backoff_multiplier: float = Field(default=2.0, ge=1.0, le=10.0)
    retry_on: tuple[FaultKind, ...] = ("timeout", "server_error")


class MessageStructure(_Frozen):
    """How tool results and errors are wrapped, and which role carries them."""

    tool_result_role: Literal["tool", "user"] = "tool"
    result_format: Literal["json", "text", "xml"] = "json"
    result_prefix: str = ""
    error_template: str = "Tool error ({kind}): {message}"

    @field_validator("error_template")
    @classmethod
    def _error_fields(cls, value: str) -> str:
        return only_placeholders(value, "kind", "message")


HookTrigger = Literal["tool_arguments", "skill_load", "reply_format", "factual_risk"]
"""What a checking hook checks, and so where in the agent loop it runs.

``tool_arguments`` runs on each tool call before it executes: the arguments against the
tool's schema (missing, unknown or ill-typed) and the knowledge base (an unknown product id or
SKU; for the skill loader, an unknown skill id). The others run on a final reply:
``skill_load``, a reply skill must have been loaded (progressive disclosure only);
``reply_format``, the word and emoji limits in force; ``factual_risk``, no claim the compliance
rules of the products' categories forbid."""

HOOK_TRIGGERS: tuple[HookTrigger, ...] = get_args(HookTrigger)
"""The hook triggers in their fixed order."""

REPLY_TRIGGERS: frozenset[HookTrigger] = frozenset({"skill_load", "reply_format", "factual_risk"})
"""The triggers that check a final reply (the rest check tool calls)."""


class HookCheck(_Frozen):
    """A hook that checks one step of the agent loop and may send the agent back.

    A rejected step does not go through: a rejected tool call is not executed and its tool
    message is the hook's message; a rejected reply is not the final answer, the hook's message
    follows it (as ``role``) and the agent takes another turn. Each hook rejects at most
    ``budget`` times per episode; after that a step it would reject goes through.
    """

    trigger: HookTrigger
    name: str = Field(default="", pattern=r"^$|" + IDENTIFIER)
    """The hook's name in records (its trigger when omitted)."""
    message: str = "Rejected by {hook}: {reason}. Fix this and try again."
    """What the agent is told: ``{hook}``, ``{reason}`` (what is wrong) and ``{left}``
    (rejections this hook has left after this one) are filled in."""
    budget: int = Field(default=2, ge=0, le=10)
    """Most rejections per episode; 0 checks and records without ever rejecting."""
    enabled: bool = True
    role: Literal["user", "system"] = "user"
    """The role of a reply rejection's message (a call's rejection is its tool message)."""

    @field_validator("trigger", mode="before")
    @classmethod
    def _known_trigger(cls, value: Any) -> Any:
        return one_of(value, HOOK_TRIGGERS, "trigger")

    @field_validator("message")
    @classmethod
    def _message_fields(cls, value: str) -> str:
        return only_placeholders(value, "hook", "reason", "left")

    @model_validator(mode="after")
    def _default_name(self) -> HookCheck:
        if not self.name:
            object.__setattr__(self, "name", self.trigger)
        return self

    def render(self, reason: str, left: int) -> str:
        """The message the agent gets for a rejection."""
        return self.message.format(hook=self.name, reason=reason, left=left)


class Hooks(_Frozen):
    """Retry behaviour and message structure around tool calls, and the hooks that check."""

    retry: RetryPolicy = RetryPolicy()
    messages: MessageStructure = MessageStructure()
    checks: tuple[HookCheck, ...] = ()
    """Checking hooks, in the order they run (none: the loop checks nothing)."""
