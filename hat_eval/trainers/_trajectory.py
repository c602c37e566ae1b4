"""Verified trajectories from the world's train split, each draw under a fresh harness variant.

A trajectory is one episode run by :func:`~hat_eval.episode.run_agent` (the agent loop the suites
and the load harness use) with a scripted *oracle* in the model's seat:

1. first turn: the case's required calls (:attr:`~hat_eval.world.Case.required_calls`), all at
   once, under the names the episode's harness gives the functions; the arguments are the
   :class:`~hat_eval.world.ExpectedCall` values that must match, plus every other parameter the
   tool's schema requires, filled from the case (product id, SKU, the viewer's message as a
   claim, a reason for a hand-off). Cases that need no tool skip this turn. The results come back
   through :class:`~hat_eval.episode.ToolRuntime`, wrapped and placed as the harness's hooks say;
2. final turn: ``[skill: <gold.skill>] `` + :func:`~hat_eval.world.reference_answer`, the tag
   being the id the expected skill has under the episode's harness (gold re-targeted through the
   variant's mapping by :func:`~hat_eval.episode.gold_for`).

HSA tool variants rename tools and rewrite descriptions but never rename parameters (the world
rejects unknown argument names), so only tool names and skill ids follow the variant.

**Verification.** Every trajectory is scored by :func:`~hat_eval.episode.check_answer` before it
is used, and kept only when (see :func:`rejection`): the answer's accuracy passed (1.0; an
*undecided* accuracy is not a pass, so chit-chat, which the checks leave undecided, is never
kept), its skill tag is in force under the harness, and its aggregate is at least
``min_aggregate``. A variant that tightens a limit below what the reference answer needs (a lower
``max_words``, say) makes that draw fail the constraint part and lowers its aggregate; whether
it is kept then depends on ``min_aggregate``. Rejections are counted by reason.

**On-the-fly HSA.** :class:`TrajectoryStream` cycles through the pool of train cases (a fresh
permutation per pass) and gives draw ``k`` the harness variant
:func:`~hat_eval.episode.variant_for` assigns to the training index
``derive_seed(augment_seed, k)``: a seed and one or two dimensions
(:data:`~hat_eval.episode.TRAIN_DIM_COMBOS`) from the training seed stream, so two draws of one
case get different harnesses, nothing is pre-computed, and the same ``augment_seed`` replays the
same stream. With ``fixed_harness`` every draw runs under the base harness (the baseline).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from hat_eval.episode import (
    AnswerCheck,
    Episode,
    Message,
    check_answer,
    episode_context,
    gold_for,
    openai_message,
    oracle_answer,
    oracle_calls,
    run_agent,
    stable_seed,
    variant_for,
)
from hat_eval.harness import Tool, render_tools
from hat_eval.hsa import derive_seed
from hat_eval.suites import suite_episodes

DEFAULT_MIN_AGGREGATE = 80.0
"""Lowest aggregate (0-100) a kept trajectory may have, besides accuracy and skill passing."""


@dataclass(frozen=True)
class Trajectory:
    """One episode as the oracle ran it, with the checks' verdict.

    Attributes:
        episode: the episode drawn (its harness reference names the variant, if any).
        draw: the draw's index in its stream (0 outside a stream).
        messages: the transcript, system prompt first, final answer last.
        tools: the tool schemas the harness shows the model (OpenAI style, harness order).
        check: every verdict of :func:`~hat_eval.episode.check_answer` on the answer.
    """

    episode: Episode
    draw: int
    messages: tuple[Message, ...]
    tools: tuple[dict[str, Any], ...]
    check: AnswerCheck

    @property
    def answer(self) -> str:
        """The final answer's text."""
        return self.messages[-1].content

    def row(self) -> dict[str, Any]:
        """The SFT row TRL reads: ``messages`` (OpenAI chat form) and ``tools`` (a JSON string).

        ``tools`` is a JSON string, which TRL's tokenizer step parses: as a column of nested
        schemas, Arrow would merge every tool's properties into one struct and fill the
        missing ones with nulls, which the chat template would then print.
        """
        return {
            "messages": [openai_message(m) for m in self.messages],
            "tools": json.dumps(list(self.tools), ensure_ascii=False),
        }


def run_oracle(episode: Episode, *, draw: int = 0) -> Trajectory:
    """Run ``episode`` with the oracle in the agent loop and check its answer."""
    ctx = episode_context(episode)
    calls = oracle_calls(episode.case, ctx.harness.tools, skill=episode.gold.skill)

    def generate(messages: Sequence[Message], _tools: Sequence[Tool]) -> Message:
        if calls and not any(m.role == "assistant" for m in messages):
            return Message("assistant", "", tool_calls=calls)
        return Message("assistant", oracle_answer(episode, ctx))

    run = run_agent(
        ctx, [Message("user", episode.case.message)], generate, seed=stable_seed(episode.id)
    )
    answer = run.answer.content if run.answer is not None else ""
    check = check_answer(episode.case, episode.gold, answer, run.records, episode.fault, ctx.kb)
    return Trajectory(
        episode=episode,
        draw=draw,
        messages=tuple(run.messages),
        tools=tuple(render_tools(ctx.harness)),
        check=check,
    )


