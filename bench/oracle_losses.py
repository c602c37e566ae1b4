"""Where the oracle loses: ``hat/oracle`` over every case of the three case suites.

Run: ``python bench/oracle_losses.py [--limit N] [--suites livestream,variant] [--log-dir DIR]``.

``hat/oracle`` makes each case's required calls under the names in force and answers with the
world's reference answer tagged with the skill in force (``hat_eval/baselines/_oracle.py``), so
every point it loses is an error of the instrument -- a check, a gold label -- or of the
reference answer. The script runs the suites offline through Inspect, as ``hat-eval run``
does, and prints

1. per suite, the aggregate (over the samples whose aggregate is decided) and each part's mean
   over its decided samples with the share of samples where the part is undecided;
2. the losses grouped by part and reason (reasons with their numbers and quoted values
   blanked, so one rule's misses count together), with a count and the suites they occur in;
3. every loss: suite, case id, intent, part, ``failed``/``undecided``, the reason from the
   score's metadata (for recovery, which has none, the fault plan) and the answer.

Recovery is counted apart in the summary line. The oracle makes a call again while its fault
reaches it (up to ``RETRIES`` turns); where recovery is still lost, the reason shown is the
fault, what it did (``visible``, ``silent``) and why recovery failed. All three suites take
about two and a half minutes on two cores.
"""

from __future__ import annotations

import argparse
import math
import re
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass

from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog

import hat_eval._registry  # noqa: F401  (registers the hat/ models)
from hat_eval.episode import PARTS, CallRecord, fault_outcome, records_in
from hat_eval.suites import episode_of, suite_task
from hat_eval.world import FaultPlan

SUITES = ("livestream", "variant", "robustness")
REPORTED = (*PARTS, "recovery")
"""The parts reported: the aggregate's five, and recovery (robustness only)."""


@dataclass(frozen=True)
class Loss:
    """One part of one sample that the oracle did not pass."""

    suite: str
    case_id: str
    intent: str
    part: str
    status: str
    """``failed`` (below 1) or ``undecided``."""
    reason: str
    answer: str


def _shape(reason: str) -> str:
    """A reason with its case-specific values blanked: quoted text, numbers, product ids."""
    out = re.sub(r"'[^']*'|\"[^\"]*\"|`[^`]*`", "'…'", reason)
    out = re.sub(r"\bP\d+\b|\b[A-Z]+-?\d[\w-]*\b", "#", out)
    return re.sub(r"\d+(?:\.\d+)?", "N", out)[:110]


def _recovery_reason(fault: FaultPlan, records: list[CallRecord]) -> str:
    """Why recovery failed (the checks give no reason for it): the fault and what it did."""
    outcome = fault_outcome(fault, records)
    why = "the answer's accuracy failed" if outcome == "silent" else "no later call succeeded"
    last = fault.after + fault.times - 1
    return f"{outcome} {fault.kind} fault on {fault.function} (calls {fault.after}..{last}): {why}"


def losses_of(suite: str, log: EvalLog) -> tuple[list[Loss], dict[str, list[float]], int]:
    """The losses of one suite's log, each part's decided values, and undecided aggregates."""
    losses: list[Loss] = []
    decided: dict[str, list[float]] = defaultdict(list)
    undecided_aggregate = 0
    for sample in log.samples or []:
        episode = episode_of(sample.id, sample.metadata, sample.target)  # type: ignore[arg-type]
        score = next(iter((sample.scores or {}).values()))
        values = score.value if isinstance(score.value, dict) else {}
        meta = score.metadata or {}
        undecided = meta.get("undecided", {})
        reasons = meta.get("reasons", {})
        aggregate = float(values.get("aggregate", math.nan))
        if math.isnan(aggregate):
            undecided_aggregate += 1
        else:
            decided["aggregate"].append(aggregate)
        for part in REPORTED:
            value = float(values.get(part, math.nan))
            if not math.isnan(value):
                decided[part].append(value)
            if part in undecided:
                status, reason = "undecided", str(undecided[part])
            elif not math.isnan(value) and value < 1.0:
                status, reason = "failed", str(reasons.get(part, ""))
                if part == "recovery" and episode.fault is not None and not reason:
                    reason = _recovery_reason(episode.fault, records_in(sample.messages))
            else:
                continue
            answer = str(score.answer or "")
            losses.append(
                Loss(suite, episode.case.id, episode.case.intent, part, status, reason, answer)
            )
    return losses, decided, undecided_aggregate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=None, help="cases per suite (all if omitted)")
    parser.add_argument("--suites", default=",".join(SUITES), help="comma-separated suites")
    parser.add_argument("--max-connections", type=int, default=2000, help="concurrent samples")
    parser.add_argument("--log-dir", default=None, help="where the .eval logs go (a temp dir)")
    parser.add_argument("--width", type=int, default=160, help="answers are cut to this width")
    args = parser.parse_args()
    suites = [s for s in args.suites.split(",") if s]
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        logs = inspect_eval(
            [suite_task(s, n=args.limit) for s in suites],
            model="hat/oracle",
            display="none",
            log_dir=args.log_dir or tmp,
            max_connections=args.max_connections,
            max_tasks=len(suites),
        )
        ran = time.perf_counter() - start
        report(suites, logs, args.width)  # the logs read their samples from the log dir
    print(f"\nwall time {time.perf_counter() - start:.1f} s (suites ran in {ran:.1f} s)")


def report(suites: list[str], logs: list[EvalLog], width: int) -> None:
    """Print the per-suite means, the losses grouped by reason, and every loss."""
    all_losses: list[Loss] = []
    print(f"{'suite':11} {'samples':>7} {'part':12} {'mean':>7} {'decided':>8} {'undecided':>10}")
    for suite, log in zip(suites, logs, strict=True):
        if log.status != "success":
            raise SystemExit(f"{suite}: the eval ended {log.status}: {log.error}")
        n = len(log.samples or [])
        losses, decided, undecided_aggregate = losses_of(suite, log)
        all_losses += losses
        agg = decided["aggregate"]
        print(
            f"{suite:11} {n:7} {'aggregate':12} {sum(agg) / max(1, len(agg)):7.2f} "
            f"{len(agg):8} {undecided_aggregate / max(1, n):10.1%}"
        )
        for part in REPORTED:
            values = decided.get(part, [])
            if not values and part == "recovery":
                continue
            und = sum(1 for x in losses if x.part == part and x.status == "undecided")
            mean = sum(values) / len(values) if values else math.nan
            print(f"{'':11} {'':7} {part:12} {mean:7.3f} {len(values):8} {und / max(1, n):10.1%}")

    print(f"\n{len(all_losses)} losses ({sum(x.part == 'recovery' for x in all_losses)} recovery)")
    groups: dict[tuple[str, str, str], list[Loss]] = defaultdict(list)
    for x in all_losses:
        groups[(x.part, x.status, _shape(x.reason))].append(x)
    for (part, status, shape), members in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        where = Counter(x.suite for x in members)
        print(f"{len(members):5}  {part}/{status}: {shape}  [{dict(where)}]")

    print("\nEvery loss (suite, case, intent, part, status: reason | answer):")
    for x in sorted(all_losses, key=lambda x: (x.part == "recovery", x.part, x.suite, x.case_id)):
        answer = x.answer.replace("\n", " ")
        if len(answer) > width:
            answer = answer[: width - 1] + "…"
        print(f"{x.suite} {x.case_id} {x.intent} {x.part} {x.status}: {x.reason}\n    | {answer}")


if __name__ == "__main__":
    main()
