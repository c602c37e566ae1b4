"""The evolution report: does a model follow the harness edits a business makes?

One evolution run answers every case under every harness version of a changelog, and scores
each answer against every edit that applies to its case, in force or not yet (the
``requirement_<edit>`` values of the evolution scorer). Paired by case, this gives per edit:

- **following**: the share of the cases it applies to whose answer does what it asks, under the
  version that makes it (``at``), beside the version before (``before``: done without being
  asked) and the last version run (``final``: still done after later edits);
- **regressions**: control cases (those the edit does not apply to; every case for an edit that
  applies to all) answered right under the version before and wrong under it, on everything the
  edit did not change (accuracy, safety, and the requirements of the edits before it);
- and for the run, the **error reduction** from the first to the last version run, on the same
  cases: the share of answers wrong against the last version's requirements (accuracy, safety,
  and every edit's requirement) under the first version that are no longer wrong under the last
  one -- the reference's measure of an agent that evolves with its harness.

Intervals are 95% percentile bootstraps over cases (:func:`case_bootstrap`): each case's answers
under all versions are resampled together.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import TYPE_CHECKING, Any

from hat_eval.stats import case_bootstrap

if TYPE_CHECKING:
    from rich.table import Table

REQUIREMENT = "requirement_"
"""Prefix of an edit's verdict in a score (``requirement_v2``)."""
ERROR = "error"
"""The score key of an answer's error against the changelog's last version (0/1, NaN undecided)."""


@dataclass(frozen=True)
class EditInfo:
    """One edit of the changelog, as the run's task metadata records it."""

    edit: str
    kind: str
    check: str = ""
    target: str = ""
    reason: str = ""


@dataclass(frozen=True)
class EvolutionAnswer:
    """One scored answer: a case under a version."""

    case: str
    version: str
    values: dict[str, float]


@dataclass(frozen=True)
class Estimate:
    """A number with its bootstrap 95% interval and how many cases it stands on."""

    value: float
    low: float
    high: float
    n: int

    def cell(self, percent: bool = True) -> str:
        """``71.2% [64.0, 78.1] (n=109)``; ``-`` where undefined."""
        if math.isnan(self.value):
            return "-"
        k = 100.0 if percent else 1.0
        if math.isnan(self.low):
            return f"{k * self.value:.1f}% (n={self.n})"
        return f"{k * self.value:.1f}% [{k * self.low:.1f}, {k * self.high:.1f}] (n={self.n})"


@dataclass(frozen=True)
class EditRow:
    """One edit's following and regressions."""

    edit: EditInfo
    before: Estimate | None
    """Following under the version before the edit (None: that version was not run)."""
    at: Estimate | None
    """Following under the version that makes the edit (None: not run)."""
    final: Estimate | None
    """Following under the last version run (None: the edit comes after it)."""
    regressions: Estimate | None
    """Share of control cases right before the edit and wrong after it (None: not both run)."""


