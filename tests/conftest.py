"""Shared fixtures and the opt-in flags for marked tests (offline, CPU-only by default)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


@pytest.fixture(autouse=True, scope="session")
def _offline_token_counting() -> Iterator[None]:
    """Count tokens without tiktoken's o200k data, which Inspect would download at run time.

    Inspect's ``mockllm`` fills in usage with ``ModelAPI.count_text_tokens``, which needs
    tiktoken's ``o200k_base`` file from the network; offline we estimate 4 characters a token.
    """
    import inspect_ai.model._model as model_module

    original = model_module.count_text_tokens
    model_module.count_text_tokens = lambda text: max(1, len(text) // 4)  # type: ignore[assignment]
    yield
    model_module.count_text_tokens = original


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--gpu", action="store_true", help="run tests marked gpu (needs CUDA)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--gpu"):
        return
    skip = pytest.mark.skip(reason="needs --gpu and a CUDA device")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def repo() -> Path:
    return REPO


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    if not SHARED.is_dir():
        pytest.fail(f"{SHARED} is missing: tests need ../shared beside the repository")
    return SHARED


@pytest.fixture(scope="session")
def default_harness():  # type: ignore[no-untyped-def]
    from hat_eval.harness import load_harness

    return load_harness()
