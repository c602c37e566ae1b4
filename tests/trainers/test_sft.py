"""HSA-SFT on TRL: config checks, the loss mask, a few steps on the tiny model, `hat-eval run`."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from hat_eval.trainers import TrainError, _trajectory
from hat_eval.trainers._common import RUN_FILE
from hat_eval.trainers._sft import (
    HSASFTConfig,
    build_dataset,
    build_stream,
    build_trainer,
    train_sft,
)
from hat_eval.trainers._template import accept_inspect_shapes

FAST = {
    "max_steps": 3,
    "per_device_train_batch_size": 1,
    "logging_steps": 1,
    "train_cases": 20,
    "preflight_draws": 8,
    "gradient_checkpointing": False,
    "save_strategy": "no",
    "learning_rate": 3e-3,
    "max_length": 4096,
}


def _config(tmp_path: Path, base: Path | str, **kwargs: Any) -> HSASFTConfig:
    return HSASFTConfig(
        output_dir=str(tmp_path / "ckpt"), model_name_or_path=str(base), **{**FAST, **kwargs}
    )


@pytest.mark.parametrize(
    ("field", "value", "says"),
    [
        ("max_steps", -1, "max_steps (-1) must be > 0"),
        ("max_steps", 0, "max_steps (0) must be > 0"),
        ("train_cases", 0, "train_cases (0) must be >= 1"),
        ("min_aggregate", 120.0, "min_aggregate (120.0) must be within [0, 100]"),
        ("preflight_draws", 0, "preflight_draws (0) must be >= 1"),
        ("harness", "no/such/harness.yaml", "no such file"),
        ("dataset_kwargs", {"skip_prepare_dataset": True}, "skip_prepare_dataset"),
        ("max_length", 100, "max_length (100) must be >= 256"),
        ("dataloader_num_workers", 65, "dataloader_num_workers (65) must be within [0, 64]"),
        ("dataloader_num_workers", -1, "dataloader_num_workers (-1) must be within [0, 64]"),
    ],
)
def test_bad_config_values_raise_one_line(
    tmp_path: Path, field: str, value: Any, says: str
) -> None:
    with pytest.raises(TrainError) as err:
        HSASFTConfig(output_dir=str(tmp_path), **{field: value})
    message = str(err.value)
    assert says in message
    assert "\n" not in message


def test_config_defaults_train_on_assistant_turns_on_this_machine(tmp_path: Path) -> None:
    import torch

    config = HSASFTConfig(output_dir=str(tmp_path))
    assert config.assistant_only_loss is True
    assert config.max_steps > 0
    assert config.report_to == [] or config.report_to == "none" or config.report_to == ["none"]
    if not torch.cuda.is_available():
        assert config.use_cpu and not config.bf16
        # the training process draws on a CPU: workers would take the training's cores
        assert config.dataloader_num_workers == 0 and config.dataloader_prefetch_factor is None
    else:
        assert config.dataloader_num_workers == 2


def test_data_workers_prefetch_one_optimizer_step_between_them(tmp_path: Path) -> None:
    config = HSASFTConfig(
        output_dir=str(tmp_path), dataloader_num_workers=2, gradient_accumulation_steps=8
    )
    assert config.dataloader_prefetch_factor == 4  # 2 workers x 4 batches = one step of 8
    few = HSASFTConfig(output_dir=str(tmp_path), dataloader_num_workers=4)
    assert few.dataloader_prefetch_factor == 2  # at least PyTorch's default
    given = HSASFTConfig(
        output_dir=str(tmp_path), dataloader_num_workers=2, dataloader_prefetch_factor=3
    )
    assert given.dataloader_prefetch_factor == 3


def test_workers_out_of_order_would_break_the_seed_stream(tmp_path: Path) -> None:
    with pytest.raises(TrainError, match=r"dataloader_in_order \(False\) must be True") as err:
        HSASFTConfig(output_dir=str(tmp_path), dataloader_num_workers=2, dataloader_in_order=False)
    assert "\n" not in str(err.value)


def test_dataset_draws_a_fresh_variant_only_when_a_row_is_read() -> None:
    from hat_eval.suites import suite_episodes
    from hat_eval.trainers._trajectory import TrajectoryStream

    stream = TrajectoryStream(suite_episodes("livestream", split="train", n=3))
    dataset = build_dataset(stream)
    assert stream.last_pass().drawn == 0 and not stream.kept_rows  # nothing drawn or stored
    rows = [row for _, row in zip(range(6), dataset, strict=False)]
    assert stream.last_pass().drawn >= 6
    # six draws over three cases: each case came twice, under two different harnesses
    assert len({json.dumps(r, sort_keys=True) for r in rows}) == 6
    again = [row for _, row in zip(range(6), dataset, strict=False)]
    assert again == rows  # a new iteration replays the seeded stream from draw 0


def test_every_draw_rejected_stops_before_training(
    tmp_path: Path, tiny_base: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_trajectory, "oracle_answer", lambda episode, ctx: "no idea, sorry")
    config = _config(tmp_path, tiny_base)
    with pytest.raises(TrainError, match="every one of the first 8 trajectories was rejected"):
        train_sft(config)
    assert not (tmp_path / "ckpt" / RUN_FILE).exists()


def test_missing_base_is_a_train_error(tmp_path: Path) -> None:
    config = _config(tmp_path, tmp_path / "nowhere")
    with pytest.raises(TrainError, match="no such folder"):
        train_sft(config)


def test_the_trainers_batches_are_the_same_with_0_1_and_2_workers(
    tmp_path: Path, tiny_base: Path
) -> None:
    import itertools
    import warnings

    def batches(workers: int) -> list[list[list[int]]]:
        config = _config(
            tmp_path / str(workers),
            tiny_base,
            per_device_train_batch_size=2,
            dataloader_num_workers=workers,
        )
        trainer, _ = build_trainer(config, tiny_base, build_stream(config))
        with warnings.catch_warnings():  # fewer cores than workers: PyTorch warns
            warnings.filterwarnings("ignore", message="This DataLoader will create")
            loader = itertools.islice(trainer.get_train_dataloader(), 4)
            return [b["input_ids"].tolist() for b in loader]

    alone = batches(0)  # drawn and tokenized in this process
    assert len({repr(b) for b in alone}) == 4
    assert batches(1) == alone
    assert batches(2) == alone  # TRL's tokenizing ran in the workers, in the same order


def test_loss_mask_covers_only_assistant_tokens(tmp_path: Path, tiny_base: Path) -> None:
    config = _config(tmp_path, tiny_base, fixed_harness=True)
    stream = build_stream(config)
    trainer, _ = build_trainer(config, tiny_base, stream)
    tok = trainer.processing_class
    example = next(iter(trainer.train_dataset))
    ids, labels = example["input_ids"], example["labels"]
    assert len(ids) == len(labels)
    trained = tok.decode([i for i, lab in zip(ids, labels, strict=True) if lab != -100])
    masked = tok.decode([i for i, lab in zip(ids, labels, strict=True) if lab == -100])
    first = next(iter(stream))  # draw 0 again: the same trajectory the example was made from
    system, user = first.messages[0].content, first.messages[1].content
    calls = [c for m in first.messages for c in m.tool_calls]
    tool_texts = [m.content for m in first.messages if m.role == "tool"]
    # what the model says is trained: its tool calls and its final answer, and its end of turn
    assert first.answer in trained
    assert all(f'"name": "{c.function}"' in trained for c in calls)
    assert "<|im_end|>" in trained
    # what the harness, the viewer and the world say is not
    assert system[:200] not in trained and user not in trained
    assert "<tool_response>" not in trained
    assert all(text[:40] not in trained for text in tool_texts if text)
    assert system[:200] in masked and user in masked
    assert 0 < sum(lab != -100 for lab in labels) < len(labels) // 4


def _loss_on(model_dir: Path, examples: list[dict[str, Any]]) -> float:
    import torch
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained(str(model_dir))
    model.eval()
    with torch.no_grad():
        losses = [
            model(
                input_ids=torch.tensor([e["input_ids"]]), labels=torch.tensor([e["labels"]])
            ).loss.item()
            for e in examples
        ]
    return sum(losses) / len(losses)


@pytest.mark.slow
def test_a_few_steps_change_parameters_and_move_the_loss(tmp_path: Path, tiny_base: Path) -> None:
    import torch
    from transformers import AutoModelForCausalLM

    config = _config(tmp_path, tiny_base, max_steps=4)
    # the rows the first steps train on, as TRL prepares them (the stream replays from draw 0)
    trainer, _ = build_trainer(config, tiny_base, build_stream(config))
    seen = [e for _, e in zip(range(4), trainer.train_dataset, strict=False)]
    result = train_sft(config)
    assert result.global_step == 4
    record = json.loads((result.output_dir / RUN_FILE).read_text())
    assert record["stage"] == "sft" and record["info"]["kept"] >= 4
    info = record["info"]
    assert info["drawn"] == info["kept"] + sum(info["rejected"].values())
    losses = result.info["losses"]
    assert len(losses) == 4 and all(math.isfinite(x) for x in losses)
    assert _loss_on(result.output_dir, seen) < _loss_on(tiny_base, seen) - 0.01
    before = AutoModelForCausalLM.from_pretrained(str(tiny_base)).state_dict()
    after = AutoModelForCausalLM.from_pretrained(str(result.output_dir)).state_dict()
    changed = [k for k in before if not torch.equal(before[k], after[k])]
    assert len(changed) > len(before) // 2


def test_written_template_renders_inspect_shapes_like_openai_shapes(tiny_base: Path) -> None:
    from inspect_ai.model import ChatMessageAssistant
    from inspect_ai.tool import ToolCall, ToolInfo, ToolParam, ToolParams
    from inspect_ai.util._json import JSON_SCHEMA_EXTENDED_FIELDS, json_schema_dump
    from transformers import AutoTokenizer
    from trl.chat_template_utils import qwen3_chat_template

    tok = AutoTokenizer.from_pretrained(str(tiny_base))
    args = {"sku": "S001-1", "quantity": 2}
    # what Inspect's hf provider hands the template (hf.py: model_dump / json_schema_dump)
    info = ToolInfo(
        name="price",
        description="d",
        parameters=ToolParams(properties={"sku": ToolParam(type="string")}, required=["sku"]),
    )
    inspect_tool = json_schema_dump(info, exclude=JSON_SCHEMA_EXTENDED_FIELDS)
    inspect_call = ChatMessageAssistant(
        content="", tool_calls=[ToolCall(id="c1", function="price", arguments=args)]
    ).model_dump(exclude_none=True)["tool_calls"][0]
    inspect_shape = {"tools": [inspect_tool], "call": inspect_call}
    openai_shape = {
        "tools": [{"type": "function", "function": inspect_tool}],
        "call": {"id": "c1", "type": "function", "function": {"name": "price", "arguments": args}},
    }

    def render(template: str, shape: dict[str, Any]) -> str:
        messages = [
            {"role": "system", "content": "sys"},
            {"role": "user", "content": "how much?"},
            {"role": "assistant", "content": "", "tool_calls": [shape["call"]]},
            {"role": "tool", "tool_call_id": "c1", "content": '{"final_price": 9}'},
        ]
        return str(
            tok.apply_chat_template(
                messages,
                tools=shape["tools"],
                chat_template=template,
                tokenize=False,
                add_generation_prompt=True,
            )
        )

    fixed = accept_inspect_shapes(qwen3_chat_template)
    assert render(fixed, openai_shape) == render(qwen3_chat_template, openai_shape)
    assert render(fixed, inspect_shape) == render(fixed, openai_shape)
    assert '{"name": "price", "arguments": {"sku": "S001-1", "quantity": 2}}' in render(
        fixed, inspect_shape
    )
    # TRL's own template cannot render an earlier call in Inspect's shape
    with pytest.raises(TypeError, match="Undefined"):
        render(qwen3_chat_template, inspect_shape)


@pytest.mark.slow
def test_checkpoint_runs_in_hat_eval_run(tmp_path: Path, tiny_base: Path) -> None:
    from inspect_ai.log import read_eval_log
    from typer.testing import CliRunner

    from hat_eval.cli import app

    result = train_sft(_config(tmp_path, tiny_base, max_steps=2))
    ckpt = result.output_dir
    assert "is mapping" in (ckpt / "chat_template.jinja").read_text()
    logs = tmp_path / "logs"
    run = CliRunner().invoke(
        app,
        [
            "run",
            "--suite",
            "livestream",
            "--model",
            str(ckpt),
            "--limit",
            "2",
            "--log-dir",
            str(logs),
            "--max-tokens",
            "32",
        ],
    )
    assert run.exit_code == 0, run.output
    [log_file] = list(logs.glob("*.eval"))
    log = read_eval_log(str(log_file))
    assert log.status == "success"
    assert log.samples is not None and len(log.samples) == 2
    assert all(s.scores for s in log.samples)
    # a later turn after a tool call, as Inspect's hf provider renders it for this checkpoint
    # (the tiny model's own replies rarely parse as tool calls, so this is built by hand)
    from inspect_ai.model import (
        ChatMessageAssistant,
        ChatMessageSystem,
        ChatMessageTool,
        ChatMessageUser,
        get_model,
    )
    from inspect_ai.tool import ToolCall, ToolInfo, ToolParam, ToolParams

    info = ToolInfo(
        name="check_stock",
        description="Units in stock.",
        parameters=ToolParams(properties={"product_id": ToolParam(type="string")}),
    )
    call = ToolCall(id="c1", function="check_stock", arguments={"product_id": "P0042"})
    chat = get_model(f"hf/{ckpt}", device="cpu").api.hf_chat(  # type: ignore[attr-defined]
        [
            ChatMessageSystem(content="sys"),
            ChatMessageUser(content="in stock?"),
            ChatMessageAssistant(content="", tool_calls=[call]),
            ChatMessageTool(content='{"units": 3}', tool_call_id="c1", function="check_stock"),
        ],
        [info],
    )
    assert '{"name": "check_stock", "arguments": {"product_id": "P0042"}}' in chat
    assert chat.endswith("<|im_start|>assistant\n")
