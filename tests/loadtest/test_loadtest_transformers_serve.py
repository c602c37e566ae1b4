"""End to end against ``transformers serve`` of a tiny local Qwen3 checkpoint (CPU, offline)."""

import json
import os
import shutil
import socket
import subprocess
import time
import urllib.request

import pytest
from typer.testing import CliRunner

from hat_eval.cli import app

TEMPLATE = (
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n"
    "{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)


def build_tiny_qwen3(path):
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
        ["Hello viewer, this jacket is waterproof and costs 199 yuan."] * 20, trainer
    )
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tok, eos_token="<|im_end|>", pad_token="<|endoftext|>"
    )
    fast.chat_template = TEMPLATE
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


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
def test_sweep_against_transformers_serve(tmp_path):
    from transformers.utils import is_serve_available

    if not is_serve_available() or shutil.which("transformers") is None:
        pytest.skip("transformers serve needs transformers[serving] (fastapi, uvicorn, openai)")
    model = tmp_path / "tiny-qwen3"
    build_tiny_qwen3(model)
    port = free_port()
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    log = (tmp_path / "serve.log").open("w")
    proc = subprocess.Popen(
        [
            "transformers",
            "serve",
            str(model),
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--device",
            "cpu",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        env=env,
    )
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2):
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    log.flush()
                    pytest.fail(
                        "transformers serve did not start: "
                        + (tmp_path / "serve.log").read_text()[-2000:]
                    )
                time.sleep(0.5)
        r = CliRunner().invoke(
            app,
            [
                "loadtest",
                "--host",
                f"http://127.0.0.1:{port}",
                "--model",
                str(model),
                "--users",
                "1,2",
                "--duration",
                "60s",
                "--max-requests",
                "4",
                "--max-tokens",
                "8",
                "--out",
                str(tmp_path / "out"),
            ],
        )
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        log.close()
    assert r.exit_code == 0, r.output
    levels = json.loads((tmp_path / "out" / "summary.json").read_text())
    for lv in levels:
        assert lv["requests"] == 4 and lv["failures"] == 0, lv
        assert lv["ttft_p50_s"] > 0 and lv["e2e_p50_s"] >= lv["ttft_p50_s"]
        assert lv["token_sources"] == {"usage": 4}
        assert lv["output_tokens"] <= 4 * 8
    assert (tmp_path / "out" / "report.md").exists()
