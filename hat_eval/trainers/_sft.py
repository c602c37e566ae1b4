"""HSA-SFT: TRL's ``SFTTrainer`` on verified trajectories, a fresh harness variant per draw.

:func:`train_sft` resolves the base, builds a :class:`~hat_eval.trainers._trajectory.
TrajectoryStream` over the train split, checks that it yields anything at all, and trains with
``assistant_only_loss`` on a :class:`datasets.IterableDataset` made from the stream's generator:
TRL tokenizes it lazily, so every row the trainer reads is drawn (and augmented, and verified)
when it is read. Nothing pre-augmented is stored; ``max_steps`` says how long to draw. The rows
are drawn, verified, rendered and tokenized in ``dataloader_num_workers`` DataLoader workers
(2 by default with CUDA), each drawing its own share of the slots, so the same seed gives the
same rows in the same order with any number of workers (:mod:`._pipeline`); the preflight's
verified rows are the first ones trained on, not drawn again.

For a base with TRL's Qwen3 template (the tiny base, Qwen3 checkpoints) the trainer trains with
TRL's Qwen3 training template and writes the inference template, both rewritten to accept the
shapes Inspect's ``hf/`` provider sends (see :mod:`._template`), so the checkpoint runs in
``hat-eval run --model CKPT``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from trl import SFTConfig, SFTTrainer

from ._common import StageResult, TrainError, device_defaults, resolve_base, write_checkpoint
from ._pipeline import (
    build_dataset,
    default_num_workers,
    default_prefetch_factor,
    worker_error,
)
from ._template import qwen3_templates
from ._tiny import TINY_BASE
from ._trajectory import DEFAULT_MIN_AGGREGATE, MAX_WORKERS, EmptyPoolError, TrajectoryStream

STAGE = "sft"


@dataclass
class HSASFTConfig(SFTConfig):
    """Configuration of HSA-SFT: TRL's ``SFTConfig`` plus where the trajectories come from.

    Defaults that differ from TRL's: ``assistant_only_loss=True`` (loss on the assistant's tool
    calls and answers only: the system prompt, the viewer and the tool results are the world's),
    ``max_length=8192`` (a harness-rendered trajectory is about 2,500 tokens; TRL's 1024 would
    cut every final answer off) and ``max_steps=100`` (the stream is endless, so it must be
    bounded by steps).
    """

    model_name_or_path: str = field(
        default=TINY_BASE,
        metadata={
            "help": f"Base checkpoint folder, or {TINY_BASE!r} for a tiny random Qwen3 built "
            "into output_dir/base (CPU smoke runs)."
        },
    )
    harness: str | None = field(
        default=None,
        metadata={
            "help": "Base harness file the variants are drawn from (the default live-commerce "
            "harness if unset)."
        },
    )
    fixed_harness: bool = field(
        default=False,
        metadata={
            "help": "Train on the base harness only, no augmentation (the baseline HSA is "
            "compared with)."
        },
    )
    train_cases: int = field(
        default=500,
        metadata={"help": "How many livestream cases of the train split form the pool."},
    )
    kb_seed: int = field(
        default=0, metadata={"help": "Seed of the world's knowledge base the cases come from."}
    )
    augment_seed: int = field(
        default=0,
        metadata={
            "help": "Seed of the stream of harness variants (draw k gets the training variant "
            "of derive_seed(augment_seed, k)); the same seed replays the same stream."
        },
    )
    min_aggregate: float = field(
        default=DEFAULT_MIN_AGGREGATE,
        metadata={
            "help": "Lowest aggregate score (0-100) a trajectory may have to be used; it must "
            "also pass accuracy (undecided does not pass) and the skill tag."
        },
    )
    preflight_draws: int = field(
        default=64,
        metadata={
            "help": "Draws checked before training (and reported): if none passes the checks, "
            "training does not start. The rows that pass are the first ones trained on."
        },
    )
    # TRL's data-loading fields, with defaults for this stage's on-the-fly stream
    dataloader_num_workers: int = field(
        default_factory=default_num_workers,
        metadata={
            "help": "DataLoader workers that draw, verify, render and tokenize rows while the "
            "model trains (default: 2 when CUDA is available, 0 on CPU: the training process "
            f"draws). Each worker draws its own share of the rows (at most {MAX_WORKERS} "
            "workers); the same seed gives the same rows in the same order with any number."
        },
    )
    dataloader_prefetch_factor: int | None = field(
        default=None,
        metadata={
            "help": "Batches each DataLoader worker prepares ahead (None: enough for one "
            "optimizer step between the workers, ceil(gradient_accumulation_steps / "
            "dataloader_num_workers), at least 2; must stay None with 0 workers)."
        },
    )
    # TRL defaults changed for this stage
    assistant_only_loss: bool = field(
        default=True,
        metadata={
            "help": "Compute the loss on assistant turns only (tool calls and final answers)."
        },
    )
    max_length: int | None = field(
        default=8192,
        metadata={
            "help": "Longest tokenized trajectory; longer ones are cut at the end (None: no "
            "limit). Trajectories are about 2,500 tokens."
        },
    )
    max_steps: int = field(
        default=100,
        metadata={"help": "Optimizer steps to train: the on-the-fly stream has no end."},
    )

    def __post_init__(self) -> None:
        device_defaults(self)
        if self.dataloader_prefetch_factor is None:
            self.dataloader_prefetch_factor = default_prefetch_factor(
                self.dataloader_num_workers, self.gradient_accumulation_steps
            )
        super().__post_init__()
        if self.max_steps <= 0:
            raise TrainError(
                f"max_steps ({self.max_steps}) must be > 0: HSA-SFT draws a fresh variant per "
                "sample from an endless stream, so the run is bounded by steps; set max_steps"
            )
        if self.train_cases < 1:
            raise TrainError(
                f"train_cases ({self.train_cases}) must be >= 1: the pool of train cases would "
                "be empty; set train_cases to 1 or more"
            )
        if not 0.0 <= self.min_aggregate <= 100.0:
            raise TrainError(
                f"min_aggregate ({self.min_aggregate}) must be within [0, 100] (the aggregate "
                "score's range)"
            )
        if self.preflight_draws < 1:
            raise TrainError(
                f"preflight_draws ({self.preflight_draws}) must be >= 1: training starts only "
                "after some draw passed the checks"
            )
        if self.harness is not None and not Path(self.harness).is_file():
            raise TrainError(
                f"harness {self.harness!r}: no such file, expected a harness YAML/JSON file "
                "(or leave it unset for the default harness)"
            )
        if isinstance(self.dataset_kwargs, dict) and self.dataset_kwargs.get(
            "skip_prepare_dataset"
        ):
            raise TrainError(
                "dataset_kwargs.skip_prepare_dataset (True) must be False: the trajectories are "
                "chat messages that TRL tokenizes as they are drawn; drop it"
            )
        if not 0 <= self.dataloader_num_workers <= MAX_WORKERS:
            raise TrainError(
                f"dataloader_num_workers ({self.dataloader_num_workers}) must be within [0, "
                f"{MAX_WORKERS}]: the stream keeps one row of counts per worker; 0 draws in the "
                "training process"
            )
        in_order = getattr(self, "dataloader_in_order", True)
        if self.dataloader_num_workers > 1 and not in_order:
            raise TrainError(
                f"dataloader_in_order ({in_order}) must be True with "
                f"{self.dataloader_num_workers} DataLoader workers: out of order, the rows of a "
                "seed would come in an order that depends on the workers' timing; drop it"
            )
        if self.max_length is not None and self.max_length < 256:
            raise TrainError(
                f"max_length ({self.max_length}) must be >= 256 or None: a trajectory's system "
                "prompt and tools alone are longer, so every answer would be cut off"
            )


def build_stream(config: HSASFTConfig) -> TrajectoryStream:
    """The trajectory stream ``config`` describes."""
    return TrajectoryStream.from_train_split(
        config.train_cases,
        harness=config.harness,
        kb_seed=config.kb_seed,
        augment_seed=config.augment_seed,
        fixed_harness=config.fixed_harness,
        min_aggregate=config.min_aggregate,
    )


def load_tokenizer(base: Path) -> tuple[Any, str | None]:
    """The base's tokenizer set up for training, and the template to write with the checkpoint.

    A Qwen3-template tokenizer gets the Inspect-compatible training template (which has TRL's
    ``{% generation %}`` markers); the inference template is returned to be written. For other
    templates the tokenizer is unchanged and None is returned (TRL swaps in its own training
    template when it knows the base's).
    """
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(base))
    templates = qwen3_templates(tokenizer.chat_template)
    if templates is None:
        return tokenizer, None
    tokenizer.chat_template = templates[0]
    return tokenizer, templates[1]


def build_trainer(
    config: HSASFTConfig, base: Path, stream: TrajectoryStream
) -> tuple[SFTTrainer, str | None]:
    """The ``SFTTrainer`` over the stream's dataset, and the inference template to write."""
    tokenizer, inference_template = load_tokenizer(base)
    trainer = SFTTrainer(
        model=str(base),
        args=config,
        train_dataset=build_dataset(stream, block=config.train_batch_size),
        processing_class=tokenizer,
    )
    return trainer, inference_template


def preflight(stream: TrajectoryStream, draws: int) -> dict[str, Any]:
    """Survey the first ``draws`` draws; raise before training if none would be used.

    The rows that pass are kept in the stream: they are the first rows training reads, so
    checking them costs no drawing the training would not do anyway.

    Raises:
        TrainError: the pool is empty, or every draw surveyed was rejected.
    """
    if not stream.pool:
        raise TrainError(
            "train_cases: the train split gave no cases, expected at least one (check "
            "train_cases and kb_seed)"
        )
    stats = stream.survey(draws, keep=True)
    if stats.kept == 0:
        raise TrainError(
            f"every one of the first {stats.drawn} trajectories was rejected by the checks "
            f"({dict(stats.rejected)}), expected some to pass: lower min_aggregate "
            f"({stream.min_aggregate:g}) or check the harness file"
        )
    return stats.to_dict()


def train_sft(config: HSASFTConfig) -> StageResult:
    """Train HSA-SFT as ``config`` says and write the checkpoint to ``config.output_dir``.

    ``info`` of the result (and of the run file beside the checkpoint) holds the preflight
    survey and the counts of the training stream: draws, kept, rejected by reason.

    Raises:
        TrainError: the base cannot be found, or the stream would yield nothing (before any
            training starts).
    """
    stream = build_stream(config)
    survey = preflight(stream, config.preflight_draws)  # before a tiny base is built
    base = resolve_base(config.model_name_or_path, str(config.output_dir))
    trainer, inference_template = build_trainer(config, base, stream)
    try:
        trainer.train()
    except EmptyPoolError as err:  # raised in a DataLoader worker or in this process
        raise TrainError(
            f"the trajectory stream ran dry during training: {worker_error(err)}"
        ) from None
    if inference_template is not None:
        tokenizer: Any = trainer.processing_class
        tokenizer.chat_template = inference_template
    stats = stream.last_pass()
    info = {
        "fixed_harness": config.fixed_harness,
        "train_cases": len(stream.pool),
        "preflight": survey,
        "drawn": stats.drawn,
        "kept": stats.kept,
        "rejected": dict(stats.rejected),
        "min_aggregate": config.min_aggregate,
        "losses": [float(e["loss"]) for e in trainer.state.log_history if "loss" in e],
    }
    return write_checkpoint(trainer, config, stage=STAGE, base=base, info=info)
