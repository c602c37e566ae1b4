"""The agents the suites run: the harness-driven agent, and Inspect's ReAct as the baseline.

``harness_agent`` does what a production live-commerce host does: system prompt rendered from
the harness (skills included), a live-context line, tools under the harness's names, and the
harness's hooks deciding retries and how tool results come back; each tool message carries its
call's record in its metadata for the scorers. Its loop is the episode layer's
(:func:`hat_eval.episode.run_agent_async`, the one the load harness drives too).
``react_baseline`` runs the same prompt and tools through ``inspect_ai.agent.react`` with
Inspect's standard tool messages: the reference compares against ReAct.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from inspect_ai.agent import AgentPrompt, as_solver, react
from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageBase,
    ChatMessageSystem,
    ChatMessageTool,
    ChatMessageUser,
    get_model,
)
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.tool import ToolCall as InspectToolCall
from inspect_ai.tool import ToolDef, ToolInfo, ToolParams

from hat_eval._cache import by_identity
from hat_eval.episode import (
    TRACE_KEY,
    CallRecord,
    EpisodeContext,
    Message,
    ToolCall,
    ToolRuntime,
    episode_context,
    run_agent_async,
    stable_seed,
    system_message,
)
from hat_eval.harness import Harness, RetryPolicy, Tool

from ._samples import episode_of


class ModelServerError(RuntimeError):
    """A model call that gave no usable reply in all its tries (a timeout, a bad answer).

    Inspect reports it as tenacity's ``RetryError[<Future ...>]``; this names the last error,
    the tries and the options that bound them.
    """


@contextmanager
def named_model_errors() -> Iterator[None]:
    """Turn Inspect's exhausted retries of a model call into a :class:`ModelServerError`."""
    from tenacity import RetryError

    try:
        yield
    except RetryError as err:
        last = err.last_attempt
        cause = last.exception() if last.failed else None
        what = f"{type(cause).__name__}: {cause}" if cause is not None else "no reply"
        raise ModelServerError(
            f"the model gave no usable reply in {last.attempt_number} tries (last: {what}); "
            "check the model server (its log, its load); hat-eval run's --request-timeout and "
            "--max-retries bound each try and the tries"
        ) from None


def _context(state: TaskState) -> EpisodeContext:
    return episode_context(episode_of(state.sample_id, state.metadata, state.target))


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


@by_identity(4096)
def tool_infos(harness: Harness) -> list[ToolInfo]:
    """The harness's tools as Inspect tool specifications, made once per harness object.

    Harnesses are frozen and a suite reuses one object per variant (``_context`` caches
    them), so samples under the same harness share these. Inspect deep-copies the tools it is
    given, so sharing them is safe.
    """
    return [ToolSpec.of(t) for t in harness.tools]


def _user_messages(state: TaskState) -> list[ChatMessage]:
    return [m for m in state.messages if not isinstance(m, ChatMessageSystem)]


@solver
def harness_agent(*, max_turns: int = 5) -> Solver:
    """The harness-driven agent: prompt, tools and hooks all come from the sample's episode.

    The harness in force is the one the sample's episode names (the same record the scorer
    reads its gold from), so agent and gold cannot run under different harnesses. The loop is
    the episode layer's (:func:`hat_eval.episode.run_agent_async`); this solver only adapts
    Inspect's ``get_model().generate`` to it and its plain messages to Inspect's.

    Args:
        max_turns: most model calls per viewer message (each may request several tools).
    """

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        ctx = _context(state)
        tools = tool_infos(ctx.harness)
        model = get_model()
        chat = _InspectChat()

        async def model_turn(messages: Sequence[Message], _tools: Sequence[Tool]) -> Message:
            # the state holds the transcript as it stands, as if the solver had built it itself
            state.messages = [chat.inspect(m) for m in messages]
            state.output = await model.generate(state.messages, tools=tools)
            state.messages.append(state.output.message)
            return chat.plain(state.output.message)

        with named_model_errors():
            run = await run_agent_async(
                ctx,
                [chat.plain(m) for m in _user_messages(state)],
                model_turn,
                seed=stable_seed(str(state.sample_id)),
                max_turns=max_turns,
            )
        state.messages = [chat.inspect(m) for m in run.messages]
        return state

    return solve


class _InspectChat:
    """Plain episode messages to Inspect's and back, each message converted once.

    A message that came from Inspect (the sample's input, a model's reply) keeps its Inspect
    object in :attr:`Message.source` and goes back as that very object; one the loop made (the
    system prompt, tool results) becomes one new Inspect message, reused on every later turn.
    """

    def __init__(self) -> None:
        self._made: dict[int, tuple[Message, ChatMessage]] = {}

    @staticmethod
    def plain(message: ChatMessage) -> Message:
        calls = message.tool_calls if isinstance(message, ChatMessageAssistant) else None
        return Message(
            message.role,
            message.text,
            tool_calls=tuple(
                ToolCall(c.id, c.function, c.arguments or {}, c.parse_error) for c in calls or ()
            ),
            source=message,
        )

    def inspect(self, m: Message) -> ChatMessage:
        if isinstance(m.source, ChatMessageBase):
            if m.metadata:  # verdicts the loop recorded on a model's reply (checking hooks)
                m.source.metadata = {**(m.source.metadata or {}), **m.metadata}
            return m.source  # type: ignore[return-value]
        made = self._made.get(id(m))
        if made is not None and made[0] is m:
            return made[1]
        out: ChatMessage
        if m.role == "system":
            out = ChatMessageSystem(content=m.content, metadata=m.metadata)
        elif m.role == "user":
            out = ChatMessageUser(content=m.content, metadata=m.metadata)
        elif m.role == "tool":
            out = ChatMessageTool(
                content=m.content,
                tool_call_id=m.tool_call_id,
                function=m.function,
                metadata=m.metadata,
            )
        else:
            out = ChatMessageAssistant(
                content=m.content,
                tool_calls=[
                    InspectToolCall(id=c.id, function=c.function, arguments=c.arguments)
                    for c in m.tool_calls
                ]
                or None,
            )
        self._made[id(m)] = (m, out)
        return out


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
            plain, ctx.kb, ctx.session, fault=ctx.fault, seed=stable_seed(str(state.sample_id))
        )
        system = system_message(ctx).content
        agent = react(
            prompt=AgentPrompt(
                instructions=system, assistant_prompt=None, handoff_prompt=None, submit_prompt=None
            ),
            tools=[_tool_def(runtime, t) for t in ctx.harness.tools],
            submit=False,
        )
        state.messages = _user_messages(state)
        with named_model_errors():
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
