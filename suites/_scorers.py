"""Inspect scorers over the deterministic checks: one score dict per sample, metrics per group.

Every score carries ``accuracy``, ``safety`` (no forbidden claim), ``tools`` (tool rationality),
``skill`` (skill selection), ``constraints`` (constraint compliance under the harness in force),
``recovery`` (after tool faults) and ``aggregate`` (0-100). Metrics break the aggregate down per
intent, and per HSA dimension set or fault kind in the suites where those vary.
"""

from __future__ import annotations

import math
from typing import Any, cast

from inspect_ai.scorer import (
    Metric,
    SampleScore,
    Score,
    Scorer,
    Target,
    Value,
    grouped,
    mean,
    metric,
    scorer,
    stderr,
)
from inspect_ai.solver import TaskState

from ._checks import score_answer
from ._context import sample_gold
from ._runtime import records_in

_KEYS = ("accuracy", "safety", "tools", "skill", "constraints")


@metric
def per_intent() -> Metric:
    """Mean per viewer intent (``per_intent_price``, ...)."""
    return grouped(mean(), "intent", all=False)


@metric
def per_dims() -> Metric:
    """Mean per set of HSA dimensions applied (``per_dims_tools+hooks``, ...)."""
    return grouped(mean(), "dims", all=False)


@metric
def per_dimension() -> Metric:
    """Mean over the samples each HSA dimension was applied to (``per_dimension_tools``, ...).

    A sample under ``tools+hooks`` counts for both ``tools`` and ``hooks``; samples under the
    default harness count for ``none``.
    """

    def compute(scores: list[SampleScore]) -> Value:
        groups: dict[str, list[float]] = {}
        for s in scores:
            dims = str((s.sample_metadata or {}).get("dims", "none"))
            for dim in dims.split("+"):
                groups.setdefault(dim, []).append(s.score.as_float())
        return {dim: sum(v) / len(v) for dim, v in sorted(groups.items())}

    return compute


@metric
def per_held_out() -> Metric:
    """Mean over variants whose dimension set training never uses (``per_held_out_True``)."""
    return grouped(mean(), "held_out", all=False)


@metric
def per_fault() -> Metric:
    """Mean per injected fault kind (``per_fault_timeout``, ...)."""
    return grouped(mean(), "fault", all=False)


@metric
def per_perturbation() -> Metric:
    """Mean per prompt perturbation of the robustness suite."""
    return grouped(mean(), "perturbation", all=False)


GROUPS = {
    "intent": per_intent,
    "dims": per_dims,
    "dimension": per_dimension,
    "held_out": per_held_out,
    "fault": per_fault,
    "perturbation": per_perturbation,
}
"""The groupings :func:`suite_metrics` can break a score part down by."""


def part_scores(scores: list[SampleScore], part: str) -> list[SampleScore]:
    """One part of the score dicts as the scalar scores Inspect's metrics take.

    A NaN part (Inspect's "not scored", e.g. ``accuracy`` of a case with no fact) is left out.
    """
    out = []
    for s in scores:
        value = s.score.value.get(part) if isinstance(s.score.value, dict) else None
        if isinstance(value, int | float) and not math.isnan(value):
            out.append(
                SampleScore(
                    score=Score(value=value),
                    sample_id=s.sample_id,
                    sample_metadata=s.sample_metadata,
                )
            )
    return out


@metric
def suite_metrics(
    parts: list[str], aggregate_by: list[str], recovery_by: list[str] | None = None
) -> Metric:
    """Mean and stderr of each score part; the aggregate (and recovery) per group.

    Names: ``aggregate``, ``aggregate_stderr``, ``accuracy``, ..., ``per_intent_price``, and
    ``recovery_per_fault_timeout`` for recovery's groups. One metric over the score dicts
    rather than Inspect's metric-per-key form, which deep-copies every sample score once per key
    on every (also live) metrics update: the same numbers at a fraction of the cost.

    Args:
        parts: keys of the score dicts to report (``aggregate``, ``accuracy``, ...).
        aggregate_by: :data:`GROUPS` to break the aggregate down by.
        recovery_by: :data:`GROUPS` to break recovery down by (if ``recovery`` is a part).
    """
    unknown = sorted((set(aggregate_by) | set(recovery_by or ())) - set(GROUPS))
    if unknown:
        raise ValueError(
            f"suite_metrics: unknown groups {unknown}, expected some of {list(GROUPS)}"
        )
    mean_, stderr_ = mean(), stderr()
    by = {  # part -> (name prefix, group metric) for each group it is broken down by
        "aggregate": [(f"per_{g}_", GROUPS[g]()) for g in aggregate_by],
        "recovery": [(f"recovery_per_{g}_", GROUPS[g]()) for g in recovery_by or ()],
    }

    def compute(scores: list[SampleScore]) -> Value:
        out: dict[str, float] = {}
        for part in parts:
            view = part_scores(scores, part)
            if not view:
                continue
            out[part] = _apply(mean_, view)
            out[f"{part}_stderr"] = _apply(stderr_, view)
            for prefix, group_metric in by.get(part, []):
                for key, value in _apply(group_metric, view).items():
                    out[f"{prefix}{key}"] = value
        return out

    return compute


def _apply(m: Metric, scores: list[SampleScore]) -> Any:
    return cast(Any, m)(scores)


def _metrics(*groups: str, recovery: bool = False) -> list[Metric]:
    parts = ["aggregate", *_KEYS, *(["recovery"] if recovery else [])]
    return [
        suite_metrics(
            parts=parts,
            aggregate_by=["intent", *groups],
            recovery_by=["fault"] if recovery else None,
        )
    ]


def _score(state: TaskState, target: Target) -> Score:
    gold = sample_gold(target)
    records = records_in(state.messages)
    answer = state.output.completion if state.output else ""
    values = score_answer(
        gold["case"], gold["gold"], answer, records, state.metadata.get("fault_plan")
    )
    return Score(
        value=values,
        answer=answer,
        explanation=f"{len(records)} tool calls; "
        + ", ".join(f"{k}={values[k]:.2f}" for k in (*_KEYS, "recovery") if k in values),
    )


@scorer(metrics=_metrics())
def livestream_scorer() -> Scorer:
    """Deterministic scores of a live-stream answer, per intent."""

    async def score(state: TaskState, target: Target) -> Score:
        return _score(state, target)

    return score


@scorer(metrics=_metrics("dimension", "held_out", "dims"))
def variant_scorer() -> Scorer:
    """As :func:`livestream_scorer`, also per set of HSA dimensions applied."""

    async def score(state: TaskState, target: Target) -> Score:
        return _score(state, target)

    return score


@scorer(metrics=_metrics("perturbation", "fault", recovery=True))
def robustness_scorer() -> Scorer:
    """As :func:`livestream_scorer`, with recovery per fault kind and scores per perturbation."""

    async def score(state: TaskState, target: Target) -> Score:
        return _score(state, target)

    return score
