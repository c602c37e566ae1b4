"""What on-the-fly HSA adds to an SFT step: the same trainer with and without augmentation.

Run: ``python bench/bench_sft_hsa.py [--steps 20] [--rounds 2] [--batch 2] [--threads 1]``.

In one process, on the tiny random Qwen3 (CPU), HSA-SFT's ``SFTTrainer`` trains ``--steps`` steps
with a fresh harness variant per draw and ``--steps`` steps on the fixed default harness, the two
alternating for ``--rounds`` rounds (so drift of a shared machine hits both alike). A step's time
is the time between two step ends (drawing, verifying and tokenizing its rows included); the
first two steps of each run are dropped as warm-up. Printed per mode: wall and CPU seconds per
step (CPU: this process's, less sensitive to other load on a shared machine), then the overhead
of augmentation end to end, split into its two causes, measured on the data pipeline alone
(the trainer's dataloader, no training): variants re-word the prompt, so batches carry more
(padded) tokens (attention is quadratic in them: forward and backward on the collected batches
alone shows what that costs), and drawing a variant and running its episode costs CPU.
Target: under 5 %. ``--aa`` runs both arms on the fixed harness: the spread an identical pair
shows is the noise floor of the end-to-end figure on that machine.
Numbers are printed, not asserted.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
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


def run(base: Path, out: Path, fixed: bool, steps: int, batch: int) -> dict[str, float]:
    """Train ``steps`` steps; seconds per step (after warm-up) and tokens per step."""
    from transformers import PrinterCallback, TrainerCallback

    from hat_eval.trainers._sft import build_stream, build_trainer

    ends: list[tuple[float, float]] = []

    class Clock(TrainerCallback):  # type: ignore[misc]
        def on_step_end(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
            ends.append((time.perf_counter(), time.process_time()))

    config = _config(out, base, fixed, steps, batch)
    stream = build_stream(config)
    trainer, _ = build_trainer(config, base, stream)
    trainer.add_callback(Clock())
    trainer.remove_callback(PrinterCallback)
    trainer.train()
    wall = [b[0] - a[0] for a, b in zip(ends, ends[1:], strict=False)][1:]
    cpu = [b[1] - a[1] for a, b in zip(ends, ends[1:], strict=False)][1:]
    tokens = max(e.get("num_tokens", 0.0) for e in trainer.state.log_history)
    return {
        "median": statistics.median(wall),
        "mean": statistics.fmean(wall),
        "cpu": statistics.median(cpu),
        "tokens": tokens / steps,
        "drawn": stream.last_pass().drawn,
    }


def data_cost(base: Path, out: Path, fixed: bool, batches: int, batch: int) -> dict[str, float]:
    """The trainer's data pipeline alone, then the model on its batches alone.

    ``cpu_ms``: CPU ms per batch of the dataloader (draw, variant, agent run, checks, TRL's
    tokenizing and collating); ``padded``: tokens per batch, padding included; ``compute_ms``:
    CPU ms of a forward and backward pass over each of those batches (no optimizer step).
    """
    from hat_eval.trainers._sft import build_stream, build_trainer

    config = _config(out, base, fixed, batches, batch)
    trainer, _ = build_trainer(config, base, build_stream(config))
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
    parser.add_argument("--rounds", type=int, default=2)
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
    with tempfile.TemporaryDirectory() as tmp:
        base = build_tiny_model(Path(tmp) / "base", hidden_size=args.hidden)
        results: dict[str, list[dict[str, float]]] = {"hsa": [], "fixed": []}
        for r in range(args.rounds):
            for name in ("hsa", "fixed") if r % 2 == 0 else ("fixed", "hsa"):
                out = Path(tmp) / f"{name}-{r}"
                fixed = name == "fixed" or args.aa
                results[name].append(run(base, out, fixed, args.steps, args.batch))
        data = {
            name: data_cost(
                base, Path(tmp) / f"data-{name}", name == "fixed" or args.aa, 40, args.batch
            )
            for name in ("hsa", "fixed")
        }

    def med(name: str, key: str) -> float:
        return statistics.median(x[key] for x in results[name])

    print(
        f"tiny Qwen3 (hidden {args.hidden}) on CPU ({args.threads} thread(s)), "
        f"batch {args.batch}, {args.steps} steps x "
        f"{args.rounds} rounds each, warm-up steps dropped"
        + (" -- A/A: both arms on the fixed harness" if args.aa else "")
    )
    for name in ("fixed", "hsa"):
        print(
            f"  {name:5s}: {med(name, 'median'):.3f} s/step wall median "
            f"({med(name, 'mean'):.3f} mean), {med(name, 'cpu'):.3f} s/step CPU median, "
            f"{data[name]['padded']:.0f} padded tokens/step, data pipeline "
            f"{data[name]['cpu_ms']:.1f} ms CPU/step, forward+backward on those batches "
            f"{data[name]['compute_ms']:.0f} ms CPU/step"
        )
    step, cpu_step = med("fixed", "median"), med("fixed", "cpu")
    wall = (med("hsa", "median") - step) / step * 100
    cpu = (med("hsa", "cpu") - cpu_step) / cpu_step * 100
    pad = (data["hsa"]["padded"] - data["fixed"]["padded"]) / data["fixed"]["padded"] * 100
    pipeline = (data["hsa"]["cpu_ms"] - data["fixed"]["cpu_ms"]) / 1e3 / cpu_step * 100
    compute = (
        (data["hsa"]["compute_ms"] - data["fixed"]["compute_ms"])
        / data["fixed"]["compute_ms"]
        * 100
    )
    print(f"overhead end to end: {wall:+.1f} % wall, {cpu:+.1f} % CPU per step")
    print(
        f"  of which longer prompts (variants re-word them): {pad:+.1f} % padded tokens per "
        f"step, {compute:+.1f} % forward+backward CPU on the same batches"
    )
    print(
        f"  of which the data pipeline (variant, agent run, checks, tokenizing): {pipeline:+.2f} % "
        "of a step's CPU"
    )
    print("target: under 5 %")


if __name__ == "__main__":
    main()
