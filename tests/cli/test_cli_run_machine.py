"""``hat-eval run`` on the machine it runs on: hub kernels off offline, requests it cannot serve.

Each request the machine cannot serve is one line and exit 2 before any task is built (no log);
GPUs are simulated by patching torch's answers.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest
import torch
from typer.testing import CliRunner

import hat_eval._hub as hub
from hat_eval.cli import app
from tests._cli import one_error_line
from tests._kernels import spy_kernels

runner = CliRunner()


def run(tmp_path: Path, *args: str):  # type: ignore[no-untyped-def]
    logs = tmp_path / "logs"
    return runner.invoke(app, ["run", "--suite", "livestream", "--log-dir", str(logs), *args])


def refused(res, tmp_path: Path) -> str:  # type: ignore[no-untyped-def]
    """The one error line, and nothing ran."""
    line = one_error_line(res)
    assert not (tmp_path / "logs").exists()
    return line


def test_engine_vllm_without_vllm(
    tmp_path: Path, tiny_checkpoint: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "vllm" else real(name, *a)
    )
    monkeypatch.delenv("VLLM_BASE_URL", raising=False)
    line = refused(run(tmp_path, "--engine", "vllm", "--model", str(tiny_checkpoint)), tmp_path)
    assert line == (
        "error: --engine vllm: vllm is not installed and VLLM_BASE_URL is not set; pip install "
        "'hat-eval[vllm]' on a machine with a GPU and start `vllm serve CHECKPOINT`, point "
        "VLLM_BASE_URL at a running server, or use --engine hf"
    )


def test_a_cuda_device_without_cuda(
    tmp_path: Path, tiny_checkpoint: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    res = run(tmp_path, "--model", str(tiny_checkpoint), "-M", "device=cuda:0")
    line = refused(res, tmp_path)
    assert "-M device (cuda:0) asks for a CUDA device but this machine has none" in line
    res = run(tmp_path, "--model", str(tiny_checkpoint), "-M", "device_map=cuda")
    assert "-M device_map (cuda) asks for a CUDA device" in refused(res, tmp_path)


def test_bf16_on_a_gpu_without_it(
    tmp_path: Path, tiny_checkpoint: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "is_bf16_supported", lambda *a, **k: False)
    monkeypatch.setattr(torch.cuda, "get_device_name", lambda *a: "Tesla T4")
    res = run(tmp_path, "--model", str(tiny_checkpoint), "-M", "dtype=bfloat16")
    line = refused(res, tmp_path)
    assert "-M dtype=bfloat16 asks for bfloat16 but the GPU (Tesla T4) does not support it" in line


def test_an_uncached_hub_kernel_offline(
    tmp_path: Path, tiny_checkpoint: Path, offline: pytest.MonkeyPatch
) -> None:
    offline.setenv("KERNELS_CACHE", str(tmp_path / "kernels"))
    args = (
        "--model",
        str(tiny_checkpoint),
        "-M",
        "attn_implementation=kernels-community/flash-attn3",
    )
    line = refused(run(tmp_path, *args), tmp_path)
    assert "-M attn_implementation=kernels-community/flash-attn3: the Hub kernel" in line
    assert "not in the local cache" in line and "attn_implementation=sdpa" in line


def test_a_local_judge_loads_without_hub_kernels(
    tiny_checkpoint: Path, offline: pytest.MonkeyPatch
) -> None:
    from hat_eval.cli._judge import _grader
    from hat_eval.runner._prepare import resolve_judge

    spy = spy_kernels(offline)
    resolve_judge(str(tiny_checkpoint))  # hat-eval run/score --judge CKPT
    _grader(f"hf/{tiny_checkpoint}")  # hat-eval judge calibrate/corpus/audit --judge hf/CKPT
    assert spy.loads == ["NO", "NO"] and spy.kernelized == []
    assert hub.ENV not in os.environ


@pytest.mark.slow
def test_inspect_hf_loads_follow_the_setting(
    tmp_path: Path, tiny_checkpoint: Path, offline: pytest.MonkeyPatch
) -> None:
    """Offline, Inspect's hf provider loads the checkpoint with no kernel; USE_HUB_KERNELS=YES
    asks for them, and --no-hub-kernels overrides that."""
    spy = spy_kernels(offline)
    args = ("--model", str(tiny_checkpoint), "--limit", "1", "--max-tokens", "2")
    res = run(tmp_path / "a", *args)
    assert res.exit_code == 0, res.output
    assert spy.loads and set(spy.loads) == {"NO"} and spy.kernelized == []
    assert hub.ENV not in os.environ  # the command's setting ends with it
    offline.setenv(hub.ENV, "YES")
    before = len(spy.loads)
    res = run(tmp_path / "b", *args, "-M", "batch_size=1")  # other args: not Inspect's memo
    assert res.exit_code == 0, res.output
    assert set(spy.loads[before:]) == {"YES"} and "Qwen3ForCausalLM" in spy.kernelized
    before, kernelized = len(spy.loads), len(spy.kernelized)
    res = run(tmp_path / "c", *args, "-M", "batch_size=2", "--no-hub-kernels")
    assert res.exit_code == 0, res.output
    assert set(spy.loads[before:]) == {"NO"} and len(spy.kernelized) == kernelized
