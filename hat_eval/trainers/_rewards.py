"""HSA-RL's rewards: each a plain function of one finished rollout's checks, for any RL framework.

A :class:`Rollout` is one episode as the live-stream simulator ran it (the episode with its
harness variant and fault, the :class:`~hat_eval.episode.AgentRun`, the final answer with its
thinking removed, and the :class:`~hat_eval.episode.AnswerCheck` the suites would give it). The
components read only that record, so HSA-RL optimises exactly what the suites measure:

- ``accuracy``: the checks' accuracy part (claim-level; a hedged value, an answer addressed to
  the evaluator, an empty or evasive answer all fail it). ``None`` where the checks cannot
  decide (e.g. chit-chat that is not evasive): the framework leaves it out for that rollout.
- ``effectiveness``: whether the answer does its job, as the suites' headline says it: the
  checks' aggregate / 100 (accuracy, safety, tool rationality, skill and constraints weighted
  as :data:`~hat_eval.episode._checks.WEIGHTS`, safety and constraints earning only when the answer
  is on task, 0 for an empty or evasive answer). A judge can replace this proxy: give
  :class:`Rewards` a ``judge`` (a callable from a :class:`Rollout` to a score in [0, 1] or
  ``None``; one with a ``many`` method is given a whole batch at once). The RL config's
  ``judge_model`` builds the Agent-as-Judge one (:mod:`hat_eval.trainers._judge_reward`).
- ``tool_rationality``: :func:`~hat_eval.episode._checks.tool_rationality`'s score (required
  calls made with the right arguments, less a quarter per redundant or unexpected call).
- ``skill_selection``: 1 when the ``[skill: id]`` tag names a skill in force under the
  rollout's harness variant (the gold re-targeted through the variant's mapping), else 0.
- ``overlong``: minus the share by which the thinking (the words inside ``<think>...</think>``
  over every assistant turn, counted as :func:`~hat_eval.episode.word_count` counts them: a
  word per latin word, a word per CJK character) exceeds ``think_budget``, ramping linearly
  from 0 at the budget to -1 at twice the budget (and staying there).

The total is ``sum(weight * value)`` over the components that apply (``None`` ones are left
out, as TRL's ``nansum`` leaves them out). Two adapters call the same functions unchanged:
:func:`trl_reward_funcs` (TRL's ``f(prompts, completions, completion_ids, **columns)``, one
function per component so TRL logs each under ``rewards/<name>``; the rollouts arrive in the
:data:`ROLLOUT_KEY` column the rollout function returns) and :func:`compute_score` (verl's
``compute_score(data_source, solution_str, ground_truth, extra_info)``). Nothing here imports
TRL or verl.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from hat_eval.episode import (
    AgentRun,
    AnswerCheck,
    CallRecord,
    Episode,
    Message,
    check_answer,
    harness_ref,
    knowledge_base,
    split_think,
    word_count,
)

COMPONENTS = ("accuracy", "effectiveness", "tool_rationality", "skill_selection", "overlong")
"""The reward components, in the order the trainer passes them (and their weights) to TRL."""

DEFAULT_WEIGHTS: Mapping[str, float] = MappingProxyType(
    {
        "accuracy": 1.0,
        "effectiveness": 0.5,
        "tool_rationality": 0.5,
        "skill_selection": 0.25,
        "overlong": 0.5,
    }
)
"""Default weight of each component (the RL config's ``weight_<name>`` defaults)."""

DEFAULT_THINK_BUDGET = 256
"""Default thinking budget in words, over all assistant turns of a rollout."""

ROLLOUT_KEY = "rollout"
"""The column (TRL: the rollout function's extra field) that carries each :class:`Rollout`."""

Judge = Callable[["Rollout"], float | None]
"""Scores a rollout's effectiveness in [0, 1] (``None``: no verdict); see :class:`Rewards`."""


@dataclass(frozen=True)
class Rollout:
    """One finished rollout: what every reward component reads.

    Attributes:
        episode: The episode as drawn for this rollout (its harness variant, fault and the gold
            in force under that variant).
        run: The agent loop's record (transcript, tool call records, turns).
        answer: The final answer without its thinking ("" when the loop ran out of turns).
        thoughts: The thinking of every assistant turn, joined.
        check: The checks' verdict on ``answer`` and the run's tool calls.
    """

    episode: Episode
    run: AgentRun
    answer: str
    thoughts: str
    check: AnswerCheck

    @classmethod
    def finish(cls, episode: Episode, run: AgentRun) -> Rollout:
        """Check a finished run of ``episode`` as the suites would check it."""
        texts = [m.content for m in run.messages if m.role == "assistant"]
        thoughts = "\n".join(t for t in (split_think(x)[0] for x in texts) if t)
        final = run.answer
        answer = split_think(final.content)[1] if final is not None else ""
        check = check_answer(
            episode.case,
            episode.gold,
            answer,
            run.records,
            episode.fault,
            knowledge_base(episode.kb_seed, episode.shop),
        )
        return cls(episode, run, answer, thoughts, check)

    def verl_fields(self) -> tuple[str, dict[str, Any], dict[str, Any]]:
        """``(solution_str, ground_truth, extra_info)`` as :func:`compute_score` reads them.

        ``solution_str`` is the final assistant turn as generated (thinking included; "" when
        the loop ran out of turns), ``ground_truth`` the episode's dataset row
        (:meth:`~hat_eval.episode.Episode.to_row`: case, gold in force, variant, fault), and
        ``extra_info`` the base harness reference, every tool call's record and the earlier
        assistant turns' text.
        """
        turns = [m.content for m in self.run.messages if m.role == "assistant"]
        final = turns.pop() if self.run.answered else ""
        extra = {
            "harness": self.episode.harness.base_dict(),
            "tool_calls": [r.to_dict() for r in self.run.records],
            "turns": turns,
        }
        return final, self.episode.to_row(), extra


def rollout_from_verl(
    solution_str: str, ground_truth: Any, extra_info: Mapping[str, Any] | None
) -> Rollout:
    """Rebuild a :class:`Rollout` from what verl hands a reward function.

    Args:
        solution_str: The final assistant turn (thinking included).
        ground_truth: The episode's dataset row, as a dict or its JSON text.
        extra_info: ``harness`` (the base harness ``{"path", "sha256"}``; the default harness
            when missing), ``tool_calls`` (:class:`~hat_eval.episode.CallRecord` dicts, in
            call order) and ``turns`` (the earlier assistant turns' text).
    """
    row = json.loads(ground_truth) if isinstance(ground_truth, str) else dict(ground_truth)
    info = dict(extra_info or {})
    base = info.get("harness") or harness_ref(None).base_dict()
    episode = Episode.from_row(row, base)
    messages = [Message("assistant", str(t)) for t in info.get("turns", ())]
    messages.append(Message("assistant", solution_str))
    records = [CallRecord.from_dict(r) for r in info.get("tool_calls", ())]
    run = AgentRun(messages=messages, turns=len(messages), answered=True, records=records)
    return Rollout.finish(episode, run)


def _part(check: AnswerCheck, part: str) -> float | None:
    value = check.parts.get(part, math.nan)
    return None if math.isnan(value) else float(value)


def accuracy(rollout: Rollout) -> float | None:
    """The checks' accuracy part; ``None`` where they cannot decide."""
    return _part(rollout.check, "accuracy")


def effectiveness(rollout: Rollout) -> float | None:
    """The checks' aggregate / 100 (the proxy until a judge is configured); None if undecided."""
    value = rollout.check.aggregate
    return None if math.isnan(value) else value / 100.0


def tool_rationality(rollout: Rollout) -> float | None:
    """The checks' tool-rationality part (recall of required calls, less unneeded ones)."""
    return _part(rollout.check, "tools")


def skill_selection(rollout: Rollout) -> float | None:
    """1 when the answer's skill tag names a skill in force under the rollout's variant."""
    return _part(rollout.check, "skill")


def overlong(rollout: Rollout, think_budget: int = DEFAULT_THINK_BUDGET) -> float:
    """Minus the thinking's excess over ``think_budget`` words, relative to the budget.

    0 within the budget; ``-(words - budget) / max(budget, 1)`` above it, at least -1.
    """
    words = word_count(rollout.thoughts) if rollout.thoughts else 0
    excess = max(0, words - think_budget)
    return -min(1.0, excess / max(think_budget, 1)) if excess else 0.0


@dataclass(frozen=True)
class Rewards:
    """The reward components with their weights, thinking budget and optional judge.

    Attributes:
        weights: Component -> weight (missing components weigh their default).
        think_budget: Words of thinking a rollout may spend before ``overlong`` bites.
        judge: When given, ``effectiveness`` is the judge's score instead of the aggregate.
    """

    weights: Mapping[str, float] = field(default_factory=lambda: dict(DEFAULT_WEIGHTS))
    think_budget: int = DEFAULT_THINK_BUDGET
    judge: Judge | None = None

    def __post_init__(self) -> None:
        unknown = sorted(set(self.weights) - set(COMPONENTS))
        if unknown:
            raise ValueError(
                f"weights name unknown components {unknown}, expected some of {list(COMPONENTS)}"
            )

    def weight(self, name: str) -> float:
        """The weight of component ``name``."""
        return float(self.weights.get(name, DEFAULT_WEIGHTS[name]))

    def component(self, name: str, rollout: Rollout) -> float | None:
        """The value of component ``name`` for ``rollout`` (``None``: does not apply)."""
        if name == "accuracy":
            return accuracy(rollout)
        if name == "effectiveness":
            return self.judge(rollout) if self.judge is not None else effectiveness(rollout)
        if name == "tool_rationality":
            return tool_rationality(rollout)
        if name == "skill_selection":
            return skill_selection(rollout)
        if name == "overlong":
            return overlong(rollout, self.think_budget)
        raise ValueError(f"unknown reward component {name!r}, expected one of {list(COMPONENTS)}")

    def values(self, name: str, rollouts: Sequence[Rollout]) -> list[float | None]:
        """Component ``name`` of each rollout (a judge with ``many`` gets them all at once)."""
        many = getattr(self.judge, "many", None)
        if name == "effectiveness" and callable(many):
            return list(many(rollouts))
        return [self.component(name, r) for r in rollouts]

    def components(self, rollout: Rollout) -> dict[str, float | None]:
        """Every component's value for ``rollout``, in :data:`COMPONENTS` order."""
        return {name: self.component(name, rollout) for name in COMPONENTS}

    def total(self, rollout: Rollout) -> float:
        """``sum(weight * value)`` over the components that apply."""
        return sum(
            self.weight(name) * value
            for name, value in self.components(rollout).items()
            if value is not None
        )


RewardFunc = Callable[..., list[float | None]]


def trl_reward_funcs(rewards: Rewards) -> list[RewardFunc]:
    """One TRL reward function per component, in :data:`COMPONENTS` order, named after it.

    Each is ``f(prompts, completions, completion_ids, **columns)`` and reads the rollouts from
    ``columns[ROLLOUT_KEY]``; it returns one value (or ``None``) per completion. Pass their
    weights as ``reward_weights`` (``[rewards.weight(n) for n in COMPONENTS]``): TRL weighs.
    """

    def make(name: str) -> RewardFunc:
        def reward(
            prompts: Sequence[Any] | None = None,
            completions: Sequence[Any] | None = None,
            completion_ids: Sequence[Any] | None = None,
            **columns: Any,
        ) -> list[float | None]:
            return rewards.values(name, columns[ROLLOUT_KEY])

        reward.__name__ = reward.__qualname__ = name
        reward.__doc__ = f"TRL reward function: the {name!r} component of each rollout."
        return reward

    return [make(name) for name in COMPONENTS]


def compute_score(
    data_source: str,
    solution_str: str,
    ground_truth: Any,
    extra_info: Mapping[str, Any] | None = None,
    *,
    weights: Mapping[str, float] | None = None,
    think_budget: int | None = None,
    **_: Any,
) -> dict[str, float]:
    """The components in verl's reward-function shape (its ``custom_reward_function``).

    verl calls ``compute_score(data_source, solution_str, ground_truth, extra_info)`` for each
    response; the row it was generated from carries the episode (``reward_model.ground_truth``
    = :meth:`Episode.to_row` or its JSON text) and ``extra_info`` (the base harness reference,
    the call records and the earlier turns, as :meth:`Rollout.verl_fields` writes them: an
    agent loop that drives :func:`~hat_eval.episode.agent_steps` fills them in). ``weights`` and
    ``think_budget`` come from verl's ``custom_reward_function.reward_kwargs``.

    Args:
        data_source: The dataset name verl passes (not used: every row is an episode).
        solution_str: The final assistant turn.
        ground_truth: The episode row.
        extra_info: See :func:`rollout_from_verl`.
        weights: Component -> weight (defaults: :data:`DEFAULT_WEIGHTS`).
        think_budget: Words of thinking before ``overlong`` bites.

    Returns:
        ``{"score": total, <component>: value, ...}`` (components that do not apply omitted);
        verl takes ``score`` as the reward and logs the rest.
    """
    del data_source
    rewards = Rewards(
        weights=dict(weights or DEFAULT_WEIGHTS),
        think_budget=DEFAULT_THINK_BUDGET if think_budget is None else think_budget,
    )
    rollout = rollout_from_verl(solution_str, ground_truth, extra_info)
    values = rewards.components(rollout)
    out = {name: value for name, value in values.items() if value is not None}
    return {"score": rewards.total(rollout), **out}
