"""The trainers' shared plumbing: one-line errors before training, MTP heads carried over."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
import torch
from typer.testing import CliRunner

from hat_eval.cli import app
from hat_eval.trainers import TrainError
from hat_eval.trainers._common import (
    RUN_FILE,
    MissingExtraError,
    load_config,
    require_train_extra,
    resolve_base,
)
from hat_eval.trainers._mtp import carry_mtp, mtp_tensors

runner = CliRunner()


def test_missing_extra_names_the_install_line(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "trl" else real(name, *a)
    )
    with pytest.raises(
        MissingExtraError, match=r"trl not installed.*pip install 'hat-eval\[train\]'"
    ):
        require_train_extra()


def test_cli_without_the_extra_fails_in_one_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "trl" else real(name, *a)
    )
    cfg = tmp_path / "c.yaml"
    cfg.write_text("max_steps: 1\n")
    result = runner.invoke(
        app, ["train", "sft", "--config", str(cfg), "--out", str(tmp_path / "o")]
    )
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1
    assert "pip install 'hat-eval[train]'" in result.stderr
    assert not (tmp_path / "o").exists()


def test_resolve_base_rejects_missing_and_non_checkpoint_folders(tmp_path: Path) -> None:
    with pytest.raises(TrainError, match="no such folder"):
        resolve_base(str(tmp_path / "nope"), tmp_path / "out")
    (tmp_path / "empty").mkdir()
    with pytest.raises(TrainError, match="config.json is missing"):
        resolve_base(str(tmp_path / "empty"), tmp_path / "out")


def test_load_config_rejects_unknown_fields_with_a_suggestion(tmp_path: Path) -> None:
    from trl import SFTConfig

    cfg = tmp_path / "c.yaml"
    cfg.write_text("learning_rat: 0.1\n")
    with pytest.raises(
        TrainError, match=r"c.yaml: unknown field 'learning_rat' \(did you mean learning_rate"
    ):
        load_config(SFTConfig, cfg, output_dir=str(tmp_path))
    cfg.write_text("- 1\n- 2\n")
    with pytest.raises(TrainError, match="a list, expected a mapping"):
        load_config(SFTConfig, cfg)
    cfg.write_text(
        "learning_rate: 0.25\nmax_steps: 3\ngradient_checkpointing: null\n"
        "use_cpu: true\nbf16: false\n"
    )
    loaded = load_config(SFTConfig, cfg, output_dir=str(tmp_path), max_steps=None, seed=7)
    assert (loaded.learning_rate, loaded.max_steps, loaded.seed) == (0.25, 3, 7)


@pytest.mark.parametrize(
    ("yaml_text", "args", "expected"),
    [
        ("learning_rat: 0.1\n", [], "unknown field 'learning_rat'"),
        ("max_steps: 1\n", ["--model", "/no/such/base"], "no such folder"),
    ],
)
def test_cli_bad_config_or_base_fails_before_training(
    tmp_path: Path, yaml_text: str, args: list[str], expected: str
) -> None:
    cfg = tmp_path / "c.yaml"
    cfg.write_text(yaml_text)
    out = tmp_path / "o"
    result = runner.invoke(app, ["train", "sft", "--config", str(cfg), "--out", str(out), *args])
    assert result.exit_code == 2, result.output
    assert expected in result.stderr
    assert result.stderr.startswith("error: ")
    assert not (out / RUN_FILE).exists()


def test_cli_missing_config_file_and_existing_checkpoint(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["train", "rl", "--config", str(tmp_path / "x.yaml"), "--out", str(tmp_path / "o")]
    )
    assert result.exit_code == 2
    assert "no such file" in result.stderr
    done = tmp_path / "done"
    done.mkdir()
    (done / RUN_FILE).write_text("{}")
    cfg = tmp_path / "c.yaml"
    cfg.write_text("max_steps: 1\n")
    result = runner.invoke(app, ["train", "opd", "--config", str(cfg), "--out", str(done)])
    assert result.exit_code == 2
    assert "already holds a trained checkpoint" in result.stderr
    assert (done / RUN_FILE).read_text() == "{}"


def test_carry_mtp_puts_the_base_heads_back_after_a_transformers_save(
    tiny_base_mtp: Path, tmp_path: Path
) -> None:
    from transformers import AutoModelForCausalLM

    base_heads = mtp_tensors(tiny_base_mtp)
    assert base_heads, "the fixture's base has mtp.* tensors"
    model = AutoModelForCausalLM.from_pretrained(tiny_base_mtp)
    with torch.no_grad():
        next(model.parameters()).add_(0.5)  # "training"
    out = tmp_path / "ckpt"
    model.save_pretrained(out)
    assert mtp_tensors(out) == {}, "transformers drops the heads on save"

    assert carry_mtp(tiny_base_mtp, out) == len(base_heads)
    carried = mtp_tensors(out)
    assert carried.keys() == base_heads.keys()
    assert all(torch.equal(carried[k], base_heads[k]) for k in base_heads)
    index = json.loads((out / "model.safetensors.index.json").read_text())
    assert set(base_heads) <= set(index["weight_map"])
    assert "model.embed_tokens.weight" in index["weight_map"]
    assert json.loads((out / "config.json").read_text())["mtp_num_hidden_layers"] == 1
    reloaded = AutoModelForCausalLM.from_pretrained(out)  # still loads; the trained weights kept
    assert torch.equal(next(reloaded.parameters()), next(model.parameters()))


def test_carry_mtp_without_heads_writes_nothing(tiny_base: Path, tmp_path: Path) -> None:
    out = tmp_path / "ckpt"
    out.mkdir()
    assert carry_mtp(tiny_base, out) == 0
    assert list(out.iterdir()) == []


@pytest.mark.parametrize(
    "path", sorted((Path(__file__).resolve().parents[2] / "trainers").glob("*.yaml")), ids=str
)
def test_every_shipped_config_loads_into_its_stage(path: Path, tmp_path: Path) -> None:
    """trainers/<stage>[-tiny].yaml: every field known, every value accepted by the config."""
    from hat_eval.trainers._stages import STAGES, stage_config

    stage = path.stem.split("-")[0]
    assert stage in STAGES, f"{path.name}: name it <stage>[-variant].yaml"
    config = load_config(stage_config(stage), path, output_dir=str(tmp_path))
    assert config.max_steps > 0
    assert config.seed == 0


def test_cli_empty_data_fails_before_training(tmp_path: Path) -> None:
    """An empty general-instruction file (opd) or an empty train pool (sft): one line, exit 2."""
    empty = tmp_path / "general.jsonl"
    empty.write_text("")
    cfg = tmp_path / "opd.yaml"
    cfg.write_text(f"general_data: {empty}\nmax_steps: 1\n")
    out = tmp_path / "opd"
    result = runner.invoke(app, ["train", "opd", "--config", str(cfg), "--out", str(out)])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: ") and str(empty) in result.stderr
    assert result.stderr.count("\n") == 1
    assert not (out / "base").exists(), "nothing is built before the data is checked"

    cfg = tmp_path / "sft.yaml"
    cfg.write_text("train_cases: 0\nmax_steps: 1\n")
    result = runner.invoke(
        app, ["train", "sft", "--config", str(cfg), "--out", str(tmp_path / "s")]
    )
    assert result.exit_code == 2, result.output
    assert "train_cases (0)" in result.stderr
