"""Hub kernels: the one decision whether a model load may fetch kernels from the Hugging Face Hub.

transformers 5 depends on ``kernels`` and, by default, *kernelizes* every model it loads: it swaps
layers (RMSNorm, rotary embeddings, activations, ...) for compiled kernels fetched from Hub
repositories such as ``kernels-community/rotary`` (``modeling_utils.PreTrainedModel.
set_use_kernels`` calls ``integrations.hub_kernels.kernelize``). On CUDA that needs the network or
the kernels' local cache: offline (``HF_HUB_OFFLINE=1``) every CUDA load fails with ``Version 2 of
'kernels-community/rotary' is not available in the local cache and Hugging Face Hub is in offline
mode``. transformers reads one switch at every load, the environment variable ``USE_HUB_KERNELS``
(``integrations.hub_kernels._kernels_enabled``; default on): off, ``from_pretrained`` neither
kernelizes nor lazily fetches a kernel, whatever ``use_kernels=`` says.

:func:`hub_kernels_allowed` decides, :func:`apply_hub_kernels` writes the decision to that
variable (so it also reaches a model TRL or Inspect's ``hf/`` provider loads, and every child
process). Every command that loads a model wraps its work in :func:`hub_kernel_setting`
(``hat-eval run`` with its ``--judge``, ``score --judge``, the ``judge`` commands' grader, the
``harness`` rewriter model, ``train``), and the trainers set it where each stage resolves its
base (:func:`hat_eval.trainers._common.resolve_base`), so library callers get it too. (The load test
loads a tokenizer only: nothing to kernelize.) A kernel named explicitly (``attn_implementation:
kernels-community/flash-attn3``, or ``flash_attention_2`` without the ``flash-attn`` package,
which transformers then serves from the Hub) bypasses the switch, so
:func:`check_kernel_request` refuses one that is not cached while the Hub is offline, in one line.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ENV = "USE_HUB_KERNELS"
"""The variable transformers reads at every load (``YES``/``NO``; unset means yes)."""
OFFLINE_VARS = ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE")
"""The variables that put the Hugging Face Hub (and transformers) offline."""
_TRUE = ("1", "ON", "YES", "TRUE", "Y")
_FALSE = ("0", "OFF", "NO", "FALSE", "N")
_KERNEL = re.compile(r"^[^/:]+/[^/:]+(?:@[^/:]+)?(?::[^/:]+)?$")
"""A Hub kernel as ``attn_implementation`` names one: ``org/repo[@revision][:function]``."""
_OFFLINE_MISS = re.compile(r"'([^']+)' is not available in the local cache")
"""The ``kernels`` library's error for a kernel missing from the cache while offline."""

_written: str | None = None
"""The value :func:`apply_hub_kernels` last wrote, so it is not mistaken for the user's own."""
_requested: bool | None = None
"""The last explicit request (``--no-hub-kernels``: False) in this process."""


class HubKernelError(ValueError):
    """A Hub kernel that cannot be had: asked for while offline and not in the local cache."""


def hub_offline() -> bool:
    """Whether the Hub is offline: ``HF_HUB_OFFLINE`` or ``TRANSFORMERS_OFFLINE`` is true.

    Read now, and also as ``huggingface_hub`` read it when it was imported (its downloads,
    the kernels' included, keep that value for the life of the process).
    """
    if any((os.environ.get(v) or "").upper() in _TRUE for v in OFFLINE_VARS):
        return True
    try:
        from huggingface_hub import constants
    except ImportError:  # pragma: no cover - transformers depends on it
        return False
    return bool(constants.HF_HUB_OFFLINE)


def hub_kernels_allowed(requested: bool | None = None) -> bool:
    """Whether model loads may use kernels from the Hub.

    In order: ``requested`` when given (``--no-hub-kernels`` is False); else the last request
    :func:`apply_hub_kernels` was given in this process (a command's flag, for the library code
    it calls); else the user's own ``USE_HUB_KERNELS`` when set (``YES`` forces them on, offline
    too: then they must be cached); else on unless the Hub is offline (:func:`hub_offline`),
    where fetching a kernel would fail the load.
    """
    if requested is not None:
        return requested
    if _requested is not None:
        return _requested
    value = os.environ.get(ENV)
    if value is not None and value != _written:
        if value.upper() in _FALSE:
            return False
        if value.upper() in _TRUE:
            return True
    return not hub_offline()


def apply_hub_kernels(requested: bool | None = None) -> bool:
    """Decide (:func:`hub_kernels_allowed`) and set ``USE_HUB_KERNELS`` for the loads that follow.

    Call it before a model is loaded (transformers reads the variable at each
    ``from_pretrained``); child processes inherit it. Off writes ``NO``; on writes ``YES`` when
    ``requested``, and otherwise leaves the variable as the user had it. A ``requested`` value
    holds for the rest of the process (later calls without one keep it). Returns the decision.
    """
    global _written, _requested
    if requested is not None:
        _requested = requested
    allowed = hub_kernels_allowed(_requested)
    if not allowed:
        value: str | None = "NO"
    elif _requested:
        value = "YES"
    else:
        value = None
    if value is not None:
        os.environ[ENV] = value
        _written = value
    elif _written is not None and os.environ.get(ENV) == _written:
        del os.environ[ENV]  # ours from an earlier call: back to transformers' default
        _written = None
    return allowed


