"""Candidates compared over their eval logs: the numbers behind ``hat-eval report``.

A *candidate* is a model together with the agent and the harness it ran under
(:class:`Candidate`), so one report compares two checkpoints, or one checkpoint under last week's
and this week's harness. Each log is read once into typed records (:class:`SuiteLog` of
:class:`Answer`), and every number is computed from those:

- the **main table** (:func:`main_table`): per candidate and suite the headline with its 95%
  interval (a bootstrap over cases, each case's epochs averaged first, so repeated trials of one
  case are one cluster), the harness sensitivity (paired per-case ``variant - livestream``), the
  evolution suite's error reduction, IFEval's four metrics;
- **comparisons** with a baseline (:func:`comparisons`): paired differences on the cases both
  scored, their bootstrap interval and p-value, the Holm adjustment over every comparison of the
  page, and the minimum detectable difference at that many cases (a gap below it is inside the
  noise);
- **repeated trials** (:func:`trials`): pass^k over epochs (all k trials succeed, τ-bench's
  estimator), the share of cases whose verdict flips between trials, mean ± sd over epochs;
- **regressions** (:func:`regressions`): cases the baseline got right and a candidate wrong;
- the **gate** (:func:`gate`): any part that dropped beyond a margin with its interval below 0.

Every statistic comes from :mod:`hat_eval.stats`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from hat_eval.stats import (
    case_bootstrap,
    holm,
    min_detectable_difference,
    paired_bootstrap,
    paired_p_value,
    pass_hat_k,
)

from ._candidates import (
    Candidate,
    ReportError,
    SuiteLog,
    candidates,
    success,
)
from ._evolution import Estimate, log_evolution_report, mean_estimate
from ._pairs import paired_values

IFEVAL = "ifeval"
IFEVAL_METRICS = (
    "prompt_level_strict",
    "inst_level_strict",
    "prompt_level_loose",
    "inst_level_loose",
)
"""IFEval's four metrics, as its sample scores name them."""
PARTS = ("aggregate", "accuracy", "safety", "tools", "skill", "constraints")
"""The case suites' parts a comparison and the gate look at (``aggregate`` is 0-100)."""


# -- the main table ------------------------------------------------------------------------------


def suite_estimate(log: SuiteLog, key: str, n_boot: int = 2000) -> Estimate:
    """The mean of ``key`` over a log's cases (epochs averaged per case) with its interval."""
    per_case = log.per_case(key)
    return mean_estimate([per_case[c] for c in sorted(per_case)], n_boot)


def ifeval_estimate(log: SuiteLog, key: str, n_boot: int = 2000) -> Estimate:
    """An IFEval metric with its interval over prompts.

    Prompt-level metrics are means over prompts; instruction-level ones are ratios (followed
    instructions over all instructions), resampled by prompt, as the reference computes them.
    """
    rows = [
        (a.values.get(key, math.nan), a.values.get("num_instructions", 1.0))
        for a in log.answers
        if not math.isnan(a.values.get(key, math.nan))
    ]
    if not rows:
        return Estimate(math.nan, math.nan, math.nan, 0)
    if key.startswith("prompt"):
        return mean_estimate([r[0] for r in rows], n_boot)

    def ratio(idx: Sequence[int]) -> float:
        n = math.fsum(rows[i][1] for i in idx)
        return math.fsum(rows[i][0] * rows[i][1] for i in idx) / n if n else math.nan

    v, lo, hi = case_bootstrap(ratio, len(rows), n_boot=n_boot)
    return Estimate(v, lo, hi, len(rows))


@dataclass(frozen=True)
class Row:
    """One candidate's row of the main table (column -> estimate; absent: not run)."""

    candidate: Candidate
    cells: dict[str, Estimate]
    texts: dict[str, str] = field(default_factory=dict)
    """Columns given as text (a load test's P50/P95 latency, which has no interval here)."""


COLUMNS = (
    ("livestream", "Live-Stream QA"),
    ("variant", "Harness-Variant QA"),
    ("sensitivity", "Harness sensitivity (variant - livestream)"),
    ("robustness", "Robustness"),
    ("recovery", "Recovery after faults"),
    ("evolution", "Evolution: error reduction"),
    *((f"ifeval_{k}", f"IFEval {k.replace('_', ' ')}") for k in IFEVAL_METRICS),
    ("latency", "P50 / P95 latency s (load test)"),
)
"""The main table's columns: key and header (the reference's table, plus what hat-eval adds)."""


