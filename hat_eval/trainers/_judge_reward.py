"""The Agent-as-Judge as HSA-RL's effectiveness reward, when the RL config names a judge model.

:class:`JudgeReward` runs :func:`~hat_eval.judge.answer_judge` (the same grader, rubric, tools
and cache the suites' ``agent_judge`` scorer uses) on each rollout's final answer and tool
calls, reads one rubric dimension (``effectiveness`` by default), puts it through the human
calibration when one is given (``hat-eval judge calibrate``'s ``calibration.json``), and maps
the 1-5 rating to [0, 1]: ``(rating - 1) / 4``. A failed judgement (no valid reply after the
retries) gives ``None``: the component is left out for that rollout, as TRL leaves out ``None``.
A batch of rollouts is judged concurrently (``concurrency`` at once) on one event loop.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Sequence
from pathlib import Path

from inspect_ai.model import Model

from hat_eval._aio import run_blocking
from hat_eval.judge import (
    JUDGE_MODES,
    RATING_SCALE,
    CalibrationError,
    answer_judge,
    load_calibration,
    load_rubric,
)

from ._common import TrainError
from ._rewards import Rollout

_LOW, _HIGH = float(RATING_SCALE[0]), float(RATING_SCALE[-1])


def unit_score(rating: float) -> float | None:
    """A rating on ``RATING_SCALE`` (1-5) as a reward in [0, 1]; ``None`` for NaN.

    NaN is a failed judgement; ratings outside the scale are clipped to it.
    """
    if math.isnan(rating):
        return None
    return (min(_HIGH, max(_LOW, rating)) - _LOW) / (_HIGH - _LOW)


class JudgeReward:
    """Effectiveness of rollouts as the (calibrated) Agent-as-Judge rates it, in [0, 1].

    Args:
        model: The grader (an Inspect model name such as ``openai/gpt-4.1`` or ``hf/PATH``,
            or a :class:`~inspect_ai.model.Model`).
        dimension: The rubric dimension read (``effectiveness``).
        calibration: A ``calibration.json``; None: the raw mean rating.
        mode: ``agent`` (the grader checks claims with knowledge-base tools) or ``lookups``.
        k: Judge samples per answer, averaged.
        retries: Retries of a malformed reply before the judgement counts as failed.
        cache_dir: A folder for the judge's cache (a repeated answer is not judged again).
        concurrency: Rollouts judged at once.

    Raises:
        TrainError: an unknown dimension or mode, a missing calibration file, or
            ``concurrency`` below 1.
    """

    def __init__(
        self,
        model: str | Model,
        *,
        dimension: str = "effectiveness",
        calibration: str | None = None,
        mode: str = "agent",
        k: int = 1,
        retries: int = 2,
        cache_dir: str | None = None,
        concurrency: int = 8,
    ) -> None:
        check_judge_settings(dimension, calibration, mode, concurrency)
        self.dimension = dimension
        self.concurrency = concurrency
        self._run = answer_judge(
            model=model,
            mode=mode,  # type: ignore[arg-type]  # checked above
            k=k,
            retries=retries,
            cache_dir=cache_dir,
        )
        try:
            self._maps = load_calibration(calibration) if calibration else None
        except CalibrationError as err:
            raise TrainError(f"judge_calibration: {err}") from None

    def __call__(self, rollout: Rollout) -> float | None:
        """The reward of one rollout."""
        return self.many([rollout])[0]

    def many(self, rollouts: Sequence[Rollout]) -> list[float | None]:
        """The rewards of ``rollouts``, judged concurrently, in their order."""
        return run_blocking(self._judge_all(rollouts))

    async def _judge_all(self, rollouts: Sequence[Rollout]) -> list[float | None]:
        gate = asyncio.Semaphore(self.concurrency)

        async def one(rollout: Rollout) -> float | None:
            async with gate:
                judgement = await self._run(rollout.episode, rollout.answer, rollout.run.records)
            means = self._maps.apply(judgement.means) if self._maps else judgement.means
            return unit_score(means.get(self.dimension, math.nan))

        return list(await asyncio.gather(*(one(r) for r in rollouts)))


def check_judge_settings(
    dimension: str, calibration: str | None, mode: str, concurrency: int
) -> None:
    """Raise :class:`TrainError` (value, rule, fix) for judge settings no run can use."""
    dimensions = list(load_rubric().dimensions)
    if dimension not in dimensions:
        raise TrainError(
            f"judge_dimension {dimension!r} is not a dimension of the judge's rubric; expected "
            f"one of {dimensions}"
        )
    if mode not in JUDGE_MODES:
        raise TrainError(f"judge_mode {mode!r}: expected one of {list(JUDGE_MODES)}")
    if calibration is not None and not Path(calibration).is_file():
        raise TrainError(
            f"judge_calibration {calibration!r}: no such file, expected the calibration.json "
            "that 'hat-eval judge calibrate' writes (or leave it unset for raw ratings)"
        )
    if concurrency < 1:
        raise TrainError(f"judge_concurrency ({concurrency}) must be at least 1")
