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


CHAT_TEMPLATE = (
    "{% if tools %}<|im_start|>system\n# Tools\n{% for t in tools %}{{ t | tojson }}\n"
    "{% endfor %}<|im_end|>\n{% endif %}"
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n"
    "{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
"""A Qwen-style chat template that also renders the tool schemas."""


def build_tiny_checkpoint(path: Path) -> Path:
    """A 2-layer Qwen3 (hidden 64) with a byte-level BPE tokenizer trained on the spot."""
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast, Qwen3Config, Qwen3ForCausalLM

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=400,
        special_tokens=["<|endoftext|>", "<|im_start|>", "<|im_end|>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    tok.train_from_iterator(
        ["Hello viewer, this hoodie is in stock and costs 199 yuan."] * 20, trainer
    )
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tok, eos_token="<|im_end|>", pad_token="<|endoftext|>"
    )
    fast.chat_template = CHAT_TEMPLATE
    fast.save_pretrained(path)
    cfg = Qwen3Config(
        vocab_size=len(fast),
        hidden_size=64,
        intermediate_size=128,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        head_dim=16,
        max_position_embeddings=8192,
        eos_token_id=fast.eos_token_id,
        pad_token_id=fast.pad_token_id,
        tie_word_embeddings=True,
    )
    torch.manual_seed(0)
    Qwen3ForCausalLM(cfg).save_pretrained(path)
    return path


@pytest.fixture(scope="session")
def tiny_checkpoint(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny local Hugging Face checkpoint (config, weights, tokenizer, chat template)."""
    return build_tiny_checkpoint(tmp_path_factory.mktemp("tiny-qwen3"))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--gpu", action="store_true", help="run tests marked gpu (needs CUDA)")
    parser.addoption(
        "--label-studio",
        metavar="VENV",
        default=None,
        help="run the live Label Studio round trip with the label-studio in VENV "
        "(build it with scripts/label-studio-venv.sh VENV)",
    )
    parser.addoption(
        "--mt-bench",
        metavar="FILE",
        default=None,
        help="check the agreement statistics on an MT-Bench human-judgment sample "
        "(made by judge/published/mt_bench.py sample; not committed)",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--gpu"):
        return
    skip = pytest.mark.skip(reason="needs --gpu and a CUDA device")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def label_studio_venv(request: pytest.FixtureRequest) -> Path:
    """The virtual environment given by ``--label-studio VENV``; skips the test without it."""
    venv = request.config.getoption("--label-studio")
    if not venv:
        pytest.skip("needs --label-studio VENV (build one with scripts/label-studio-venv.sh VENV)")
    path = Path(venv).expanduser().resolve()
    if not (path / "bin" / "label-studio").is_file():
        pytest.fail(
            f"--label-studio {venv}: no bin/label-studio in it; "
            f"run scripts/label-studio-venv.sh {venv}"
        )
    return path


@pytest.fixture(scope="session")
def mt_bench_sample(request: pytest.FixtureRequest) -> Path:
    """The MT-Bench sample given by ``--mt-bench FILE``; skips the test without it."""
    given = request.config.getoption("--mt-bench")
    if not given:
        pytest.skip("needs --mt-bench FILE (see judge/published/README.md)")
    path = Path(given).expanduser().resolve()
    if not path.is_file():
        pytest.fail(f"--mt-bench {given}: no such file")
    return path


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
