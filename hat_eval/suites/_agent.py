"""The agents the suites run: the harness-driven agent, and Inspect's ReAct as the baseline.

``harness_agent`` does what a production live-commerce host does: system prompt rendered from
the harness (skills included), a live-context line, tools under the harness's names, and the
harness's hooks deciding retries and how tool results come back; each tool message carries its
call's record in its metadata for the scorers. ``react_baseline`` runs the
same prompt and tools through ``inspect_ai.agent.react`` with Inspect's standard tool messages:
the reference compares against ReAct.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from inspect_ai.agent import AgentPrompt, as_solver, react
from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageTool,
    ChatMessageUser,
    get_model,
)
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.tool import ToolDef, ToolInfo, ToolParams

from hat_eval.episode import TRACE_KEY, CallRecord, EpisodeContext, ToolRuntime, episode_context
from hat_eval.harness import Harness, RetryPolicy, Tool, render_system_prompt
from hat_eval.world import KnowledgeBase, LiveSession

from ._samples import episode_of


def _context(state: TaskState) -> EpisodeContext:
    return episode_context(episode_of(state.sample_id, state.metadata, state.target))


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


class ToolSpec(ToolInfo):
    """A harness tool as Inspect's ``ToolInfo``, deep-copied through its JSON by pydantic-core.

    Inspect deep-copies every tool it is given twice per model call, so that a provider may
    adapt a schema without touching the caller's. Python's generic ``deepcopy`` visits each of
    the ~17 fields of every parameter one call at a time: for the default harness's 8 tools it
    was the largest single cost of a suite sample on a fast model. Tool specs are JSON, so a
    copy parsed back from the spec's JSON is equal and independent, and made in a third of the
    time.
    """

    @classmethod
    def of(cls, tool: Tool) -> ToolSpec:
        """The spec of one harness tool, under the name and description the harness gives it."""
        return cls(
            name=tool.name,
            description=tool.description,
            parameters=ToolParams.model_validate(tool.parameters),
        )

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> ToolSpec:
        return type(self).model_validate_json(self.model_dump_json())


def tool_infos(harness: Harness) -> list[ToolInfo]:
    """The harness's tools as Inspect tool specifications."""
    return [ToolSpec.of(t) for t in harness.tools]


@dataclass(frozen=True)
class _Rendered:
    harness: Harness  # held so that its id is not reused while the entry lives
    system_prompt: str
    tools: list[ToolInfo]


_RENDERED: dict[int, _Rendered] = {}


def rendered(harness: Harness) -> tuple[str, list[ToolInfo]]:
    """The system prompt and tool specifications of ``harness``, made once per harness object.

    Harnesses are frozen and a suite reuses one object per variant (``_context`` caches
    them), so samples under the same harness share these. Inspect deep-copies the tools it is
    given, so sharing them is safe.
    """
    entry = _RENDERED.get(id(harness))
    if entry is None or entry.harness is not harness:
        if len(_RENDERED) >= 4096:
            _RENDERED.clear()
        entry = _Rendered(harness, render_system_prompt(harness), tool_infos(harness))
        _RENDERED[id(harness)] = entry
    return entry.system_prompt, entry.tools


def _user_messages(state: TaskState) -> list[ChatMessage]:
    return [m for m in state.messages if not isinstance(m, ChatMessageSystem)]


@solver
def harness_agent(*, max_turns: int = 5) -> Solver:
    """The harness-driven agent: prompt, tools and hooks all come from the sample's episode.

    The harness in force is the one the sample's episode names (the same record the scorer
    reads its gold from), so agent and gold cannot run under different harnesses.

    Args:
        max_turns: most model calls per viewer message (each may request several tools).
    """

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        ctx = _context(state)
        runtime = ToolRuntime(
            ctx.harness, ctx.kb, ctx.session, fault=ctx.fault, seed=_stable(str(state.sample_id))
        )
        prompt, tools = rendered(ctx.harness)
        system = prompt + "\n\n" + live_context(ctx.session, ctx.kb)
        state.messages = [ChatMessageSystem(content=system), *_user_messages(state)]
        structure = ctx.harness.hooks.messages
        model = get_model()
        for _ in range(max_turns):
            output = await model.generate(state.messages, tools=tools)
            state.output = output
            state.messages.append(output.message)
            calls = output.message.tool_calls or []
            if not calls:
                break
            results = []
            for call in calls:
                text, _ = runtime.call(call.function, call.arguments or {})
                results.append((call, text, {TRACE_KEY: runtime.records[-1].to_dict()}))
            if structure.tool_result_role == "tool":
                state.messages.extend(
                    ChatMessageTool(
                        content=text, tool_call_id=call.id, function=call.function, metadata=meta
                    )
                    for call, text, meta in results
                )
            else:  # results come back in a user message; tool messages only acknowledge
                state.messages.extend(
                    ChatMessageTool(
                        content="(result in the next message)",
                        tool_call_id=call.id,
                        function=call.function,
                        metadata=meta,
                    )
                    for call, _, meta in results
                )
                state.messages.append(
                    ChatMessageUser(
                        content="\n\n".join(f"{call.function}: {text}" for call, text, _ in results)
                    )
                )
        return state

    return solve


def _stable(text: str) -> int:
    import hashlib

    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big")


def _tool_def(runtime: ToolRuntime, tool: Tool) -> ToolDef:
    async def execute(**kwargs: Any) -> str:
        text, _ = runtime.call(tool.name, kwargs)
        return text

    return ToolDef(
        execute,
        name=tool.name,
        description=tool.description,
        parameters=ToolParams.model_validate(tool.parameters),
    )


@solver
def react_baseline() -> Solver:
    """Inspect's ReAct agent over the same system prompt and tools (no submit tool, no hooks).

    Tool faults still happen (the world injects them) but are not retried: ReAct has no hooks.
    """

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        ctx = _context(state)
        no_retry = ctx.harness.hooks.model_copy(update={"retry": RetryPolicy(max_retries=0)})
        plain = ctx.harness.model_copy(update={"hooks": no_retry})
        runtime = ToolRuntime(
            plain, ctx.kb, ctx.session, fault=ctx.fault, seed=_stable(str(state.sample_id))
        )
        system = rendered(ctx.harness)[0] + "\n\n" + live_context(ctx.session, ctx.kb)
        agent = react(
            prompt=AgentPrompt(
                instructions=system, assistant_prompt=None, handoff_prompt=None, submit_prompt=None
            ),
            tools=[_tool_def(runtime, t) for t in ctx.harness.tools],
            submit=False,
        )
        state.messages = _user_messages(state)
        state = await as_solver(agent)(state, generate)
        _attach_records(state.messages, runtime.records)
        return state

    return solve


def _attach_records(messages: list[ChatMessage], records: list[CallRecord]) -> None:
    """Put each runtime record in the metadata of the ReAct tool message that answers its call.

    ReAct makes the tool messages itself, so records are matched to calls afterwards: by name
    and arguments, else (Inspect may have coerced argument types) by name, in call order.
    """
    calls = {
        c.id: c for m in messages if isinstance(m, ChatMessageAssistant) for c in m.tool_calls or []
    }
    pending = list(records)
    for m in messages:
        if not isinstance(m, ChatMessageTool) or m.tool_call_id not in calls:
            continue
        call = calls[m.tool_call_id]
        same_name = [r for r in pending if r.name == call.function]
        exact = [r for r in same_name if r.arguments == (call.arguments or {})]
        if exact or same_name:
            record = (exact or same_name)[0]
            pending.remove(record)
            m.metadata = {**(m.metadata or {}), TRACE_KEY: record.to_dict()}
