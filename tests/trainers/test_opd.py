"""General OPD on tiny models: zero loss against itself, learning towards a different teacher."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import torch

from hat_eval.trainers import TrainError, build_tiny_model
from hat_eval.trainers._common import RUN_FILE
from hat_eval.trainers._opd import GeneralOPDConfig, prepare_opd, train_opd
from hat_eval.trainers._tiny import TINY_BASE

pytestmark = [
    # TRL's unwrap_model_for_generation reads the deprecated `is_gradient_checkpointing` (theirs)
    pytest.mark.filterwarnings("ignore:`is_gradient_checkpointing` is deprecated:FutureWarning"),
]


def _config(tmp_path: Path, shared_dir: Path, **overrides: Any) -> GeneralOPDConfig:
    values: dict[str, Any] = {
        "output_dir": str(tmp_path / "out"),
        "general_data": str(shared_dir / "data" / "general_instructions"),
        "general_limit": 16,
        "max_steps": 3,
        "per_device_train_batch_size": 2,
        "max_completion_length": 8,
        "logging_steps": 1,
        "gradient_checkpointing": False,
        "save_strategy": "no",
        "disable_tqdm": True,
        **overrides,
    }
    return GeneralOPDConfig(**values)


def _losses(log_history: list[dict[str, Any]]) -> list[float]:
    return [entry["loss"] for entry in log_history if "loss" in entry]


def _params(model: torch.nn.Module) -> dict[str, torch.Tensor]:
    return {name: p.detach().clone() for name, p in model.named_parameters()}


def _reverse_kl(student: Any, teacher: Any, ids: torch.Tensor) -> float:
    """Mean per-position KL(student || teacher) of the next-token distributions on ``ids``."""
    with torch.no_grad():
        log_s = torch.log_softmax(student(ids).logits, dim=-1)
        log_t = torch.log_softmax(teacher(ids).logits, dim=-1)
    return float((log_s.exp() * (log_s - log_t)).sum(-1).mean())


@pytest.fixture(scope="module")
def other_teacher(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny architecture and tokenizer with other random weights (seed 1)."""
    return build_tiny_model(tmp_path_factory.mktemp("teacher-seed1"), seed=1)


# --- the config ---------------------------------------------------------------------------------


def test_defaults_distil_reverse_kl_from_the_pretrained_base(tmp_path: Path) -> None:
    config = GeneralOPDConfig(output_dir=str(tmp_path))
    assert config.beta == 1.0
    assert config.model_name_or_path == TINY_BASE
    assert config.teacher_model_name_or_path is None  # resolved from the run records
    assert config.disable_dropout is True
    if not torch.cuda.is_available():
        assert config.use_cpu and not config.bf16


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("beta", 0.5, r"beta \(0\.5\) must be 1\.0: General OPD minimises reverse KL"),
        ("beta", 0.0, r"beta \(0\.0\) must be 1\.0"),
        ("general_limit", 0, r"general_limit \(0\) must be at least 1"),
        ("max_completion_length", 0, r"max_completion_length \(0\) must be at least 1"),
        ("temperature", 0.0, r"temperature \(0\.0\) must be above 0"),
        ("general_data", "", r"general_data is empty"),
    ],
)
def test_config_rejects_values_with_rule_and_fix(
    tmp_path: Path, field: str, value: Any, message: str
) -> None:
    with pytest.raises(TrainError, match=message):
        GeneralOPDConfig(output_dir=str(tmp_path), **{field: value})


def test_missing_teacher_fails_before_any_model_loads(
    tmp_path: Path, shared_dir: Path, tiny_base: Path
) -> None:
    config = _config(
        tmp_path,
        shared_dir,
        model_name_or_path=str(tiny_base),
        teacher_model_name_or_path=str(tmp_path / "no-teacher"),
    )
    with pytest.raises(TrainError, match=r"teacher_model_name_or_path .*no-teacher.*config\.json"):
        prepare_opd(config)


def test_teacher_with_another_vocabulary_is_refused(
    tmp_path: Path, shared_dir: Path, tiny_base: Path
) -> None:
    small_vocab = build_tiny_model(tmp_path / "small-vocab", vocab_size=1024)
    config = _config(
        tmp_path,
        shared_dir,
        model_name_or_path=str(tiny_base),
        teacher_model_name_or_path=str(small_vocab),
    )
    with pytest.raises(TrainError, match=r"vocab_size \d+, the student's is \d+"):
        prepare_opd(config)


def test_missing_data_fails_before_training(
    tmp_path: Path, shared_dir: Path, tiny_base: Path
) -> None:
    config = _config(
        tmp_path,
        shared_dir,
        model_name_or_path=str(tiny_base),
        general_data=str(tmp_path / "missing.jsonl"),
    )
    with pytest.raises(TrainError, match=r"missing\.jsonl: no such file or folder"):
        prepare_opd(config)


# --- training -----------------------------------------------------------------------------------


