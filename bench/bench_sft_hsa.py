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

    def rows(self) -> Iterator[dict[str, Any]]:
        """The pre-drawn rows, in draw order, again and again (the generator TRL reads)."""
        return itertools.cycle(self.drawn)


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
    args = parser.parse_args()

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
