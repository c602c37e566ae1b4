"""The three HAT trainers on TRL (``hat_eval.trainers``): HSA-SFT, general OPD and HSA-RL.

Each stage is a dataclass config beside its trainer, extending TRL's own config:
:class:`HSASFTConfig` (``SFTTrainer`` on verified trajectories, a fresh harness variant per draw),
:class:`GeneralOPDConfig` (on-policy distillation to the frozen base on general instructions) and
:class:`HSARLConfig` (``GRPOTrainer`` in the live-stream simulator, rewards from the episode's
checks). The stage modules import TRL, so they load lazily: ``import hat_eval.trainers`` works
without the ``train`` extra, and a stage started without it says in one line what to install.
"""

from hat_eval._lazy import lazy_getattr

from ._common import TrainError
from ._mtp import write_mtp
from ._tiny import build_tiny_model

_LAZY: dict[str, str] = {  # stage modules (they import trl): name -> module
    **dict.fromkeys(("HSASFTConfig", "train_sft"), "._sft"),
    **dict.fromkeys(("TrajectoryStream", "Trajectory"), "._trajectory"),
    **dict.fromkeys(("GeneralOPDConfig", "train_opd"), "._opd"),
    **dict.fromkeys(("TULU3_SFT_MIXTURE", "load_general_instructions"), "._general"),
    **dict.fromkeys(("HSARLConfig", "train_rl"), "._rl"),
}

__getattr__ = lazy_getattr(__name__, _LAZY)


__all__ = [
    "TrainError",
    "build_tiny_model",
    "write_mtp",
    *_LAZY,
]
