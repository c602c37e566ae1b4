"""The summary of a run: one row per eval log with the headline metrics, as a table.

``hat-eval run`` prints it when a run ends; reports built over logs use the same rows. A case
suite's part is a mean over the samples where the checks (or the judge) decided it; the share
left undecided (``undecided_accuracy``, ...) is shown beside it, and, when the Agent-as-Judge
ran, how many parts it decided (``judged``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.table import Table

HEADLINE = (
    "aggregate",
    "accuracy",
    "safety",
    "tools",
    "skill",
    "constraints",
    "recovery",
    "prompt_level_strict_acc",
    "inst_level_strict_acc",
    "prompt_level_loose_acc",
    "inst_level_loose_acc",
)
"""The metrics the summary shows (each suite reports the ones it has)."""
UNDECIDED = "undecided_"
"""Prefix of a headline metric's undecided share (``undecided_accuracy``: the suites' scorers)."""
JUDGE = ("judged", "judge_failed")
"""The judge's counts the summary shows (``hat_eval.judge._judged.judge_decisions``)."""
HOOK_REJECTIONS = "hook_rejections_"
HOOK_RECOVERED = "hook_recovered"
"""Checking hooks' metrics (``hat_eval.episode.hook_summary``): rejections per hook, and the
share of episodes with a rejection that recovered."""


@dataclass(frozen=True)
class SummaryRow:
    """One eval log in a run's summary."""

    task: str
    status: str
    samples: int
    log: str
    metrics: dict[str, float] = field(default_factory=dict)


def finished_samples(log: Any) -> int:
    """How many samples of ``log`` finished without an error (a resumed run skips them).

    The one count of finished samples: the summary's ``samples`` column and ``hat-eval run``'s
    last line both use it. A log that did not succeed (an error, an interrupt) is counted from
    its sample summaries, where a sample cancelled mid-way or failed is not finished.
    """
    from inspect_ai.log import read_eval_log_sample_summaries

    if log.status == "success" and log.results is not None:
        return int(log.results.completed_samples)
    return sum(s.error is None for s in read_eval_log_sample_summaries(log.location))


def summary_rows(logs: Iterable[Any]) -> list[SummaryRow]:
    """One row per Inspect ``EvalLog``: task, status, finished samples and each headline metric.

    A scorer's ``mean`` counts under the scorer's name (IFEval's metrics); a metric named like
    a headline, its undecided share (``undecided_accuracy``) or the judge's counts (``judged``,
    ``judge_failed``) counts under its own name (the case suites' dict scores).
    """
    shown = {*HEADLINE, *(UNDECIDED + h for h in HEADLINE), *JUDGE, HOOK_RECOVERED}
    rows = []
    for log in logs:
        metrics: dict[str, float] = {}
        for s in log.results.scores if log.results else []:
            for name, m in s.metrics.items():
                if s.name in HEADLINE and name == "mean":
                    metrics[s.name] = m.value
                elif name in shown or name.startswith(HOOK_REJECTIONS):
                    metrics[name] = m.value
        rows.append(
            SummaryRow(
                task=str(log.eval.task),
                status=str(log.status),
                samples=finished_samples(log),
                log=str(log.location),
                metrics=metrics,
            )
        )
    return rows


def summary_table(rows: list[SummaryRow], title: str = "hat-eval results") -> Table:
    """A rich table of ``rows``: the headline metrics any row has, in :data:`HEADLINE` order.

    A part with undecided samples reads ``0.812 (3% und.)``: its mean over the decided samples
    and the share left undecided (``- (100% und.)`` when none was decided). A ``judged``
    column counts the parts the judge decided (and the samples it could not rate) when any row
    has it; a caption says how to read both.
    """
    from rich.table import Table

    keys = [k for k in HEADLINE if any(k in r.metrics or UNDECIDED + k in r.metrics for r in rows)]
    undecided = any(r.metrics.get(UNDECIDED + k, 0.0) > 0 for r in rows for k in keys)
    judge = any(JUDGE[0] in r.metrics for r in rows)
    hooks = any(HOOK_RECOVERED in r.metrics or _rejections(r.metrics) for r in rows)
    notes = []
    if undecided:
        notes.append(
            "parts: mean over the samples where decided; (N% und.): share left undecided, "
            "not counted as 0"
        )
    if judge:
        notes.append("judged: parts the Agent-as-Judge decided (samples it could not rate)")
    if hooks:
        notes.append(
            "hook rejections: per checking hook; recovered: share of episodes with a rejection "
            "that then passed every hook that rejected with an answer that does its task "
            "(as recovery counts it)"
        )
    table = Table(title=title, caption="; ".join(notes) or None)
    extra = (["judged"] if judge else []) + (["hook rejections"] if hooks else [])
    for col in ("task", "status", "samples", *keys, *extra):
        table.add_column(col.replace("_acc", "").replace("_level", ""))
    for r in rows:
        cells = [_cell(r.metrics, k) for k in keys]
        if judge:
            cells.append(_judged_cell(r.metrics))
        if hooks:
            cells.append(_hooks_cell(r.metrics))
        table.add_row(r.task, r.status, str(r.samples), *cells)
    return table


def _rejections(metrics: dict[str, float]) -> dict[str, float]:
    return {
        k[len(HOOK_REJECTIONS) :]: v for k, v in metrics.items() if k.startswith(HOOK_REJECTIONS)
    }


def _hooks_cell(metrics: dict[str, float]) -> str:
    """``tool_arguments 12, factual_risk 3; 80% recovered`` (``-`` without checking hooks)."""
    counts = _rejections(metrics)
    if not counts and HOOK_RECOVERED not in metrics:
        return "-"
    text = ", ".join(f"{name} {n:g}" for name, n in counts.items()) or "none"
    if HOOK_RECOVERED in metrics:
        share = metrics[HOOK_RECOVERED]
        text += f"; {_percent(share) if 0 < share < 1 else f'{100 * share:.0f}%'} recovered"
    return text


def _cell(metrics: dict[str, float], key: str) -> str:
    value = f"{metrics[key]:.3f}" if key in metrics else "-"
    share = metrics.get(UNDECIDED + key, 0.0)
    return f"{value} ({_percent(share)} und.)" if share > 0 else value


def _percent(share: float) -> str:
    """A share as a whole percent, never rounded to 0% or 100% when it is neither."""
    if share < 0.01:
        return "<1%"
    if 0.99 < share < 1.0:
        return ">99%"
    return f"{100 * share:.0f}%"


def _judged_cell(metrics: dict[str, float]) -> str:
    if JUDGE[0] not in metrics:
        return "-"
    failed = metrics.get(JUDGE[1], 0.0)
    return f"{metrics[JUDGE[0]]:g}" + (f" ({failed:g} failed)" if failed else "")
