"""Inspect scorers over the deterministic checks: one score dict per sample, metrics per group.

Every score carries ``accuracy``, ``safety`` (no forbidden claim), ``tools`` (tool rationality),
``skill`` (skill selection), ``constraints`` (constraint compliance under the harness in force),
``recovery`` (after tool faults) and ``aggregate`` (0-100). Metrics break the aggregate down per
intent, and per HSA dimension set or fault kind in the suites where those vary.
"""

from __future__ import annotations

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


def _metrics(*groups: Metric, recovery: bool = False) -> dict[str, list[Metric]]:
    metrics: dict[str, list[Metric]] = {"aggregate": [mean(), stderr(), per_intent(), *groups]}
    metrics.update({k: [mean(), stderr()] for k in _KEYS})
    if recovery:
        metrics["recovery"] = [mean(), stderr(), per_fault()]
    return metrics


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


@scorer(metrics=_metrics(per_dimension(), per_held_out(), per_dims()))
def variant_scorer() -> Scorer:
    """As :func:`livestream_scorer`, also per set of HSA dimensions applied."""

    async def score(state: TaskState, target: Target) -> Score:
        return _score(state, target)

    return score


@scorer(metrics=_metrics(per_perturbation(), per_fault(), recovery=True))
def robustness_scorer() -> Scorer:
    """As :func:`livestream_scorer`, with recovery per fault kind and scores per perturbation."""

    async def score(state: TaskState, target: Target) -> Score:
        return _score(state, target)

    return score
