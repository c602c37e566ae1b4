"""The live-stream simulator HSA-RL trains in: multi-turn rollouts through the harness's hooks.

Each rollout draws **a fresh harness variant** of its case from the training seed stream
(:func:`~hat_eval.episode.variant_for` on the train split, indexed by a per-simulator draw
counter mixed with ``augment_seed``, the case's expected skill protected: the same draw as
HSA-SFT's, :func:`~hat_eval.trainers._trajectory.draw_episode`), with the gold re-targeted
through the variant's mapping (:func:`~hat_eval.episode.gold_for`), and, for a
configured share of rollouts whose case needs a tool, an injected fault on one of its required
calls. The episode then runs in :func:`~hat_eval.episode.agent_steps`, the one agent loop the
suites and the load harness run: its system prompt is the variant's, its tools carry the
variant's names and run against the world through a :class:`~hat_eval.episode.ToolRuntime`
(retries, message structure, the fault), and :class:`~hat_eval.trainers._rewards.Rollout`
checks the result as the suites would.

**Why TRL's ``rollout_func``, not ``environment_factory``.** TRL 1.16 (``GRPOTrainer``) reads an
environment class's public methods as tools once, when the trainer starts, and renders each
prompt with that class's schemas; the only way to vary tool names there is K pre-built variant
classes routed by an ``environment`` column, i.e. K frozen variants, not a fresh one per
rollout. Its tool loop (``_tool_call_loop``) would also be a second agent loop: it appends every
result as a ``tool`` message, so the hooks' message structure (``tool_result_role: user``:
results in one user message after acknowledging tool messages), which the agent must learn to
read, could not be simulated, and the system prompt would be fixed in the dataset row instead
of drawn with the variant. A ``rollout_func`` owns generation: here it keeps one
:func:`agent_steps` generator per rollout, batches the pending model turns of all live rollouts
into one call of the trainer's own single-turn generator (``GRPOTrainer._generate_single_turn``,
what TRL's own tool loop calls; private, so the ``train`` extra pins ``trl<2``: transformers on
CPU, vLLM when ``use_vllm`` is set, weights synced by TRL before the call), and returns the token
ids (generated tokens kept as generated; tool results appended as the chat template renders
them, see :func:`env_suffix_ids`), an ``env_mask`` that keeps tool results out of the loss, the
sampling log-probabilities when the backend gives them, and each rollout's record for the
rewards (the :data:`~hat_eval.trainers._rewards.ROLLOUT_KEY` column). TRL hands a
``rollout_func`` the prompts only, so each dataset row's prompt carries its case's index in the
pool under :data:`CASE_KEY`.

**One generation call per turn.** Every turn, the pending turns of all live rollouts go to the
backend in one call; a rollout that answered, ran out of turns or of its completion budget
leaves the batch, and one whose tool call met an injected fault stays in it (the fault is the
world's answer, and the model takes the next turn). **Rewards and generation.** TRL 1.16 calls
the reward functions only after ``rollout_func`` returns (``async`` ones concurrently with each
other, on its event-loop thread, still after generation), so rewards can only overlap
generation inside this function: a rollout's checks (:meth:`Rollout.finish`) run when it ends,
between two turn batches, about 1 ms each (``bench/bench_rollouts.py``: under 1 % of the time
even beside a tiny model generating on a CPU), too little to pay for a thread that would
contend with generation for the interpreter. Generation overlapping training is TRL's
experimental ``AsyncGRPOTrainer`` (a vLLM server); a larger ``generation_batch_size`` (or
``steps_per_generation``) puts more rollouts in each of these calls.

**Parsing a model turn** (:func:`parse_turn`): Qwen's ``<tool_call>{"name": ..., "arguments":
...}</tool_call>`` blocks are the turn's tool calls (``arguments`` an object or its JSON text);
the text outside them (thinking included) is the turn's content. A turn with no block is the
final answer. A turn with a block that does not parse (not JSON, no name, arguments not an
object, a block left open) is also the final answer, markup and all, as a server without a
tool-call parser would return it: the episode ends and the checks read that text (it fails
them). A turn cut off by the completion budget is likewise the final answer, and when tool
results leave no room for another turn the episode ends with an empty answer (which scores 0).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from hat_eval.episode import (
    AgentRun,
    Episode,
    Message,
    ModelCall,
    ToolCall,
    agent_steps,
    episode_context,
    openai_message,
    stable_seed,
)
from hat_eval.hsa import derive_seed
from hat_eval.suites import suite_episodes
from hat_eval.world import FAULT_KINDS, FaultPlan

from ._rewards import ROLLOUT_KEY, Rollout
from ._trajectory import draw_episode

_BLOCK = re.compile(r"<tool_call>(.*?)(?:</tool_call>|\Z)", re.DOTALL)

CASE_KEY = "hat_case"
"""Key of a prompt message that holds the index of its case in the simulator's pool."""


