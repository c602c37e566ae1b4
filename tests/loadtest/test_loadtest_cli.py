import json
import socket
import subprocess
import sys
from dataclasses import asdict

import numpy as np
import pytest
from typer.testing import CliRunner

from hat_eval.cli import app
from hat_eval.loadtest import FakeChatServer, StreamPlan
from hat_eval.loadtest._records import read_records
from hat_eval.loadtest._server import SpecDecodeCounters

runner = CliRunner()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def invoke(*args):
    return runner.invoke(app, ["loadtest", *args])


def one_error_line(result):
    lines = [ln for ln in result.output.splitlines() if ln.strip()]
    assert result.exit_code == 2, result.output
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    return lines[0]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--users", "1,x,4"], "--users '1,x,4': 'x' is not a positive integer"),
        (["--users", "0"], "'0' is not a positive integer"),
        (["--users", ""], "comma-separated list"),
        (["--duration", "ten"], "--duration 'ten' is not a duration"),
        (["--duration", "0s"], "at least 1 s"),
        (["--host", "localhost:8000"], "is not a server URL"),
    ],
)
def test_bad_options_give_one_line_and_exit_2(args, needle):
    base = {"--host": "http://127.0.0.1:9", "--model": "m"}
    for k, v in zip(args[::2], args[1::2], strict=True):
        base[k] = v
    line = one_error_line(invoke(*[x for kv in base.items() for x in kv]))
    assert needle in line


def test_unreachable_host_and_missing_model(tmp_path):
    line = one_error_line(
        invoke("--host", f"http://127.0.0.1:{free_port()}", "--model", "m", "--out", str(tmp_path))
    )
    assert "cannot reach --host" in line and "refused" in line.lower()
    assert "--model is required" in one_error_line(invoke("--host", "http://127.0.0.1:9"))
    assert "--host is required" in one_error_line(invoke())


def test_bad_prompts_file_and_server_errors(tmp_path):
    bad = tmp_path / "p.jsonl"
    bad.write_text("{}\n")
    with FakeChatServer(StreamPlan(status=404)) as srv:
        line = one_error_line(invoke("--host", srv.url, "--model", "m", "--prompts", str(bad)))
        assert f"{bad}:1:" in line
        line = one_error_line(invoke("--host", srv.url, "--model", "m"))
        assert "did not answer a test chat completion: HTTP 404" in line


@pytest.mark.slow
def test_sweep_writes_summary_report_and_plots(tmp_path):
    plan = StreamPlan(ttft_s=0.03, n_tokens=8, token_gap_s=0.005)
    # a strict server: the sweep must notice it refuses stream_options and go on without it
    with FakeChatServer(plan, reject_fields=("stream_options",)) as srv:
        r = invoke(
            "--host",
            srv.url,
            "--model",
            "m",
            "--users",
            "1,3",
            "--duration",
            "20s",
            "--max-requests",
            "9",
            "--out",
            str(tmp_path),
            "--slo-p95",
            "0.5",
            "--api-key",
            "sk-test",
        )
        served = srv.served
    assert r.exit_code == 0, r.output
    assert "refused stream_options" in r.output
    # one config, written once; the Locust processes read it and the prompts beside it
    config = (tmp_path / "config.json").read_text()
    assert "sk-test" not in config  # the key reaches the children through their environment
    cfg = json.loads(config)
    assert cfg["client"]["stream_usage"] is False and cfg["max_requests"] == 9
    assert cfg["users"] == [1, 3] and cfg["client"]["host"] == srv.url
    built = [json.loads(ln) for ln in (tmp_path / "prompts.jsonl").read_text().splitlines()]
    assert len(built) == cfg["n_prompts"]
    assert len(served) == 1 + 9 + 9  # the pre-flight probe the server took, and two levels
    for s in served:
        assert s.headers["authorization"] == "Bearer sk-test"
        assert "stream_options" not in s.payload
        assert s.payload["messages"] in [b["messages"] for b in built]
    levels = json.loads((tmp_path / "summary.json").read_text())
    assert [lv["users"] for lv in levels] == [1, 3]
    for lv in levels:
        assert lv["requests"] == 9 and lv["failures"] == 0
        for key in ("e2e_p50_s", "e2e_p95_s", "ttft_p50_s", "ttft_p95_s", "output_tokens_per_s"):
            assert lv[key] > 0
        assert lv["e2e_p50_s"] >= plan.e2e_s
        assert lv["token_sources"] == {"chunks": 9}
        assert lv["locust_e2e_p50_s"] is not None
        assert lv["slo_pass"] is True
    report = (tmp_path / "report.md").read_text()
    assert "Met at every level" in report and "latency_vs_users.png" in report
    for png in ("latency_vs_users.png", "throughput_vs_users.png"):
        assert (tmp_path / png).read_bytes()[:4] == b"\x89PNG"
    assert (tmp_path / "users-3" / "locust_stats.csv").exists()
    assert (tmp_path / "users-3" / "locust.html").exists()


