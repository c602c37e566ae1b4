"""The built-in policies on every case suite: the README's results table, measured now.

Run: ``python bench/baselines.py [--out DIR] [--limit N]``. Runs ``hat/reference``,
``hat/memorized`` and ``hat/oracle`` on ``livestream``, ``variant``, ``robustness`` and
``evolution`` through Inspect (offline, the frozen test splits) and prints, per policy:

- each suite's aggregate over the samples it is decided on, and the share left undecided;
- ``variant`` − ``livestream`` per case (paired bootstrap 95% interval): the harness sensitivity;
- the evolution suite's error reduction from the first to the last harness version (95% interval).

The logs stay in ``--out`` (a temporary folder by default), so ``inspect view`` can open them.
About 10 minutes on 2 CPU cores for the full suites.
"""

from __future__ import annotations

import argparse
import math
import tempfile
import time
from pathlib import Path
from typing import Any

POLICIES = ("hat/reference", "hat/memorized", "hat/oracle")
SUITES = ("livestream", "variant", "robustness", "evolution")


def _aggregate(log: Any) -> tuple[float, float]:
    values = [next(iter(s.scores.values())).value["aggregate"] for s in log.samples or []]
    decided = [v for v in values if not math.isnan(v)]
    mean = sum(decided) / len(decided) if decided else math.nan
    return mean, 1 - len(decided) / len(values) if values else math.nan


def main() -> None:
    """Run every policy on every case suite and print the table."""
    from inspect_ai import eval as inspect_eval

    import hat_eval._registry  # noqa: F401  (registers the built-in policies)
    from hat_eval.reports import log_evolution_report, paired_difference
    from hat_eval.suites import suite_task

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=None, help="where the logs go")
    parser.add_argument("--limit", type=int, default=None, help="cases per suite (all if omitted)")
    args = parser.parse_args()
    out = args.out or Path(tempfile.mkdtemp(prefix="hat-eval-baselines-"))
    print(f"logs: {out}")
    for policy in POLICIES:
        logs = {}
        for suite in SUITES:
            start = time.perf_counter()
            (log,) = inspect_eval(
                suite_task(suite, n=args.limit),
                model=policy,
                display="none",
                log_dir=str(out / policy.replace("/", "-") / suite),
                max_connections=16,
            )
            logs[suite] = log
            mean, undecided = _aggregate(log)
            took = time.perf_counter() - start
            print(
                f"{policy:14} {suite:11} aggregate {mean:6.2f}  undecided {undecided:5.1%}  "
                f"({len(log.samples or [])} samples, {took:.0f} s)",
                flush=True,
            )
        d = paired_difference(logs["variant"], logs["livestream"])
        print(
            f"{policy:14} variant - livestream {d.diff:+.2f} [{d.low:+.2f}, {d.high:+.2f}] "
            f"over {d.n} cases"
        )
        reduction = log_evolution_report(logs["evolution"]).error_reduction
        if reduction is not None and not math.isnan(reduction.value):
            print(
                f"{policy:14} evolution errors v1 -> last reduced {reduction.value:.1%} "
                f"[{reduction.low:.1%}, {reduction.high:.1%}]"
            )
        else:
            print(f"{policy:14} evolution errors v1 -> last: no errors under v1 to reduce")


if __name__ == "__main__":
    main()
