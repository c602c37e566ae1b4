"""Inspect scorers over the deterministic checks: one score dict per sample, metrics per group.

Every score carries ``accuracy``, ``safety`` (no forbidden claim), ``tools`` (tool rationality),
``skill`` (skill selection), ``constraints`` (constraint compliance under the harness in force),
``recovery`` (after tool faults), ``aggregate`` (0-100), ``undecided`` (the share of parts
the checks could not decide; their reasons are in the score's metadata) and a 0/1 indicator
per part and for the aggregate (``undecided_accuracy``, ..., ``undecided_aggregate``).

Undecided is not zero: a part the checks cannot decide is NaN, and so is the aggregate of a
sample with an undecided part. Each part's metric (and the aggregate's) is its mean over the
samples where it is decided, NaN left out as Inspect leaves out unscored values; the means of
the indicators, ``undecided_accuracy``, ..., ``undecided_aggregate``, are each one's share of
samples left undecided, to read beside it. The Agent-as-Judge can decide them
(:func:`hat_eval.judge.judged` wraps these scorers). Metrics break the aggregate down per
intent, and per HSA dimension set or fault kind in the suites where those vary.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from statistics import fmean
from typing import Any

from inspect_ai.scorer import (
    Metric,
    SampleScore,
    Score,
    Scorer,
    ScoreReducer,
    Target,
    Value,
    metric,
    score_reducer,
    scorer,
)
from inspect_ai.solver import TaskState

from hat_eval.episode import (
    FAULT_OUTCOMES,
    HOOK_RECOVERED,
    HOOK_REJECTIONS,
    PARTS,
    AnswerCheck,
    CallRecord,
    Episode,
    check_answer,
    check_requirement,
    hook_fault_values,
    hook_records_in,
    hook_summary,
    knowledge_base,
    records_in,
    split_skill_tag,
    split_think,
)
from hat_eval.stats import mean_stderr
from hat_eval.world import KnowledgeBase

from ._samples import episode_of

ERROR = "error"
"""The evolution score's error against the changelog's last version (see the report's)."""


def _one(key: str) -> Callable[[dict[str, Any]], list[str]]:
    def labels(metadata: dict[str, Any]) -> list[str]:
        if key not in metadata:
            raise ValueError(
                f"sample metadata has no {key!r}: per-{key} metrics need it in every sample"
            )
        return [str(metadata[key])]

    return labels


GROUPS: dict[str, Callable[[dict[str, Any]], list[str]]] = {
    "intent": _one("intent"),  # per viewer intent: per_intent_price, ...
    "dims": _one("dims"),  # per set of HSA dimensions applied: per_dims_tools+hooks, ...
    # per HSA dimension over the samples it was applied to: a sample under ``tools+hooks``
    # counts for both; the default harness counts for ``none``
    "dimension": lambda metadata: str(metadata.get("dims", "none")).split("+"),
    "held_out": _one("held_out"),  # variants whose dimension set training never uses
    "fault": _one("fault"),  # per injected fault kind
    "perturbation": _one("perturbation"),  # per prompt perturbation (robustness)
    "version": _one("version"),  # per harness version of a changelog (evolution)
}
"""The groupings :func:`suite_metrics` can break a score part down by: metadata -> group labels."""


def part_values(scores: list[SampleScore], part: str) -> list[tuple[float, dict[str, Any]]]:
    """One part of the score dicts as ``(value, sample metadata)`` pairs.

    A NaN part is left out (Inspect's "not scored"): one that does not apply (``recovery``
    without a fault) or that the checks left undecided (``accuracy`` of chit-chat, and then the
    ``aggregate``), so a mean over these pairs is over the samples where the part is decided.
    """
    out = []
    for s in scores:
        value = s.score.value.get(part) if isinstance(s.score.value, dict) else None
        if isinstance(value, int | float) and not math.isnan(value):
            out.append((float(value), s.sample_metadata or {}))
    return out


@metric
def suite_metrics(
    parts: list[str],
    aggregate_by: list[str],
    recovery_by: list[str] | None = None,
    shares: list[str] | None = None,
    error_by: list[str] | None = None,
) -> Metric:
    """Mean and stderr of each score part over its decided samples; aggregate, recovery per group.

    A part's NaN values are left out (:func:`part_values`), and a part with none left is not
    reported; ``shares`` are reported as a mean only.

    Names: ``aggregate``, ``aggregate_stderr``, ``accuracy``, ..., ``per_intent_price``, and
    ``recovery_per_fault_timeout`` for recovery's groups; under checking hooks also
    ``hook_rejections_<hook>`` (summed) and ``hook_recovered``. The numbers are those of Inspect's
    ``mean()``, ``stderr()`` and ``grouped(mean(), key)`` over each part, computed in one pass
    over plain floats: Inspect recomputes metrics live while a suite runs, and its
    metric-per-key form deep-copies every sample score once per key on each update.

    Args:
        parts: keys of the score dicts to report (``aggregate``, ``accuracy``, ...).
        aggregate_by: :data:`GROUPS` to break the aggregate down by.
        recovery_by: :data:`GROUPS` to break recovery down by (if ``recovery`` is a part).
        shares: keys of the score dicts to report as a mean only (0/1 indicators).
        error_by: :data:`GROUPS` to break ``error`` down by (the evolution suite's).
    """
    unknown = sorted(
        (set(aggregate_by) | set(recovery_by or ()) | set(error_by or ())) - set(GROUPS)
    )
    if unknown:
        raise ValueError(
            f"suite_metrics: unknown groups {unknown}, expected some of {list(GROUPS)}"
        )
    by = {  # part -> [(name prefix, group labels)] for each group it is broken down by
        "aggregate": [(f"per_{g}_", GROUPS[g]) for g in aggregate_by],
        "recovery": [(f"recovery_per_{g}_", GROUPS[g]) for g in recovery_by or ()],
        "error": [(f"error_per_{g}_", GROUPS[g]) for g in error_by or ()],
    }

    def compute(scores: list[SampleScore]) -> Value:
        out: dict[str, float] = {}
        for part in parts:
            pairs = part_values(scores, part)
            if not pairs:
                continue
            values = [v for v, _ in pairs]
            out[part] = fmean(values)
            out[f"{part}_stderr"] = mean_stderr(values)
            for prefix, labels in by.get(part, []):
                groups: dict[str, list[float]] = {}
                for value, metadata in pairs:
                    for label in labels(metadata):
                        groups.setdefault(label, []).append(value)
                for label in sorted(groups):
                    out[f"{prefix}{label}"] = fmean(groups[label])
        for key in shares or ():
            values = [v for v, _ in part_values(scores, key)]
            if values:
                out[key] = fmean(values)
        out.update(_hook_metrics(scores))
        return out

    return compute


def _hook_metrics(scores: list[SampleScore]) -> dict[str, float]:
    """Checking hooks' rejections per hook (summed) and the share of episodes that recovered.

    Only runs under a harness with checking hooks have these keys in their scores
    (:func:`hat_eval.episode.hook_summary`); others report nothing here.
    """
    keys = sorted(
        {
            k
            for s in scores
            if isinstance(s.score.value, dict) and HOOK_RECOVERED in s.score.value
            for k in s.score.value
            if k.startswith(HOOK_REJECTIONS)
        }
    )
    out = {key: math.fsum(v for v, _ in part_values(scores, key)) for key in keys}
    recovered = [v for v, _ in part_values(scores, HOOK_RECOVERED)] if keys else []
    if recovered:
        out[HOOK_RECOVERED] = fmean(recovered)
    return out


@score_reducer
def part_mean() -> ScoreReducer:
    """Reduce a sample's epochs to the mean of each score part (NaN parts left out).

    The numbers of Inspect's ``mean`` reducer on dict scores; a single epoch's score is
    returned as it is. Inspect reduces every sample's scores on each live metrics update, and
    its ``mean`` goes through ``statistics.mean`` (exact fractions) per key per sample: with
    seven parts that was the largest share of a suite's metric time.
    """

    def reduce(scores: list[Score]) -> Score:
        if len(scores) == 1:
            return scores[0]
        first = scores[0]
        if not isinstance(first.value, dict):
            raise ValueError(
                f"part_mean: expected the suites' dict scores, got {first.value!r}; "
                "use Inspect's 'mean' reducer for other scorers"
            )
        value: dict[str, float] = {}
        for key in first.value:
            parts = [s.value.get(key) for s in scores if isinstance(s.value, dict)]
            floats = [float(v) for v in parts if isinstance(v, int | float)]
            kept = [v for v in floats if not math.isnan(v)]
            value[key] = fmean(kept) if kept else math.nan
        same = {s.answer for s in scores}
        return Score(
            value=value,
            answer=first.answer if len(same) == 1 else None,
            metadata=first.metadata,
        )

    return reduce


def _metrics(*groups: str, recovery: bool = False, error: bool = False) -> list[Metric]:
    faults = ["recovery", *(f"fault_{o}" for o in FAULT_OUTCOMES)] if recovery else []
    parts = ["aggregate", *PARTS, "undecided", *faults, *([ERROR] if error else [])]
    return [
        suite_metrics(
            parts=parts,
            aggregate_by=["intent", *groups],
            recovery_by=["fault"] if recovery else None,
            # each part's undecided share (the indicators of AnswerCheck.values())
            shares=[f"undecided_{p}" for p in ("aggregate", *PARTS)],
            error_by=list(groups) if error else None,
        )
    ]


def _requirement_values(
    episode: Episode,
    answer: str,
    records: list[CallRecord],
    check: AnswerCheck,
    kb: KnowledgeBase,
    notes: list[str],
) -> dict[str, float]:
    """Each changelog edit's verdict on the answer (``requirement_<edit>``) and ``error``.

    ``error`` is 1 when the answer is wrong against the changelog's last version: accuracy or
    safety failed, or any edit that applies to the case (in force or not yet) is not followed;
    0 when all of them passed; NaN when none failed and one is undecided.
    """
    tag, body = split_skill_tag(split_think(answer)[1])
    out: dict[str, float] = {}
    for req in episode.gold.requirements:
        verdict = check_requirement(req, episode.case, episode.gold, body, tag, records, kb)
        out[req.key] = math.nan if verdict.value is None else verdict.value
        if verdict.value is None:
            notes.append(f"{req.key} undecided: {verdict.reason}")
        elif verdict.value < 1.0:
            notes.append(f"{req.key} failed ({req.kind}): {verdict.reason}")
    parts = [check.parts["accuracy"], check.parts["safety"], *out.values()]
    if any(v == 0.0 for v in parts):
        out[ERROR] = 1.0
    else:
        out[ERROR] = math.nan if any(math.isnan(v) for v in parts) else 0.0
    return out


def _scoring(*, requirements: bool = False) -> Scorer:
    """The scorer of a case suite: each sample's answer checked against its episode's gold."""

    async def score(state: TaskState, target: Target) -> Score:
        episode = episode_of(state.sample_id, state.metadata, target)
        records = records_in(state.messages)
        answer = state.output.completion if state.output else ""
        kb = knowledge_base(episode.kb_seed, episode.shop)
        check = check_answer(episode.case, episode.gold, answer, records, episode.fault, kb)
        values = check.values()
        hooks = hook_records_in(state.messages)
        answer_ok = check.parts["accuracy"] != 0.0 and check.aggregate != 0.0
        values.update(hook_summary(hooks, answer_ok=answer_ok))  # none without checking hooks
        if episode.hook_fault is not None:  # a hook that misfired: recovery is answering again
            values.update(hook_fault_values(episode.hook_fault, hooks, answer_ok))
        notes = [f"{k} undecided: {why}" for k, why in check.undecided.items()]
        notes += [f"{k} failed: {why}" for k, why in check.reasons.items()]
        if requirements:
            values.update(_requirement_values(episode, answer, records, check, kb, notes))
        return Score(
            value=values,
            answer=answer,
            explanation=f"{len(records)} tool calls; "
            + ", ".join(f"{k}={values[k]:.2f}" for k in (*PARTS, "recovery") if k in values)
            + ("; " + "; ".join(notes) if notes else ""),
            metadata={"undecided": check.undecided, "reasons": check.reasons},
        )

    return score


@scorer(metrics=_metrics())
def livestream_scorer() -> Scorer:
    """Deterministic scores of a live-stream answer, per intent."""
    return _scoring()


@scorer(metrics=_metrics("dimension", "held_out", "dims"))
def variant_scorer() -> Scorer:
    """As :func:`livestream_scorer`, also per set of HSA dimensions applied."""
    return _scoring()


@scorer(metrics=_metrics("perturbation", "fault", recovery=True))
def robustness_scorer() -> Scorer:
    """As :func:`livestream_scorer`, with recovery per fault kind and scores per perturbation.

    Recovery is scored only where the agent could change it: faults that reached it as errors,
    and data that only looked fine (scored on whether the answer states nothing wrong). The
    shares of faults the hooks absorbed, that looked fine, that the agent saw and that it never
    met are metrics of their own (``fault_absorbed``, ``fault_silent``, ...).
    """
    return _scoring()


@scorer(metrics=_metrics("version", error=True))
def evolution_scorer() -> Scorer:
    """As :func:`livestream_scorer` under each changelog version's gold, with each edit's verdict.

    Besides the parts, a score holds ``requirement_<edit>`` for every edit of the changelog that
    applies to the case (1 followed, 0 not, NaN undecided; in force or not yet) and ``error``
    (see :func:`_requirement_values`); the aggregate and ``error`` are broken down per version.
    The per-edit report (following, regressions, error reduction) is
    :func:`hat_eval.reports.log_evolution_report` of the log.
    """
    return _scoring(requirements=True)
