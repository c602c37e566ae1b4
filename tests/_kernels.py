"""A spy on transformers' kernel resolution: the call every hub-kernel load makes.

``PreTrainedModel.from_pretrained`` ends in ``set_use_kernels``, which calls
``transformers.modeling_utils.kernelize`` when hub kernels are on (on a CPU too: the CPU has no
kernels mapped, so nothing is fetched, but the call is made). With ``USE_HUB_KERNELS=NO`` it is
never called. The spy records each call and the variable as ``from_pretrained`` saw it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

import pytest


@dataclass
class KernelSpy:
    """What the spied loads did."""

    kernelized: list[str] = field(default_factory=list)
    """The class name of each model ``kernelize`` was called on."""
    loads: list[str | None] = field(default_factory=list)
    """``USE_HUB_KERNELS`` at each ``PreTrainedModel.from_pretrained``."""


def spy_kernels(monkeypatch: pytest.MonkeyPatch) -> KernelSpy:
    """Patch the kernel-resolution entry point and ``from_pretrained``; return the record."""
    import transformers.modeling_utils as mu

    spy = KernelSpy()
    real_kernelize = mu.kernelize

    def kernelize(model: Any, *args: Any, **kwargs: Any) -> Any:
        spy.kernelized.append(type(model).__name__)
        return real_kernelize(model, *args, **kwargs)

    real_load = mu.PreTrainedModel.from_pretrained.__func__  # type: ignore[attr-defined]

    def from_pretrained(cls: Any, *args: Any, **kwargs: Any) -> Any:
        spy.loads.append(os.environ.get("USE_HUB_KERNELS"))
        return real_load(cls, *args, **kwargs)

    monkeypatch.setattr(mu, "kernelize", kernelize)
    monkeypatch.setattr(mu.PreTrainedModel, "from_pretrained", classmethod(from_pretrained))
    return spy