@dataclass(frozen=True)
class EvolutionReport:
    """Edit-following, regressions and error reduction of one model over one changelog run."""

    model: str
    versions: tuple[str, ...]
    """The versions run, oldest first."""
    edits: tuple[EditRow, ...]
    kinds: dict[str, Estimate] = field(default_factory=dict)
    """Following where each edit lands, pooled over the edits of each kind."""
    error_first: Estimate | None = None
    error_last: Estimate | None = None
    error_reduction: Estimate | None = None

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data."""
        return asdict(self)


def _mean(values: Sequence[float]) -> float:
    return math.fsum(values) / len(values) if values else math.nan


def mean_estimate(items: Sequence[float], n_boot: int) -> Estimate:
    """The mean of ``items`` (one a case) with its bootstrap interval over cases."""
    if not items:
        return Estimate(math.nan, math.nan, math.nan, 0)
    value, low, high = case_bootstrap(
        lambda idx: _mean([items[i] for i in idx]), len(items), n_boot=n_boot
    )
    return Estimate(value, low, high, len(items))


def _decided(value: float | None) -> bool:
    return value is not None and not math.isnan(value)


@dataclass(frozen=True)
class _Table:
    """One run's scored answers, ``(case, version) -> values``, and the versions it ran."""

    table: dict[tuple[str, str], dict[str, float]]
    ran: list[str]
    cases: list[str]
    n_boot: int

    def following(self, edit: str, version: str | None) -> Estimate | None:
        """How often ``edit``'s requirement is followed at ``version`` (None: not run)."""
        if version is None or version not in self.ran:
            return None
        return mean_estimate(self._verdicts(edit, version), self.n_boot)

    def _verdicts(self, edit: str, version: str) -> list[float]:
        """``edit``'s decided requirement verdicts at ``version``, in case order."""
        got = [self.table.get((c, version), {}).get(REQUIREMENT + edit) for c in self.cases]
        return [v for v in got if v is not None and not math.isnan(v)]

    def right(self, c: str, version: str, before: Sequence[str]) -> float:
        """Whether an answer is right on accuracy, safety and the ``before`` edits.

        1 when all of them (those that apply to its case) passed; 0 when any failed; NaN when
        none failed and one is undecided.
        """
        values = self.table.get((c, version))
        if values is None:
            return math.nan
        got = [values.get("accuracy", math.nan), values.get("safety", math.nan)]
        got += [values[REQUIREMENT + e] for e in before if REQUIREMENT + e in values]
        if any(v == 0.0 for v in got):
            return 0.0
        return math.nan if any(math.isnan(v) for v in got) else 1.0

    def regressions(self, edit: str, previous: str, earlier: Sequence[str]) -> Estimate:
        """The share of control cases right before ``edit`` and wrong after it."""
        key = REQUIREMENT + edit
        applies = {c for c in self.cases if key in self.table.get((c, edit), {})}
        controls = [c for c in self.cases if c not in applies] or self.cases
        items = []
        for c in controls:
            was, now = self.right(c, previous, earlier), self.right(c, edit, earlier)
            if was == 1.0 and _decided(now):
                items.append(1.0 - now)
            elif was == 0.0:
                items.append(0.0)
        return mean_estimate(items, self.n_boot)

    def by_kind(self, edits: Sequence[EditInfo]) -> dict[str, Estimate]:
        """Requirement following at each edit's own version, pooled per kind of edit."""
        kinds: dict[str, Estimate] = {}
        for kind in dict.fromkeys(e.kind for e in edits):
            items = [
                v
                for e in edits
                if e.kind == kind and e.edit in self.ran
                for v in self._verdicts(e.edit, e.edit)
            ]
            if items:
                kinds[kind] = mean_estimate(items, self.n_boot)
        return kinds


def evolution_report(
    answers: Iterable[EvolutionAnswer],
    edits: Sequence[EditInfo],
    order: Sequence[str],
    *,
    model: str = "",
    n_boot: int = 2000,
) -> EvolutionReport:
    """The evolution report of one run.

    Args:
        answers: every scored answer of the run.
        edits: the changelog's edits with a requirement, oldest first.
        order: every version of the changelog, oldest first (the run may cover a range).
        model: the model's name, for the report's title.
        n_boot: bootstrap resamples per interval.
    """
    answers = list(answers)
    table = {(a.case, a.version): a.values for a in answers}
    ran = [v for v in order if any(ver == v for _, ver in table)]
    run = _Table(table, ran, sorted({c for c, _ in table}), n_boot)
    position = {v: i for i, v in enumerate(order)}
    rows = []
    for i, e in enumerate(edits):
        at_index = position.get(e.edit)
        previous = order[at_index - 1] if at_index else None
        regressions: Estimate | None = None
        if previous in ran and e.edit in ran:
            assert previous is not None
            regressions = run.regressions(e.edit, previous, [x.edit for x in edits[:i]])
        last = ran[-1] if ran and position[ran[-1]] >= (at_index or 0) else None
        before, at, final = (run.following(e.edit, v) for v in (previous, e.edit, last))
        rows.append(EditRow(e, before, at, final, regressions))
    report = EvolutionReport(model, tuple(ran), tuple(rows), run.by_kind(edits))
    pairs = list(error_pairs(answers, order).values())
    if not pairs:
        return report
    value, low, high = case_bootstrap(
        lambda idx: error_reduction([pairs[i] for i in idx]), len(pairs), n_boot=n_boot
    )
    return replace(
        report,
        error_first=mean_estimate([p[0] for p in pairs], n_boot),
        error_last=mean_estimate([p[1] for p in pairs], n_boot),
        error_reduction=Estimate(value, low, high, len(pairs)),
    )


