"""Fixtures of the trainers' tests: a tiny base checkpoint built once per session."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("trl", reason="the trainers' tests need the train extra (in dev)")


@pytest.fixture(scope="session")
def tiny_base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny random Qwen3 with TRL's Qwen3 chat template (see ``hat_eval.trainers._tiny``)."""
    from hat_eval.trainers._tiny import build_tiny_model

    return build_tiny_model(tmp_path_factory.mktemp("tiny-base"))


@pytest.fixture(scope="session")
def tiny_base_mtp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same tiny model with Qwen3.5-style ``mtp.*`` tensors in its weights."""
    from hat_eval.trainers._tiny import build_tiny_model

    return build_tiny_model(tmp_path_factory.mktemp("tiny-base-mtp"), mtp_layers=1)