@contextmanager
def hub_kernel_setting(requested: bool | None = None) -> Iterator[bool]:
    """:func:`apply_hub_kernels` for the duration of a command; the previous setting after it.

    What a CLI command wraps its work in (``requested``: False for ``--no-hub-kernels``), so the
    setting holds for every load it makes and nothing of it outlives the command (a test runs many
    commands in one process). Yields the decision.
    """
    global _written, _requested
    saved = (_written, _requested, os.environ.get(ENV))
    try:
        yield apply_hub_kernels(requested)
    finally:
        _written, _requested, value = saved
        if value is None:
            os.environ.pop(ENV, None)
        else:
            os.environ[ENV] = value


def requested_kernel(attn_implementation: Any) -> tuple[str, str | None, int | None] | None:
    """The Hub kernel an ``attn_implementation`` value loads: ``(repo, revision, version)``.

    ``org/repo[@revision][:function]`` names one (its version transformers' default for the repo
    unless a revision is given); ``flash_attention_N`` loads transformers' Hub fallback when the
    flash-attn package for N is not installed. None: no Hub kernel.
    """
    if not isinstance(attn_implementation, str):
        return None
    name = attn_implementation.split("|")[-1].strip()
    if _KERNEL.match(name):
        repo, _, rev = name.split(":")[0].partition("@")
        return (repo.strip(), rev.strip(), None) if rev else (repo.strip(), None, _version(repo))
    try:
        from transformers.modeling_flash_attention_utils import (
            FLASH_ATTENTION_COMPATIBILITY_MATRIX,
            FLASH_ATTN_KERNEL_FALLBACK,
        )
    except ImportError:  # another transformers: no fallback table to consult
        return None
    fallback = FLASH_ATTN_KERNEL_FALLBACK.get(name)
    if fallback is None:
        return None
    entry = FLASH_ATTENTION_COMPATIBILITY_MATRIX.get(int(name.rsplit("_", 1)[-1]), {})
    check = entry.get("general_availability_check")
    if check is not None and check():
        return None  # the flash-attn package itself serves it
    return fallback, None, _version(fallback)


def _version(repo: str) -> int:
    try:
        from transformers.modeling_flash_attention_utils import FLASH_ATTN_KERNEL_VERSIONS
    except ImportError:
        return 1
    return int(FLASH_ATTN_KERNEL_VERSIONS.get(repo, 1))


def kernel_cache_dir(repo: str) -> Path:
    """Where the ``kernels`` library caches ``repo``: ``$KERNELS_CACHE`` or the Hub cache."""
    from huggingface_hub import constants

    root = os.environ.get("KERNELS_CACHE") or constants.HF_HUB_CACHE
    return Path(root) / ("kernels--" + repo.replace("/", "--"))


def kernel_cached(repo: str, *, revision: str | None = None, version: int | None = None) -> bool:
    """Whether ``repo`` at ``revision`` (a ref or commit) or major ``version`` is cached."""
    folder = kernel_cache_dir(repo)
    if revision is not None:
        return (folder / "refs" / revision).is_file() or (folder / "snapshots" / revision).is_dir()
    return (folder / "refs" / f"v{version or 1}").is_file()


def check_kernel_request(model_kwargs: Mapping[str, Any] | None, *, where: str) -> None:
    """Refuse an explicitly requested Hub kernel that an offline load could not fetch.

    ``model_kwargs`` are what reaches ``from_pretrained`` (``-M`` pairs, a trainer's
    ``model_init_kwargs``); ``where`` names them in the message.

    Raises:
        HubKernelError: its ``attn_implementation`` loads a Hub kernel (:func:`requested_kernel`),
            the Hub is offline and the kernel is not in the local cache.
    """
    value = (model_kwargs or {}).get("attn_implementation")
    kernel = requested_kernel(value)
    if kernel is None or not hub_offline():
        return
    repo, revision, version = kernel
    if kernel_cached(repo, revision=revision, version=version):
        return
    which = f"revision {revision}" if revision else f"version {version}"
    raise HubKernelError(
        f"{where} attn_implementation={value}: the Hub kernel {repo} ({which}) is not in the "
        f"local cache ({kernel_cache_dir(repo)}) and the Hub is offline; load it once with the "
        "network on, or choose attn_implementation=sdpa"
    )


def kernel_error_line(err: BaseException) -> str | None:
    """One line for the ``kernels`` library's 'not in the local cache while offline' error.

    None when ``err`` is another error. For the CLI: a load with hub kernels forced on while
    offline (the user's ``USE_HUB_KERNELS=YES``) that needs a kernel nobody cached.
    """
    match = _OFFLINE_MISS.search(str(err))
    if match is None:
        return None
    return (
        f"hub kernels are on ({ENV}=YES) but the kernel {match.group(1)} is not in the local "
        "cache and the Hub is offline; load once with the network on to cache it, or unset "
        f"{ENV} (offline, hub kernels are off by default)"
    )
