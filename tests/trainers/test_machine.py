"""The trainers on this machine: hub kernels off offline, requests it cannot serve refused.

Every bad input is one line and exit 2 from ``hat-eval train`` before anything is built (no
output folder); the GPU cases are simulated by patching torch's answers.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from types import SimpleNamespace

import pytest
import torch
from typer.testing import CliRunner

import hat_eval._hub as hub
from hat_eval.cli import app
from hat_eval.trainers._common import device_defaults
from tests._cli import one_error_line
from tests._kernels import spy_kernels

REPO = Path(__file__).resolve().parents[2]
runner = CliRunner()


def train(stage: str, config: Path, out: Path, *extra: str):  # type: ignore[no-untyped-def]
    return runner.invoke(app, ["train", stage, "--config", str(config), "--out", str(out), *extra])


def yaml_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def gpu_without_bf16(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "is_bf16_supported", lambda *a, **k: False)
    monkeypatch.setattr(torch.cuda, "get_device_name", lambda *a: "Tesla V100")


def vllm_installed(monkeypatch: pytest.MonkeyPatch, installed: bool) -> None:
    real = importlib.util.find_spec

    def find_spec(name: str, *args: object):  # type: ignore[no-untyped-def]
        if name == "vllm":
            return object() if installed else None
        return real(name, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)


# --- bad input: one line, exit 2, nothing built ---------------------------------------------------


def test_bf16_on_a_gpu_without_bf16(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    gpu_without_bf16(monkeypatch)
    out = tmp_path / "out"
    line = one_error_line(train("sft", yaml_file(tmp_path, "bf16: true\n"), out))
    assert "bf16 (True) asks for bfloat16 but the GPU (Tesla V100) does not support it" in line
    assert "bf16: false" in line and "fp16: true" in line
    assert not out.exists()


def test_trl_default_bf16_is_switched_off_on_such_a_gpu_and_on_a_cpu(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def config(bf16: bool | None) -> SimpleNamespace:
        return SimpleNamespace(bf16=bf16, fp16=False, use_cpu=False, report_to=None)

    gpu_without_bf16(monkeypatch)
    unset = config(None)  # TRL's default (on) was not the user's request
    device_defaults(unset)
    assert unset.bf16 is False and unset.use_cpu is False
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    asked = config(True)  # trainers/*.yaml say bf16: true; on a CPU it is switched off
    device_defaults(asked)
    assert asked.bf16 is False and asked.use_cpu is True


@pytest.mark.parametrize("stage", ["rl", "opd"])
def test_use_vllm_without_vllm(stage: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    vllm_installed(monkeypatch, False)
    out = tmp_path / "out"
    line = one_error_line(train(stage, yaml_file(tmp_path, "use_vllm: true\n"), out))
    assert "use_vllm is set but vllm is not installed: pip install 'hat-eval[vllm]'" in line
    assert "set use_vllm: false" in line
    assert not out.exists()


def test_use_vllm_without_cuda(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    vllm_installed(monkeypatch, True)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    line = one_error_line(train("rl", yaml_file(tmp_path, "use_vllm: true\n"), tmp_path / "o"))
    assert "use_vllm needs a CUDA GPU and this machine has none" in line


def test_a_cuda_device_map_without_cuda(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    cfg = yaml_file(tmp_path, "model_init_kwargs:\n  device_map: cuda:0\n")
    line = one_error_line(train("sft", cfg, tmp_path / "out"))
    assert (
        "model_init_kwargs device_map (cuda:0) asks for a CUDA device but this machine has" in line
    )
    cfg = yaml_file(tmp_path, "teacher_model_init_kwargs:\n  device_map: cuda\n")
    line = one_error_line(train("opd", cfg, tmp_path / "out"))
    assert line.startswith("error: ") and "teacher_model_init_kwargs device_map (cuda)" in line


def test_an_uncached_hub_kernel_offline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("KERNELS_CACHE", str(tmp_path / "kernels"))
    cfg = yaml_file(
        tmp_path, "model_init_kwargs:\n  attn_implementation: kernels-community/flash-attn3\n"
    )
    line = one_error_line(train("sft", cfg, tmp_path / "out"))
    assert "model_init_kwargs attn_implementation=kernels-community/flash-attn3: the Hub " in line
    assert "is not in the local cache" in line and "the Hub is offline" in line


def test_a_forced_kernel_missing_offline_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """USE_HUB_KERNELS=YES offline and a kernel nobody cached: the kernels library's error."""
    import hat_eval.trainers._stages as stages

    def load(*_args: object) -> None:
        raise ValueError(
            "Version 2 of 'kernels-community/rotary' is not available in the local cache and "
            "Hugging Face Hub is in offline mode. Download the kernel while online first, or "
            "pass an explicit `revision=<commit>`."
        )

    monkeypatch.setattr(stages, "run_stage", load)
    line = one_error_line(train("sft", yaml_file(tmp_path, "max_steps: 1\n"), tmp_path / "o"))
    assert line == (
        "error: hub kernels are on (USE_HUB_KERNELS=YES) but the kernel "
        "kernels-community/rotary is not in the local cache and the Hub is offline; load once "
        "with the network on to cache it, or unset USE_HUB_KERNELS (offline, hub kernels are off "
        "by default)"
    )


# --- the setting reaches every stage's model loads ------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("stage", ["sft", "opd", "rl"])
def test_offline_every_stage_loads_without_hub_kernels(
    stage: str, tmp_path: Path, offline: pytest.MonkeyPatch, shared_dir: Path
) -> None:
    spy = spy_kernels(offline)
    config = REPO / "trainers" / f"{stage}-tiny.yaml"
    extra = ["--max-steps", "1"]
    if stage == "opd":  # from the tiny base, distilled from itself: two models load
        data = shared_dir / "data" / "general_instructions"
        config = yaml_file(
            tmp_path,
            (REPO / "trainers" / "opd-tiny.yaml").read_text(encoding="utf-8")
            + f"general_data: {data}\nteacher_model_name_or_path: builtin:tiny-qwen3\n",
        )
        extra += ["--model", "builtin:tiny-qwen3"]
    res = train(stage, config, tmp_path / "out", *extra)
    assert res.exit_code == 0, res.output
    assert spy.loads and set(spy.loads) == {"NO"}  # what from_pretrained saw, every time
    assert spy.kernelized == []  # transformers resolved no kernel
    assert hub.ENV not in os.environ  # nothing outlives the command


@pytest.mark.slow
def test_the_users_setting_and_the_flag_reach_the_trainer_load(
    tmp_path: Path, offline: pytest.MonkeyPatch
) -> None:
    """USE_HUB_KERNELS=YES (cached kernels only, offline) turns them on: the spy sees the load
    ask; --no-hub-kernels turns them off again."""
    spy = spy_kernels(offline)
    offline.setenv(hub.ENV, "YES")
    config = REPO / "trainers" / "sft-tiny.yaml"
    res = train("sft", config, tmp_path / "on", "--max-steps", "1")
    assert res.exit_code == 0, res.output
    assert set(spy.loads) == {"YES"} and spy.kernelized  # on a CPU nothing is fetched
    before = (len(spy.loads), len(spy.kernelized))
    res = train("sft", config, tmp_path / "off", "--max-steps", "1", "--no-hub-kernels")
    assert res.exit_code == 0, res.output
    assert set(spy.loads[before[0] :]) == {"NO"} and len(spy.kernelized) == before[1]
    assert os.environ[hub.ENV] == "YES"  # the user's setting, as it was
