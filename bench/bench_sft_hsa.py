"""What on-the-fly HSA adds to an SFT step: the same trainer with and without augmentation.

Run: ``python bench/bench_sft_hsa.py [--steps 20] [--rounds 3] [--batch 2] [--threads 1]``.

In one process, on the tiny random Qwen3 (CPU), HSA-SFT's ``SFTTrainer`` trains ``--steps`` steps
in each of three arms: ``hsa`` (a fresh harness variant per draw, drawn on the fly), ``predrawn``
(the very rows ``hsa`` trains on, drawn into a list before training: the same text, no drawing
during training) and ``fixed`` (the default harness only, no augmentation). The arms rotate
order for ``--rounds`` rounds (so drift of a shared machine hits all alike). ``hsa`` against
``predrawn`` is the cost of augmenting on the fly; ``predrawn`` against ``fixed`` is the cost of
the variants' text itself (any HSA, pre-augmented or not, trains on it). A step's time
is the time between two step ends (drawing, verifying and tokenizing its rows included); the
first two steps of each run are dropped as warm-up. Printed per mode: wall and CPU seconds per
step (CPU: this process's, less sensitive to other load on a shared machine), then the overhead
of augmentation end to end, split into its two causes, measured on the data pipeline alone
(the trainer's dataloader, no training): variants re-word the prompt, so batches carry more
(padded) tokens (attention is quadratic in them: forward and backward on the collected batches
alone shows what that costs), and drawing a variant and running its episode costs CPU.
Target: under 5 %. Every arm draws the same train cases in the same order, so step ``i`` of
one arm is paired with step ``i`` of another; the interval printed is a bootstrap over those
pairs. It does not hold the drift between whole runs: ``--aa`` runs every arm on the fixed
harness, and the differences an identical pair shows are the noise floor to read the
intervals against.
Numbers are printed, not asserted.

``--pipeline`` measures the data pipeline alone, as a GPU would see it (no training): ``python
bench/bench_sft_hsa.py --pipeline [--workers 0 1 2 4] [--batches 30] [--vocab 8192]``. For each
number of DataLoader workers, with HSA and with the fixed harness, the trainer's own DataLoader
(draw, verify, render, tokenize, collate; batch 4 as in ``trainers/sft.yaml``) is read as fast as
it delivers: rows per second after a warm-up, and the seconds to its first batch. The rate is
set against what a GPU step consumes (``--gpu-rows 32`` rows per ``--gpu-step 0.3`` s, the
H200 figure of issue 24 at 230M parameters: about 107 rows/s), and on-the-fly HSA's cost per
step at that speed is printed: with 0 workers the rows are made between steps (the step's time
plus the rows' time), with workers they are made during the step and only a shortfall of the
rate waits. Then the start-up before the first step, phase by phase (``--cases 4000`` train
cases, as ``trainers/sft.yaml``; ``--preflight 64`` draws).
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any


def _config(out: Path, base: Path, fixed: bool, steps: int, batch: int) -> Any:
    from hat_eval.trainers._sft import HSASFTConfig

    return HSASFTConfig(
        output_dir=str(out),
        model_name_or_path=str(base),
        fixed_harness=fixed,
        max_steps=steps,
        per_device_train_batch_size=batch,
        logging_steps=1,
        train_cases=200,
        preflight_draws=1,
        gradient_checkpointing=False,
        save_strategy="no",
        disable_tqdm=True,
        log_level="error",
    )


class Predrawn:
    """The first ``n`` rows of an HSA stream, drawn before training, replayed endlessly."""

    def __init__(self, stream: Any, n: int) -> None:
        self.drawn = list(itertools.islice(stream.rows(), n))

    def rows(self, slots: Any = None, *, worker: int = 0) -> Iterator[dict[str, Any]]:
        """The pre-drawn rows of ``slots`` (slot ``j``: row ``j`` modulo ``n``), as TRL reads."""
        for j in itertools.count() if slots is None else slots:
            yield self.drawn[j % len(self.drawn)]


ARMS = ("hsa", "predrawn", "fixed")


def mean_ratio_ci(
    new: list[float], old: list[float], *, draws: int = 4000
) -> tuple[float, float, float]:
    """``mean(new) / mean(old) - 1`` in %, with a 95 % bootstrap interval over paired steps.

    Step ``i`` of one arm is paired with step ``i`` of the other (same round, same position):
    every arm draws the same train cases in the same order (the stream's order and its
    rejections do not depend on the harness), so a pair trains on the same viewer questions
    and the cases' differing lengths cancel out; pairs are resampled together.
    """
    import numpy as np

    a, b = np.asarray(new), np.asarray(old)
    rng = np.random.default_rng(0)
    idx = rng.integers(0, len(a), (draws, len(a)))
    rel = (a[idx].mean(axis=1) / b[idx].mean(axis=1) - 1) * 100
    low, high = np.percentile(rel, [2.5, 97.5])
    return (float(a.mean() / b.mean() - 1) * 100, float(low), float(high))


def _stream(config: Any, arm: str, rows: int) -> Any:
    from hat_eval.trainers._sft import build_stream

    stream = build_stream(config)
    return Predrawn(stream, rows) if arm == "predrawn" else stream


def run(base: Path, out: Path, arm: str, fixed: bool, steps: int, batch: int) -> dict[str, Any]:
    """Train ``steps`` steps; seconds per step (after warm-up), each step's CPU seconds."""
    from transformers import PrinterCallback, TrainerCallback

    from hat_eval.trainers._sft import build_trainer

    ends: list[tuple[float, float]] = []

    class Clock(TrainerCallback):  # type: ignore[misc]
        def on_step_end(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
            ends.append((time.perf_counter(), time.process_time()))

    config = _config(out, base, fixed, steps, batch)
    stream = _stream(config, arm, (steps + 4) * batch)
    trainer, _ = build_trainer(config, base, stream)
    trainer.add_callback(Clock())
    trainer.remove_callback(PrinterCallback)
    trainer.train()
    wall = [b[0] - a[0] for a, b in zip(ends, ends[1:], strict=False)][1:]
    cpu = [b[1] - a[1] for a, b in zip(ends, ends[1:], strict=False)][1:]
    return {
        "median": statistics.median(wall),
        "mean": statistics.fmean(wall),
        "cpu": statistics.median(cpu),
        "cpu_steps": cpu,
    }


def data_cost(
    base: Path, out: Path, arm: str, fixed: bool, batches: int, batch: int
) -> dict[str, float]:
    """The trainer's data pipeline alone, then the model on its batches alone.

    ``cpu_ms``: CPU ms per batch of the dataloader (draw, variant, agent run, checks, TRL's
    tokenizing and collating); ``padded``: tokens per batch, padding included; ``compute_ms``:
    CPU ms of a forward and backward pass over each of those batches (no optimizer step).
    """
    from hat_eval.trainers._sft import build_trainer

    config = _config(out, base, fixed, batches, batch)
    trainer, _ = build_trainer(config, base, _stream(config, arm, (batches + 4) * batch))
    batches_iter = iter(trainer.get_train_dataloader())
    next(batches_iter)
    c0 = time.process_time()
    collected = [next(batches_iter) for _ in range(batches)]
    cpu_ms = (time.process_time() - c0) / batches * 1e3
    model = trainer.model
    model.train()
    c0 = time.process_time()
    for b in collected:
        model(**{k: v for k, v in b.items() if k in ("input_ids", "attention_mask", "labels")})[
            "loss"
        ].backward()
        model.zero_grad()
    compute_ms = (time.process_time() - c0) / batches * 1e3
    padded = sum(int(b["input_ids"].numel()) for b in collected) / batches
    return {"cpu_ms": cpu_ms, "padded": padded, "compute_ms": compute_ms}


def _pipeline_config(out: Path, base: Path, fixed: bool, workers: int, cases: int) -> Any:
    from hat_eval.trainers._sft import HSASFTConfig

    return HSASFTConfig(
        output_dir=str(out),
        model_name_or_path=str(base),
        fixed_harness=fixed,
        max_steps=1000,
        per_device_train_batch_size=4,
        gradient_accumulation_steps=8,
        dataloader_num_workers=workers,
        train_cases=cases,
        save_strategy="no",
        disable_tqdm=True,
        log_level="error",
    )


def pipeline_rate(
    base: Path, out: Path, fixed: bool, workers: int, batches: int, cases: int
) -> dict[str, float]:
    """Rows per second the trainer's DataLoader delivers with ``workers`` workers.

    ``first_s``: from creating the DataLoader's iterator to its first batch (workers start,
    draw and tokenize); ``rows_per_s``: over ``batches`` batches after ``2 * workers + 2``
    warm-up batches (so every worker has started and filled its prefetch queue once);
    ``cpu_ms``: CPU milliseconds per row over the whole read (this process and its workers,
    start-up included), which other load on the machine does not inflate as much as the rate.
    """
    import gc
    import resource

    from hat_eval.trainers._sft import build_stream, build_trainer

    def cpu() -> float:
        child = resource.getrusage(resource.RUSAGE_CHILDREN)
        return time.process_time() + child.ru_utime + child.ru_stime

    config = _pipeline_config(out, base, fixed, workers, cases)
    trainer, _ = build_trainer(config, base, build_stream(config))
    loader = trainer.get_train_dataloader()
    c0 = cpu()
    t0 = time.perf_counter()
    it = iter(loader)
    next(it)
    first_s = time.perf_counter() - t0
    warm = 2 * workers + 2
    for _ in range(warm):
        next(it)
    t0 = time.perf_counter()
    for _ in range(batches):
        next(it)
    seconds = time.perf_counter() - t0
    del it  # stop the workers (their CPU time is counted once they are joined)
    gc.collect()
    rows = config.per_device_train_batch_size
    cpu_ms = (cpu() - c0) / ((1 + warm + batches) * rows) * 1e3
    return {"rows_per_s": batches * rows / seconds, "first_s": first_s, "cpu_ms": cpu_ms}


def startup(base: Path, out: Path, cases: int, preflight_draws: int) -> dict[str, float]:
    """Seconds of each phase ``train_sft`` runs before its first optimizer step (HSA, CPU).

    ``cases``: the train split's cases; ``preflight``: the survey (its rows kept); ``hash``: what
    ``IterableDataset.from_generator`` would spend hashing the stream (the pipeline avoids it);
    ``trainer``: TRL's trainer and its first looks at the dataset; ``first_step_rows``: the
    rows of one optimizer step (8 batches of 4) from the DataLoader, 0 workers, with the
    preflight's rows served from memory. Then, warm, best of 3 each, alternated: ``cached``,
    the first step's rows again with the preflight's rows, and ``redrawn``, without them.
    """
    from datasets import IterableDataset

    from hat_eval.trainers._sft import build_stream, build_trainer, preflight

    config = _pipeline_config(out, base, False, 0, cases)
    t = {"start": time.perf_counter()}
    stream = build_stream(config)
    t["cases"] = time.perf_counter()
    preflight(stream, preflight_draws)
    t["preflight"] = time.perf_counter()
    trainer, _ = build_trainer(config, base, stream)
    t["trainer"] = time.perf_counter()
    it = iter(trainer.get_train_dataloader())
    for _ in range(config.gradient_accumulation_steps):
        next(it)
    t["first_step_rows"] = time.perf_counter()
    h0 = time.perf_counter()
    IterableDataset.from_generator(stream.rows)
    hashed = time.perf_counter() - h0
    kept = dict(stream.kept_rows)
    warm: dict[str, list[float]] = {"cached": [], "redrawn": []}
    for _ in range(3):
        for label in warm:
            stream.kept_rows.clear()
            if label == "cached":
                stream.kept_rows.update(kept)
            r0 = time.perf_counter()
            it = iter(trainer.get_train_dataloader())
            for _ in range(config.gradient_accumulation_steps):
                next(it)
            warm[label].append(time.perf_counter() - r0)
    names = list(t)
    out_s = {b: t[b] - t[a] for a, b in zip(names, names[1:], strict=False)}
    return {**out_s, "hash": hashed, **{k: min(v) for k, v in warm.items()}}


def main_pipeline(args: argparse.Namespace) -> None:
    """The ``--pipeline`` mode (see the module docstring)."""
    from hat_eval.trainers import build_tiny_model

    need = args.gpu_rows / args.gpu_step
    rates: dict[tuple[str, int], dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        base = build_tiny_model(Path(tmp) / "base", vocab_size=args.vocab)
        # first, while the checks' lazy imports and regexes are still cold, as in a new run
        start = startup(base, Path(tmp) / "startup", args.cases, args.preflight)
        runs: dict[tuple[str, int], list[dict[str, float]]] = {}
        for r in range(args.rounds):  # rounds outermost, arms alternating: drift hits all alike
            for workers in args.workers if r % 2 == 0 else args.workers[::-1]:
                for arm in ("fixed", "hsa") if r % 2 == 0 else ("hsa", "fixed"):
                    out = Path(tmp) / f"{arm}-{workers}-{r}"
                    runs.setdefault((arm, workers), []).append(
                        pipeline_rate(base, out, arm == "fixed", workers, args.batches, 500)
                    )
        for key, got in runs.items():
            rates[key] = {
                "rows_per_s": max(x["rows_per_s"] for x in got),
                "first_s": min(x["first_s"] for x in got),
                "cpu_ms": min(x["cpu_ms"] for x in got),
            }
    import os

    print(
        f"SFT data pipeline alone (draw, verify, render, tokenize, collate), tiny Qwen3 "
        f"tokenizer (vocab {args.vocab}), batch 4, {os.cpu_count()} CPU core(s) (load average "
        f"{os.getloadavg()[0]:.1f} at the end), best of {args.rounds}; a GPU step consumes "
        f"{args.gpu_rows} rows per {args.gpu_step} s = {need:.0f} rows/s"
    )
    for workers in args.workers:
        line = f"  {workers} worker(s):"
        for arm in ("fixed", "hsa"):
            r = rates[arm, workers]
            line += (
                f"  {arm} {r['rows_per_s']:6.1f} rows/s ({r['rows_per_s'] / need:.2f}x the GPU's"
                f" need; {r['cpu_ms']:.1f} ms CPU/row; first batch {r['first_s']:.2f} s)"
            )
        print(line)
    cpu_fixed = min(rates["fixed", w]["cpu_ms"] for w in args.workers)
    cpu_hsa = min(rates["hsa", w]["cpu_ms"] for w in args.workers)
    print(
        f"  CPU per row: fixed {cpu_fixed:.1f} ms, HSA {cpu_hsa:.1f} ms: feeding {need:.0f} rows/s "
        f"takes {need * cpu_fixed / 1e3:.2f} cores fixed, {need * cpu_hsa / 1e3:.2f} cores HSA "
        "(workers needed at least that many, plus the training process's own core)"
    )
    print(f"on-the-fly HSA at GPU speed ({args.gpu_rows} rows per {args.gpu_step} s step):")
    for workers in args.workers:
        fixed, hsa = rates["fixed", workers]["rows_per_s"], rates["hsa", workers]["rows_per_s"]
        if workers == 0:  # rows made between steps: they add to the step
            step_fixed = args.gpu_step + args.gpu_rows / fixed
            step_hsa = args.gpu_step + args.gpu_rows / hsa
        else:  # made during the step: only a shortfall waits
            step_fixed = max(args.gpu_step, args.gpu_rows / fixed)
            step_hsa = max(args.gpu_step, args.gpu_rows / hsa)
        print(
            f"  {workers} worker(s): step {step_fixed:.3f} s fixed, {step_hsa:.3f} s HSA: "
            f"HSA {(step_hsa / step_fixed - 1) * 100:+.1f} % per step "
            f"({'under' if step_hsa / step_fixed - 1 < 0.05 else 'NOT under'} 5 %)"
        )
    print(
        f"before the first step ({args.cases} train cases, preflight {args.preflight} draws, "
        "0 workers; measured first, cold):"
    )
    for phase in ("cases", "preflight", "trainer", "first_step_rows"):
        print(f"  {phase:<16}{start[phase]:.2f} s")
    print(
        f"  saved: {start['hash']:.2f} s of hashing the stream (from_generator); the first "
        f"step's rows (warm) take {start['cached']:.2f} s with the preflight's rows kept, "
        f"{start['redrawn']:.2f} s drawn again"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--batch", type=int, default=2)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument(
        "--hidden",
        type=int,
        default=64,
        help="width of the tiny model (wider: the MLP, linear in tokens, weighs more than "
        "attention, quadratic in them, as in real models)",
    )
    parser.add_argument(
        "--aa",
        action="store_true",
        help="A/A run: both arms on the fixed harness, to see the noise floor of the comparison",
    )
    parser.add_argument(
        "--pipeline", action="store_true", help="measure the data pipeline alone (see above)"
    )
    parser.add_argument("--workers", type=int, nargs="+", default=[0, 1, 2, 4])
    parser.add_argument("--batches", type=int, default=30, help="batches timed per rate")
    parser.add_argument("--vocab", type=int, default=8192, help="tokenizer vocabulary")
    parser.add_argument("--gpu-rows", type=int, default=32, help="rows a GPU step consumes")
    parser.add_argument("--gpu-step", type=float, default=0.3, help="seconds of a GPU step")
    parser.add_argument("--cases", type=int, default=4000, help="train cases (start-up)")
    parser.add_argument("--preflight", type=int, default=64, help="preflight draws (start-up)")
    args = parser.parse_args()
    if args.pipeline:
        main_pipeline(args)
        return

    import torch

    from hat_eval.trainers import build_tiny_model

    torch.set_num_threads(args.threads)
    fixed = {arm: arm == "fixed" or args.aa for arm in ARMS}
    results: dict[str, list[dict[str, Any]]] = {arm: [] for arm in ARMS}
    with tempfile.TemporaryDirectory() as tmp:
        base = build_tiny_model(Path(tmp) / "base", hidden_size=args.hidden)
        for r in range(args.rounds):
            order = ARMS[r % 3 :] + ARMS[: r % 3]
            for arm in order if r % 2 == 0 else order[::-1]:
                out = Path(tmp) / f"{arm}-{r}"
                results[arm].append(run(base, out, arm, fixed[arm], args.steps, args.batch))
        data = {
            arm: data_cost(base, Path(tmp) / f"data-{arm}", arm, fixed[arm], 40, args.batch)
            for arm in ARMS
        }

    def med(arm: str, key: str) -> float:
        return statistics.median(x[key] for x in results[arm])

    def pct(new: float, old: float) -> float:
        return (new - old) / old * 100

    print(
        f"tiny Qwen3 (hidden {args.hidden}) on CPU ({args.threads} thread(s)), "
        f"batch {args.batch}, {args.steps} steps x {args.rounds} rounds per arm, "
        "warm-up steps dropped" + (" -- A/A: every arm on the fixed harness" if args.aa else "")
    )
    for arm in ("fixed", "predrawn", "hsa"):
        print(
            f"  {arm:8s}: {med(arm, 'median'):.3f} s/step wall median "
            f"({med(arm, 'mean'):.3f} mean), {med(arm, 'cpu'):.3f} s/step CPU median, "
            f"{data[arm]['padded']:.0f} padded tokens/step, data pipeline "
            f"{data[arm]['cpu_ms']:.1f} ms CPU/step, forward+backward on those batches "
            f"{data[arm]['compute_ms']:.0f} ms CPU/step"
        )
    print(
        "CPU per step, paired step by step (every arm draws the same train cases in the same "
        "order; 95 % bootstrap interval of the mean)"
    )
    for label, new, old in (
        ("on-the-fly HSA vs no augmentation (hsa / fixed)", "hsa", "fixed"),
        ("  drawing on the fly (hsa / predrawn: the same batches)", "hsa", "predrawn"),
        ("  the variants' text (predrawn / fixed)", "predrawn", "fixed"),
    ):
        rel, low, high = mean_ratio_ci(
            [x for r in results[new] for x in r["cpu_steps"]],
            [x for r in results[old] for x in r["cpu_steps"]],
        )
        rounds = ", ".join(
            f"{pct(a['cpu'], b['cpu']):+.1f}"
            for a, b in zip(results[new], results[old], strict=True)
        )
        print(
            f"{label}: mean {rel:+.1f} % ({low:+.1f} to {high:+.1f} %); median "
            f"{pct(med(new, 'cpu'), med(old, 'cpu')):+.1f} % (per round: {rounds}); wall median "
            f"{pct(med(new, 'median'), med(old, 'median')):+.1f} %"
        )
    pipeline = (data["hsa"]["cpu_ms"] - data["predrawn"]["cpu_ms"]) / 1e3 / med("fixed", "cpu")
    print(
        f"  data pipeline alone: hsa {data['hsa']['cpu_ms']:.1f} ms vs predrawn "
        f"{data['predrawn']['cpu_ms']:.1f} ms per batch = {pipeline * 100:+.2f} % of a step's CPU"
    )
    print(
        f"  padded tokens per step: {pct(data['hsa']['padded'], data['fixed']['padded']):+.1f} %;"
        " forward+backward on the same batches: "
        f"{pct(data['hsa']['compute_ms'], data['fixed']['compute_ms']):+.1f} % CPU"
    )
    print("target: on-the-fly HSA under 5 % per step")


if __name__ == "__main__":
    main()
