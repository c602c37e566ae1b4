"""``hat/oracle``: the world's reference answers played through a suite, the instrument's ceiling.

The oracle reads the gold. In a sample's first turn it asks for the case's required calls
(:attr:`~hat_eval.world.Case.required_calls`), all at once, under the names the harness in force
gives their functions (the gold's ``tools``: function id -> tool name, renamed under HSA); then
it answers ``[skill: <gold.skill>] `` + :func:`~hat_eval.world.reference_answer`, the skill tag
being the id in force. Under progressive skill disclosure the first turn loads the skill in force
first (through ``gold.tools["skills.load"]``, the loader's name in force) and the answer is
untagged. Both pieces are the SFT trajectories' oracle
(:func:`~hat_eval.episode.oracle_calls` and
:func:`~hat_eval.episode.oracle_answer`), so the suites and the training data share
one definition of a perfect episode. What the tools return does not change the answer, with one
addition for the ``robustness`` suite: a call whose fault reached the agent (its record's
outcome is ``fault:<kind>``) is made again in the next turn, up to :data:`RETRIES` turns, as a
careful agent does, so that the oracle's recovery is what an agent can reach. (Under
``--agent react`` the call records reach the transcript only after the run, so it cannot see
the faults and does not retry.)

An answer of the oracle that loses points is an error of the instrument (a check, a gold label)
or of the reference answer, never of a model: ``python bench/oracle_losses.py`` lists them.

**How a model call finds its sample.** A model API is handed only messages and tools, and
looking the episode up by its viewer message is ambiguous (``variant`` runs the ``livestream``
messages under other harnesses, and messages may repeat). The oracle asks Inspect for the
running sample's :class:`~inspect_ai.solver.TaskState` (``sample_state()``, the context variable
Inspect sets for every sample and reads in ``Model.generate`` itself to key its cache by epoch)
and unpacks the episode from it with :func:`~hat_eval.suites.episode_of`, exactly as the agent
and the scorer do, so the three cannot disagree about the harness in force. ``sample_state`` is
not among Inspect's documented exports: the documented per-sample channel, the sample
:func:`~inspect_ai.util.store`, starts empty and would need the suites' solver to copy every
sample's ~2 KB of gold into it, where Inspect would log it once more per sample; one private
import, pinned by ``tests/baselines/test_oracle.py``, is the smaller dependency.
"""

from __future__ import annotations

from typing import Any

from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageTool,
    GenerateConfig,
    ModelAPI,
    ModelOutput,
)
from inspect_ai.solver._task_state import sample_state  # private: see the module docstring
from inspect_ai.tool import ToolCall, ToolChoice, ToolInfo

from hat_eval.episode import TRACE_KEY, Episode, episode_context, oracle_answer, oracle_calls
from hat_eval.suites import episode_of
from hat_eval.world import is_judge_only

from ._reference_policy import _output

ORACLE = "oracle"
"""The ``hat/`` model name of the oracle."""


class NoSampleError(RuntimeError):
    """``hat/oracle`` was called outside a running hat-eval suite sample."""


def running_episode() -> Episode:
    """The episode of the Inspect sample running in this context.

    Raises:
        NoSampleError: no sample is running (a bare ``get_model("hat/oracle").generate(...)``).
        ValueError: the running sample was not made by hat-eval's suites.
    """
    state = sample_state()
    if state is None:
        raise NoSampleError(
            "hat/oracle answers only inside a running hat-eval suite sample (it reads the "
            "sample's gold), and no sample is running; run it on a suite, e.g. "
            "`hat-eval run --suite livestream --model hat/oracle`"
        )
    return episode_of(state.sample_id, state.metadata, state.target)


RETRIES = 2
"""Most turns the oracle spends making calls again whose fault reached it: the ``robustness``
suite's faults fail a function's first one or two calls, which a careful agent outlasts."""


def faulted_calls(input: list[ChatMessage], retries: int = RETRIES) -> list[ToolCall]:
    """The calls of the last assistant turn whose fault reached the agent, made again.

    Empty after ``retries`` turns of retrying, or when the last turn's calls all succeeded.
    A call's outcome is read from its tool message's call record.
    """
    turns = [m for m in input if isinstance(m, ChatMessageAssistant)]
    if not turns or len(turns) > retries or not turns[-1].tool_calls:
        return []
    outcome = {
        m.tool_call_id: str(((m.metadata or {}).get(TRACE_KEY) or {}).get("outcome", ""))
        for m in input
        if isinstance(m, ChatMessageTool)
    }
    made = sum(len(t.tool_calls or []) for t in turns)
    failed = [c for c in turns[-1].tool_calls if outcome.get(c.id, "").startswith("fault:")]
    return [
        ToolCall(id=f"call_{made + i}", function=c.function, arguments=c.arguments)
        for i, c in enumerate(failed)
    ]


class OraclePolicy(ModelAPI):
    """``hat/oracle``: required calls under the names in force, then the tagged reference answer.

    No weights, no network; it reads the running sample's gold (see the module docstring).
    """

    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig | None = None,
        **model_args: Any,
    ) -> None:
        if model_name != ORACLE:
            raise ValueError(f"model {model_name!r} is not the oracle; expected hat/{ORACLE}")
        super().__init__(model_name, base_url, api_key, [], config or GenerateConfig())

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        """First turn: the required calls (if any); then failed calls again; then the answer."""
        episode = running_episode()
        if is_judge_only(episode.case):
            raise ValueError(
                f"hat/oracle plays a case's gold, and {episode.case.id!r} has none (a judge-only "
                "case of --cases); run a model on it, or give the line its gold"
            )
        ctx = episode_context(episode)
        if any(isinstance(m, ChatMessageAssistant) for m in input):
            calls = faulted_calls(input)
        else:
            calls = [
                ToolCall(id=c.id, function=c.function, arguments=c.arguments)
                for c in oracle_calls(episode.case, ctx.harness.tools, skill=episode.gold.skill)
            ]
        if calls:
            return _output(self.model_name, input, tool_calls=calls)
        return _output(self.model_name, input, oracle_answer(episode, ctx))
