"""General on-policy distillation (OPD): reverse KL to the frozen base on the student's samples.

The student writes its own answers to general instructions and minimises the reverse KL,
KL(student ‖ teacher), to the frozen pretrained base, token by token. The stage keeps a
harness-trained candidate close to its base on everything that is not live commerce. It runs on
the HSA-SFT checkpoint (``--model runs/sft``); the teacher is, by default, the pretrained base that
checkpoint descends from (:func:`pretrained_base` follows the stages' run records), so the loss
measures how far HSA training moved the student on general instructions. A student that is its own
teacher has exactly zero loss and gradient: nothing to learn (the tests use that as a check).

Why ``trl.DistillationTrainer`` and not ``trl.experimental.gkd.GKDTrainer`` (TRL 1.16, read from
their source):

- On-policy share. ``DistillationTrainer`` generates every completion with the student
  (``_generate_and_score_completions``): fully on-policy, nothing to configure. ``GKDTrainer``
  rolls ``random.random() <= lmbda`` per step on Python's global RNG (default ``lmbda=0.5``), and
  the remaining steps train on the dataset's own completions (or the teacher's, ``seq_kd``), so it
  needs full SFT conversations, not prompts, and its on-policy share is a coin flip.
- Loss. Both compute the generalised JSD of the paper (``beta``: 0 forward KL, 1 reverse KL). The
  Distillation one (``_chunked_divergence_loss``) projects only the completion positions through
  the two ``lm_head`` weights in tiles, never materialising ``(batch, length, vocab)`` logits, and
  applies ``temperature`` to both distributions, as it does to sampling. GKD materialises the full
  logits of both models over prompt and completion, samples at ``temperature`` (default 0.9) but
  computes the loss at temperature 1.0 (``compute_loss`` does not pass it on).
- Teacher. Both load it from a path or take a model, check the vocabularies match, wrap it with
  ``accelerator.prepare_model(..., evaluation_mode=True)`` (or DeepSpeed) and run it under
  ``torch.no_grad`` in eval mode; its parameters never reach the optimiser. Distillation also
  takes the teacher's revision and lets subclasses supply a remote teacher.
- Generation. Distillation builds prompts with the chat template itself from a ``prompt`` column
  (the layout :mod:`hat_eval.trainers._general` produces), generates once per gradient-accumulation
  window and reuses it, and handles tools; GKD calls ``model.generate`` inside ``training_step``
  on batches from an SFT-style ChatML collator.
- vLLM. Distillation has ``use_vllm`` (colocate or server, like GRPO), which the GPU path of the
  issue asks for; GKD has no vLLM path at all.
- Maintenance. Distillation lives in ``trl.trainer`` (the stable API); GKD sits in
  ``trl.experimental`` and itself logs that a fully on-policy configuration "is fully covered by
  DistillationTrainer" and recommends migrating.

``beta`` is fixed at 1.0 (reverse KL, mode-seeking: the student is penalised for putting mass where
the base would not, which is what keeping a candidate's general behaviour means; forward KL would
instead push it to cover every mode of the base). Any other value is refused rather than silently
training a different objective.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from trl import DistillationConfig, DistillationTrainer

from ._common import (
    RUN_FILE,
    StageResult,
    TrainError,
    device_defaults,
    resolve_base,
    write_checkpoint,
)
from ._general import TULU3_SFT_MIXTURE, load_general_instructions
from ._template import qwen3_templates
from ._tiny import TINY_BASE

STAGE = "opd"
"""The stage's name (``hat-eval train opd``, the ``stage`` of its run record)."""


