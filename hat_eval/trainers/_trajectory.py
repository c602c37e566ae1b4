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
(:data:`~hat_eval.episode._dataset.TRAIN_DIM_COMBOS`) from the training seed stream, so two draws of
one case get different harnesses, nothing is pre-computed, and the same ``augment_seed`` replays the
same stream. With ``fixed_harness`` every draw runs under the base harness (the baseline).

**Slots.** The stream's rows are numbered (slots). Slot ``j`` is draw ``j`` when that draw is
kept; when it is rejected the slot is refilled by *retries*: attempt ``t`` of slot ``j`` is a case
of the pool picked by ``derive_seed(augment_seed, j, t, ...)`` under that seed's variant, until
one is kept (a pool's worth of rejected attempts in a row raises :class:`EmptyPoolError`). So
what slot ``j`` holds depends on ``j`` and the seed alone, never on which slots were drawn
before it or by whom: DataLoader workers can each draw their own slots
(:mod:`~hat_eval.trainers._pipeline`) and the rows, and their order, are the same for any
number of workers. The draws' counts (drawn, kept, rejected by reason) are kept in shared
memory, one row per worker (:class:`SharedCounts`), so the training process can read what its
workers drew.
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from multiprocessing import RawArray
from multiprocessing.context import get_spawning_popen
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


def rejection_reasons(min_aggregate: float = DEFAULT_MIN_AGGREGATE) -> tuple[str, ...]:
    """Every reason :func:`rejection` can give, in the order it tests them."""
    return (
        "accuracy undecided",
        "accuracy failed",
        "skill failed",
        f"aggregate below {min_aggregate:g}",
    )


def rejection(check: AnswerCheck, min_aggregate: float = DEFAULT_MIN_AGGREGATE) -> str | None:
    """Why a trajectory with this verdict is not used (None: it is kept).

    Kept: accuracy 1.0 (undecided is not a pass), skill 1.0, aggregate >= ``min_aggregate``.
    The reason is the first that applies, in :func:`rejection_reasons` order: ``accuracy
    undecided``, ``accuracy failed``, ``skill failed``, ``aggregate below <min_aggregate>``.
    """
    undecided, failed, skill, aggregate = rejection_reasons(min_aggregate)
    if "accuracy" in check.undecided:
        return undecided
    if check.parts["accuracy"] != 1.0:
        return failed
    if check.parts["skill"] != 1.0:
        return skill
    if check.aggregate < min_aggregate:
        return aggregate
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
    """The stream cannot yield a trajectory: no cases, or a pool's worth of draws rejected."""


MAX_WORKERS = 64
"""Most DataLoader workers a stream's counts have room for (one row each)."""
_RETRY = 0x7E7
"""Mixed into a retry's seed, so retries never share a seed with a first attempt."""


class SharedCounts:
    """Draw counts in shared memory, one row per drawing process: drawn, kept, rejected.

    Row ``w`` belongs to DataLoader worker ``w`` (row 0 to the main process when it draws
    itself); each process writes only its own row, so no lock is needed. :meth:`start` clears a
    row when an iteration begins, so a row holds its process's latest iteration: the
    training's, not the peeks TRL takes at the dataset before training. The memory is shared
    with DataLoader workers (forked, or started by spawn/forkserver, which pass it at start);
    any other copy (``pickle``, ``deepcopy``, fingerprinting) gets its own copy of the values.
    """

    def __init__(self, reasons: Sequence[str], rows: int = MAX_WORKERS) -> None:
        self.reasons = tuple(reasons)
        self.rows = rows
        self._width = 2 + len(self.reasons)
        self._values: Any = RawArray("q", rows * self._width)

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        if get_spawning_popen() is None:  # not a process start: a private copy of the values
            state["_values"] = list(self._values)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        values = state["_values"]
        if isinstance(values, list):
            state["_values"] = RawArray("q", values)
        self.__dict__.update(state)

    def start(self, row: int) -> None:
        """Clear ``row`` (an iteration of that process begins)."""
        base = row * self._width
        for i in range(self._width):
            self._values[base + i] = 0

    def add(self, row: int, reason: str | None) -> None:
        """Count one draw in ``row``: kept (``reason`` None) or rejected for ``reason``."""
        base = row * self._width
        self._values[base] += 1
        if reason is None:
            self._values[base + 1] += 1
        else:
            self._values[base + 2 + self.reasons.index(reason)] += 1

    def total(self) -> StreamStats:
        """The counts of every row, summed."""
        stats = StreamStats()
        for row in range(self.rows):
            base = row * self._width
            stats.drawn += self._values[base]
            stats.kept += self._values[base + 1]
            for i, reason in enumerate(self.reasons):
                if n := self._values[base + 2 + i]:
                    stats.rejected[reason] += n
        return stats


class TrajectoryStream:
    """Endless verified trajectories over a pool of train episodes, a fresh variant per draw.

    Its rows are slots ``0, 1, 2, ...`` (see the module docstring). Iterating starts again at
    slot 0 (a :class:`datasets.IterableDataset` re-runs its generator on each ``iter``); the
    counts of the latest iteration of each drawing process are in :attr:`counts`
    (:meth:`last_pass` sums them). :meth:`survey` can keep the rows it verified, so the first
    slots are not drawn again when training reads them.
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
        self.counts = SharedCounts(rejection_reasons(min_aggregate))
        self.kept_rows: dict[int, dict[str, Any]] = {}
        """Rows :meth:`survey` verified, by slot: served without drawing them again."""
        self._orders: dict[int, list[int]] = {}

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
        if round_ not in self._orders:
            idx = list(range(len(self.pool)))
            random.Random(derive_seed(self.augment_seed, round_, 0x5F7)).shuffle(idx)
            if len(self._orders) >= 4:
                self._orders.clear()
            self._orders[round_] = idx
        return self._orders[round_]

    def _run(self, case: int, draw: int) -> Trajectory:
        drawn = draw_episode(
            self.pool[case], draw, augment_seed=self.augment_seed, fixed_harness=self.fixed_harness
        )
        return run_oracle(drawn, draw=draw)

    def trajectory(self, draw: int) -> Trajectory:
        """Draw ``draw``'s trajectory, verified or not (a slot's first attempt)."""
        n = len(self.pool)
        return self._run(self.order(draw // n)[draw % n], draw)

    def slot(self, slot: int, *, worker: int = 0) -> Trajectory:
        """Slot ``slot``'s trajectory: draw ``slot`` if kept, else the first kept retry.

        Every attempt is counted in row ``worker`` of :attr:`counts`.

        Raises:
            EmptyPoolError: the pool is empty, or as many attempts as the pool has cases were
                rejected (nothing would ever be kept).
        """
        n = len(self.pool)
        if not n:
            raise EmptyPoolError("the pool of train cases is empty")
        reasons: Counter[str] = Counter()
        for attempt in range(n):
            if attempt == 0:
                t = self.trajectory(slot)
            else:  # a retry: a seeded case of the pool under that seed's variant
                draw = derive_seed(self.augment_seed, slot, attempt, _RETRY)
                t = self._run(draw % n, draw)
            reason = rejection(t.check, self.min_aggregate)
            self.counts.add(worker, reason)
            if reason is None:
                return t
            reasons[reason] += 1
        raise EmptyPoolError(f"{n} draws in a row were rejected ({dict(reasons)})")

    def slots(self, slots: Iterable[int], *, worker: int = 0) -> Iterator[Trajectory]:
        """The trajectories of ``slots``, counted in row ``worker`` (cleared when it starts)."""
        self.counts.start(worker)
        for j in slots:
            yield self.slot(j, worker=worker)

    def __iter__(self) -> Iterator[Trajectory]:
        """Verified trajectories, endlessly: slots 0, 1, 2, ...

        Raises:
            EmptyPoolError: see :meth:`slot`.
        """
        return self.slots(itertools.count())

    def rows(
        self, slots: Iterable[int] | None = None, *, worker: int = 0
    ) -> Iterator[dict[str, Any]]:
        """:meth:`Trajectory.row` of each slot of ``slots`` (all, from 0, by default).

        Rows :meth:`survey` kept are served as they are (counted as one kept draw).

        Raises:
            EmptyPoolError: see :meth:`slot`.
        """
        self.counts.start(worker)
        for j in itertools.count() if slots is None else slots:
            row = self.kept_rows.get(j)
            if row is None:
                row = self.slot(j, worker=worker).row()
            else:
                self.counts.add(worker, None)
            yield row

    def survey(self, draws: int, *, keep: bool = False) -> StreamStats:
        """Counts over the first ``draws`` draws (kept or not), without training on them.

        With ``keep`` the rows of the draws kept are kept in :attr:`kept_rows` (a kept draw
        ``j`` is slot ``j``'s row), so training does not draw them again.
        """
        stats = StreamStats()
        for draw in range(draws):
            t = self.trajectory(draw)
            reason = rejection(t.check, self.min_aggregate)
            stats.drawn += 1
            if reason is None:
                stats.kept += 1
                if keep:
                    self.kept_rows[draw] = t.row()
            else:
                stats.rejected[reason] += 1
        return stats

    def last_pass(self) -> StreamStats:
        """The counts of the latest iteration of each process that drew (training's).

        With DataLoader workers, the workers' (each draws its own slots); without, the main
        process's. Rows prefetched but not yet trained on when training stopped are included.
        """
        return self.counts.total()