def error_reduction(pairs: Sequence[tuple[float, float]]) -> float:
    """The share of errors gone: ``(mean first - mean last) / mean first`` over the pairs.

    Each pair is one case's error (0/1) under the first and under the last version run. NaN
    when no pair, or no error under the first version (nothing to reduce).
    """
    first = _mean([p[0] for p in pairs])
    return (first - _mean([p[1] for p in pairs])) / first if first > 0 else math.nan


def error_pairs(
    answers: Iterable[EvolutionAnswer], order: Sequence[str]
) -> dict[str, tuple[float, float]]:
    """Per case, its error under the first and under the last version run (both decided).

    ``order`` is every version of the changelog, oldest first; the versions run are those some
    answer has. Fewer than two run: empty. These are the pairs :func:`evolution_report`'s error
    reduction reads (:func:`error_reduction`), for a comparison of two runs case by case.
    """
    table = {(a.case, a.version): a.values for a in answers}
    ran = [v for v in order if any(ver == v for _, ver in table)]
    if len(ran) < 2:
        return {}
    first, last = ran[0], ran[-1]
    return {
        c: (table[(c, first)][ERROR], table[(c, last)][ERROR])
        for c in sorted({c for c, _ in table})
        if _decided(table.get((c, first), {}).get(ERROR))
        and _decided(table.get((c, last), {}).get(ERROR))
    }


def log_evolution_answers(log: Any) -> tuple[list[EvolutionAnswer], list[EditInfo], list[str]]:
    """An evolution log's scored answers, the changelog's edits, and its versions (oldest first).

    Raises:
        ValueError: the log is not an evolution run (its task metadata has no changelog).
    """
    meta = (getattr(log.eval, "metadata", None) or {}).get("changelog")
    if not isinstance(meta, dict):
        raise ValueError(
            f"{getattr(log, 'location', 'log')}: no changelog in the task metadata; expected a "
            "log of the evolution suite (hat-eval run --suite evolution)"
        )
    answers = []
    for sample in log.samples or []:
        version = str((sample.metadata or {}).get("version", ""))
        for score in (sample.scores or {}).values():
            if isinstance(score.value, dict):
                values = {k: float(v) for k, v in score.value.items() if isinstance(v, int | float)}
                case = str(sample.id).split(f"-{version}-", 1)[-1]
                answers.append(EvolutionAnswer(case, version, values))
                break
    edits = [EditInfo(**e) for e in meta.get("edits", [])]
    return answers, edits, list(meta.get("versions", []))


def log_evolution_report(log: Any, *, n_boot: int = 2000) -> EvolutionReport:
    """The :func:`evolution_report` of an Inspect eval log of the evolution suite.

    Raises:
        ValueError: the log is not an evolution run (its task metadata has no changelog).
    """
    answers, edits, order = log_evolution_answers(log)
    return evolution_report(answers, edits, order, model=str(log.eval.model), n_boot=n_boot)


def evolution_table(report: EvolutionReport) -> Table:
    """The report as a rich table: one row per edit, then per kind and the error reduction."""
    from rich.table import Table

    title = f"Harness evolution: {report.model} over {', '.join(report.versions)}"
    table = Table(title=title, title_justify="left")
    for col in ("edit", "kind", "before", "at the edit", "last version", "regressions"):
        table.add_column(col)

    def cell(e: Estimate | None) -> str:
        return "not run" if e is None else e.cell()

    for row in report.edits:
        table.add_row(
            row.edit.edit,
            f"{row.edit.kind} ({row.edit.check})",
            cell(row.before),
            cell(row.at),
            cell(row.final),
            cell(row.regressions),
        )
    for kind, est in report.kinds.items():
        table.add_row("", f"all {kind}", "", est.cell(), "", "")
    if report.error_reduction is not None:
        first, last = report.versions[0], report.versions[-1]
        table.add_row(
            "errors",
            f"{first} -> {last}",
            cell(report.error_first),
            "",
            cell(report.error_last),
            f"reduction {cell(report.error_reduction)}",
        )
    return table