@dataclass
class GeneralOPDConfig(DistillationConfig):
    """Config of the General OPD stage (``hat-eval train opd``).

    TRL's :class:`~trl.DistillationConfig` plus the base, the teacher and the general-instruction
    data. Every TRL field keeps its meaning; the defaults
    changed here are ``beta`` (1.0: reverse KL, the only value accepted) and ``disable_dropout``
    (``True``: dropout in the student would make the loss non-zero even against itself).

    Raises:
        TrainError: A value breaks a rule (the message gives the value, the rule and the fix).
    """

    model_name_or_path: str = field(
        default=TINY_BASE,
        metadata={
            "help": "The student's starting checkpoint: a local Hugging Face checkpoint folder, or "
            f"{TINY_BASE!r} for a tiny random model built into output_dir/base."
        },
    )
    teacher_model_name_or_path: str | None = field(
        default=None,
        metadata={
            "help": "The frozen teacher: a local checkpoint folder with the student's tokenizer. "
            "Default (unset): the pretrained base the student descends from, found by following "
            "the run records hat-eval stages write (the student itself when it has none, which "
            "makes the loss exactly zero: nothing to learn)."
        },
    )
    general_data: str = field(
        default=TULU3_SFT_MIXTURE,
        metadata={
            "help": "General-instruction prompts: a local .jsonl/.json/.parquet file or folder "
            "(Tulu 3 'messages', a 'prompt' column, or Self-Instruct/Alpaca 'instruction'), or a "
            f"Hub dataset id (default {TULU3_SFT_MIXTURE}, which needs the network)."
        },
    )
    general_split: str = field(
        default="train",
        metadata={"help": "The split of general_data to read."},
    )
    general_limit: int | None = field(
        default=None,
        metadata={
            "help": "Use at most this many prompts, drawn with `seed` (on the Hub, streamed: only "
            "those rows are downloaded). Default: all of them."
        },
    )
    general_revision: str | None = field(
        default=None,
        metadata={
            "help": "Hub revision (commit or tag) of general_data; ignored for a local path."
        },
    )
    beta: float = field(
        default=1.0,
        metadata={
            "help": "Divergence of TRL's generalised JSD: 1.0 is reverse KL(student||teacher), "
            "the objective of this stage and the only value accepted (0.0 would be forward KL, "
            "0.5 JSD)."
        },
    )
    disable_dropout: bool = field(
        default=True,
        metadata={
            "help": "Disable dropout in the student (default True here, False in TRL), so a "
            "student identical to its teacher has exactly zero loss."
        },
    )

    def __post_init__(self) -> None:
        device_defaults(self)
        super().__post_init__()
        if self.beta != 1.0:
            raise TrainError(
                f"beta ({self.beta}) must be 1.0: General OPD minimises reverse "
                "KL(student||teacher), which TRL's DistillationConfig selects with beta=1.0 "
                "(0.0 is forward KL, 0.5 JSD); set beta: 1.0 or leave it out"
            )
        if not self.model_name_or_path:
            raise TrainError(
                f"model_name_or_path is empty: give a checkpoint folder or {TINY_BASE!r}"
            )
        if not self.general_data:
            raise TrainError(
                "general_data is empty: give a local prompt file or folder, or "
                f"{TULU3_SFT_MIXTURE!r}"
            )
        if self.general_limit is not None and self.general_limit < 1:
            raise TrainError(
                f"general_limit ({self.general_limit}) must be at least 1; leave it out to use "
                "every prompt"
            )
        if self.max_completion_length is None or self.max_completion_length < 1:
            raise TrainError(
                f"max_completion_length ({self.max_completion_length}) must be at least 1: the "
                "student samples its completions, which need a bound; set e.g. 512"
            )
        if self.temperature <= 0:
            raise TrainError(
                f"temperature ({self.temperature}) must be above 0: the student samples its own "
                "completions and the loss divides the logits by it; set 1.0 (the plain KL)"
            )
        if self.use_vllm and self.use_cpu:
            raise TrainError(
                "use_vllm (true) needs a CUDA GPU and none is visible; set use_vllm: false to "
                "generate with transformers on CPU"
            )


@dataclass
class PreparedOPD:
    """A General OPD run ready to train: the trainer and what it was built from."""

    trainer: DistillationTrainer
    base: Path
    """The student's starting checkpoint folder (TINY_BASE resolved)."""
    teacher: Path
    """The frozen teacher's checkpoint folder."""
    info: dict[str, Any]
    """What the run record keeps beside the config (data, prompt count, objective)."""


def pretrained_base(checkpoint: Path) -> Path:
    """The pretrained base a checkpoint descends from: follow each stage's recorded base.

    A checkpoint a hat-eval stage wrote has a run record (:data:`RUN_FILE`) naming the base it
    started from; the first folder without one is the pretrained base (``checkpoint`` itself
    when it has no record).
    """
    seen = {checkpoint.resolve()}
    while (checkpoint / RUN_FILE).is_file():
        record = json.loads((checkpoint / RUN_FILE).read_text(encoding="utf-8"))
        parent = Path(str(record.get("base", "")))
        if not (parent / "config.json").is_file() or parent.resolve() in seen:
            break
        checkpoint = parent
        seen.add(parent.resolve())
    return checkpoint


def _given_teacher(config: GeneralOPDConfig) -> Path | None:
    """The teacher's folder when it is a path of its own (checked), else ``None``."""
    name = config.teacher_model_name_or_path
    if name is None or name in (config.model_name_or_path, TINY_BASE):
        return None
    path = Path(name)
    if not (path / "config.json").is_file():
        raise TrainError(
            f"teacher_model_name_or_path {name!r}: no checkpoint folder there (config.json "
            "missing); expected a local Hugging Face checkpoint, or leave it out to distil from "
            "model_name_or_path"
        )
    return path


