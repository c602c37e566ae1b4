"""On a CUDA device, offline: the project's own load paths and one training step (``--gpu``).

Skipped unless pytest is given ``--gpu`` (tests/conftest.py); with it, a machine without CUDA
fails here rather than passing vacuously. Each test runs with the Hub offline and no
``USE_HUB_KERNELS`` of the user's, so it checks the project's offline default: on CUDA,
transformers 5 would otherwise kernelize every load from the Hub and fail without the network.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import torch
from typer.testing import CliRunner

import hat_eval._hub as hub
from hat_eval.cli import app
from hat_eval.trainers._common import RUN_FILE, resolve_base
from tests._kernels import spy_kernels

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.gpu
runner = CliRunner()


@pytest.fixture(autouse=True)
def offline_cuda(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    if not torch.cuda.is_available():
        pytest.fail("--gpu was given but torch sees no CUDA device")
    monkeypatch.delenv(hub.ENV, raising=False)
    monkeypatch.setattr(hub, "_written", None)
    monkeypatch.setattr(hub, "_requested", None)
    for var in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_DATASETS_OFFLINE"):
        monkeypatch.setenv(var, "1")
    return monkeypatch


def test_a_cuda_load_offline_through_the_trainers_path(
    tmp_path: Path, tiny_base: Path, offline_cuda: pytest.MonkeyPatch
) -> None:
    from transformers import AutoModelForCausalLM, AutoTokenizer

    spy = spy_kernels(offline_cuda)
    base = resolve_base(str(tiny_base), tmp_path)  # where every stage sets the switch
    model = AutoModelForCausalLM.from_pretrained(str(base), device_map="cuda")
    assert model.device.type == "cuda" and not model.use_kernels
    assert spy.loads == ["NO"] and spy.kernelized == []
    tok = AutoTokenizer.from_pretrained(str(base))
    ids = tok("Hello viewer", return_tensors="pt").to("cuda")
    out = model.generate(**ids, max_new_tokens=4, do_sample=False)
    assert out.shape[1] == ids["input_ids"].shape[1] + 4


def test_hat_eval_run_on_cuda_offline(
    tmp_path: Path, tiny_checkpoint: Path, offline_cuda: pytest.MonkeyPatch
) -> None:
    from inspect_ai.log import list_eval_logs, read_eval_log

    spy = spy_kernels(offline_cuda)
    args = ["run", "--suite", "livestream", "--limit", "2", "--max-tokens", "8"]
    res = runner.invoke(
        app, [*args, "--model", str(tiny_checkpoint), "--log-dir", str(tmp_path / "logs")]
    )
    assert res.exit_code == 0, res.output
    (info,) = list_eval_logs(str(tmp_path / "logs"))
    log = read_eval_log(info.name, header_only=True)
    assert log.status == "success" and log.results and log.results.completed_samples == 2
    assert spy.loads and set(spy.loads) == {"NO"} and spy.kernelized == []


def test_one_sft_step_on_cuda(tmp_path: Path, offline_cuda: pytest.MonkeyPatch) -> None:
    spy = spy_kernels(offline_cuda)
    out = tmp_path / "sft"
    config = REPO / "trainers" / "sft-tiny.yaml"
    res = runner.invoke(
        app, ["train", "sft", "--config", str(config), "--max-steps", "1", "--out", str(out)]
    )
    assert res.exit_code == 0, res.output
    record = json.loads((out / RUN_FILE).read_text(encoding="utf-8"))
    assert record["global_step"] == 1
    assert record["config"]["use_cpu"] is False
    assert record["config"]["bf16"] == torch.cuda.is_bf16_supported()
    assert set(spy.loads) == {"NO"} and spy.kernelized == []
    assert hub.ENV not in os.environ
