"""The harness agent's loop, free of any transport: one implementation for every consumer.

One episode runs as a production live-commerce host runs a viewer message: the system prompt
rendered from the harness (skills included) plus a live-context line, the harness's tools under
its names, and up to ``max_turns`` model turns. After each turn that asks for tools, every call
runs through a :class:`~hat_eval.episode.ToolRuntime` (the world, the hooks' retries, the fault
plan) and its result comes back as the hooks' message structure says: in a ``tool`` message, or
(``tool_result_role: user``) in one ``user`` message after ``tool`` messages that only acknowledge
the calls. Each ``tool`` message carries its call's :class:`~hat_eval.episode.CallRecord` under
:data:`~hat_eval.episode.TRACE_KEY` in its metadata. A turn without tool calls is the final answer.

A harness that declares checking hooks (``hooks.checks``) has them judge each step
(:mod:`._hooks`): a call a hook rejects is not run and its ``tool`` message is the hook's
message; a reply a hook rejects is followed by the hook's message (a ``user`` or ``system``
message) and the agent takes another turn, while the hook's rejection budget lasts. Each
verdict is recorded under :data:`~hat_eval.episode._hooks.HOOK_KEY` in the metadata of the message
it concerns. Without checks the loop is exactly as above.

The loop is a generator (:func:`agent_steps`) that yields each model call and is sent the
assistant's reply, so the transport decides how a turn is generated and whether it waits
synchronously or asynchronously: :func:`run_agent` drives it with a blocking ``generate`` (the
load harness streams over its own HTTP client, under gevent), :func:`run_agent_async` with an
awaitable one (the suites adapt Inspect's ``get_model().generate``). Messages are plain
:class:`Message` records; a transport keeps its own object for a message in
:attr:`Message.source` so it can give it back unchanged.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Awaitable, Callable, Generator, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, Literal, TypeVar

from hat_eval._cache import by_identity
from hat_eval.harness import Harness, Tool, render_system_prompt
from hat_eval.world import KnowledgeBase, LiveSession

from ._context import EpisodeContext
from ._hooks import HookRecord, HookRunner, hook_metadata
from ._runtime import TRACE_KEY, CallRecord, ToolRuntime

Role = Literal["system", "user", "assistant", "tool"]

RESULT_ACK = "(result in the next message)"
"""The text of a ``tool`` message when the harness sends results in a ``user`` message."""


@dataclass(frozen=True)
class ToolCall:
    """One tool call an assistant turn asks for, under the name the harness gives the tool."""

    id: str
    function: str
    arguments: dict[str, Any]
    parse_error: str | None = None
    """Why the model's text of this call did not parse (None: it parsed). Such a call is not
    run: its ``tool`` message is this error, so the model can correct the call."""


@dataclass(frozen=True)
class Message:
    """One chat message of an episode's transcript."""

    role: Role
    content: str
    tool_calls: tuple[ToolCall, ...] = ()
    """An assistant turn's tool calls (none: the turn is the final answer)."""
    tool_call_id: str | None = None
    """A ``tool`` message: the id of the call it answers."""
    function: str | None = None
    """A ``tool`` message: the tool name the call used."""
    metadata: dict[str, Any] | None = None
    """A ``tool`` message: ``{TRACE_KEY: CallRecord.to_dict()}``; with checking hooks, also
    ``{HOOK_KEY: [HookRecord.to_dict(), ...]}`` on a checked call's tool message, a rejection
    and a final answer."""
    source: Any = field(default=None, compare=False, repr=False)
    """The transport's own object this message stands for (e.g. an Inspect message), if any."""


@dataclass(frozen=True)
class ModelCall:
    """What the loop asks the transport to generate: the transcript so far and the tools."""

    messages: Sequence[Message]
    tools: Sequence[Tool]


@dataclass
class AgentRun:
    """One episode as the loop ran it."""

    messages: list[Message]
    """The whole transcript, system prompt first."""
    turns: int = 0
    """Model turns generated."""
    answered: bool = False
    """Whether the last turn was a final answer (``False``: ``max_turns`` ran out on tool calls)."""
    tool_s: list[float] = field(default_factory=list)
    """Per turn with tool calls: seconds spent running its calls (the world, hooks, faults)."""
    records: list[CallRecord] = field(default_factory=list)
    """Every tool call, in call order."""
    hooks: list[HookRecord] = field(default_factory=list)
    """Every checking hook's verdict, in the order they were made (none without checks)."""

    @property
    def answer(self) -> Message | None:
        """The final answer, if the episode ended with one."""
        return self.messages[-1] if self.answered else None


R = TypeVar("R")
Execute = Callable[[Callable[[], R]], R]
"""Runs a turn's tool calls (a no-argument function) and returns its result: e.g. on another
thread, so that a load generator's event loop keeps stamping arrivals meanwhile."""

Generate = Callable[[Sequence[Message], Sequence[Tool]], Message]
"""A blocking model call: the transcript and the tools -> the assistant's turn."""
AsyncGenerate = Callable[[Sequence[Message], Sequence[Tool]], Awaitable[Message]]
"""An awaitable model call: the transcript and the tools -> the assistant's turn."""


def live_context(session: LiveSession, kb: KnowledgeBase) -> str:
    """The line a live-commerce backend adds to the system prompt: what is on screen now."""
    from hat_eval.world import call_function

    product = call_function(
        kb, session, "catalog.get_product", {"product_id": session.product_on_screen}
    )
    name = product.get("name", session.product_on_screen) if isinstance(product, dict) else ""
    return (
        f"## Live now\nOn screen: {name} (product id {session.product_on_screen}). "
        f"Current time: {session.now}."
    )


