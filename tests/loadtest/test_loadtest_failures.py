"""Failure counts a user can trust: re-sent requests are counted, a dead server is backed off."""

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from hat_eval.loadtest import (
    ClientConfig,
    FakeChatServer,
    Prompt,
    PromptSet,
    StreamPlan,
    SweepConfig,
    write_run_files,
)
from hat_eval.loadtest._client import ChatStreamClient
from hat_eval.loadtest._records import RequestRecord, read_records
from hat_eval.loadtest._runner import LOCUSTFILE
from hat_eval.loadtest._stats import summarize, unreachable_s

REPO = Path(__file__).resolve().parents[2]
PROMPT = Prompt([{"role": "user", "content": "hi"}], [])
OK = StreamPlan(ttft_s=0.0, n_tokens=2, token_gap_s=0.0)


def test_a_request_dropped_on_a_reused_connection_is_counted_as_resent():
    plans = [OK, StreamPlan(fault="disconnect"), OK, OK]
    with FakeChatServer(lambda i, _p: plans[i]) as srv:
        client = ChatStreamClient(ClientConfig(srv.url, "m"))
        first = client.send(PROMPT)
        second = client.send(PROMPT)  # dropped on the kept-alive connection, sent again
        third = client.send(PROMPT)
        client.close()
        served = srv.served
    assert first.ok and second.ok and third.ok
    assert (first.resent, second.resent, third.resent) == (0, 1, 0)
    assert second.to_dict()["resent"] == 1 and "resent" not in first.to_dict()
    assert RequestRecord.from_dict(second.to_dict()) == second
    s = summarize([first, second, third], users=1)
    assert s.requests == 3 and s.resent == 1
    assert len(served) == s.requests + s.resent


def record(outcome, start, elapsed=1.0, reason=None):
    return RequestRecord(outcome, start, elapsed, reason=reason)


def test_unreachable_time_runs_from_a_connection_error_to_the_next_success():
    down = "connection error"
    recs = [
        record("ok", 0.0),
        record("failure", 2.0, 0.001, down),
        record("failure", 2.5, 0.001, down),  # the same outage, another user
        record("failure", 3.0, 0.5, "HTTP 500"),  # reachable, but not a success
        record("ok", 1.5, 2.0),  # sent before the outage: does not end it
        record("ok", 6.0),
        record("failure", 9.0, 0.001, down),  # down until the end of the last request
        record("ok", 8.0, 1.5),
    ]
    assert unreachable_s(recs) == pytest.approx((6.0 - 2.0) + (9.5 - 9.0))
    assert summarize(recs, users=2).unreachable_s == pytest.approx(4.5)
    assert unreachable_s([record("ok", 0.0)]) == 0.0 and unreachable_s([]) == 0.0


@pytest.mark.slow
def test_users_back_off_from_a_dead_server(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{s.getsockname()[1]}"
    cfg = SweepConfig(ClientConfig(dead, "m"), out=tmp_path)
    path = write_run_files(cfg, PromptSet((PROMPT,)))
    cmd = [sys.executable, "-m", "locust", "-f", str(LOCUSTFILE), "--headless", "--host", dead]
    cmd += ["-u", "4", "-r", "4", "-t", "4s", "--only-summary", "--hat-config", str(path)]
    cmd += ["--raw-dir", str(tmp_path / "raw"), "--exit-code-on-error", "0"]
    r = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=90)
    assert r.returncode == 0, r.stdout + r.stderr
    recs = list(read_records(sorted((tmp_path / "raw").glob("raw-*.jsonl"))))
    failed = [x for x in recs if x.outcome == "failure"]
    assert failed and all(x.reason == "connection error" for x in failed)
    # waits of 0.05, 0.1, ... doubling to 2 s: 7 tries per user in 4 s (one more allowed for
    # the stop), not thousands
    assert len(failed) <= 4 * 8
    s = summarize(recs, users=4)
    assert s.unreachable_s == pytest.approx(s.duration_s) and s.unreachable_s > 0
    assert json.loads(path.read_text())["client"]["host"] == dead


def test_warm_up_requests_are_reported_apart():
    starts = (0.0, 0.5, 1.0, 2.0, 3.0)
    recs = [RequestRecord("ok", t, 1.0, e2e_s=1.0 + i, ttft_s=0.1) for i, t in enumerate(starts)]
    s = summarize(recs, users=3, warmup_s=1.0)
    assert s.warmup_s == 1.0 and s.warmup_requests == 2
    assert s.steady_e2e_p50_s == 4.0 and s.e2e_p50_s == 3.0
    assert "steady_e2e_p50_s" not in summarize(recs, users=3).to_dict()


@pytest.mark.slow
def test_users_start_at_the_spawn_rate(tmp_path):
    # a first answer slower than the whole spawn: the first 4 requests are the 4 users' first
    with FakeChatServer(StreamPlan(ttft_s=1.5, n_tokens=2, token_gap_s=0.01)) as srv:
        cfg = SweepConfig(ClientConfig(srv.url, "m"), out=tmp_path, spawn_rate=4, max_requests=4)
        path = write_run_files(cfg, PromptSet((PROMPT,)))
        cmd = [sys.executable, "-m", "locust", "-f", str(LOCUSTFILE), "--headless"]
        cmd += ["--host", srv.url, "-u", "4", "-r", "4", "-t", "10s", "--only-summary"]
        cmd += ["--hat-config", str(path)]
        r = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=90)
        sent = sorted(s.t0 for s in srv.served)
    assert r.returncode == 0, r.stdout + r.stderr
    assert len(sent) == 4
    # Locust starts all 4 at once (rate 4/s); the users pace themselves 0.25 s apart. A sleep
    # never ends early, so these are lower bounds, whatever the machine's load.
    for k in range(1, 4):
        assert sent[k] - sent[0] >= k * 0.25 - 0.01
