"""The three HAT trainers on TRL (``hat_eval.trainers``): HSA-SFT, general OPD and HSA-RL.

Each stage is a dataclass config beside its trainer, extending TRL's own config:
:class:`HSASFTConfig` (``SFTTrainer`` on verified trajectories, a fresh harness variant per draw),
:class:`GeneralOPDConfig` (on-policy distillation to the frozen base on general instructions) and
:class:`HSARLConfig` (``GRPOTrainer`` in the live-stream simulator, rewards from the episode's
checks). The stage modules import TRL, so they load lazily: ``import hat_eval.trainers`` works
without the ``train`` extra, and :func:`require_train_extra` says what to install.
"""

from hat_eval._lazy import lazy_getattr

from ._common import (
    RUN_FILE,
    MissingExtraError,
    TrainError,
    device_defaults,
    load_config,
    require_train_extra,
    resolve_base,
)
from ._mtp import (
    carry_mtp,
    mtp_tensors,
    write_mtp,
)
from ._tiny import TINY_BASE, build_tiny_model

_LAZY: dict[str, str] = {
    # stage modules (they import trl): name -> module
    "HSASFTConfig": "._sft",
    "train_sft": "._sft",
    "TrajectoryStream": "._trajectory",
    "Trajectory": "._trajectory",
    "GeneralOPDConfig": "._opd",
    "prepare_opd": "._opd",
    "train_opd": "._opd",
    "TULU3_SFT_MIXTURE": "._general",
    "load_general_instructions": "._general",
    "HSARLConfig": "._rl",
    "train_rl": "._rl",
    "Rewards": "._rewards",
    "Rollout": "._rewards",
    "compute_score": "._rewards",
    "JudgeReward": "._judge_reward",
    "Simulator": "._rollout",
    "RolloutFunction": "._rollout",
}

__getattr__ = lazy_getattr(__name__, _LAZY)


__all__ = [
    "RUN_FILE",
    "TINY_BASE",
    "MissingExtraError",
    "TrainError",
    "build_tiny_model",
    "carry_mtp",
    "device_defaults",
    "load_config",
    "mtp_tensors",
    "require_train_extra",
    "resolve_base",
    "write_mtp",
    *_LAZY,
]