def parse_turn(text: str, turn: int = 0) -> Message:
    """A generated assistant turn as an episode message (see the module docstring).

    Args:
        text: The decoded turn (special tokens removed, markup kept).
        turn: The turn's number, for the calls' ids (``call_<turn>_<i>``).

    Returns:
        An assistant :class:`~hat_eval.episode.Message`: with tool calls when every
        ``<tool_call>`` block parses, else with no calls and ``text`` as its content.
    """
    blocks = list(_BLOCK.finditer(text))
    if not blocks:
        return Message("assistant", text)
    calls = []
    for i, block in enumerate(blocks):
        if not block.group(0).endswith("</tool_call>"):
            return Message("assistant", text)
        try:
            data = json.loads(block.group(1))
            args = data.get("arguments", {}) if isinstance(data, dict) else None
            if isinstance(args, str):
                args = json.loads(args)
        except ValueError:
            return Message("assistant", text)
        if not isinstance(data, dict) or not isinstance(data.get("name"), str):
            return Message("assistant", text)
        if not isinstance(args, dict):
            return Message("assistant", text)
        calls.append(ToolCall(f"call_{turn}_{i}", data["name"], args))
    return Message("assistant", _BLOCK.sub("", text).strip(), tool_calls=tuple(calls))


def train_pool(n: int, *, harness: str | None = None, kb_seed: int = 0) -> list[Episode]:
    """The first ``n`` live-stream cases of the train split, under the base harness."""
    return suite_episodes("livestream", split="train", n=n, harness=harness, kb_seed=kb_seed)