@by_identity(4096)
def harness_prompt(harness: Harness) -> str:
    """``render_system_prompt(harness)``, made once per harness object.

    Harnesses are frozen and a run reuses one object per variant, so episodes under the same
    harness share the text.
    """
    return render_system_prompt(harness)


def unparsed_message(error: str) -> str:
    """What the model reads when its tool call did not parse: the parser's error, and the form."""
    return (
        f"your tool call could not be parsed, so it was not run: {error.strip()} -- write the "
        'call again as {"name": <tool name>, "arguments": {<argument>: <value>, ...}}'
    )


def system_message(ctx: EpisodeContext) -> Message:
    """The episode's system prompt: the harness's, then the live-context line."""
    text = harness_prompt(ctx.harness) + "\n\n" + live_context(ctx.session, ctx.kb)
    return Message("system", text)


def stable_seed(text: str) -> int:
    """A seed for an episode's tool runtime from its id (the same in every process and run)."""
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big")


def agent_steps(
    ctx: EpisodeContext,
    messages: Sequence[Message],
    *,
    seed: int,
    max_turns: int = 5,
    execute: Execute[Any] | None = None,
) -> Generator[ModelCall, Message, AgentRun]:
    """The loop: yields each model call, is sent the assistant's turn, returns the run.

    Args:
        ctx: The episode's harness, world, session and fault plan.
        messages: The conversation before the system prompt (the viewer's message).
        seed: Seed of the episode's fault injector (:func:`stable_seed` of its id).
        max_turns: Most model calls (each may ask for several tools).
        execute: Runs each turn's tool calls (see :data:`Execute`); in line when ``None``.
    """
    runtime = ToolRuntime(ctx.harness, ctx.kb, ctx.session, fault=ctx.fault, seed=seed)
    hooks = HookRunner(runtime, ctx.hook_fault)
    run = AgentRun(
        messages=[system_message(ctx), *messages], records=runtime.records, hooks=hooks.records
    )
    tools = ctx.harness.tools
    to_user = ctx.harness.hooks.messages.tool_result_role != "tool"
    for turn in range(max_turns):
        reply = yield ModelCall(run.messages, tools)
        run.turns += 1
        run.messages.append(reply)
        if not reply.tool_calls:
            if hooks:
                verdict = hooks.check_reply(
                    run.turns, reply.content, last_turn=turn + 1 == max_turns
                )
                if verdict.rejection is not None:
                    meta = hook_metadata(verdict.records)
                    run.messages.append(Message(verdict.role, verdict.rejection, metadata=meta))
                    continue
                meta = {**(reply.metadata or {}), **hook_metadata(verdict.records)}
                run.messages[-1] = replace(reply, metadata=meta)
            run.answered = True
            break

        run_calls = partial(_run_calls, runtime, hooks, run, reply.tool_calls, run.turns)
        results = run_calls() if execute is None else execute(run_calls)
        run.messages.extend(  # the turn's results, as the message structure says
            Message(
                "tool",
                RESULT_ACK if to_user else text,
                tool_call_id=call.id,
                function=call.function,
                metadata=meta,
            )
            for call, text, meta in results
        )
        if to_user:
            joined = "\n\n".join(f"{call.function}: {text}" for call, text, _ in results)
            run.messages.append(Message("user", joined))
    return run


_Result = tuple[ToolCall, str, dict[str, Any]]
"""A tool call, the text it returned (or its error or rejection), and the message metadata."""


def _run_calls(
    runtime: ToolRuntime,
    hooks: HookRunner,
    run: AgentRun,
    calls: tuple[ToolCall, ...],
    step: int,
) -> list[_Result]:
    """Run one turn's tool calls in order, each past the hooks; record how long they took."""
    start = time.perf_counter()
    out: list[_Result] = []
    for call in calls:
        if call.parse_error is not None:  # nothing to check or run: the error goes back
            runtime.unparsed(call.function)
            text = runtime.error("parse_error", unparsed_message(call.parse_error))
            out.append((call, text, {TRACE_KEY: runtime.records[-1].to_dict()}))
            continue
        checked = hooks.check_call(step, call.id, call.function, call.arguments)
        rejection = next((r.message for r in checked if r.verdict == "reject"), None)
        if rejection is None:
            text, _ = runtime.call(call.function, call.arguments)
        else:
            runtime.reject(call.function, call.arguments)
            text = rejection
        meta = {TRACE_KEY: runtime.records[-1].to_dict()}
        if checked:
            meta.update(hook_metadata(checked))
        out.append((call, text, meta))
    run.tool_s.append(time.perf_counter() - start)
    return out


def run_agent(
    ctx: EpisodeContext,
    messages: Sequence[Message],
    generate: Generate,
    *,
    seed: int,
    max_turns: int = 5,
    execute: Execute[Any] | None = None,
) -> AgentRun:
    """Run :func:`agent_steps` with a blocking ``generate``; its exceptions propagate."""
    steps = agent_steps(ctx, messages, seed=seed, max_turns=max_turns, execute=execute)
    try:
        call = next(steps)
        while True:
            call = steps.send(generate(call.messages, call.tools))
    except StopIteration as stop:
        return stop.value


async def run_agent_async(
    ctx: EpisodeContext,
    messages: Sequence[Message],
    generate: AsyncGenerate,
    *,
    seed: int,
    max_turns: int = 5,
) -> AgentRun:
    """Run :func:`agent_steps` with an awaitable ``generate``; its exceptions propagate."""
    steps = agent_steps(ctx, messages, seed=seed, max_turns=max_turns)
    try:
        call = next(steps)
        while True:
            call = steps.send(await generate(call.messages, call.tools))
    except StopIteration as stop:
        return stop.value
