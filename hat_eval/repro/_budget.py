"""The budgets of ``hat-eval repro``: how much compute a re-test of the reference's claims gets.

A :class:`Budget` is the whole recipe of a token-level run: the tiny random base both models
start from, the HSA-SFT steps both train for, and how many test transcripts the probe reads.
``cpu-30m`` is sized for 2 CPU cores and 30 minutes (measured: see :data:`BUDGETS`); ``smoke``
runs the same pipeline in about a minute for CI, and its numbers mean nothing. ``gpu`` and
``full`` (end-to-end suites, several seeds) are named here so the command can parse them and
say what they need; they are not built yet (:func:`get_budget`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


class ReproError(ValueError):
    """A ``hat-eval repro`` input or run problem, in one line: what, the value, the fix."""


@dataclass(frozen=True)
class Budget:
    """One token-level re-test: tiny base, two HSA-SFT arms, the teacher-forced probe.

    Attributes:
        name: the budget's name on the command line.
        minutes: the wall time it was sized for (both arms training side by side, one core
            each, then the probe), on 2 cores.
        hidden_size: width of the tiny random Qwen3 base (``build_tiny_model``).
        num_hidden_layers: its decoder layers.
        vocab_size: the size its byte-level BPE is trained to.
        max_steps: optimizer steps of each arm (the same for both).
        batch_size: trajectories per step (the same for both).
        learning_rate: peak learning rate (TRL's linear decay to 0).
        max_length: longest tokenized trajectory (they are about 2,500-2,800 tokens).
        train_cases: livestream train cases the trajectory stream cycles through.
        preflight_draws: draws the trainer checks before it starts.
        logging_steps: steps between logged losses (the progress lines read them).
        test_cases: test transcripts per suite (``livestream`` and ``variant``: the same cases,
            under the default harness and under a held-out variant).
        n_boot: bootstrap resamples of each interval.
    """

    name: str
    minutes: int
    hidden_size: int
    num_hidden_layers: int
    vocab_size: int
    max_steps: int
    batch_size: int
    learning_rate: float
    max_length: int
    train_cases: int
    preflight_draws: int
    logging_steps: int
    test_cases: int
    n_boot: int

    def sft_fields(self) -> dict[str, Any]:
        """The fields of ``HSASFTConfig`` both arms share (the arm sets ``fixed_harness``)."""
        return {
            "max_steps": self.max_steps,
            "per_device_train_batch_size": self.batch_size,
            "learning_rate": self.learning_rate,
            "max_length": self.max_length,
            "train_cases": self.train_cases,
            "preflight_draws": self.preflight_draws,
            "logging_steps": self.logging_steps,
            "save_strategy": "no",
            "disable_tqdm": True,
            # the arm runs in a pool's worker process, which may not start DataLoader workers;
            # drawing a row costs 1-2 ms, nothing beside a CPU step
            "dataloader_num_workers": 0,
        }

    def to_dict(self) -> dict[str, Any]:
        """Plain data for ``results.json``."""
        return asdict(self)


BUDGETS: dict[str, Budget] = {
    # 2 cores, both arms side by side with one thread each: about 1,400 tokens/s per arm on a
    # quiet machine, so 240 steps x 2 trajectories (about 5,500 tokens a step) take about 16
    # minutes, and the probe reads 1,000 transcripts at about 0.15 s each per arm. Measured
    # end to end: 26 min 51 s with other test runs sharing the 2 cores (load average 3-5.6;
    # training 21-22 minutes per arm, the probe 4.5-5 minutes).
    "cpu-30m": Budget(
        name="cpu-30m",
        minutes=30,
        hidden_size=128,
        num_hidden_layers=4,
        vocab_size=2048,
        max_steps=240,
        batch_size=2,
        learning_rate=3e-3,
        max_length=4096,
        train_cases=500,
        preflight_draws=16,
        logging_steps=10,
        test_cases=500,
        n_boot=2000,
    ),
    # the same pipeline in about a minute (CI): its numbers mean nothing
    "smoke": Budget(
        name="smoke",
        minutes=2,
        hidden_size=32,
        num_hidden_layers=2,
        vocab_size=2048,
        max_steps=2,
        batch_size=1,
        learning_rate=3e-3,
        max_length=4096,
        train_cases=8,
        preflight_draws=2,
        logging_steps=1,
        test_cases=8,
        n_boot=200,
    ),
}
"""The token-level budgets, by name."""

PLANNED: dict[str, str] = {
    "gpu": "end-to-end livestream, variant and IFEval for base, fixed-SFT, HSA-SFT, +OPD, +RL",
    "full": "the gpu budget over several training seeds, with the spread over seeds",
}
"""Budgets the command parses but does not run yet, and what they will measure."""

BUDGET_NAMES: tuple[str, ...] = ("cpu-30m", "gpu", "full", "smoke")
"""Every name ``--budget`` accepts, in the order the help lists them."""


def get_budget(name: str, *, cuda: bool = False) -> Budget:
    """The runnable budget called ``name``.

    Args:
        name: the ``--budget`` value.
        cuda: whether this machine has a CUDA device (``gpu`` needs one).

    Raises:
        ReproError: ``name`` is not a budget, or names one that cannot run here (``gpu``
            without CUDA; ``gpu`` and ``full`` are not built yet).
    """
    check_budget_name(name)
    if name in BUDGETS:
        return BUDGETS[name]
    if name == "gpu" and not cuda:
        raise ReproError(
            "--budget gpu needs a CUDA device (none found here): run --budget cpu-30m on this "
            "machine, or the gpu budget on one with a GPU"
        )
    raise ReproError(
        f"--budget {name} is not built yet ({PLANNED[name]}): run --budget cpu-30m for the "
        "token-level re-test"
    )


def check_budget_name(name: str) -> None:
    """Raise :class:`ReproError` unless ``name`` is one of :data:`BUDGET_NAMES`."""
    if name not in BUDGET_NAMES:
        raise ReproError(
            f"--budget {name!r}: unknown budget, expected one of {', '.join(BUDGET_NAMES)}"
        )