@dataclass
class Simulator:
    """Draws rollout episodes from a case pool and runs them through the agent loop.

    Attributes:
        pool: The cases (episodes under the base harness) rollouts are drawn for.
        augment_seed: Mixed into every draw's index in the training seed stream.
        fault_share: Share of draws (of cases that need a tool) given an injected fault.
        max_turns: Most model turns per rollout.
        stream: Separates the draws of parallel simulators (e.g. the process index).
        fixed_harness: Every rollout under the base harness, no variant (the baseline HSA-RL
            is compared with); faults are drawn as without it.
        draws: Rollouts drawn so far (the next draw's counter).
    """

    pool: Sequence[Episode]
    augment_seed: int = 0
    fault_share: float = 0.0
    max_turns: int = 5
    stream: int = 0
    fixed_harness: bool = False
    draws: int = field(default=0)

    def draw(self, case: int) -> Episode:
        """A fresh episode of ``pool[case]``: a new variant, and a fault for a share of draws.

        The variant is the one HSA-SFT's stream gives the same draw index
        (:func:`~hat_eval.trainers._trajectory.draw_episode`; none with ``fixed_harness``); the
        fault hits one of the case's required calls, a random kind of
        :data:`~hat_eval.world.FAULT_KINDS`, once (60 %) or twice in a row.
        """
        draw = self.draws if not self.stream else derive_seed(self.stream, self.draws)
        self.draws += 1
        episode = draw_episode(
            self.pool[case], draw, augment_seed=self.augment_seed, fixed_harness=self.fixed_harness
        )
        rng = random.Random(derive_seed(self.augment_seed, draw, 0xFA))
        fault = None
        required = episode.case.required_calls
        if required and rng.random() < self.fault_share:
            fault = FaultPlan(
                FAULT_KINDS[rng.randrange(len(FAULT_KINDS))],
                required[rng.randrange(len(required))].function,
                times=1 if rng.random() < 0.6 else 2,
            )
        return replace(
            episode,
            id=f"{episode.id}-d{draw:x}",
            fault=fault,
            labels={**episode.labels, "fault": fault.kind if fault else "none"},
        )

    def steps(self, episode: Episode) -> Generator[ModelCall, Message, AgentRun]:
        """The agent loop for ``episode`` (see :func:`~hat_eval.episode.agent_steps`)."""
        return agent_steps(
            episode_context(episode),
            [Message("user", episode.case.message)],
            seed=stable_seed(episode.id),
            max_turns=self.max_turns,
        )

    def run(self, episode: Episode, generate: Callable[[ModelCall], Message]) -> Rollout:
        """Run ``episode`` with a blocking ``generate`` and check it."""
        steps = self.steps(episode)
        try:
            call = next(steps)
            while True:
                call = steps.send(generate(call))
        except StopIteration as stop:
            return Rollout.finish(episode, stop.value)

    def prompt_rows(self) -> list[dict[str, Any]]:
        """One dataset row per case: a conversational ``prompt`` naming its case.

        The viewer's message, with :data:`CASE_KEY` (the case's index in the pool) on it: the
        rollout function is given the prompts only, and draws the case's episode from it.
        """
        return [
            {"prompt": [{"role": "user", "content": e.case.message, CASE_KEY: i}]}
            for i, e in enumerate(self.pool)
        ]


def tool_schemas(call: ModelCall) -> list[dict[str, Any]]:
    """The tool schemas of a model call (the harness's tools under their names there)."""
    return [t.function_schema() for t in call.tools]


@dataclass
class _Live:
    """One rollout in progress: its loop, tokens and how much of the transcript is tokenized."""

    episode: Episode
    steps: Generator[ModelCall, Message, AgentRun]
    prompt_ids: list[int]
    tools: list[dict[str, Any]]
    seen: int
    completion_ids: list[int] = field(default_factory=list)
    mask: list[int] = field(default_factory=list)
    logprobs: list[float] = field(default_factory=list)
    rollout: Rollout | None = None
    turn: int = 0


