"""What the three stages share: user errors, device defaults, the base, the written checkpoint.

Nothing here imports TRL at module level: the CLI checks the ``train`` extra
(:func:`require_train_extra`) and reads a stage's YAML (:func:`load_config`) before any trainer
module is imported, so a missing extra or a bad config is one line, not a traceback.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import platform
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from hat_eval._extras import EXTRAS, missing_extra
from hat_eval._hub import apply_hub_kernels
from hat_eval._outputs import write_text_atomic

from ._mtp import carry_mtp
from ._tiny import TINY_BASE, build_tiny_model

RUN_FILE = "hat_eval_train.json"
"""Written beside every checkpoint: the stage, its full config, seed, base and what it measured."""
TRAIN_PACKAGES = EXTRAS["trainers"].imports
"""Import names the ``train`` extra brings (:data:`hat_eval._extras.EXTRAS`)."""


class TrainError(ValueError):
    """A problem with a training run's input, in one line: field or file, value, expectation."""


class MissingExtraError(TrainError):
    """The ``train`` extra is not installed."""


def require_train_extra() -> None:
    """Raise :class:`MissingExtraError` unless every package of the ``train`` extra imports."""
    message = missing_extra("trainers")
    if message is not None:
        raise MissingExtraError(message)


def device_defaults(config: Any) -> None:
    """Settings a run needs on the machine it is on; call it first in a config's ``__post_init__``.

    Without CUDA: ``use_cpu=True`` and no mixed precision (TRL turns ``bf16`` on by default,
    which CPU training does not support everywhere; a ``bf16: true`` written for the GPU is
    switched off too, as the configs under ``trainers/`` say) and no activation checkpointing (it
    only trades time for memory there); TRL's ``gradient_checkpointing`` default moves to
    transformers' ``activation_checkpointing`` (the old name warns). On a GPU without bfloat16,
    TRL's default ``bf16`` becomes False. ``report_to`` is ``"none"`` unless set, so nothing
    tries to reach an experiment tracker.

    Raises:
        TrainError: the machine cannot serve what the config asks for: ``bf16: true`` on a GPU
            without bfloat16, ``use_vllm`` without vLLM or without CUDA, a CUDA ``device_map``
            (or a bfloat16 ``dtype`` on such a GPU) in ``model_init_kwargs`` /
            ``teacher_model_init_kwargs`` on a machine without CUDA, or an ``attn_implementation``
            there that loads a Hub kernel not cached while the Hub is offline.
    """
    import torch

    from hat_eval._device import DeviceError, check_bf16, check_model_kwargs, check_vllm
    from hat_eval._hub import HubKernelError, check_kernel_request

    cuda = torch.cuda.is_available()
    try:
        if not cuda:
            config.use_cpu = True
            config.bf16 = False
            config.fp16 = False
        elif not torch.cuda.is_bf16_supported():
            if config.bf16:
                check_bf16(where=f"bf16 ({config.bf16})")
            config.bf16 = False  # TRL's default (None: on) on a GPU that has no bfloat16
        if getattr(config, "use_vllm", False):
            check_vllm(
                where="use_vllm",
                instead="set use_vllm: false to generate with transformers",
            )
        for name in ("model_init_kwargs", "teacher_model_init_kwargs"):
            kwargs = getattr(config, name, None)
            if isinstance(kwargs, dict):
                check_model_kwargs(kwargs, where=name)
                check_kernel_request(kwargs, where=name)
    except (DeviceError, HubKernelError) as err:
        raise TrainError(str(err)) from None
    old = getattr(config, "gradient_checkpointing", None)
    if old is not None and getattr(config, "activation_checkpointing", None) is None:
        # TRL's configs default the old name to True; transformers 5 renamed it (and warns)
        config.activation_checkpointing = bool(old) and cuda
        config.gradient_checkpointing = None
    if config.report_to is None:
        config.report_to = "none"


def resolve_base(model_name_or_path: str, output_dir: str | Path) -> Path:
    """The base checkpoint folder a stage starts from, with the Hub-kernel switch set for it.

    :data:`TINY_BASE` builds a tiny random model into ``output_dir/base`` (once); anything else
    must be a Hugging Face checkpoint folder (hub ids are not fetched: there may be no network).
    Every stage resolves its base before it loads a model, so this is where the stages' loads
    (student, teacher, reference model, a local judge) get their hub-kernel setting
    (:func:`hat_eval._hub.apply_hub_kernels`: off while the Hub is offline).

    Raises:
        TrainError: the path does not exist or has no ``config.json``.
    """
    apply_hub_kernels()
    if model_name_or_path == TINY_BASE:
        base = Path(output_dir) / "base"
        if not (base / "config.json").is_file():
            build_tiny_model(base)
        return base
    path = Path(model_name_or_path)
    if not path.is_dir():
        raise TrainError(
            f"model_name_or_path {model_name_or_path!r}: no such folder, expected a local Hugging "
            f"Face checkpoint (config.json, weights, tokenizer) or {TINY_BASE!r}"
        )
    if not (path / "config.json").is_file():
        raise TrainError(
            f"model_name_or_path {model_name_or_path!r}: config.json is missing, expected a "
            "Hugging Face checkpoint folder"
        )
    return path


