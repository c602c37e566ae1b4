"""Hub kernels: one decision, written where transformers reads it, and explicit kernels checked."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import hat_eval._hub as hub
from hat_eval._hub import (
    ENV,
    HubKernelError,
    apply_hub_kernels,
    check_kernel_request,
    hub_kernel_setting,
    hub_kernels_allowed,
    kernel_error_line,
    requested_kernel,
)
from tests._kernels import spy_kernels


@pytest.fixture
def clean(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """No user setting, no earlier decision of this process; the Hub offline (as in all tests)."""
    monkeypatch.delenv(ENV, raising=False)
    monkeypatch.setattr(hub, "_written", None)
    monkeypatch.setattr(hub, "_requested", None)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    return monkeypatch


def go_online(monkeypatch: pytest.MonkeyPatch) -> None:
    from huggingface_hub import constants

    for var in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)


def test_offline_turns_hub_kernels_off_and_a_flag_or_the_user_decides(
    clean: pytest.MonkeyPatch,
) -> None:
    assert hub_kernels_allowed() is False  # offline
    assert hub_kernels_allowed(True) is True  # --hub-kernels
    clean.setenv(ENV, "yes")  # the user's own setting wins over the offline default
    assert hub_kernels_allowed() is True
    assert hub_kernels_allowed(False) is False  # --no-hub-kernels wins over it
    go_online(clean)
    clean.delenv(ENV)
    assert hub_kernels_allowed() is True
    clean.setenv(ENV, "NO")
    assert hub_kernels_allowed() is False


def test_apply_writes_the_variable_transformers_reads(clean: pytest.MonkeyPatch) -> None:
    assert apply_hub_kernels() is False
    assert os.environ[ENV] == "NO"
    go_online(clean)
    assert apply_hub_kernels() is True  # our own NO is not mistaken for the user's
    assert ENV not in os.environ
    assert apply_hub_kernels(False) is False and os.environ[ENV] == "NO"
    assert apply_hub_kernels() is False  # a flag holds for the later loads of the process


def test_a_command_setting_is_undone_after_it(clean: pytest.MonkeyPatch) -> None:
    with hub_kernel_setting(True) as allowed:
        assert allowed and os.environ[ENV] == "YES"
        assert apply_hub_kernels() is True  # library code inside the command keeps the flag
        assert os.environ[ENV] == "YES"
    assert ENV not in os.environ and hub._requested is None
    clean.setenv(ENV, "maybe")
    with hub_kernel_setting(False):
        assert os.environ[ENV] == "NO"
    assert os.environ[ENV] == "maybe"


def test_requested_kernels_are_read_as_transformers_reads_them() -> None:
    assert requested_kernel("kernels-community/flash-attn3") == (
        "kernels-community/flash-attn3",
        None,
        2,
    )
    assert requested_kernel("org/attn@v1.2:forward") == ("org/attn", "v1.2", None)
    assert requested_kernel("paged|kernels-community/flash-attn2")[0] == (  # type: ignore[index]
        "kernels-community/flash-attn2"
    )
    assert requested_kernel("sdpa") is None and requested_kernel(None) is None
    # without the flash-attn package transformers serves flash_attention_2 from the Hub
    assert requested_kernel("flash_attention_2") == ("kernels-community/flash-attn2", None, 4)


def test_an_uncached_kernel_offline_is_one_line(clean: pytest.MonkeyPatch, tmp_path: Path) -> None:
    clean.setenv("KERNELS_CACHE", str(tmp_path))
    kwargs = {"attn_implementation": "kernels-community/flash-attn3"}
    with pytest.raises(HubKernelError) as err:
        check_kernel_request(kwargs, where="-M")
    line = str(err.value)
    assert "\n" not in line
    assert line.startswith("-M attn_implementation=kernels-community/flash-attn3: ")
    assert "(version 2) is not in the local cache" in line and "attn_implementation=sdpa" in line
    refs = tmp_path / "kernels--kernels-community--flash-attn3" / "refs"
    refs.mkdir(parents=True)
    (refs / "v2").write_text("0" * 40)
    check_kernel_request(kwargs, where="-M")  # cached: fine
    check_kernel_request({"attn_implementation": "sdpa"}, where="-M")
    go_online(clean)
    check_kernel_request({"attn_implementation": "org/other"}, where="-M")  # online: fetched


def test_the_kernels_library_offline_error_becomes_one_line() -> None:
    err = ValueError(
        "Version 2 of 'kernels-community/rotary' is not available in the local cache and "
        "Hugging Face Hub is in offline mode. Download the kernel while online first."
    )
    line = kernel_error_line(err)
    assert (
        line is not None and "kernels-community/rotary" in line and "unset USE_HUB_KERNELS" in line
    )
    assert kernel_error_line(ValueError("something else")) is None


def test_a_load_after_the_decision_resolves_no_kernel(
    clean: pytest.MonkeyPatch, tiny_checkpoint: Path
) -> None:
    """The decision reaches ``from_pretrained``; the spy sees the call when kernels are on."""
    from transformers import AutoModelForCausalLM

    spy = spy_kernels(clean)
    with hub_kernel_setting():
        AutoModelForCausalLM.from_pretrained(str(tiny_checkpoint))
    assert spy.kernelized == [] and spy.loads == ["NO"]
    with hub_kernel_setting(True):
        AutoModelForCausalLM.from_pretrained(str(tiny_checkpoint))
    assert spy.kernelized == ["Qwen3ForCausalLM"]  # the spy is where transformers resolves