class RolloutFunction:
    """TRL's ``rollout_func`` over the simulator (see the module docstring).

    Called as ``rollout_func(prompts, trainer)`` with one prompt per completion (TRL's sampler
    repeats each case ``num_generations`` times); returns ``prompt_ids``, ``completion_ids``,
    ``logprobs``, ``env_mask`` (1 for generated tokens, 0 for tool results and headers) and the
    :data:`~hat_eval.trainers._rewards.ROLLOUT_KEY` column.
    """

    def __init__(self, simulator: Simulator) -> None:
        self.simulator = simulator

    def __call__(self, prompts: Sequence[Any], trainer: Any) -> dict[str, list[Any]]:
        """Run one rollout per prompt to the end, generating their turns in batches."""
        tok = trainer.processing_class
        tok = getattr(tok, "tokenizer", tok)
        budget = int(trainer.max_completion_length)
        kwargs = {"chat_template": trainer.chat_template, **trainer.chat_template_kwargs}
        ends = set(getattr(trainer, "eos_token_ids", None) or [tok.eos_token_id])
        live = [self._start(p, tok, kwargs) for p in prompts]
        while pending := [s for s in live if s.rollout is None]:
            inputs = [s.prompt_ids + s.completion_ids for s in pending]
            ids, logps = trainer._generate_single_turn(inputs, None, {}, num_generations=1)
            for i, s in enumerate(pending):
                room = budget - len(s.completion_ids)
                new = list(ids[i])[:room]
                s.completion_ids += new
                s.mask += [1] * len(new)
                s.logprobs += list(logps[i])[:room] if logps is not None else [0.0] * len(new)
                text = tok.decode(new, skip_special_tokens=True)
                cut = not new or new[-1] not in ends  # stopped by a length limit
                reply = Message("assistant", text) if cut else parse_turn(text, s.turn)
                s.turn += 1
                self._send(s, reply, tok, kwargs, budget)
        return {
            "prompt_ids": [s.prompt_ids for s in live],
            "completion_ids": [s.completion_ids for s in live],
            "logprobs": [s.logprobs for s in live],
            "env_mask": [s.mask for s in live],
            ROLLOUT_KEY: [s.rollout for s in live],
        }

    def _start(self, prompt: Sequence[dict[str, Any]], tok: Any, kwargs: dict[str, Any]) -> _Live:
        episode = self.simulator.draw(int(prompt[-1][CASE_KEY]))
        steps = self.simulator.steps(episode)
        call = next(steps)
        tools = tool_schemas(call)
        messages = [openai_message(m) for m in call.messages]
        ids = tok.apply_chat_template(
            messages,
            tools=tools,
            add_generation_prompt=True,
            tokenize=True,
            return_dict=False,
            **kwargs,
        )
        return _Live(episode, steps, list(ids), tools, seen=len(call.messages))

    def _send(
        self, s: _Live, reply: Message, tok: Any, kwargs: dict[str, Any], budget: int
    ) -> None:
        """Give the loop the assistant's turn; tokenize what the environment added after it."""
        try:
            call = s.steps.send(reply)
        except StopIteration as stop:
            s.rollout = Rollout.finish(s.episode, stop.value)
            return
        added = [openai_message(m) for m in call.messages[s.seen + 1 :]]
        s.seen = len(call.messages)
        suffix = env_suffix_ids(tok, added, s.tools, kwargs)
        room = budget - len(s.completion_ids)
        s.completion_ids += suffix[:room]
        s.mask += [0] * len(suffix[:room])
        s.logprobs += [0.0] * len(suffix[:room])
        if len(suffix) >= room:  # no room left for another turn: the episode ends unanswered
            try:
                s.steps.send(Message("assistant", ""))
            except StopIteration as stop:
                s.rollout = Rollout.finish(s.episode, stop.value)
            else:  # pragma: no cover - an empty turn has no tool calls, so the loop ends
                raise RuntimeError("the agent loop went on after an empty final answer")


def env_suffix_ids(
    tok: Any,
    messages: Sequence[dict[str, Any]],
    tools: Sequence[dict[str, Any]],
    kwargs: dict[str, Any],
) -> list[int]:
    """Token ids the chat template puts after an assistant turn for ``messages``.

    The tool results (and, for ``tool_result_role: user`` harnesses, the user message holding
    them) up to the next assistant header. Rendered after a fixed one-call exchange and taken
    from after that exchange's last end-of-turn token, so the generated tokens before them are
    never re-tokenized (a template's rendering of a turn need not equal what was generated:
    Qwen3's drops an empty think block from a turn that is no longer the last).

    Raises:
        ValueError: the template renders fewer end-of-turn tokens with the results added.
    """
    name = next((m.get("name") for m in messages if m.get("name")), "tool")
    dummy = [
        {"role": "user", "content": "hi"},
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [{"type": "function", "function": {"name": name, "arguments": {}}}],
        },
    ]
    render = {"tools": tools, "tokenize": True, "return_dict": False, **kwargs}
    prefix = list(tok.apply_chat_template(dummy, add_generation_prompt=False, **render))
    full = list(tok.apply_chat_template([*dummy, *messages], add_generation_prompt=True, **render))
    eos = tok.eos_token_id
    turns = prefix.count(eos)
    ends = [i for i, t in enumerate(full) if t == eos]
    if turns == 0 or len(ends) < turns:
        raise ValueError(
            "the chat template does not end the assistant's turn with the end-of-turn token "
            f"{tok.eos_token!r}, so tool results cannot be cut from it"
        )
    return full[ends[turns - 1] + 1 :]
