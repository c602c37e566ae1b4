"""The suites on a team's own shop: scores on the example shop, generation time on a big one.

Run: ``python bench/bench_shop.py`` (``--limit N`` cases per suite, 200 by default; ``--skip-runs``
times only the generation). Prints:

1. ``hat/oracle`` on ``examples/shop`` through every case suite (``hat-eval run --shop``): its
   aggregate, which should be >= 99;
2. ``hat/reference`` minus ``hat/memorized`` on the variant suite over the example shop, case by
   case, with the paired bootstrap 95% interval (:func:`hat_eval.reports.paired_difference`):
   the reference reads each variant's harness, the memorized policy only the default one;
3. the seconds to load a 5,000-product shop (built with the generator: seeds 0.. renumbered)
   and to generate the four case suites' test episodes on it (their full sizes).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "shop"
SUITES = ("livestream", "variant", "robustness", "evolution")


def _run(suite: str, model: str, limit: int, log_dir: Path, shop: bool = True):
    from inspect_ai.log import read_eval_log

    cmd = [sys.executable, "-m", "hat_eval.cli", "run", "--suite", suite, "--model", model]
    cmd += ["--limit", str(limit), "--log-dir", str(log_dir)]
    cmd += ["--shop", str(EXAMPLE)] if shop else []
    subprocess.run(cmd, check=True, capture_output=True, cwd=ROOT)
    return read_eval_log(str(next(log_dir.glob("*.eval"))))


def _aggregate(log) -> tuple[float, int]:
    """The mean aggregate over the cases whose aggregate is decided, and their number."""
    from hat_eval.reports import paired_difference

    d = paired_difference(log, log, n_boot=1)
    return d.mean_a, d.n


def scores(limit: int, work: Path) -> None:
    from hat_eval.reports import paired_difference

    for suite in SUITES:
        start = time.perf_counter()
        log = _run(suite, "hat/oracle", limit, work / f"oracle-{suite}")
        mean, n = _aggregate(log)
        took = time.perf_counter() - start
        print(
            f"hat/oracle {suite:<11} on examples/shop: aggregate {mean:.2f} over {n} cases", end=""
        )
        print(f" ({took:.0f} s)")
        if suite == "evolution":  # under each version, the gold its edits in force give
            builtin, _ = _aggregate(_run(suite, "hat/oracle", limit, work / "oracle-ev", False))
            v1 = [s for s in log.samples or [] if str(s.id).startswith("evolution-v1-")]
            v1_mean = sum(next(iter(s.scores.values())).value["aggregate"] for s in v1) / len(v1)
            print(f"  (v1, the base harness: {v1_mean:.2f}; the built-in shop: {builtin:.2f})")
    ref = _run("variant", "hat/reference", limit, work / "reference-variant")
    mem = _run("variant", "hat/memorized", limit, work / "memorized-variant")
    d = paired_difference(ref, mem)
    print(
        f"variant on examples/shop: hat/reference {d.mean_a:.2f} - hat/memorized {d.mean_b:.2f} "
        f"= {d.diff:+.2f} [{d.low:+.2f}, {d.high:+.2f}] (paired 95% bootstrap, {d.n} cases)"
    )


def big_pack(n: int = 5000):
    """A shop of ``n`` products: the generator's catalogues for seeds 0, 1, ... renumbered.

    Each seed's 640 listings get new ids (``Q00001``...), their SKUs and promotions follow,
    and the names of later seeds' listings a suffix (``Mk2``...) so that names stay unique.
    """
    from dataclasses import replace

    from hat_eval.world import builtin_pack, generate_pack

    base = builtin_pack()
    products, skus, promotions = [], [], []
    seed = 0
    while len(products) < n:
        pack = generate_pack(seed)
        suffix = f" Mk{seed + 1}" if seed else ""
        ids = {}
        for p in pack.products[: n - len(products)]:
            ids[p.id] = new = f"Q{len(products) + 1:05d}"
            products.append(
                p.model_copy(
                    update={"id": new, "name": p.name + suffix, "name_zh": p.name_zh + suffix}
                )
            )
        for s in pack.skus:
            if s.product_id in ids:
                new = ids[s.product_id]
                skus.append(
                    s.model_copy(
                        update={"sku": new + s.sku[len(s.product_id) :], "product_id": new}
                    )
                )
        for pr in pack.promotions:
            if pr.product_id in ids:
                promotions.append(
                    pr.model_copy(
                        update={
                            "id": f"PQ{len(promotions) + 1:05d}",
                            "product_id": ids[pr.product_id],
                        }
                    )
                )
        seed += 1
    return replace(
        base,
        manifest=base.manifest.model_copy(update={"name": f"{n}-product shop", "seed": None}),
        products=tuple(products),
        skus=tuple(skus),
        promotions=tuple(promotions),
        lines={},
    )


def generation(n: int, work: Path) -> None:
    from hat_eval.episode import knowledge_base
    from hat_eval.suites import suite_episodes
    from hat_eval.world import check_pack, write_pack

    folder = write_pack(big_pack(n), work / "big-shop")
    start = time.perf_counter()
    problems = check_pack(folder)
    checked = time.perf_counter() - start
    assert not problems, problems[:3]
    start = time.perf_counter()
    kb = knowledge_base(0, str(folder))
    loaded = time.perf_counter() - start
    total = checked + loaded
    print(
        f"{len(kb.product_ids())}-product shop: validated in {checked:.2f} s, loaded in "
        f"{loaded:.2f} s"
    )
    for suite in SUITES:
        start = time.perf_counter()
        episodes = suite_episodes(suite, shop=str(folder))
        took = time.perf_counter() - start
        total += took
        print(f"  {suite:<11} {len(episodes):>5} test episodes generated in {took:.2f} s")
    print(f"validate + load + generate the four suites: {total:.2f} s (target < 30 s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=200, help="cases per suite run")
    parser.add_argument("--products", type=int, default=5000, help="products of the big shop")
    parser.add_argument("--skip-runs", action="store_true", help="time the generation only")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        generation(args.products, work)
        if not args.skip_runs:
            scores(args.limit, work)


if __name__ == "__main__":
    main()