def main_table(logs: Sequence[SuiteLog], n_boot: int = 2000) -> list[Row]:
    """A row per candidate: each suite's headline with its 95% interval."""
    rows = []
    for cand in candidates(logs):
        mine = {s.suite: s for s in logs if s.candidate == cand}
        cells: dict[str, Estimate] = {}
        for suite in ("livestream", "variant", "robustness"):
            if suite in mine:
                cells[suite] = suite_estimate(mine[suite], "aggregate", n_boot)
        if "robustness" in mine:
            cells["recovery"] = suite_estimate(mine["robustness"], "recovery", n_boot)
        if "livestream" in mine and "variant" in mine:
            var, live = paired_values(  # variant-<case> and livestream-<case> share a case key
                mine["variant"].per_case("aggregate"), mine["livestream"].per_case("aggregate")
            )
            if var:
                d, lo, hi = paired_bootstrap(var, live, n_boot=n_boot)
                cells["sensitivity"] = Estimate(d, lo, hi, len(var))
        if "evolution" in mine and mine["evolution"].log is not None:
            report = log_evolution_report(mine["evolution"].log, n_boot=n_boot)
            if report.error_reduction is not None:
                cells["evolution"] = report.error_reduction
        if IFEVAL in mine:
            for key in IFEVAL_METRICS:
                cells[f"ifeval_{key}"] = ifeval_estimate(mine[IFEVAL], key, n_boot)
        rows.append(Row(cand, cells))
    return rows


# -- comparisons with a baseline -----------------------------------------------------------------


@dataclass(frozen=True)
class Comparison:
    """A candidate minus the baseline on one suite's part, over the cases both scored."""

    candidate: Candidate
    baseline: Candidate
    suite: str
    part: str
    n: int
    diff: float
    low: float
    high: float
    p: float
    p_holm: float = math.nan
    mdd: float = math.nan
    """The smallest true gap this many cases detect (alpha 0.05, power 0.8)."""

    @property
    def inside_noise(self) -> bool:
        """Whether the gap is indistinguishable from noise at this many cases.

        Its interval holds 0 and it is smaller than the minimum detectable difference.
        """
        return self.low <= 0 <= self.high and abs(self.diff) < self.mdd


def comparisons(
    logs: Sequence[SuiteLog],
    baseline: Candidate,
    parts: Sequence[str] = ("aggregate", "accuracy"),
    *,
    n_boot: int = 2000,
    skip: Iterable[str] = (),
) -> list[Comparison]:
    """Every other candidate minus ``baseline``, per suite and part, Holm-adjusted together.

    ``skip``: suites not to compare (their logs ran different cases: ``--allow-mixed``).
    """
    import statistics

    base = {s.suite: s for s in logs if s.candidate == baseline}
    raw: list[Comparison] = []
    for s in logs:
        if s.candidate == baseline or s.suite not in base or s.suite in skip:
            continue
        keys = IFEVAL_METRICS[:1] if s.suite == IFEVAL else parts
        for part in keys:
            a, b = paired_values(s.per_case(part), base[s.suite].per_case(part))
            if len(a) < 2:
                continue
            diff, lo, hi = paired_bootstrap(a, b, n_boot=n_boot)
            p = paired_p_value(a, b, n_boot=n_boot)
            sd = statistics.stdev(x - y for x, y in zip(a, b, strict=True))
            mdd = min_detectable_difference(sd, len(a)) if sd > 0 else 0.0
            raw.append(
                Comparison(s.candidate, baseline, s.suite, part, len(a), diff, lo, hi, p, mdd=mdd)
            )
    adjusted = holm([c.p for c in raw]) if raw else []
    return [replace(c, p_holm=q) for c, q in zip(raw, adjusted, strict=True)]


# -- repeated trials -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Trials:
    """A candidate's repeated trials on one suite."""

    candidate: Candidate
    suite: str
    epochs: int
    cases: int
    pass_hat: dict[int, float]
    """k -> pass^k: the chance that k trials of a case all succeed, averaged over cases."""
    flip_share: float
    """Share of cases whose verdict differs between trials."""
    epoch_mean: float
    epoch_sd: float
    """Mean and sample sd over epochs of the aggregate (each epoch's mean over its cases)."""


def trials(log: SuiteLog) -> Trials | None:
    """pass^k, flips and the spread over epochs of a log run with several epochs (else None)."""
    import statistics

    epochs = sorted({a.epoch for a in log.answers})
    if len(epochs) < 2:
        return None
    per_case = _successes(log)
    pass_hat = {}
    for k in range(1, len(epochs) + 1):
        vals = [pass_hat_k(len(v), int(sum(v)), k) for v in per_case.values() if len(v) >= k]
        if vals:
            pass_hat[k] = math.fsum(vals) / len(vals)
    flips = [0.0 < sum(v) < len(v) for v in per_case.values() if len(v) >= 2]
    key = "prompt_level_strict" if log.suite == IFEVAL else "aggregate"
    decided = [a for a in log.answers if not math.isnan(a.values.get(key, math.nan))]
    by_epoch = [[a.values[key] for a in decided if a.epoch == e] for e in epochs]
    means = [statistics.fmean(vals) for vals in by_epoch if vals]
    return Trials(
        log.candidate,
        log.suite,
        len(epochs),
        len(per_case),
        pass_hat,
        (sum(flips) / len(flips)) if flips else math.nan,
        statistics.fmean(means) if means else math.nan,
        statistics.stdev(means) if len(means) > 1 else math.nan,
    )


