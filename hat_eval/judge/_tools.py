"""The judge as an agent: read-only knowledge-base tools, and a bounded tool loop with retries.

:func:`kb_tools` gives a grader Inspect tools over one episode's world: its knowledge base (the
episode's ``kb_seed``) and live session (product on screen, time, deals), through
``hat_eval.world.call_function``. Only the functions in :data:`READ_ONLY_FUNCTIONS` are offered
(no hand-off to a human); their names, descriptions and parameter schemas are those of the
default harness file, which owns them (the world's argument checker reads the same schemas).
Every call is recorded in :attr:`KbTools.calls`.

:func:`converse` runs one grader conversation: the grader may call the tools for at most
``max_tool_turns`` turns, then must reply; the reply is parsed, and a malformed one is shown
back with its error and retried at most ``retries`` times. The outcome (:class:`Conversation`)
holds the parsed reply or the last error, the calls and tokens spent, and the tool calls made.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any, Generic, TypeVar

from inspect_ai.model import (
    ChatMessage,
    ChatMessageTool,
    ChatMessageUser,
    GenerateConfig,
    Model,
    ModelOutput,
    execute_tools,
)
from inspect_ai.tool import ToolDef, ToolError, ToolParams

from hat_eval.episode import Episode, episode_context
from hat_eval.harness import load_harness
from hat_eval.world import ToolInputError, call_function

from ._rubric import JudgeOutputError

READ_ONLY_FUNCTIONS: tuple[str, ...] = (
    "live.session_context",
    "catalog.search",
    "catalog.get_product",
    "inventory.check_stock",
    "pricing.final_price",
    "policy.shipping_returns",
    "compliance.check_claim",
)
"""The world's functions the grader may call: every lookup, none that acts (``handoff``)."""
DEFAULT_TOOL_TURNS = 6
"""Tool turns a grader gets before it must reply (one turn may hold several calls)."""

T = TypeVar("T")


@dataclass(frozen=True)
class ToolCallRecord:
    """One tool call the grader made: tool, world function, arguments, and error (if any)."""

    tool: str
    function: str
    arguments: dict[str, Any]
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """Plain data for a score's metadata (no ``error`` key when there was none)."""
        return {k: v for k, v in asdict(self).items() if k != "error" or v is not None}


@dataclass(frozen=True)
class KbTools:
    """A grader's tools over one episode's world, and the names it may cite as evidence."""

    tools: list[ToolDef]
    names: dict[str, str]
    """Tool name or world function id -> the tool's name (what a claim's evidence may say)."""
    calls: list[ToolCallRecord]
    """The tool calls the grader made, in call order."""


def kb_tools(episode: Episode) -> KbTools:
    """Read-only Inspect tools over ``episode``'s knowledge base and live session.

    One tool per function of :data:`READ_ONLY_FUNCTIONS`, named and described as the default
    harness binds it (e.g. ``calculate_final_price`` for ``pricing.final_price``). A tool
    returns the function's JSON result; bad arguments raise Inspect's ``ToolError`` with the
    world's message (what was wrong, what was expected), which the grader sees.
    """
    ctx = episode_context(episode)
    harness = load_harness(None)
    calls: list[ToolCallRecord] = []
    tools: list[ToolDef] = []
    names: dict[str, str] = {}
    for function in READ_ONLY_FUNCTIONS:
        bound = harness.tool_for(function)
        if bound is None:  # the default harness binds every function; a guard for edits
            raise ValueError(
                f"the default harness binds no tool to {function!r}; the judge's tools read "
                "their schemas from it: bind one in hat_eval/harness/live_commerce.yaml"
            )

        def make(name: str, function: str) -> Callable[..., Any]:
            async def execute(**kwargs: Any) -> str:
                try:
                    result = call_function(ctx.kb, ctx.session, function, dict(kwargs))
                except ToolInputError as e:
                    calls.append(ToolCallRecord(name, function, dict(kwargs), str(e)))
                    raise ToolError(str(e)) from None
                calls.append(ToolCallRecord(name, function, dict(kwargs)))
                return json.dumps(result, ensure_ascii=False)

            return execute

        tools.append(
            ToolDef(
                make(bound.name, function),
                name=bound.name,
                description=bound.description,
                parameters=ToolParams.model_validate(bound.parameters),
            )
        )
        names[bound.name] = bound.name
        names[function] = bound.name
    return KbTools(tools=tools, names=names, calls=calls)


@dataclass
class Conversation(Generic[T]):
    """One grader conversation's outcome: the parsed reply (None on failure) and its costs."""

    parsed: T | None = None
    error: str | None = None
    calls: int = 0
    """Generate calls made (tool turns, replies and retries)."""
    tool_calls: list[ToolCallRecord] = field(default_factory=list)
    tokens: dict[str, int] = field(default_factory=dict)

    def spend(self, output: ModelOutput) -> None:
        """Count one generate call and the tokens its ``output`` used."""
        self.calls += 1
        if output.usage is not None:
            for name in _TOKENS:
                self.tokens[name] = self.tokens.get(name, 0) + getattr(output.usage, name)


_TOKENS = ("input_tokens", "output_tokens", "total_tokens")


async def converse(
    grader: Model,
    prompt: str,
    parse: Callable[[str], T],
    *,
    retries: int,
    config: GenerateConfig,
    tools: KbTools | None = None,
    max_tool_turns: int = DEFAULT_TOOL_TURNS,
) -> Conversation[T]:
    """Ask ``grader``, let it call ``tools`` for up to ``max_tool_turns`` turns, parse its reply.

    While turns are left the grader may call tools (``tool_choice="auto"``); after the last
    one it is told to reply and offered none (``tool_choice="none"``; calls it makes anyway are
    answered "not executed" and count as a malformed reply). A reply ``parse`` rejects with
    :class:`JudgeOutputError` is shown back with the error; after ``retries`` such retries the
    conversation fails with the last error (never a default value).
    """
    messages: list[ChatMessage] = [ChatMessageUser(content=prompt)]
    out: Conversation[T] = Conversation()
    turns = 0
    failures = 0
    start = len(tools.calls) if tools is not None else 0
    while True:
        may_call = tools is not None and turns < max_tool_turns
        output = await grader.generate(
            messages,
            tools=tools.tools if tools is not None else [],
            tool_choice=None if tools is None else ("auto" if may_call else "none"),
            config=config,
        )
        out.spend(output)
        message = output.message
        messages.append(message)
        if message.tool_calls and may_call and tools is not None:
            turns += 1
            result = await execute_tools(messages, tools.tools)
            messages.extend(result.messages)
            if turns == max_tool_turns:
                messages.append(
                    ChatMessageUser(
                        content=f"You have used all {max_tool_turns} tool turns. Reply now "
                        "with only the JSON object the schema describes."
                    )
                )
            continue
        if message.tool_calls:
            error = (
                f"a tool call after the tool turns ({max_tool_turns}) were spent"
                if tools is not None
                else "a tool call, but this grader has no tools"
            )
            messages += [
                ChatMessageTool(
                    content=f"not executed: {error}", tool_call_id=call.id, function=call.function
                )
                for call in message.tool_calls
            ]
        else:
            try:
                out.parsed = parse(output.completion)
                out.error = None
                break
            except JudgeOutputError as e:
                error = str(e)
        out.error = error
        failures += 1
        if failures > retries:
            break
        messages.append(
            ChatMessageUser(
                content=f"Your reply could not be used: {error}. Reply again with only the "
                "JSON object the schema describes."
            )
        )
    if tools is not None:
        out.tool_calls = tools.calls[start:]
    return out