C = TypeVar("C")


def load_config(cls: type[C], path: str | Path | None, **overrides: Any) -> C:
    """A stage's config from a YAML file (a mapping of field -> value), then ``overrides``.

    ``overrides`` that are ``None`` are skipped (an option the user did not give).

    Raises:
        TrainError: the file is missing or not a mapping, a field is unknown (with the closest
            known names), or the config class rejects a value (its message, prefixed with the
            file).
    """
    import yaml

    values: dict[str, Any] = {}
    where = str(path) if path else "config"
    if path is not None:
        p = Path(path)
        if not p.is_file():
            raise TrainError(f"--config {p}: no such file, expected a YAML file under trainers/")
        try:
            loaded = yaml.safe_load(p.read_text(encoding="utf-8")) or {}
        except yaml.YAMLError as e:
            raise TrainError(
                f"{p}: not valid YAML ({e}), expected a mapping of field: value"
            ) from None
        if not isinstance(loaded, dict):
            raise TrainError(f"{p}: a {type(loaded).__name__}, expected a mapping of field: value")
        values.update(loaded)
    values.update({k: v for k, v in overrides.items() if v is not None})
    known = {f.name for f in dataclasses.fields(cls) if f.init}  # type: ignore[arg-type]
    for name in values:
        if name not in known:
            close = difflib.get_close_matches(str(name), sorted(known), n=3)
            hint = f" (did you mean {', '.join(close)}?)" if close else ""
            raise TrainError(
                f"{where}: unknown field {name!r}{hint}, expected fields of {cls.__name__}"
            )
    try:
        return cls(**values)
    except TrainError as e:
        raise TrainError(f"{where}: {e}") from None
    except (TypeError, ValueError) as e:
        raise TrainError(f"{where}: {e}") from None


@dataclass
class StageResult:
    """What a finished stage wrote and measured."""

    stage: str
    output_dir: Path
    global_step: int
    metrics: dict[str, float] = field(default_factory=dict)
    """The trainer's last logged values (loss, rewards, ...)."""
    info: dict[str, Any] = field(default_factory=dict)
    """Stage-specific counts (e.g. trajectories drawn and rejected)."""


def _jsonable(value: Any) -> Any:
    try:
        json.dumps(value)
        return value
    except (TypeError, ValueError):
        return str(value)


def _versions() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    out = {"python": platform.python_version()}
    for name in ("hat-eval", "torch", "transformers", *TRAIN_PACKAGES):
        try:
            out[name] = version(name)
        except PackageNotFoundError:
            continue
    return out


def write_checkpoint(
    trainer: Any, config: Any, *, stage: str, base: Path, info: dict[str, Any]
) -> StageResult:
    """Save the trained model where ``config.output_dir`` says, loadable by ``hat-eval run``.

    Writes the weights and tokenizer (chat template included), carries the base's ``mtp.*``
    tensors (:func:`~hat_eval.trainers._mtp.carry_mtp`), and writes :data:`RUN_FILE`: the stage, the
    full config (every field, defaults included), its seed, the base and ``info``.
    """
    out = Path(config.output_dir)
    trainer.save_model(str(out))
    tokenizer = getattr(trainer, "processing_class", None)
    if tokenizer is not None:
        tokenizer.save_pretrained(str(out))
    carried = carry_mtp(base, out)
    metrics = {
        k: float(v)
        for entry in trainer.state.log_history
        for k, v in entry.items()
        if isinstance(v, int | float)
    }
    record = {
        "stage": stage,
        "seed": config.seed,
        "base": str(base),
        "global_step": trainer.state.global_step,
        "mtp_tensors_carried": carried,
        "info": {k: _jsonable(v) for k, v in info.items()},
        "metrics": metrics,
        "config": {k: _jsonable(v) for k, v in config.to_dict().items()},
        "versions": _versions(),
    }
    write_text_atomic(out / RUN_FILE, json.dumps(record, indent=2, sort_keys=True) + "\n")
    return StageResult(
        stage=stage,
        output_dir=out,
        global_step=trainer.state.global_step,
        metrics=metrics,
        info={**info, "mtp_tensors_carried": carried},
    )
