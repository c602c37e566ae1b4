"""Time the live-stream world: loading the shop, generating cases, listing the suites.

Run: ``python bench/bench_world.py``. Prints seconds (best of a few runs) and throughput.
``--suites-only`` times only ``hat-eval suites`` (a subprocess of this Python with this
environment), so the same script times another checkout: ``PYTHONPATH=OTHER python
bench/bench_world.py --suites-only``.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time


def _best(fn, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def suites_listing(repeat: int = 5) -> None:
    """``hat-eval suites`` end to end: wall and CPU seconds of the whole process, best of runs.

    It runs in the temporary folder, so ``python -m`` imports hat_eval from PYTHONPATH (or the
    installed package), not from the current folder.
    """
    cmd = [sys.executable, "-m", "hat_eval.cli", "suites"]
    walls, cpus = [], []
    for _ in range(repeat):
        before = os.times()
        start = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True, cwd=tempfile.gettempdir())
        walls.append(time.perf_counter() - start)
        after = os.times()
        cpus.append(
            after.children_user
            - before.children_user
            + after.children_system
            - before.children_system
        )
    print(f"hat-eval suites: {min(walls):.2f} s wall, {min(cpus):.2f} s CPU (best of {repeat})")


def main() -> None:
    from hat_eval.world import (
        build_kb,
        builtin_pack_dir,
        generate_cases,
        generate_pack,
        kb_from_pack,
        read_pack,
        reference_answer,
    )

    load_s = _best(lambda: kb_from_pack(read_pack(builtin_pack_dir())), repeat=5)
    gen_s = _best(lambda: build_kb(1), repeat=5)
    pack_s = _best(lambda: generate_pack(1), repeat=5)
    kb = build_kb()
    print(
        f"built-in shop read from its pack: {load_s * 1000:.1f} ms ({len(kb.products())} "
        f"products, {kb.query('SELECT COUNT(*) AS n FROM skus')[0]['n']} SKUs); "
        f"generating a seed's pack: {pack_s * 1000:.1f} ms, and its knowledge base: "
        f"{gen_s * 1000:.1f} ms"
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
    suites_listing()


if __name__ == "__main__":
    if "--suites-only" in sys.argv[1:]:
        suites_listing()
    else:
        main()