@pytest.mark.slow
def test_measured_percentiles_match_the_injected_truth(tmp_path):
    """Exact percentiles of the client's own stamps, checked against the server's send stamps.

    Every token chunk carries the server's ``perf_counter()`` at its send (``stamp=True``; one
    host, one monotonic clock), so each record's ``server_lag_s`` is the client's own timing
    error; nothing here depends on how long the server's sleeps really took.
    """
    rng = np.random.default_rng(7)
    n = 41  # the first request is the CLI's pre-flight probe
    plans = [
        StreamPlan(
            ttft_s=float(rng.uniform(0.35, 0.7)),
            n_tokens=int(rng.integers(20, 50)),
            token_gap_s=0.012,
            stamp=True,
        )
        for _ in range(n)
    ]
    (tmp_path / "plans.json").write_text(json.dumps([asdict(p) for p in plans]))
    # the server runs in its own process so the CLI's threads cannot delay its writes
    srv = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "hat_eval.loadtest._serve",
            "--port",
            "0",
            "--plans",
            str(tmp_path / "plans.json"),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        url = srv.stdout.readline().split()[0]
        r = invoke(
            "--host",
            url,
            "--model",
            "m",
            "--users",
            "4",
            "--duration",
            "60s",
            "--max-requests",
            str(n - 1),
            "--out",
            str(tmp_path / "out"),
        )
    finally:
        srv.terminate()
        srv.wait()
        srv.stdout.close()
    assert r.exit_code == 0, r.output
    lv = json.loads((tmp_path / "out" / "summary.json").read_text())[0]
    assert lv["requests"] == n - 1 and lv["failures"] == 0
    recs = list(read_records(sorted((tmp_path / "out" / "users-4" / "raw").glob("raw-*.jsonl"))))
    assert len(recs) == n - 1 and all(rec.chunks == rec.output_tokens for rec in recs)
    # the summary is numpy's percentile of the raw records, not Locust's buckets
    for key, values in (
        ("e2e", [rec.e2e_s for rec in recs]),
        ("ttft", [rec.ttft_s for rec in recs]),
    ):
        for q in (50, 95):
            assert lv[f"{key}_p{q}_s"] == pytest.approx(np.percentile(values, q), rel=1e-9)
    # no chunk arrives before its planned time, so every order statistic is at or above the
    # plans' (the server takes the plans in the order the requests reach it)
    for measured, planned in (
        (sorted(rec.ttft_s for rec in recs), sorted(p.ttft_s for p in plans[1:])),
        (sorted(rec.e2e_s for rec in recs), sorted(p.e2e_s for p in plans[1:])),
    ):
        assert all(m >= p for m, p in zip(measured, planned, strict=True))
    # the client's timing error against the server's send stamps: never negative, small
    lags = [lag for rec in recs for lag in rec.server_lag_s]
    assert len(lags) == sum(rec.chunks for rec in recs) and min(lags) >= 0
    assert np.percentile(lags, 50) < 0.005, np.percentile(lags, [50, 95, 100])
    # Locust's own numbers are bucketed to 10 ms here, ours are not
    assert lv["locust_e2e_p50_s"] * 1000 % 10 == pytest.approx(0, abs=1e-6)


@pytest.mark.slow
def test_faults_in_a_sweep_are_counted_with_reasons(tmp_path):
    faults = {
        2: StreamPlan(status=503),
        3: StreamPlan(fault="truncate", fault_after=2),
        4: StreamPlan(fault="non_json", fault_after=1),
        5: StreamPlan(fault="stall", fault_after=1, stall_s=10),
        6: StreamPlan(status=400),
    }
    good = StreamPlan(ttft_s=0.01, n_tokens=5, token_gap_s=0.002)
    with FakeChatServer(lambda i, _p: faults.get(i, good)) as srv:
        r = invoke(
            "--host",
            srv.url,
            "--model",
            "m",
            "--users",
            "2",
            "--duration",
            "20s",
            "--max-requests",
            "12",
            "--stall-timeout",
            "0.5",
            "--out",
            str(tmp_path),
        )
    assert r.exit_code == 0, r.output
    lv = json.loads((tmp_path / "summary.json").read_text())[0]
    assert lv["requests"] == 12 and lv["failures"] == 5 and lv["successes"] == 7
    assert lv["failure_reasons"] == {
        "HTTP 503": 1,
        "truncated stream": 1,
        "non-JSON chunk": 1,
        "stalled": 1,
        "HTTP 400": 1,
    }
    assert lv["e2e_p95_with_failures_s"] is None and lv["slo_pass"] is False
    report = (tmp_path / "report.md").read_text()
    assert "stalled: 1" in report and "FAIL" in report


