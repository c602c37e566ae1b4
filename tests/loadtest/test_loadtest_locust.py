"""Locust started by hand: the top-level locustfile, with options or a sweep's config.json."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from hat_eval.loadtest import (
    VIEWER_QUESTIONS,
    ClientConfig,
    FakeChatServer,
    Prompt,
    PromptSet,
    StreamPlan,
    SweepConfig,
    write_run_files,
)
from hat_eval.loadtest._records import read_records
from hat_eval.loadtest._runner import LOCUSTFILE

REPO = Path(__file__).resolve().parents[2]
PLAN = StreamPlan(ttft_s=0.005, n_tokens=3, token_gap_s=0.002)


def locust(locustfile, url, *args, timeout=90):
    cmd = [sys.executable, "-m", "locust", "-f", str(locustfile), "--headless", "--host", url]
    cmd += ["-u", "2", "-r", "2", "-t", "30s", "--only-summary", *args]
    return subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=timeout)


@pytest.mark.slow
def test_top_level_locustfile_takes_the_config_fields_as_options(tmp_path):
    with FakeChatServer(PLAN) as srv:
        r = locust(
            REPO / "loadtest" / "locustfile.py",
            srv.url,
            "--model",
            "m2",
            "--max-tokens",
            "5",
            "--max-requests",
            "4",
            "--messages-source",
            "hat_eval.loadtest:builtin_questions",
            "--n-prompts",
            "3",
            "--raw-dir",
            str(tmp_path / "raw"),
        )
        served = srv.served
    assert r.returncode == 0, r.stdout + r.stderr
    records = list(read_records(sorted((tmp_path / "raw").glob("raw-*.jsonl"))))
    assert len(records) == 4 and all(rec.ok for rec in records)
    assert len(served) == 4
    for s in served:
        assert s.payload["model"] == "m2" and s.payload["max_tokens"] == 5
        assert s.payload["messages"][1]["content"] in VIEWER_QUESTIONS[:3]


@pytest.mark.slow
def test_a_sweeps_config_and_prompts_are_read_not_rebuilt(tmp_path, monkeypatch):
    cfg = SweepConfig(
        ClientConfig("http://127.0.0.1:9", "from-config", max_tokens=7, api_key="sk-x"),
        out=tmp_path,
        max_requests=3,
    )
    own = PromptSet((Prompt([{"role": "user", "content": "from the file"}], []),))
    path = write_run_files(cfg, own)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-env")  # the key never is in config.json
    with FakeChatServer(PLAN) as srv:
        # no --raw-dir: the exact percentiles go to the log; an option overrides the file
        r = locust(LOCUSTFILE, srv.url, "--hat-config", str(path), "--max-tokens", "3")
        served = srv.served
    assert r.returncode == 0, r.stdout + r.stderr
    assert "hat-eval exact: 3 requests, 0 failures" in r.stderr
    assert len(served) == 3
    for s in served:
        assert s.payload["model"] == "from-config" and s.payload["max_tokens"] == 3
        assert s.payload["messages"] == own[0].messages and "tools" not in s.payload
        assert s.headers["authorization"] == "Bearer sk-env"
    assert json.loads(path.read_text())["client"]["max_tokens"] == 7


@pytest.mark.slow
def test_a_missing_config_stops_locust_with_one_error(tmp_path):
    with FakeChatServer(PLAN) as srv:
        r = locust(LOCUSTFILE, srv.url, "--hat-config", str(tmp_path / "none.json"))
        served = srv.served
    assert r.returncode == 2, r.stdout + r.stderr
    assert f"hat-eval: {tmp_path / 'none.json'}: cannot read the load-test config" in r.stderr
    assert not served
