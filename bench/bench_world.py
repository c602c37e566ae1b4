"""Time the live-stream world: building the knowledge base and generating cases.

Run: ``python bench/bench_world.py``. Prints seconds (best of a few runs) and throughput.
"""

from __future__ import annotations

import statistics
import time

from hat_eval.world import build_kb, generate_cases, reference_answer


def _best(fn, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    build_s = _best(lambda: build_kb(1), repeat=5)
    kb = build_kb()
    print(
        f"build_kb: {build_s * 1000:.1f} ms ({len(kb.products())} products, "
        f"{kb.query('SELECT COUNT(*) AS n FROM skus')[0]['n']} SKUs)"
    )
    cases = []

    def gen() -> None:
        cases[:] = generate_cases(kb, split="test", n=4000, seed=0)

    gen_s = _best(gen)
    print(f"generate_cases(n=4000): {gen_s:.2f} s ({4000 / gen_s:.0f} cases/s)")
    start = time.perf_counter()
    answers = [reference_answer(c, kb) for c in cases]
    ref_s = time.perf_counter() - start
    words = statistics.mean(len(a.split()) for a in answers)
    distinct = len({c.message for c in cases}) / len(cases)
    print(f"reference_answer x4000: {ref_s:.2f} s; mean {words:.1f} words")
    print(f"distinct messages: {distinct:.1%}")


if __name__ == "__main__":
    main()