@pytest.mark.slow
def test_distributed_workers(tmp_path):
    with FakeChatServer(StreamPlan(ttft_s=0.01, n_tokens=4, token_gap_s=0.002)) as srv:
        r = invoke(
            "--host",
            srv.url,
            "--model",
            "m",
            "--users",
            "4",
            "--duration",
            "4s",
            "--workers",
            "2",
            "--max-requests",
            "11",
            "--out",
            str(tmp_path),
        )
    assert r.exit_code == 0, r.output
    raws = sorted((tmp_path / "users-4" / "raw").glob("raw-*.jsonl"))
    assert len(raws) == 2  # one raw file per worker process
    # each worker reads --max-requests from config.json and takes its share, rounded up
    assert [len(f.read_text().splitlines()) for f in raws] == [6, 6]
    lv = json.loads((tmp_path / "summary.json").read_text())[0]
    assert lv["requests"] == 12 and lv["failures"] == 0


@pytest.mark.slow
def test_mtp_ratio_ci_and_acceptance(tmp_path):
    base = StreamPlan(ttft_s=0.05, n_tokens=21, token_gap_s=0.020)
    # MTP: two tokens per step at a slightly longer step, 2 * 0.020 / 0.025 = 1.6x decode
    mtp = StreamPlan(ttft_s=0.05, n_tokens=21, token_gap_s=0.025, tokens_per_chunk=2)
    counters = SpecDecodeCounters(drafts=10, draft_tokens=20, accepted_tokens=11)
    with FakeChatServer(base) as a, FakeChatServer(mtp, spec_decode=counters) as b:
        r = invoke(
            "mtp",
            "--baseline",
            a.url,
            "--candidate",
            b.url,
            "--model",
            "m",
            "--requests",
            "8",
            "--warmup",
            "1",
            "--out",
            str(tmp_path),
        )
        served = {"base": a.served[1:], "mtp": b.served[1:]}  # after the warm-up request
    assert r.exit_code == 0, r.output
    res = json.loads((tmp_path / "mtp.json").read_text())

    def rate(requests) -> float:  # decode tokens over decode time, as the server sent them
        seconds = sum(x.last_token_at - x.first_token_at for x in requests)
        return 20 * len(requests) / seconds

    # the truth is the server's own send clock, not the planned sleeps a busy machine stretches
    truth = rate(served["mtp"]) / rate(served["base"])
    assert res["pairs_used"] == 8
    assert res["speedup"] == pytest.approx(truth, rel=0.05)
    assert 1.3 < res["speedup"] < 2.0  # the planned 1.6x, with room for a loaded machine
    assert res["ci_low"] <= res["speedup"] <= res["ci_high"]
    sd = res["candidate"]["spec_decode"]
    assert sd["drafts"] == 80 and sd["acceptance_rate"] == pytest.approx(11 / 20)
    assert sd["acceptance_length"] == pytest.approx(1 + 11 / 10)
    assert res["baseline"]["spec_decode"] is None
    assert "MTP decode speed-up" in r.output and "acceptance length 2.100" in r.output
    assert "Decode speed-up" in (tmp_path / "mtp.md").read_text()


def test_mtp_bad_input(tmp_path):
    line = one_error_line(
        invoke("mtp", "--baseline", "nope", "--candidate", "http://127.0.0.1:9", "--model", "m")
    )
    assert "--baseline: 'nope' is not a server URL" in line
    line = one_error_line(
        invoke(
            "mtp",
            "--baseline",
            f"http://127.0.0.1:{free_port()}",
            "--candidate",
            "http://127.0.0.1:9",
            "--model",
            "m",
        )
    )
    assert "cannot reach --baseline" in line


def test_requests_carry_suite_questions_by_default_and_sources_override_them(tmp_path):
    from hat_eval.loadtest import VIEWER_QUESTIONS
    from hat_eval.suites import viewer_messages

    own = tmp_path / "p.jsonl"
    own.write_text('{"message": "my own question"}\n')
    source = ["--messages-source", "hat_eval.loadtest:builtin_questions"]
    with FakeChatServer(StreamPlan(status=404)) as srv:  # each run stops at the pre-flight
        for extra in ([], ["--prompts", str(own)], source):
            one_error_line(invoke("--host", srv.url, "--model", "m", *extra))
        sent = [s.payload["messages"][1]["content"] for s in srv.served]
    assert sent == [viewer_messages(1)[0], "my own question", VIEWER_QUESTIONS[0]]
