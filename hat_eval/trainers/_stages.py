"""The stages ``hat-eval train`` knows: one table, from which the CLI derives its commands."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from ._common import StageResult, TrainError


@dataclass(frozen=True)
class Stage:
    """One HAT stage: where its config and trainer live, and what it does."""

    name: str
    module: str
    """The module (relative to ``hat_eval.trainers``) holding the config and the train function."""
    config: str
    """Its config dataclass (extends TRL's config)."""
    train: str
    """``train(config) -> StageResult``."""
    help: str


STAGES: dict[str, Stage] = {
    s.name: s
    for s in (
        Stage(
            "sft",
            "._sft",
            "HSASFTConfig",
            "train_sft",
            "HSA-SFT: SFTTrainer on verified trajectories of the train split, a fresh harness "
            "variant each time a sample is drawn (--fixed-harness: the default harness only).",
        ),
        Stage(
            "opd",
            "._opd",
            "GeneralOPDConfig",
            "train_opd",
            "General on-policy distillation: the student samples its own completions on general "
            "instructions and minimises reverse KL to the frozen pretrained base.",
        ),
        Stage(
            "rl",
            "._rl",
            "HSARLConfig",
            "train_rl",
            "HSA-RL: GRPOTrainer in the live-stream simulator (tool calls run against the world "
            "through the hooks, a harness variant per rollout, rewards from the episode's checks).",
        ),
    )
}
"""Stage name -> :class:`Stage`."""


def _stage(name: str) -> Stage:
    if name not in STAGES:
        raise TrainError(f"unknown stage {name!r}, expected one of {', '.join(STAGES)}")
    return STAGES[name]


def stage_config(name: str) -> type[Any]:
    """The config class of stage ``name`` (imports TRL: check the extra first)."""
    s = _stage(name)
    return getattr(importlib.import_module(s.module, __package__), s.config)


def run_stage(name: str, config: Any) -> StageResult:
    """Train stage ``name`` with ``config`` and write its checkpoint to ``config.output_dir``."""
    s = _stage(name)
    train = getattr(importlib.import_module(s.module, __package__), s.train)
    return train(config)
