"""What the machine can run: CUDA, bfloat16 and vLLM requests checked in one line each."""

from __future__ import annotations

import importlib.util

import pytest
import torch

from hat_eval._device import (
    DeviceError,
    check_bf16,
    check_device,
    check_model_kwargs,
    check_vllm,
    names_cuda,
)


def no_cuda(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)


def gpu_without_bf16(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "is_bf16_supported", lambda *a, **k: False)
    monkeypatch.setattr(torch.cuda, "get_device_name", lambda *a: "Tesla T4")


def no_vllm(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "vllm" else real(name, *a)
    )


@pytest.mark.parametrize(
    ("value", "cuda"),
    [
        ("cuda", True),
        ("CUDA:1", True),
        (0, True),
        (torch.device("cuda", 0), True),
        ({"": "cuda:0"}, True),
        ({"model": "cpu", "lm_head": 1}, True),
        ("auto", False),
        ("cpu", False),
        (None, False),
        (True, False),
        ({"": "cpu"}, False),
    ],
)
def test_which_values_ask_for_cuda(value: object, cuda: bool) -> None:
    assert names_cuda(value) is cuda


def test_a_cuda_device_without_cuda_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    no_cuda(monkeypatch)
    with pytest.raises(DeviceError) as err:
        check_device("cuda:0", where="-M device")
    assert str(err.value) == (
        "-M device (cuda:0) asks for a CUDA device but this machine has none "
        "(torch.cuda.is_available() is False); use cpu or leave it unset"
    )
    check_device("auto", where="-M device_map")  # falls back to the CPU: fine


def test_bf16_on_a_gpu_without_it(monkeypatch: pytest.MonkeyPatch) -> None:
    gpu_without_bf16(monkeypatch)
    with pytest.raises(DeviceError, match=r"GPU \(Tesla T4\) does not support it") as err:
        check_model_kwargs({"dtype": "bfloat16"}, where="-M")
    assert str(err.value).startswith("-M dtype=bfloat16 asks for bfloat16")
    check_model_kwargs({"dtype": "float16", "device": "cuda"}, where="-M")
    no_cuda(monkeypatch)
    check_bf16(where="bf16")  # on a CPU the caller decides (the trainers fall back)


def test_vllm_missing_or_without_cuda(monkeypatch: pytest.MonkeyPatch) -> None:
    no_vllm(monkeypatch)
    with pytest.raises(DeviceError) as err:
        check_vllm(where="use_vllm", instead="set use_vllm: false")
    assert str(err.value) == (
        "use_vllm is set but vllm is not installed: pip install 'hat-eval[vllm]' on a machine "
        "with a GPU, or set use_vllm: false"
    )
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: object())
    no_cuda(monkeypatch)
    with pytest.raises(DeviceError, match=r"use_vllm needs a CUDA GPU and this machine has none"):
        check_vllm(where="use_vllm", instead="set use_vllm: false")
