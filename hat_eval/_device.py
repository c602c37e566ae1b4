"""What the machine can run, checked before a model is built: CUDA, bfloat16, vLLM.

Every check raises :class:`DeviceError` with one line (the value, the rule, the fix); the
trainers' configs and ``hat-eval run`` call them while validating their input, so a request the
machine cannot serve stops before anything is loaded. torch is imported when a check runs.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Mapping
from typing import Any

VLLM_INSTALL = "pip install 'hat-eval[vllm]' on a machine with a GPU"
"""How to get vLLM (the ``vllm`` extra)."""
DTYPE_KEYS = ("dtype", "torch_dtype")
"""Keyword arguments of ``from_pretrained`` that choose the weights' dtype."""


class DeviceError(ValueError):
    """The machine cannot serve what the input asks for (a CUDA device, bfloat16, vLLM)."""


def cuda_available() -> bool:
    """Whether torch sees a CUDA device."""
    import torch

    return bool(torch.cuda.is_available())


def vllm_installed() -> bool:
    """Whether the ``vllm`` package can be imported."""
    return importlib.util.find_spec("vllm") is not None


def names_cuda(value: Any) -> bool:
    """Whether a ``device`` / ``device_map`` value asks for a CUDA device.

    ``"cuda"``, ``"cuda:N"``, a GPU index, a ``torch.device`` of type cuda, or a mapping (a
    ``device_map`` per module) with any of those. ``"auto"`` does not: it falls back to the CPU.
    """
    if isinstance(value, Mapping):
        return any(names_cuda(v) for v in value.values())
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True  # accelerate reads a bare integer as that GPU
    device_type = getattr(value, "type", None)  # a torch.device
    text = device_type if isinstance(device_type, str) else value
    return isinstance(text, str) and text.strip().lower().startswith("cuda")


def check_device(value: Any, *, where: str) -> None:
    """Refuse a CUDA ``value`` (see :func:`names_cuda`) on a machine without CUDA.

    Raises:
        DeviceError: ``value`` names a CUDA device and torch sees none.
    """
    if names_cuda(value) and not cuda_available():
        raise DeviceError(
            f"{where} ({value}) asks for a CUDA device but this machine has none "
            "(torch.cuda.is_available() is False); use cpu or leave it unset"
        )


def check_bf16(*, where: str) -> None:
    """Refuse bfloat16 on a CUDA device that lacks it (a CPU run is the caller's to decide).

    Raises:
        DeviceError: CUDA is available and ``torch.cuda.is_bf16_supported()`` is False.
    """
    import torch

    if cuda_available() and not torch.cuda.is_bf16_supported():
        raise DeviceError(
            f"{where} asks for bfloat16 but the GPU ({torch.cuda.get_device_name(0)}) does not "
            "support it (torch.cuda.is_bf16_supported() is False); use float16 or float32 (for "
            "training: bf16: false, and fp16: true for mixed precision)"
        )


def is_bf16(value: Any) -> bool:
    """Whether a dtype value (``"bfloat16"``, ``"bf16"``, ``torch.bfloat16``) is bfloat16."""
    return str(value).removeprefix("torch.").lower() in ("bfloat16", "bf16")


def check_model_kwargs(kwargs: Mapping[str, Any] | None, *, where: str) -> None:
    """Check the device and dtype of ``from_pretrained`` keyword arguments against the machine.

    ``device`` / ``device_map`` naming CUDA needs CUDA; a bfloat16 ``dtype`` / ``torch_dtype``
    on CUDA needs a GPU with bfloat16. ``where`` names the arguments in the message.

    Raises:
        DeviceError: one of them asks for what the machine does not have.
    """
    kwargs = kwargs or {}
    for key in ("device", "device_map"):
        if key in kwargs:
            check_device(kwargs[key], where=f"{where} {key}")
    for key in DTYPE_KEYS:
        if is_bf16(kwargs.get(key)):
            check_bf16(where=f"{where} {key}={kwargs[key]}")


def check_vllm(*, where: str, instead: str) -> None:
    """Refuse a vLLM engine without the package or without CUDA.

    ``where`` names the request (``use_vllm``, ``--engine vllm``), ``instead`` the way to do
    without vLLM (``set use_vllm: false ...``).

    Raises:
        DeviceError: vllm is not installed, or torch sees no CUDA device.
    """
    if not vllm_installed():
        raise DeviceError(f"{where} is set but vllm is not installed: {VLLM_INSTALL}, or {instead}")
    if not cuda_available():
        raise DeviceError(
            f"{where} needs a CUDA GPU and this machine has none (torch.cuda.is_available() is "
            f"False); {instead}"
        )


LOCAL_CPU_CONNECTIONS = 1
"""Concurrent requests a local checkpoint serves on a CPU: Inspect's ``hf/`` provider pads a
batch of concurrent requests to its longest, which on a CPU is slower than one at a time."""
LOCAL_GPU_CONNECTIONS = 8
"""Concurrent requests a local checkpoint batches on a GPU."""
SERVER_CONNECTIONS = 16
"""Concurrent requests to a model server (it batches them itself) or the in-process reference."""


def default_connections(model_name: str) -> int:
    """Model calls ``hat-eval run`` makes at once on the Inspect model ``model_name`` by default."""
    if not model_name.startswith("hf/"):
        return SERVER_CONNECTIONS
    return LOCAL_GPU_CONNECTIONS if cuda_available() else LOCAL_CPU_CONNECTIONS
