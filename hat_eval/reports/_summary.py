"""The summary of a run: one row per eval log with the headline metrics, as a table.

``hat-eval run`` prints it when a run ends; reports built over logs use the same rows.
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


@dataclass(frozen=True)
class SummaryRow:
    """One eval log in a run's summary."""

    task: str
    status: str
    samples: int
    log: str
    metrics: dict[str, float] = field(default_factory=dict)


def summary_rows(logs: Iterable[Any]) -> list[SummaryRow]:
    """One row per Inspect ``EvalLog``: task, status, samples and each headline metric.

    A scorer's ``mean`` counts under the scorer's name (IFEval's metrics); a metric named like
    a headline counts under its own name (the case suites' dict scores).
    """
    rows = []
    for log in logs:
        metrics: dict[str, float] = {}
        for s in log.results.scores if log.results else []:
            for name, m in s.metrics.items():
                if s.name in HEADLINE and name == "mean":
                    metrics[s.name] = m.value
                elif name in HEADLINE:
                    metrics[name] = m.value
        rows.append(
            SummaryRow(
                task=str(log.eval.task),
                status=str(log.status),
                samples=log.results.completed_samples if log.results else 0,
                log=str(log.location),
                metrics=metrics,
            )
        )
    return rows


def summary_table(rows: list[SummaryRow], title: str = "hat-eval results") -> Table:
    """A rich table of ``rows``: the headline metrics any row has, in :data:`HEADLINE` order."""
    from rich.table import Table

    keys = [k for k in HEADLINE if any(k in r.metrics for r in rows)]
    table = Table(title=title)
    for col in ("task", "status", "samples", *keys):
        table.add_column(col.replace("_acc", "").replace("_level", ""))
    for r in rows:
        table.add_row(
            r.task,
            r.status,
            str(r.samples),
            *(f"{r.metrics[k]:.3f}" if k in r.metrics else "-" for k in keys),
        )
    return table