def _vocab_size(path: Path) -> int | None:
    config = json.loads((path / "config.json").read_text(encoding="utf-8"))
    text = config.get("text_config", config)
    size = text.get("vocab_size")
    return int(size) if isinstance(size, int) else None


def _check_same_vocabulary(student: Path, teacher: Path) -> None:
    """Refuse a teacher whose vocabulary is not the student's (before any model is loaded)."""
    if student == teacher:
        return
    s, t = _vocab_size(student), _vocab_size(teacher)
    if s is not None and t is not None and s != t:
        raise TrainError(
            f"teacher_model_name_or_path {str(teacher)!r}: vocab_size {t}, the student's is {s}; "
            "on-policy distillation compares next-token distributions over one vocabulary, so "
            "use a teacher with the student's tokenizer"
        )
    from transformers import AutoTokenizer

    try:
        s_vocab = AutoTokenizer.from_pretrained(str(student)).get_vocab()
        t_vocab = AutoTokenizer.from_pretrained(str(teacher)).get_vocab()
    except (OSError, ValueError):
        return  # no tokenizer beside the teacher: the vocab_size check above is what we have
    if s_vocab != t_vocab:
        differ = len(set(s_vocab.items()) ^ set(t_vocab.items()))
        raise TrainError(
            f"teacher_model_name_or_path {str(teacher)!r}: its tokenizer differs from the "
            f"student's ({differ} token/id pairs disagree); use a teacher with the student's "
            "tokenizer"
        )


def prepare_opd(config: GeneralOPDConfig) -> PreparedOPD:
    """Resolve the base and teacher, load the prompts and build the trainer (no training yet).

    Every input problem (a missing base or teacher, a mismatched vocabulary, missing or empty
    data) raises before a model is loaded.

    Raises:
        TrainError: One line naming the field or file, the value and what was expected.
    """
    from datasets import Dataset

    out = str(config.output_dir)
    # cheap checks first (paths, then the data); the tiny base is built only once they pass
    student_is_tiny = config.model_name_or_path == TINY_BASE
    base = None if student_is_tiny else resolve_base(config.model_name_or_path, out)
    given_teacher = _given_teacher(config)
    prompts = load_general_instructions(
        config.general_data,
        split=config.general_split,
        limit=config.general_limit,
        seed=config.seed,
        revision=config.general_revision,
    )
    base = base or resolve_base(config.model_name_or_path, out)
    if given_teacher is not None:
        teacher = given_teacher
    elif config.teacher_model_name_or_path == TINY_BASE:
        teacher = resolve_base(TINY_BASE, out)
    elif config.teacher_model_name_or_path == config.model_name_or_path:
        teacher = base
    else:  # unset: the pretrained base the student's earlier stages started from
        teacher = pretrained_base(base)
    _check_same_vocabulary(base, teacher)
    dataset = Dataset.from_list([{"prompt": p.chat()} for p in prompts])
    trainer = DistillationTrainer(
        model=str(base), teacher_model=str(teacher), args=config, train_dataset=dataset
    )
    tokenizer: Any = trainer.processing_class
    templates = qwen3_templates(getattr(tokenizer, "chat_template", None))
    if templates is not None:  # written so `hat-eval run` renders Inspect's tool-call shapes
        tokenizer.chat_template = templates[1]
    if trainer.teacher_model is not None:
        trainer.teacher_model.requires_grad_(False)  # frozen: TRL never steps it; make it explicit
    info = {
        "trainer": "trl.DistillationTrainer",
        "objective": "reverse KL(student||teacher) on the student's own samples (beta=1.0)",
        "teacher": str(teacher),
        "teacher_is_base": teacher == base,
        "general_data": config.general_data,
        "general_split": config.general_split,
        "prompts": len(prompts),
    }
    return PreparedOPD(trainer=trainer, base=base, teacher=teacher, info=info)


def train_opd(config: GeneralOPDConfig) -> StageResult:
    """Run General OPD and write the student to ``config.output_dir``.

    The student samples its completions to the general prompts (transformers on CPU, vLLM when
    ``use_vllm``) and takes gradient steps on the reverse KL to the frozen teacher.

    Returns:
        The written checkpoint, its step count, the last logged values (``loss``, ``entropy``,
        ``step_time``, ...) and the run's ``info``.

    Raises:
        TrainError: Bad input, before any training step (see :func:`prepare_opd`).
    """
    run = prepare_opd(config)
    run.trainer.train()
    return write_checkpoint(run.trainer, config, stage=STAGE, base=run.base, info=run.info)