def test_student_identical_to_teacher_has_zero_loss(
    tmp_path: Path, shared_dir: Path, tiny_base: Path
) -> None:
    """KL(p || p) = 0 at every step, so the gradient is 0 and the student never moves."""
    config = _config(tmp_path, shared_dir, model_name_or_path=str(tiny_base), learning_rate=1e-2)
    run = prepare_opd(config)
    assert run.teacher == run.base == tiny_base
    before = _params(run.trainer.model)
    run.trainer.train()
    history = run.trainer.state.log_history
    losses = _losses(history)
    assert len(losses) == config.max_steps
    assert all(abs(loss) <= 1e-6 for loss in losses)
    assert all(entry["grad_norm"] == 0.0 for entry in history if "grad_norm" in entry)
    # the student did sample completions: the zero is not an empty batch
    assert all(entry["completions/mean_length"] > 0 for entry in history if "loss" in entry)
    assert all(torch.equal(p, before[n]) for n, p in run.trainer.model.named_parameters())


def test_train_opd_writes_the_checkpoint_and_run_record(tmp_path: Path, shared_dir: Path) -> None:
    """The defaults end to end: the tiny base built into output_dir/base, distilled from itself."""
    from safetensors.torch import load_file

    config = _config(tmp_path, shared_dir, max_steps=2)
    result = train_opd(config)
    out = Path(config.output_dir)
    assert result.stage == "opd" and result.output_dir == out
    assert result.global_step == config.max_steps
    assert abs(result.metrics["loss"]) <= 1e-6 and abs(result.metrics["train_loss"]) <= 1e-6
    assert result.info["teacher_is_base"] is True
    record = json.loads((out / RUN_FILE).read_text(encoding="utf-8"))
    assert record["stage"] == "opd" and record["seed"] == config.seed
    assert record["info"]["prompts"] == config.general_limit
    assert record["config"]["beta"] == 1.0
    assert record["info"]["teacher"] == str(out / "base")
    written = load_file(str(out / "model.safetensors"))
    original = load_file(str(out / "base" / "model.safetensors"))
    assert written.keys() == original.keys()
    assert all(torch.equal(written[k], original[k]) for k in original)
    assert (out / "tokenizer_config.json").is_file()


def test_different_teacher_moves_the_student_towards_it(
    tmp_path: Path, shared_dir: Path, tiny_base: Path, other_teacher: Path
) -> None:
    config = _config(
        tmp_path,
        shared_dir,
        model_name_or_path=str(tiny_base),
        teacher_model_name_or_path=str(other_teacher),
        max_steps=8,
        learning_rate=5e-3,
    )
    run = prepare_opd(config)
    trainer = run.trainer
    assert run.teacher == other_teacher and run.info["teacher_is_base"] is False
    student_before = _params(trainer.model)
    teacher_before = _params(trainer.teacher_model)
    probe = torch.randint(
        0, trainer.model.config.vocab_size, (4, 24), generator=torch.Generator().manual_seed(0)
    )
    kl_before = _reverse_kl(trainer.model, trainer.teacher_model, probe)

    trainer.train()

    losses = _losses(trainer.state.log_history)
    assert len(losses) == config.max_steps
    assert all(loss > 1e-4 for loss in losses)
    # the loss moves, and down: the last steps sit below the first
    assert sum(losses[-2:]) / 2 < losses[0]
    # on a fixed probe (not the student's own samples) the student is closer to the teacher
    assert _reverse_kl(trainer.model, trainer.teacher_model, probe) < 0.9 * kl_before
    changed = [
        n for n, p in trainer.model.named_parameters() if not torch.equal(p, student_before[n])
    ]
    assert changed
    # the teacher is frozen: no gradient, no change
    assert all(not p.requires_grad for p in trainer.teacher_model.parameters())
    assert all(
        torch.equal(p, teacher_before[n]) for n, p in trainer.teacher_model.named_parameters()
    )


def test_the_default_teacher_is_the_base_the_stages_recorded(tmp_path: Path) -> None:
    """sft wrote runs/sft from base/, a later stage wrote runs/rl from runs/sft: base/ teaches."""
    import json

    from hat_eval.trainers._common import RUN_FILE
    from hat_eval.trainers._opd import pretrained_base

    base, sft, rl = tmp_path / "base", tmp_path / "sft", tmp_path / "rl"
    for folder, parent in ((base, None), (sft, base), (rl, sft)):
        folder.mkdir()
        (folder / "config.json").write_text("{}")
        if parent is not None:
            (folder / RUN_FILE).write_text(json.dumps({"base": str(parent)}))
    assert pretrained_base(rl) == base
    assert pretrained_base(sft) == base
    assert pretrained_base(base) == base
    (base / RUN_FILE).write_text(json.dumps({"base": str(rl)}))  # a cycle stops, never loops
    assert pretrained_base(rl) in (base, sft, rl)


def test_the_written_checkpoint_renders_inspects_tool_call_shape(
    tmp_path: Path, shared_dir: Path
) -> None:
    """An earlier tool call as Inspect's hf provider passes it keeps its name and arguments."""
    from transformers import AutoTokenizer

    config = _config(tmp_path, shared_dir, max_steps=1)
    train_opd(config)
    tok = AutoTokenizer.from_pretrained(config.output_dir)
    messages = [
        {"role": "user", "content": "hi"},
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [{"function": "check_stock", "arguments": {"sku": "P0042-M"}}],
        },
        {"role": "tool", "content": "in stock"},
    ]
    text = tok.apply_chat_template(messages, tokenize=False)
    assert '"name": "check_stock"' in text and "P0042-M" in text
