"""Fixtures of the repro tests: a tiny base (its tokenizer renders the probe's transcripts)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("trl", reason="hat-eval repro trains with the train extra (in dev)")


@pytest.fixture(scope="session")
def tiny_base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny random Qwen3 with TRL's Qwen3 chat template, as the cpu budgets build it."""
    from hat_eval.trainers import build_tiny_model

    return build_tiny_model(
        tmp_path_factory.mktemp("repro-base"), hidden_size=32, num_hidden_layers=2
    )
