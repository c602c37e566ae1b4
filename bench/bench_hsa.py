"""Harness State Augmentation throughput and variety on the default harness.

Run: ``python bench/bench_hsa.py [--n 20000]``. Prints variants per second on one core (one
process, one thread; best of 3 runs) and how often renamed tool/skill names and rewritten
descriptions repeat across 1,000 variants. Target: >= 5,000 variants/s.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from hat_eval.harness import load_harness
from hat_eval.hsa import AugmentationPolicy


def throughput(n: int) -> float:
    h = load_harness()
    policy = AugmentationPolicy()
    for _ in policy.variants(h, 200, 99):  # warm the template caches
        pass
    best = 0.0
    for run in range(3):
        t0 = time.perf_counter()
        for _ in policy.variants(h, n, run):
            pass
        best = max(best, n / (time.perf_counter() - t0))
    return best


def variety(n: int = 1000) -> dict[str, tuple[int, int]]:
    h = load_harness()
    tools = {t.function: t for t in h.tools}
    skills = {s.id: s for s in h.skills}
    counts: dict[str, Counter[str]] = {
        k: Counter() for k in ("tool names", "tool descriptions", "skill ids", "skill descriptions")
    }
    for v in AugmentationPolicy().variants(h, n, 1):
        for t in v.harness.tools:
            if t.name != tools[t.function].name:
                counts["tool names"][t.function + ":" + t.name] += 1
            if t.description != tools[t.function].description:
                counts["tool descriptions"][t.description] += 1
        back = {new: old for old, new in v.mapping.skills.items() if new}
        for s in v.harness.skills:
            orig = skills[back.get(s.id, s.id)]
            if s.id != orig.id:
                counts["skill ids"][s.id] += 1
            if s.description != orig.description:
                counts["skill descriptions"][s.description] += 1
    return {k: (sum(c.values()), len(c)) for k, c in counts.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=20000)
    args = parser.parse_args()
    rate = throughput(args.n)
    print(
        f"hsa throughput: {rate:,.0f} variants/s on one core "
        f"(default policy, default harness, best of 3 x {args.n:,}); target >= 5,000"
    )
    for what, (total, distinct) in variety().items():
        print(
            f"variety over 1,000 variants: {what}: {distinct:,} distinct of {total:,} changed "
            f"({100 * distinct / max(total, 1):.1f}% unique)"
        )


if __name__ == "__main__":
    main()
