"""On a machine with one GPU and no network: episodes under load against vLLM, with and without MTP.

    python bench/gpu_episodes_mtp.py --out runs/gpu [--base CKPT] [--scale small|reference]

In one go, inside about 10 minutes on one H200 (or H20):

1. A checkpoint: ``--base CKPT`` (a local Qwen3.5/3.6 text checkpoint with its ``mtp.*`` heads),
   or, without one, a **randomly initialised** model of the reference's architecture (Qwen3.5
   text: gated-delta-net and full-attention layers) written on the GPU in bf16, with ``mtp.*``
   tensors shaped like one full-attention decoder layer plus the fusion projection and norms.
   A random model measures real serving latency (the prefill of a ~2,300-token harness prompt,
   decode steps, batching, the MTP module's extra forward passes) but **not MTP acceptance**:
   random heads propose tokens a random model rarely accepts, so the MTP speed-up measured on
   it is a lower bound near 1x (or below: a rejected draft costs time). Acceptance needs the
   real, trained checkpoint.
2. Two vLLM servers on the one GPU (half its memory each): the baseline, and the candidate with
   ``--speculative-config '{"method": "mtp", "num_speculative_tokens": 2}'``.
3. ``hat-eval loadtest --mode episode`` sweeps on both (whole episodes: tool call, the tool's
   run against the world through the harness's hooks, the streamed final answer), then
   ``hat-eval loadtest mtp --mode episode`` (paired, interleaved) and vLLM's spec-decode
   counters from ``/metrics`` (acceptance rate and length).

Everything lands under ``--out``: ``summary.txt`` (the numbers), each sweep's ``summary.json``
and ``report.md``, the MTP comparison, both servers' logs, and ``spec_decode.json``.

Needs vLLM installed on that machine (``pip install 'hat-eval[vllm]'`` while it still has
network, or a prepared environment); it says so in one line and exits 2 when it is missing.
Not run in this repository's CI (no GPU), and not yet run anywhere: the session that wrote it had
no GPU lent. If the installed vLLM does not list ``Qwen3_5ForCausalLM`` among its architectures,
pass ``--base`` with a real Qwen3.5/3.6 text checkpoint. The tool-call parser and chat template
are vLLM's ``hermes`` parser and the checkpoint's own template (Qwen's ``<tool_call>`` JSON).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

SCALES = {
    # hidden, layers (every 4th full attention), heads, kv heads, intermediate, vocab
    "small": dict(hidden_size=2048, num_hidden_layers=24, num_attention_heads=16,
                  num_key_value_heads=2, intermediate_size=6144, vocab_size=151936),
    "reference": dict(hidden_size=4096, num_hidden_layers=32, num_attention_heads=16,
                      num_key_value_heads=4, intermediate_size=12288, vocab_size=151936),
}  # fmt: skip
SPEC = {"method": "mtp", "num_speculative_tokens": 2}
SPEC_COUNTERS = (
    "vllm:spec_decode_num_drafts_total",
    "vllm:spec_decode_num_draft_tokens_total",
    "vllm:spec_decode_num_accepted_tokens_total",
)


def fail(message: str) -> None:
    print(f"error: {message}", file=sys.stderr)
    sys.exit(2)


def build_random_checkpoint(out: Path, scale: str) -> Path:
    """A random Qwen3.5-text-shaped checkpoint with MTP tensors, built on the GPU in bf16."""
    import torch
    from transformers import AutoTokenizer, Qwen3_5ForCausalLM, Qwen3_5TextConfig

    from hat_eval.trainers import build_tiny_model, write_mtp

    out.mkdir(parents=True, exist_ok=True)
    shape = SCALES[scale]
    layers = shape["num_hidden_layers"]
    config = Qwen3_5TextConfig(
        **shape,
        head_dim=shape["hidden_size"] // shape["num_attention_heads"],
        layer_types=["full_attention" if (i + 1) % 4 == 0 else "linear_attention"
                     for i in range(layers)],
        max_position_embeddings=32768,
        tie_word_embeddings=False,
    )  # fmt: skip
    torch.manual_seed(0)
    with torch.device("cuda"):
        model = Qwen3_5ForCausalLM(config).to(torch.bfloat16)
    model.save_pretrained(out, safe_serialization=True)
    # an MTP layer has the shape of a full-attention decoder layer, plus fusion and norms
    full = max(i for i, t in enumerate(config.layer_types) if t == "full_attention")
    prefix = f"model.layers.{full}."
    h = shape["hidden_size"]
    mtp = {
        "mtp.layers.0." + k[len(prefix) :]: v.detach().clone().cpu()
        for k, v in model.state_dict().items()
        if k.startswith(prefix)
    }
    mtp["mtp.fc.weight"] = torch.randn(h, 2 * h, dtype=torch.bfloat16) * 0.02
    for name in (
        "mtp.norm.weight",
        "mtp.pre_fc_norm_embedding.weight",
        "mtp.pre_fc_norm_hidden.weight",
    ):
        mtp[name] = torch.ones(h, dtype=torch.bfloat16)
    write_mtp(out, mtp, {"mtp_num_hidden_layers": 1})
    # a tokenizer with the vocabulary size and Qwen's template: the tiny model's, padded ids
    tok_dir = out / "_tok"
    build_tiny_model(tok_dir)
    tok = AutoTokenizer.from_pretrained(tok_dir)
    tok.save_pretrained(out)
    shutil.rmtree(tok_dir)
    del model
    torch.cuda.empty_cache()
    return out


@contextlib.contextmanager
def vllm_server(ckpt: Path, port: int, log: Path, spec: dict | None) -> Iterator[str]:
    cmd = [
        sys.executable, "-m", "vllm.entrypoints.openai.api_server", "--model", str(ckpt),
        "--served-model-name", "hat", "--port", str(port), "--host", "127.0.0.1",
        "--gpu-memory-utilization", "0.42", "--max-model-len", "8192",
        "--enable-auto-tool-choice", "--tool-call-parser", "hermes",
        "--trust-remote-code",
    ]  # fmt: skip
    if spec:
        cmd += ["--speculative-config", json.dumps(spec)]
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    with log.open("w") as f:
        proc = subprocess.Popen(cmd, stdout=f, stderr=subprocess.STDOUT, env=env,
                                start_new_session=True)  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                tail = log.read_text()[-2000:]
                fail(f"vLLM on port {port} exited with {proc.returncode}; log tail:\n{tail}")
            with contextlib.suppress(OSError):
                urllib.request.urlopen(url + "/health", timeout=2)
                break
            time.sleep(2)
        else:
            fail(f"vLLM on port {port} did not answer /health within 300 s (log: {log})")
        yield url
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(30)


def spec_counters(url: str) -> dict[str, float]:
    text = urllib.request.urlopen(url + "/metrics", timeout=5).read().decode()
    out: dict[str, float] = {}
    for name in SPEC_COUNTERS:
        values = re.findall(rf"^{re.escape(name)}(?:{{[^}}]*}})? ([0-9.eE+-]+)$", text, re.M)
        out[name] = sum(float(v) for v in values)
    drafts, draft_tokens, accepted = (out[n] for n in SPEC_COUNTERS)
    out["acceptance_rate"] = accepted / draft_tokens if draft_tokens else float("nan")
    out["acceptance_length"] = 1 + accepted / drafts if drafts else float("nan")
    return out


def hat_eval(*args: str) -> None:
    cmd = [shutil.which("hat-eval") or "hat-eval", *args]
    print("+", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--base", type=Path, help="a local checkpoint with mtp.* heads")
    ap.add_argument("--scale", choices=sorted(SCALES), default="small")
    ap.add_argument("--users", default="1,4,16")
    ap.add_argument("--duration", default="40s")
    ap.add_argument("--requests", type=int, default=40, help="episodes per server in mtp")
    a = ap.parse_args()
    try:
        import vllm  # noqa: F401
    except ImportError:
        fail("vLLM is not installed here: pip install 'hat-eval[vllm]' (needs network once)")
    import torch

    if not torch.cuda.is_available():
        fail("no CUDA device: this script measures vLLM on a GPU")
    a.out.mkdir(parents=True, exist_ok=True)
    start = time.monotonic()
    ckpt = a.base or build_random_checkpoint(a.out / "random-ckpt", a.scale)
    note = "given checkpoint" if a.base else f"RANDOM weights ({a.scale}): latency, not acceptance"
    print(f"checkpoint {ckpt} ({note}), built in {time.monotonic() - start:.0f} s", flush=True)
    common = ["--model", "hat", "--mode", "episode", "--max-tokens", "128"]
    with (
        vllm_server(ckpt, 8100, a.out / "vllm-base.log", None) as base,
        vllm_server(ckpt, 8101, a.out / "vllm-mtp.log", SPEC) as cand,
    ):
        for name, url in (("base", base), ("mtp", cand)):
            hat_eval("loadtest", "--host", url, *common, "--users", a.users,
                     "--duration", a.duration, "--out", str(a.out / f"sweep-{name}"))  # fmt: skip
        hat_eval("loadtest", "mtp", "--baseline", base, "--candidate", cand, *common,
                 "--requests", str(a.requests), "--out", str(a.out / "mtp"))  # fmt: skip
        counters = spec_counters(cand)
    (a.out / "spec_decode.json").write_text(json.dumps(counters, indent=2))
    lines = [f"checkpoint: {ckpt} ({note})", f"wall: {time.monotonic() - start:.0f} s"]
    from hat_eval.loadtest import read_summary

    for name in ("base", "mtp"):
        for lv in read_summary(a.out / f"sweep-{name}"):
            lines.append(
                f"{name} users={lv.users}: episodes {lv.episodes}, "
                f"E2E P50 {lv.episode_e2e_p50_s} s P95 {lv.episode_e2e_p95_s} s, "
                f"answer TTFT P50 {lv.answer_ttft_p50_s} s, turns {lv.turns_mean}"
            )
    lines.append(f"spec decode: {json.dumps(counters)}")
    (a.out / "summary.txt").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