def rejection(check: AnswerCheck, min_aggregate: float = DEFAULT_MIN_AGGREGATE) -> str | None:
    """Why a trajectory with this verdict is not used (None: it is kept).

    Kept: accuracy 1.0 (undecided is not a pass), skill 1.0, aggregate >= ``min_aggregate``.
    The reason is the first that applies: ``accuracy undecided``, ``accuracy failed``,
    ``skill failed``, ``aggregate below <min_aggregate>``.
    """
    if "accuracy" in check.undecided:
        return "accuracy undecided"
    if check.parts["accuracy"] != 1.0:
        return "accuracy failed"
    if check.parts["skill"] != 1.0:
        return "skill failed"
    if check.aggregate < min_aggregate:
        return f"aggregate below {min_aggregate:g}"
    return None


def draw_episode(
    episode: Episode, draw: int, *, augment_seed: int = 0, fixed_harness: bool = False
) -> Episode:
    """``episode`` under the harness variant of draw ``draw`` (unchanged with ``fixed_harness``).

    The variant keeps the case's expected skill (it may rename it, not mask it); the gold is
    re-targeted through its mapping.
    """
    if fixed_harness:
        return episode
    seed, dims = variant_for(derive_seed(augment_seed, draw), "train")
    ref = replace(episode.harness, seed=seed, dims=dims, protect=(episode.case.expected_skill,))
    label = "+".join(dims)
    return replace(
        episode,
        harness=ref,
        gold=gold_for(episode.case, ref),
        labels={**episode.labels, "dims": label, "perturbation": label, "held_out": False},
    )


@dataclass
class StreamStats:
    """What one pass of a stream drew: draws, kept, rejections by reason."""

    drawn: int = 0
    kept: int = 0
    rejected: Counter[str] = field(default_factory=Counter)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for a run record."""
        return {"drawn": self.drawn, "kept": self.kept, "rejected": dict(self.rejected)}


class EmptyPoolError(ValueError):
    """The stream cannot yield a trajectory: no cases, or every draw of a whole pass rejected."""


class TrajectoryStream:
    """Endless verified trajectories over a pool of train episodes, a fresh variant per draw.

    Iterating starts again at draw 0 (a :class:`datasets.IterableDataset` re-runs its generator
    on each ``iter``); each iteration records its counts in :attr:`passes`.
    """

    def __init__(
        self,
        pool: Sequence[Episode],
        *,
        augment_seed: int = 0,
        fixed_harness: bool = False,
        min_aggregate: float = DEFAULT_MIN_AGGREGATE,
    ) -> None:
        self.pool = list(pool)
        self.augment_seed = augment_seed
        self.fixed_harness = fixed_harness
        self.min_aggregate = min_aggregate
        self.passes: list[StreamStats] = []

    @classmethod
    def from_train_split(
        cls,
        n: int,
        *,
        harness: str | None = None,
        kb_seed: int = 0,
        augment_seed: int = 0,
        fixed_harness: bool = False,
        min_aggregate: float = DEFAULT_MIN_AGGREGATE,
    ) -> TrajectoryStream:
        """A stream over the first ``n`` livestream cases of the train split (base harness)."""
        pool = suite_episodes("livestream", split="train", n=n, harness=harness, kb_seed=kb_seed)
        return cls(
            pool,
            augment_seed=augment_seed,
            fixed_harness=fixed_harness,
            min_aggregate=min_aggregate,
        )

    def order(self, round_: int) -> list[int]:
        """The pool order of pass ``round_`` over the cases (a seeded permutation)."""
        idx = list(range(len(self.pool)))
        random.Random(derive_seed(self.augment_seed, round_, 0x5F7)).shuffle(idx)
        return idx

    def trajectory(self, draw: int) -> Trajectory:
        """Draw ``draw``'s trajectory, verified or not."""
        n = len(self.pool)
        episode = self.pool[self.order(draw // n)[draw % n]]
        drawn = draw_episode(
            episode, draw, augment_seed=self.augment_seed, fixed_harness=self.fixed_harness
        )
        return run_oracle(drawn, draw=draw)

    def __iter__(self) -> Iterator[Trajectory]:
        """Verified trajectories, endlessly.

        Raises:
            EmptyPoolError: the pool is empty, or as many draws as the pool has cases were
                rejected in a row (nothing would ever be yielded).
        """
        if not self.pool:
            raise EmptyPoolError("the pool of train cases is empty")
        stats = StreamStats()
        self.passes.append(stats)
        in_a_row = 0
        draw = 0
        while True:
            t = self.trajectory(draw)
            draw += 1
            stats.drawn += 1
            reason = rejection(t.check, self.min_aggregate)
            if reason is None:
                stats.kept += 1
                in_a_row = 0
                yield t
                continue
            stats.rejected[reason] += 1
            in_a_row += 1
            if in_a_row >= len(self.pool):
                raise EmptyPoolError(
                    f"{in_a_row} draws in a row were rejected ({dict(stats.rejected)})"
                )

    def rows(self) -> Iterator[dict[str, Any]]:
        """:meth:`Trajectory.row` of each verified trajectory (the generator TRL reads)."""
        for t in self:
            yield t.row()

    def survey(self, draws: int) -> StreamStats:
        """Counts over the first ``draws`` draws (kept or not), without training on them."""
        stats = StreamStats()
        for draw in range(draws):
            reason = rejection(self.trajectory(draw).check, self.min_aggregate)
            stats.drawn += 1
            if reason is None:
                stats.kept += 1
            else:
                stats.rejected[reason] += 1
        return stats

    def last_pass(self) -> StreamStats:
        """The counts of the longest iteration so far (training's, not TRL's peeks)."""
        return max(self.passes, key=lambda s: s.drawn, default=StreamStats())
