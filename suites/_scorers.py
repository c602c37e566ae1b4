"""Inspect scorers over the deterministic checks: one score dict per sample, metrics per group.

Every score carries ``accuracy``, ``safety`` (no forbidden claim), ``tools`` (tool rationality),
``skill`` (skill selection), ``constraints`` (constraint compliance under the harness in force),
``recovery`` (after tool faults) and ``aggregate`` (0-100). Metrics break the aggregate down per
intent, and per HSA dimension set or fault kind in the suites where those vary.
"""

from __future__ import annotations

from typing import Any

from inspect_ai.scorer import (
    Metric,
    Score,
    Scorer,
    Target,
    grouped,
    mean,
    scorer,
    stderr,
)
from inspect_ai.solver import TaskState

from ._checks import score_answer
from ._runtime import STORE_KEY

_KEYS = ("accuracy", "safety", "tools", "skill", "constraints")


def _metrics(group: str | None = None, recovery: bool = False) -> dict[str, list[Metric]]:
    aggregate: list[Metric] = [mean(), stderr(),
                               grouped(mean(), "intent", all=False,
                                       name_template="intent/{group_name}")]
    if group:
        aggregate.append(grouped(mean(), group, all=False,
                                 name_template=f"{group}/{{group_name}}"))
    metrics: dict[str, list[Metric]] = {"aggregate": aggregate}
    metrics.update({k: [mean(), stderr()] for k in _KEYS})
    if recovery:
        metrics["recovery"] = [mean(), stderr(), grouped(mean(), "fault", all=False,
                                                         name_template="fault/{group_name}")]
    return metrics


def _score(state: TaskState) -> Score:
    md = state.metadata
    records: list[dict[str, Any]] = state.store.get(STORE_KEY, [])
    answer = state.output.completion if state.output else ""
    values = score_answer(md["case"], md["gold"], answer, records, md.get("fault_plan"))
    return Score(value=values, answer=answer,
                 explanation=f"{len(records)} tool calls; " + ", ".join(
                     f"{k}={values[k]:.2f}" for k in (*_KEYS, "recovery")))


@scorer(metrics=_metrics())
def livestream_scorer() -> Scorer:
    """Deterministic scores of a live-stream answer, per intent."""

    async def score(state: TaskState, target: Target) -> Score:
        return _score(state)

    return score


@scorer(metrics=_metrics(group="dims"))
def variant_scorer() -> Scorer:
    """As :func:`livestream_scorer`, also per set of HSA dimensions applied."""

    async def score(state: TaskState, target: Target) -> Score:
        return _score(state)

    return score


@scorer(metrics=_metrics(group="perturbation", recovery=True))
def robustness_scorer() -> Scorer:
    """As :func:`livestream_scorer`, with recovery per fault kind and scores per perturbation."""

    async def score(state: TaskState, target: Target) -> Score:
        return _score(state)

    return score
