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


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
def test_sweep_against_transformers_serve(tmp_path, tiny_checkpoint):
    from transformers.utils import is_serve_available

    if not is_serve_available() or shutil.which("transformers") is None:
        pytest.skip("transformers serve needs transformers[serving] (fastapi, uvicorn, openai)")
    model = tiny_checkpoint  # conftest: 2-layer Qwen3, BPE trained on the spot, chat template
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
