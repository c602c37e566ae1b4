"""The budgets of ``hat-eval repro``: how much compute a re-test of the reference's claims gets.

Two kinds. A token-level :class:`Budget` (``cpu-30m``, ``smoke``) is the whole recipe of a
teacher-forced run: the tiny random base both models start from, the HSA-SFT steps both train
for, and how many test transcripts the probe reads. ``cpu-30m`` is sized for 2 CPU cores and 30
minutes (measured: see :data:`BUDGETS`); ``smoke`` runs the same pipeline in about a minute for
CI, and its numbers mean nothing.

An end-to-end :class:`E2EBudget` (``gpu``, ``full``, ``smoke-e2e``) trains every candidate arm
with the project's trainers (:class:`SFTSize`, :class:`OPDSize`, :class:`RLSize`) and runs the
suites on the base and each arm (:class:`EvalSize`). ``gpu`` is sized for one H200 within an
hour and ``full`` is ``gpu`` over several training seeds; neither has been run on a GPU yet, so
their times are estimates (:data:`E2E_BUDGETS`). ``smoke-e2e`` runs the same pipeline on a CPU
in a few minutes for CI; its numbers mean nothing.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
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
    # training 21-22 minutes per arm, the probe 4.5-5 minutes); 12 min 29 s on an idle machine
    # (both arms trained and probed in 746 s), with the same numbers.
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


@dataclass(frozen=True)
class BaseShape:
    """The random Qwen3 an end-to-end budget builds when no ``--base`` is given.

    Attributes:
        hidden_size: its width (``build_tiny_model``: 4 attention heads, 2 key-value heads).
        num_hidden_layers: its decoder layers.
        vocab_size: the size its byte-level BPE is trained to.
    """

    hidden_size: int
    num_hidden_layers: int
    vocab_size: int


@dataclass(frozen=True)
class SFTSize:
    """The HSA-SFT stage of an end-to-end budget (both arms: fixed harness and HSA).

    Attributes:
        max_steps: optimizer steps of each arm.
        batch_size: trajectories per device step.
        accumulation: device steps per optimizer step.
        learning_rate: peak learning rate from the budget's random base.
        pretrained_learning_rate: peak learning rate from a ``--base`` checkpoint (a trained
            model takes far smaller steps than a random one).
        max_length: longest tokenized trajectory.
        train_cases: livestream train cases the trajectory stream cycles through.
        preflight_draws: draws the trainer checks before it starts.
        workers: DataLoader workers drawing and verifying rows (None: the trainer's default,
            2 with CUDA and 0 on a CPU).
    """

    max_steps: int
    batch_size: int
    accumulation: int
    learning_rate: float
    pretrained_learning_rate: float
    max_length: int
    train_cases: int
    preflight_draws: int
    workers: int | None = None

    def fields(self, *, pretrained: bool) -> dict[str, Any]:
        """Fields of ``HSASFTConfig`` (the arm sets ``fixed_harness``, seeds and folders)."""
        out: dict[str, Any] = {
            "max_steps": self.max_steps,
            "per_device_train_batch_size": self.batch_size,
            "gradient_accumulation_steps": self.accumulation,
            "learning_rate": self.pretrained_learning_rate if pretrained else self.learning_rate,
            "max_length": self.max_length,
            "train_cases": self.train_cases,
            "preflight_draws": self.preflight_draws,
        }
        if self.workers is not None:
            out["dataloader_num_workers"] = self.workers
        return out


@dataclass(frozen=True)
class OPDSize:
    """The general OPD stage of an end-to-end budget (run on each SFT arm).

    Attributes:
        max_steps: optimizer steps.
        batch_size: prompts per step.
        learning_rate: peak learning rate from the budget's random base.
        pretrained_learning_rate: peak learning rate from a ``--base`` checkpoint.
        max_completion_length: most tokens the student samples per prompt.
        general_limit: general-instruction prompts drawn from ``--general-data``.
    """

    max_steps: int
    batch_size: int
    learning_rate: float
    pretrained_learning_rate: float
    max_completion_length: int
    general_limit: int

    def fields(self, *, pretrained: bool) -> dict[str, Any]:
        """Fields of ``GeneralOPDConfig`` (the arm sets the student, data, seeds and folders)."""
        return {
            "max_steps": self.max_steps,
            "per_device_train_batch_size": self.batch_size,
            "learning_rate": self.pretrained_learning_rate if pretrained else self.learning_rate,
            "max_completion_length": self.max_completion_length,
            "general_limit": self.general_limit,
        }


@dataclass(frozen=True)
class RLSize:
    """The HSA-RL stage of an end-to-end budget (after HSA-SFT + OPD; HSA and fixed harness).

    Attributes:
        max_steps: optimizer steps.
        num_generations: rollouts per case (a GRPO group).
        batch_size: rollouts per device step.
        learning_rate: peak learning rate from the budget's random base.
        pretrained_learning_rate: peak learning rate from a ``--base`` checkpoint.
        max_completion_length: most tokens of a whole multi-turn rollout after its prompt.
        max_turns: most model turns per rollout.
        train_cases: livestream train cases the rollouts are drawn for.
    """

    max_steps: int
    num_generations: int
    batch_size: int
    learning_rate: float
    pretrained_learning_rate: float
    max_completion_length: int
    max_turns: int
    train_cases: int

    def fields(self, *, pretrained: bool) -> dict[str, Any]:
        """Fields of ``HSARLConfig`` (the arm sets ``fixed_harness``, seeds and folders)."""
        return {
            "max_steps": self.max_steps,
            "num_generations": self.num_generations,
            "per_device_train_batch_size": self.batch_size,
            "learning_rate": self.pretrained_learning_rate if pretrained else self.learning_rate,
            "max_completion_length": self.max_completion_length,
            "max_turns": self.max_turns,
            "train_cases": self.train_cases,
        }


@dataclass(frozen=True)
class EvalSize:
    """How much of each suite every model runs (``hat-eval run --limit`` per suite).

    Attributes:
        cases: ``livestream`` and ``variant`` test cases (the same cases, paired).
        evolution_cases: ``evolution`` cases, each answered under every changelog version.
        ifeval_prompts: IFEval prompts (of 541).
        max_tokens: most tokens per model reply in the case suites.
        ifeval_max_tokens: most tokens per IFEval reply.
        max_connections: concurrent model calls; the ``hf/`` provider batches up to this many,
            and generates a batch once it is full or no call has come for a while.
    """

    cases: int
    evolution_cases: int
    ifeval_prompts: int
    max_tokens: int
    ifeval_max_tokens: int
    max_connections: int


@dataclass(frozen=True)
class E2EBudget:
    """One end-to-end re-test: every arm trained by the project's trainers, then the suites.

    Attributes:
        name: the budget's name on the command line.
        minutes: the wall time it is sized for (one seed; estimated where not measured).
        measured: whether ``minutes`` was measured on the machine it names (else estimated).
        needs_cuda: whether it refuses to start without a CUDA device.
        default_seeds: training seeds when ``--seeds`` is not given.
        min_seeds: fewest seeds it accepts (``full`` reports a spread over seeds: 2).
        base: the random base built when ``--base`` is not given.
        sft: the HSA-SFT stage.
        opd: the general OPD stage.
        rl: the HSA-RL stage.
        eval: how much of each suite every model runs.
        logging_steps: steps between logged losses.
        n_boot: bootstrap resamples of each interval.
    """

    name: str
    minutes: int
    measured: bool
    needs_cuda: bool
    default_seeds: int
    min_seeds: int
    base: BaseShape
    sft: SFTSize
    opd: OPDSize
    rl: RLSize
    eval: EvalSize
    logging_steps: int
    n_boot: int

    def to_dict(self) -> dict[str, Any]:
        """Plain data for ``results.json``."""
        return asdict(self)


# One H200, under an hour for one seed; NOT RUN ON A GPU YET, so every time below is an
# estimate. A 230M random Qwen3 (the shape bench/gpu_check.py builds): each SFT arm 400
# steps x 8 trajectories of about 2,600 tokens (about 8M tokens, ~6 min at ~25k tokens/s
# with bf16), OPD 20 steps x 8 prompts x 128 sampled tokens on each SFT arm (~2 min each),
# HSA-RL and fixed-harness RL 16 GRPO steps x 8 rollouts of 2 turns (~3 min each), then 7
# models (base and six arms) x (100 livestream + 100 variant + 25 x 7 evolution + 150
# IFEval) samples with the hf/ provider batching 32 calls at a time (~3 min a model): ~50 min.
# A seed's seven models run in one Inspect eval set and Inspect keeps every model it loaded
# (7 x 230M in fp32 is ~6.5 GB; full's 19 models ~17 GB): a large --base needs that many copies.
GPU_BUDGET = E2EBudget(
    name="gpu",
    minutes=60,
    measured=False,
    needs_cuda=True,
    default_seeds=1,
    min_seeds=1,
    base=BaseShape(hidden_size=1024, num_hidden_layers=24, vocab_size=8192),
    sft=SFTSize(
        max_steps=400,
        batch_size=8,
        accumulation=1,
        learning_rate=3e-4,
        pretrained_learning_rate=1e-5,
        max_length=8192,
        train_cases=1000,
        preflight_draws=16,
        workers=6,  # of 16 cores: a verified row costs tens of ms, a step wants 8 of them
    ),
    opd=OPDSize(
        max_steps=20,
        batch_size=8,
        learning_rate=1e-5,
        pretrained_learning_rate=1e-6,
        max_completion_length=128,
        general_limit=256,
    ),
    rl=RLSize(
        max_steps=16,
        num_generations=8,
        batch_size=8,
        learning_rate=1e-5,
        pretrained_learning_rate=1e-6,
        max_completion_length=256,
        max_turns=2,
        train_cases=64,
    ),
    eval=EvalSize(
        cases=100,
        evolution_cases=25,
        ifeval_prompts=150,
        max_tokens=256,
        ifeval_max_tokens=384,
        max_connections=32,
    ),
    logging_steps=10,
    n_boot=2000,
)
"""The ``gpu`` budget (``full`` is it over several seeds)."""

E2E_BUDGETS: dict[str, E2EBudget] = {
    "gpu": GPU_BUDGET,
    # the gpu budget over several training seeds (the base is evaluated once): about 50 minutes
    # a seed, estimated as above
    "full": replace(GPU_BUDGET, name="full", minutes=150, default_seeds=3, min_seeds=2),
    # the whole pipeline on a CPU in a few minutes (CI): a 2-layer model, one step a stage, a
    # handful of cases a suite; its numbers mean nothing
    "smoke-e2e": E2EBudget(
        name="smoke-e2e",
        minutes=2,  # measured: 56 s from the command line, 39 s in its test, on 2 cores
        measured=True,
        needs_cuda=False,
        default_seeds=1,
        min_seeds=1,
        base=BaseShape(hidden_size=32, num_hidden_layers=2, vocab_size=2048),
        sft=SFTSize(
            max_steps=1,
            batch_size=1,
            accumulation=1,
            learning_rate=3e-3,
            pretrained_learning_rate=3e-3,
            max_length=4096,
            train_cases=8,
            preflight_draws=2,
        ),
        opd=OPDSize(
            max_steps=1,
            batch_size=2,
            learning_rate=5e-3,
            pretrained_learning_rate=5e-3,
            max_completion_length=4,
            general_limit=4,
        ),
        rl=RLSize(
            max_steps=1,
            num_generations=2,
            batch_size=2,
            learning_rate=5e-3,
            pretrained_learning_rate=5e-3,
            max_completion_length=8,
            max_turns=1,
            train_cases=4,
        ),
        eval=EvalSize(
            cases=2,
            evolution_cases=2,
            ifeval_prompts=3,
            max_tokens=8,
            ifeval_max_tokens=8,
            max_connections=8,
        ),
        logging_steps=1,
        n_boot=200,
    ),
}
"""The end-to-end budgets, by name."""

AnyBudget = Budget | E2EBudget
"""What ``--budget`` names: a token-level or an end-to-end budget."""

BUDGET_NAMES: tuple[str, ...] = ("cpu-30m", "gpu", "full", "smoke", "smoke-e2e")
"""Every name ``--budget`` accepts, in the order the help lists them."""


def budget_spec(name: str) -> AnyBudget:
    """The budget called ``name``, whether or not this machine can run it.

    Raises:
        ReproError: ``name`` is not a budget.
    """
    check_budget_name(name)
    return BUDGETS[name] if name in BUDGETS else E2E_BUDGETS[name]


def get_budget(name: str, *, cuda: bool = False) -> AnyBudget:
    """The budget called ``name``, checked against this machine.

    Args:
        name: the ``--budget`` value.
        cuda: whether this machine has a CUDA device (``gpu`` and ``full`` need one).

    Raises:
        ReproError: ``name`` is not a budget, or names one that needs CUDA on a machine
            without it.
    """
    spec = budget_spec(name)
    if isinstance(spec, E2EBudget) and spec.needs_cuda and not cuda:
        raise ReproError(
            f"--budget {name} needs a CUDA device (none found here): run --budget cpu-30m "
            "(token level) or smoke-e2e (the end-to-end pipeline, tiny) on this machine, or "
            f"--budget {name} on one with a GPU"
        )
    return spec


def resolve_seeds(spec: AnyBudget, seeds: int | None) -> int:
    """``--seeds`` as the run uses it: the budget's default when not given, else checked.

    Raises:
        ReproError: fewer than 1 seed, or fewer than the budget's least (``full``: 2).
    """
    if seeds is None:
        return spec.default_seeds if isinstance(spec, E2EBudget) else 1
    if seeds < 1:
        raise ReproError(f"--seeds ({seeds}) must be >= 1: the number of training seeds")
    if isinstance(spec, E2EBudget) and seeds < spec.min_seeds:
        raise ReproError(
            f"--seeds ({seeds}) must be >= {spec.min_seeds} with --budget {spec.name}: it "
            "reports the spread over training seeds; give more seeds, or run --budget gpu "
            "for one"
        )
    return seeds


def check_budget_name(name: str) -> None:
    """Raise :class:`ReproError` unless ``name`` is one of :data:`BUDGET_NAMES`."""
    if name not in BUDGET_NAMES:
        raise ReproError(
            f"--budget {name!r}: unknown budget, expected one of {', '.join(BUDGET_NAMES)}"
        )