# -- regressions and the gate --------------------------------------------------------------------


@dataclass(frozen=True)
class Regression:
    """A case the baseline got right and a candidate got wrong."""

    candidate: Candidate
    suite: str
    case: str
    message: str
    answer: str
    reasons: dict[str, str]
    location: str
    sample_id: str
    epoch: int


def regressions(
    logs: Sequence[SuiteLog], baseline: Candidate, *, limit: int = 25, skip: Iterable[str] = ()
) -> list[Regression]:
    """Cases the baseline got right and a candidate wrong, up to ``limit`` per suite.

    Right and wrong are a case's majority over its trials; cases come in case order.
    ``skip``: suites not to compare, as for :func:`comparisons`.
    """
    base = {s.suite: s for s in logs if s.candidate == baseline}
    out = []
    for s in logs:
        if s.candidate == baseline or s.suite not in base or s.suite in skip:
            continue
        ok_base = _majority(base[s.suite])
        ok_cand = _majority(s)
        lost = [c for c in sorted(ok_cand) if ok_cand[c] is False and ok_base.get(c) is True]
        for c in lost[:limit]:
            a = next(x for x in s.answers if x.case == c and success(x.values) == 0.0)
            out.append(
                Regression(
                    s.candidate,
                    s.suite,
                    c,
                    a.message,
                    a.answer,
                    a.reasons,
                    s.location,
                    a.sample_id,
                    a.epoch,
                )
            )
    return out


def _successes(log: SuiteLog) -> dict[str, list[float]]:
    """Each case's decided successes (1.0 or 0.0), one per trial."""
    out: dict[str, list[float]] = {}
    for a in log.answers:
        s = success(a.values)
        if not math.isnan(s):
            out.setdefault(a.case, []).append(s)
    return out


def _majority(log: SuiteLog) -> dict[str, bool]:
    return {c: sum(v) / len(v) > 0.5 for c, v in _successes(log).items()}


@dataclass(frozen=True)
class GateFailure:
    """A part that regressed beyond the margin, its interval below 0."""

    comparison: Comparison
    margin: float

    def line(self) -> str:
        """One line for the gate's output."""
        c = self.comparison
        return (
            f"{c.suite} {c.part}: {c.candidate.name} {c.diff:+.3f} vs {c.baseline.name} "
            f"(95% CI {c.low:+.3f} to {c.high:+.3f}, n={c.n}), beyond the margin {self.margin:g}"
        )


def gate(
    logs: Sequence[SuiteLog],
    baseline_logs: Sequence[SuiteLog],
    *,
    margin: float = 0.02,
    n_boot: int = 2000,
) -> list[GateFailure]:
    """The regression gate of a harness or model change: every part that dropped.

    Each candidate of ``logs`` is compared with the candidate of ``baseline_logs`` on every
    suite both ran, part by part (the aggregate's margin is ``100 * margin`` points). A part
    fails when its paired drop is larger than the margin and its whole 95% interval is below 0:
    a drop the data cannot tell from noise does not fail the gate.

    Raises:
        ReportError: ``baseline_logs`` hold more than one candidate, or share no suite.
    """
    bases = candidates(baseline_logs)
    if len(bases) != 1:
        names = ", ".join(c.name for c in bases)
        raise ReportError(
            f"--gate: the baseline logs hold {len(bases)} candidates ({names}), expected one"
        )
    [baseline] = bases
    mine = list(logs)  # the same candidate rerun is compared too: that is the gate's use
    shared = {s.suite for s in mine} & {s.suite for s in baseline_logs}
    if not shared:
        raise ReportError("--gate: the baseline logs share no suite with the logs reported")
    base = replace(baseline, role="baseline")
    relabelled = [replace(s, candidate=base) for s in baseline_logs]
    found = comparisons([*mine, *relabelled], base, PARTS, n_boot=n_boot)
    failures = []
    for c in found:
        limit = margin * 100 if c.part == "aggregate" else margin
        if c.diff < -limit and c.high < 0:
            failures.append(GateFailure(c, limit))
    return failures
