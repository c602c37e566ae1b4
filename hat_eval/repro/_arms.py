"""One arm of a re-test: train a model with HSA-SFT (fixed harness or HSA), then probe it.

:func:`run_arm` runs in its own process (the two arms of a seed train side by side, one CPU
core each), writing everything the trainer and the probe print to the arm's log file, which the
parent reads for progress (:func:`arm_progress`). It uses the trainers' public API only:
:class:`~hat_eval.trainers.HSASFTConfig` and :func:`~hat_eval.trainers.train_sft`.
"""

from __future__ import annotations

import ast
import os
import time
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from ._budget import Budget
from ._probe import TranscriptScore

Arm = Literal["fixed", "hsa"]
ARMS: tuple[Arm, ...] = ("fixed", "hsa")
"""The two arms of every seed: fixed-harness SFT and HSA-SFT (a fresh variant per row)."""

PROBE_MARK = "repro: probe"
"""Prefix of the probe's progress lines in an arm's log."""
TRAINED_MARK = "repro: trained"
"""Prefix of the line an arm logs when its training is done."""


@dataclass(frozen=True)
class ArmSpec:
    """Everything one arm's process needs (plain, picklable data).

    Attributes:
        arm: ``fixed`` (``fixed_harness=True``) or ``hsa`` (a fresh variant per row).
        seed: the training seed (also the seed of the HSA variant stream).
        budget: steps, batch and probe size.
        base: the base checkpoint folder both arms start from.
        out: the folder the arm's checkpoint is written to.
        template: the chat template the probe renders with (training's, see
            :func:`~hat_eval.repro._probe.training_template`).
        threads: torch threads of the process.
        log: the file the arm's output goes to.
    """

    arm: Arm
    seed: int
    budget: Budget
    base: str
    out: str
    template: str
    threads: int
    log: str


@dataclass(frozen=True)
class ArmResult:
    """What one arm trained and scored.

    Attributes:
        arm: ``fixed`` or ``hsa``.
        seed: its training seed.
        checkpoint: the folder its model was written to.
        steps: optimizer steps done.
        tokens: tokens the trainer read (TRL's ``num_tokens``).
        losses: the logged training losses, in order.
        stream: the trajectory stream's counts (drawn, kept, rejected by reason, preflight).
        train_s: wall seconds of training (the trainer's preflight and save included).
        probe_s: wall seconds of the probe (rendering included).
        scores: the probe's scores, one per test transcript.
    """

    arm: Arm
    seed: int
    checkpoint: str
    steps: int
    tokens: int
    losses: tuple[float, ...]
    stream: dict[str, Any]
    train_s: float
    probe_s: float
    scores: tuple[TranscriptScore, ...] = field(repr=False)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for ``results.json`` (the scores go to their own file)."""
        return {
            "arm": self.arm,
            "seed": self.seed,
            "checkpoint": self.checkpoint,
            "steps": self.steps,
            "tokens": self.tokens,
            "final_loss": self.losses[-1] if self.losses else None,
            "losses": list(self.losses),
            "stream": self.stream,
            "train_s": round(self.train_s, 1),
            "probe_s": round(self.probe_s, 1),
        }


def run_arm(spec: ArmSpec) -> ArmResult:
    """Train ``spec``'s arm, probe its checkpoint, return both (run in a worker process).

    Raises:
        TrainError: the trainer refused the run (its one-line message).
        ReproError: the probe cannot read the transcripts with this template.
    """
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    with (
        open(spec.log, "a", encoding="utf-8", buffering=1) as log,
        redirect_stdout(log),
        redirect_stderr(log),
    ):
        import torch

        torch.set_num_threads(spec.threads)
        from hat_eval.trainers import HSASFTConfig, train_sft

        from ._probe import load_model, probe_transcripts, render, score_texts

        start = time.monotonic()
        config = HSASFTConfig(
            output_dir=spec.out,
            model_name_or_path=spec.base,
            fixed_harness=spec.arm == "fixed",
            seed=spec.seed,
            augment_seed=spec.seed,
            **spec.budget.sft_fields(),
        )
        result = train_sft(config)
        train_s = time.monotonic() - start
        print(f"{TRAINED_MARK} {result.global_step} steps in {train_s:.0f} s", flush=True)

        start = time.monotonic()
        from transformers import AutoTokenizer

        tokenizer = AutoTokenizer.from_pretrained(spec.base)
        texts = [
            render(t, tokenizer, spec.template) for t in probe_transcripts(spec.budget.test_cases)
        ]
        every = max(1, len(texts) // 20)

        def progress(done: int, total: int) -> None:
            if done % every == 0 or done == total:
                print(f"{PROBE_MARK} {done}/{total}", flush=True)

        scores = score_texts(load_model(spec.out), texts, progress=progress)
        probe_s = time.monotonic() - start
    info = result.info
    return ArmResult(
        arm=spec.arm,
        seed=spec.seed,
        checkpoint=spec.out,
        steps=result.global_step,
        tokens=int(result.metrics.get("num_tokens", 0)),
        losses=tuple(float(x) for x in info.get("losses", [])),
        stream={k: info[k] for k in ("drawn", "kept", "rejected", "preflight") if k in info},
        train_s=train_s,
        probe_s=probe_s,
        scores=tuple(scores),
    )


def arm_progress(log: str | Path, budget: Budget) -> str:
    """One short status of an arm from its log: ``step 40/240 loss 3.12`` or ``probe 200/1000``.

    Reads the trainer's logged dicts (one every ``logging_steps``) and the probe's lines; a log
    not written yet reads ``starting``.
    """
    path = Path(log)
    if not path.is_file():
        return "starting"
    probe = None
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith(PROBE_MARK):
            probe = line[len(PROBE_MARK) :].strip()
    if probe is not None:
        return f"probe {probe}"
    logged, loss = logged_losses(path)
    step = min(logged * budget.logging_steps, budget.max_steps)
    shown = f" loss {loss:.3f}" if loss is not None else ""
    return f"step {step}/{budget.max_steps}{shown}"


def logged_losses(log: str | Path) -> tuple[int, float | None]:
    """How many loss dicts a trainer has logged to ``log``, and the last loss (None: none yet).

    The trainers print one dict every ``logging_steps`` (``{'loss': '3.12', ...}``); a log
    not written yet has none.
    """
    path = Path(log)
    if not path.is_file():
        return 0, None
    logged = 0
    loss: float | None = None
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith("{") and "'loss'" in line:
            logged += 1
            try:
                loss = float(ast.literal_eval(line)["loss"])
            except (ValueError, SyntaxError, KeyError, TypeError):
                continue
    return logged, loss
