"""The candidate arms of an end-to-end re-test, each trained by the project's own trainers.

From one base, per training seed: HSA-SFT on the fixed harness and with a fresh HSA variant per
row (:func:`~hat_eval.trainers.train_sft`), general OPD on each of them
(:func:`~hat_eval.trainers.train_opd`, the teacher being the base their run records lead to),
and HSA-RL after HSA-SFT + OPD (:func:`~hat_eval.trainers.train_rl`) with and without harness
variants. The arms are data (:data:`E2E_ARMS`); each stage's sizes are the budget's
(:class:`~hat_eval.repro._budget.E2EBudget`), every other field the trainer's own default.
"""

from __future__ import annotations

import gc
import time
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from ._budget import E2EBudget

BASE = "base"
"""The arm name of the base model (trained by no stage, evaluated once)."""

Stage = Literal["sft", "opd", "rl"]


@dataclass(frozen=True)
class E2EArm:
    """One trained arm: its name, the stage that trains it, and the model it starts from.

    Attributes:
        id: the arm's name in contrasts and results (no ``-``: contrasts subtract with it).
        stage: ``sft``, ``opd`` or ``rl``.
        start: the arm (or :data:`BASE`) whose checkpoint the stage starts from.
        fixed_harness: SFT and RL: the default harness only, no HSA variant.
        label: what the arm is, in words.
    """

    id: str
    stage: Stage
    start: str
    label: str
    fixed_harness: bool = False

    @property
    def folder(self) -> str:
        """The arm's folder name under its seed's folder."""
        return arm_folder(self.id)


E2E_ARMS: tuple[E2EArm, ...] = (
    E2EArm("fixed_sft", "sft", BASE, "SFT on the fixed (default) harness", fixed_harness=True),
    E2EArm("hsa_sft", "sft", BASE, "HSA-SFT (a fresh harness variant per row)"),
    E2EArm("fixed_sft+opd", "opd", "fixed_sft", "fixed-harness SFT, then general OPD"),
    E2EArm("hsa_sft+opd", "opd", "hsa_sft", "HSA-SFT, then general OPD"),
    E2EArm("hsa_sft+opd+rl", "rl", "hsa_sft+opd", "HAT: HSA-SFT, general OPD, then HSA-RL"),
    E2EArm(
        "hsa_sft+opd+fixed_rl",
        "rl",
        "hsa_sft+opd",
        "HSA-SFT, general OPD, then RL on the fixed harness",
        fixed_harness=True,
    ),
)
"""Every trained arm, in training order (each after the arm it starts from)."""

E2E_ARM_IDS: tuple[str, ...] = (BASE, *(a.id for a in E2E_ARMS))
"""Every model an end-to-end run evaluates: the base, then each arm."""


def arm_folder(arm: str) -> str:
    """The folder name of arm ``arm`` (``hsa_sft+opd`` -> ``hsa_sft_opd``)."""
    return arm.replace("+", "_")


@dataclass(frozen=True)
class StageRecord:
    """What training one arm with one seed did.

    Attributes:
        arm: the arm's name.
        stage: the stage that trained it.
        seed: the training seed.
        start: the checkpoint it started from.
        checkpoint: the folder its model was written to.
        steps: optimizer steps done.
        seconds: wall seconds of the stage (loading and saving included).
        losses: SFT's logged training losses, in order (the other stages record none).
        metrics: the trainer's last logged values (``loss``; RL's ``reward``; ...).
        info: the stage's own counts (trajectories drawn and kept, prompts, rollouts).
    """

    arm: str
    stage: str
    seed: int
    start: str
    checkpoint: str
    steps: int
    seconds: float
    losses: tuple[float, ...] = ()
    metrics: dict[str, float] = field(default_factory=dict)
    info: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for ``results.json``."""
        return {
            "arm": self.arm,
            "stage": self.stage,
            "seed": self.seed,
            "start": self.start,
            "checkpoint": self.checkpoint,
            "steps": self.steps,
            "seconds": round(self.seconds, 1),
            "losses": list(self.losses),
            "metrics": self.metrics,
            "info": self.info,
        }


def stage_config(
    arm: E2EArm,
    budget: E2EBudget,
    *,
    start: Path,
    out: Path,
    seed: int,
    pretrained: bool,
    general_data: str | None,
) -> Any:
    """The trainer config of ``arm``: the budget's sizes for its stage, the rest the defaults.

    ``pretrained``: the base is a given checkpoint (its smaller learning rates apply).
    ``general_data``: OPD's prompts (None: the trainer's default, the Hub's Tulu 3 mixture).

    Raises:
        TrainError: the trainer's config refuses a value (its one-line message).
    """
    common: dict[str, Any] = {
        "output_dir": str(out),
        "model_name_or_path": str(start),
        "seed": seed,
        "logging_steps": budget.logging_steps,
        "save_strategy": "no",
        "disable_tqdm": True,
    }
    if arm.stage == "sft":
        from hat_eval.trainers import HSASFTConfig

        return HSASFTConfig(
            **common,
            fixed_harness=arm.fixed_harness,
            augment_seed=seed,
            **budget.sft.fields(pretrained=pretrained),
        )
    if arm.stage == "opd":
        from hat_eval.trainers import GeneralOPDConfig

        data = {} if general_data is None else {"general_data": general_data}
        return GeneralOPDConfig(**common, **data, **budget.opd.fields(pretrained=pretrained))
    from hat_eval.trainers import HSARLConfig

    return HSARLConfig(
        **common,
        fixed_harness=arm.fixed_harness,
        augment_seed=seed,
        **budget.rl.fields(pretrained=pretrained),
    )


def train_arm(
    arm: E2EArm,
    budget: E2EBudget,
    *,
    start: Path,
    out: Path,
    seed: int,
    pretrained: bool,
    general_data: str | None,
    log: Path,
) -> StageRecord:
    """Train ``arm`` from ``start`` into ``out`` with its stage's trainer; output to ``log``.

    Raises:
        TrainError: the trainer refused the run (its one-line message).
    """
    from hat_eval.trainers import train_opd, train_rl, train_sft

    train = {"sft": train_sft, "opd": train_opd, "rl": train_rl}[arm.stage]
    started = time.monotonic()
    with (
        log.open("a", encoding="utf-8", buffering=1) as f,
        redirect_stdout(f),
        redirect_stderr(f),
    ):
        config = stage_config(
            arm,
            budget,
            start=start,
            out=out,
            seed=seed,
            pretrained=pretrained,
            general_data=general_data,
        )
        result = train(config)
    free_accelerator()
    info = dict(result.info)
    losses = info.pop("losses", [])
    return StageRecord(
        arm=arm.id,
        stage=arm.stage,
        seed=seed,
        start=str(start),
        checkpoint=str(out),
        steps=result.global_step,
        seconds=time.monotonic() - started,
        losses=tuple(float(x) for x in losses),
        # what `hat-eval train` prints: the last logged values, the run's totals left out
        metrics={k: v for k, v in result.metrics.items() if not k.startswith("train_")},
        info={k: v for k, v in info.items() if _plain(v)},
    )


def _plain(value: Any) -> bool:
    """Whether ``value`` is plain JSON data (what ``results.json`` keeps of a stage's info)."""
    import json

    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True


def free_accelerator() -> None:
    """Let go of the models a finished stage or evaluation held (the GPU's cache too)."""
    gc.collect()
    import torch

    if torch.cuda.is_available():
        torch.cuda.empty_cache()
