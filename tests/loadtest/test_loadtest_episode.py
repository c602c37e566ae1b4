"""Episodes under load: the suites' agent loop over the streaming client, and its figures.

The loopback server answers a tool call on the first turn and a final answer once a tool
result is in (:func:`episode_planner`), and records, on the same monotonic clock as the
client, when each request was sent and when its first and last token chunks were written.
Nothing here asserts how long a sleep took: the measured times are checked against those
recorded ones (a chunk cannot arrive before it was written), and the summaries against
numpy over the raw records.
"""

import json
import math

import numpy as np
import pytest
from typer.testing import CliRunner

from hat_eval.cli import app
from hat_eval.episode import ToolRuntime, episode_context, stable_seed
from hat_eval.loadtest import (
    ClientConfig,
    FakeChatServer,
    StreamPlan,
    SweepConfig,
    episode_planner,
    episode_truths,
    read_episode_records,
)
from hat_eval.loadtest._client import ChatStreamClient
from hat_eval.loadtest._episode import EpisodeRecord, load_episodes, play_episode
from hat_eval.loadtest._option_fields import ConfigError
from hat_eval.loadtest._records import read_records
from hat_eval.loadtest._stats import summarize_episodes

ARGS = '{"query": "boots", "max_results": 2}'
CALL = StreamPlan(ttft_s=0.03, n_tokens=4, token_gap_s=0.004, tool_call="", tool_arguments=ARGS)
ANSWER = StreamPlan(ttft_s=0.05, n_tokens=6, token_gap_s=0.004)


def episodes(n):
    return load_episodes(n)


def test_an_episode_is_the_agent_loop_over_streamed_turns():
    eps = episodes(3)
    with FakeChatServer(episode_planner(CALL, ANSWER)) as srv:
        client = ChatStreamClient(ClientConfig(srv.url, "m"))
        turns = []
        recs = [play_episode(client, e, i, turns=turns) for i, e in enumerate(eps)]
        client.close()
        served = srv.served
    assert len(served) == 6 and len(turns) == 6 and all(t.ok for t in turns)
    for i, (rec, ep) in enumerate(zip(recs, eps, strict=True)):
        assert rec.ok and rec.episode_index == i and rec.case_id == ep.id
        assert rec.turns == 2 and rec.tool_calls == 1
        assert rec.output_tokens == CALL.n_tokens + ANSWER.n_tokens
        assert 0 < rec.answer_ttft_s < rec.e2e_s <= rec.elapsed_s
        # what the model saw: the harness's prompt with the live line, its tools, then the
        # tool result as the harness's runtime wraps it (same seed as the suites)
        call, answer = served[2 * i].payload, served[2 * i + 1].payload
        ctx = episode_context(ep)
        name = ctx.harness.tools[0].name
        assert [t["function"]["name"] for t in call["tools"]] == [t.name for t in ctx.harness.tools]
        assert call["messages"][0]["content"].endswith(
            f"(product id {ctx.session.product_on_screen}). Current time: {ctx.session.now}."
        )
        assert call["messages"][1] == {"role": "user", "content": ep.case.message}
        expected, _ = ToolRuntime(
            ctx.harness, ctx.kb, ctx.session, fault=ctx.fault, seed=stable_seed(ep.id)
        ).call(name, json.loads(ARGS))
        assistant, tool = answer["messages"][2:]
        assert assistant["tool_calls"][0]["function"] == {"name": name, "arguments": ARGS}
        assert tool == {
            "role": "tool",
            "tool_call_id": assistant["tool_calls"][0]["id"],
            "content": expected,
        }
    # a chunk is never received before the server wrote it (one host, one clock)
    for rec, (ttft, e2e) in zip(recs, episode_truths(served), strict=True):
        assert rec.answer_ttft_s >= ttft - 1e-6 and rec.e2e_s >= e2e - 1e-6


def test_a_failed_turn_or_no_answer_fails_the_episode():
    (ep,) = episodes(1)
    broken = StreamPlan(status=503)
    with FakeChatServer(episode_planner(CALL, broken)) as srv:
        client = ChatStreamClient(ClientConfig(srv.url, "m"))
        turns = []
        rec = play_episode(client, ep, 0, turns=turns)
        short = play_episode(client, ep, 1, max_turns=1)
        client.close()
    assert not rec.ok and rec.reason == "HTTP 503" and rec.turns == 2
    assert rec.detail.startswith("turn 2: ") and rec.e2e_s is None
    assert [t.ok for t in turns] == [True, False]
    assert not short.ok and short.reason == "no final answer" and short.turns == 1


def rec(outcome, e2e=None, ttft=None, turns=2, started=0.0):
    return EpisodeRecord(
        outcome,
        started,
        e2e or 1.0,
        0,
        "c",
        answer_ttft_s=ttft,
        e2e_s=e2e,
        turns=turns,
        reason=None if outcome == "ok" else "HTTP 500",
    )


def test_episode_summary_is_exact_and_counts_failures_as_misses():
    e2e = [1.0, 2.0, 3.0, 4.0, 10.0]
    ttft = [0.5, 0.7, 0.9, 1.1, 1.3]
    ok = [
        rec("ok", e, t, turns=n, started=float(i))
        for i, (e, t, n) in enumerate(zip(e2e, ttft, (2, 2, 3, 2, 3), strict=True))
    ]
    s = summarize_episodes(ok, slo_p95_s=15.0)
    assert s["episodes"] == 5 and s["episode_failures"] == 0
    for q in (50, 95, 99):
        assert s[f"episode_e2e_p{q}_s"] == pytest.approx(np.percentile(e2e, q), rel=1e-12)
        assert s[f"answer_ttft_p{q}_s"] == pytest.approx(np.percentile(ttft, q), rel=1e-12)
    assert s["episode_e2e_p50_s"] == 3.0 and s["episode_e2e_p95_s"] == pytest.approx(8.8)
    assert s["turns_mean"] == pytest.approx(12 / 5) and s["slo_pass"] is True
    # 1 failure in 20: P95 = 0.05 * 19 = 0.95 between the 19th and the infinite 20th: unknown
    many = [rec("ok", 1.0 + i / 100, 0.5) for i in range(19)]
    s = summarize_episodes([*many, rec("failure")], slo_p95_s=15.0)
    assert s["episode_failures"] == 1 and s["episode_failure_reasons"] == {"HTTP 500": 1}
    assert s["episode_e2e_p95_with_failures_s"] is None and s["slo_pass"] is False
    s = summarize_episodes([*many, rec("cancelled")], slo_p95_s=1.1)
    assert s["episodes"] == 19 and s["episode_cancelled"] == 1
    assert s["slo_pass"] is False  # P95 of 1.00..1.18 is above 1.1
    assert summarize_episodes([])["episode_e2e_p50_s"] is None


def test_episode_mode_config_rules():
    client = ClientConfig("http://x", "m")
    with pytest.raises(ConfigError, match=r"mode \('turns'\) must be one of request, episode"):
        SweepConfig(client, mode="turns")
    with pytest.raises(ConfigError, match="prompts and messages_source do not apply"):
        SweepConfig(client, mode="episode", messages_source="hat_eval.loadtest:builtin_questions")
    cfg = SweepConfig(client, mode="episode", max_turns=3)
    assert SweepConfig.from_json(cfg.to_json()) == cfg
    with pytest.raises(ConfigError, match=r"max_turns \(0\) must be at least 1"):
        SweepConfig(client, max_turns=0)


def test_cli_rejects_a_bad_mode():
    r = CliRunner().invoke(
        app, ["loadtest", "--host", "http://127.0.0.1:9", "--model", "m", "--mode", "x"]
    )
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert r.exit_code == 2 and len(lines) == 1 and "mode ('x') must be one of" in lines[0]


@pytest.mark.slow
def test_episode_sweep_reports_episode_percentiles_against_the_servers_truth(tmp_path):
    with FakeChatServer(episode_planner(CALL, ANSWER)) as srv:
        r = CliRunner().invoke(
            app,
            [
                "loadtest",
                "--host",
                srv.url,
                "--model",
                "m",
                "--mode",
                "episode",
                "--users",
                "1,3",
                "--duration",
                "30s",
                "--max-requests",
                "9",
                "--n-prompts",
                "5",
                "--out",
                str(tmp_path),
            ],
        )
        served = srv.served
    assert r.exit_code == 0, r.output
    assert "9 episodes, 0 failed" in r.output
    assert len(served) == 1 + 2 * 9 * 2  # the pre-flight probe, two turns per episode
    levels = json.loads((tmp_path / "summary.json").read_text())
    truth = episode_truths(served)
    assert len(truth) == 18
    for lv, level_truth in zip(levels, (truth[:9], truth[9:]), strict=True):
        d = tmp_path / f"users-{lv['users']}" / "raw"
        eps = list(read_episode_records(sorted(d.glob("episodes-*.jsonl"))))
        turns = list(read_records(sorted(d.glob("raw-*.jsonl"))))
        assert lv["episodes"] == 9 and lv["episode_failures"] == 0 and lv["turns_mean"] == 2
        assert lv["requests"] == 18 == len(turns) and lv["failures"] == 0
        assert lv["slo_on"] == "episode_e2e" and lv["slo_pass"] is True
        for key, values, true in (
            ("episode_e2e", [e.e2e_s for e in eps], [t[1] for t in level_truth]),
            ("answer_ttft", [e.answer_ttft_s for e in eps], [t[0] for t in level_truth]),
        ):
            for q in (50, 95, 99):
                exact = lv[f"{key}_p{q}_s"]
                assert exact == pytest.approx(np.percentile(values, q), rel=1e-12)
                # never before the server's own write; how far after it is a measurement on a
                # shared machine, printed by bench/bench_episode_truth.py, not asserted here
                assert exact >= np.percentile(true, q) - 1e-6
                assert math.isfinite(exact)
            assert lv[f"locust_{key}_p50_s"] is not None
    report = (tmp_path / "report.md").read_text()
    assert "## Episodes" in report and "P95 episode end-to-end time" in report


@pytest.mark.slow
def test_mtp_compares_whole_episodes(tmp_path):
    fast = StreamPlan(ttft_s=0.05, n_tokens=6, token_gap_s=0.002)
    with (
        FakeChatServer(episode_planner(CALL, ANSWER)) as base,
        FakeChatServer(episode_planner(CALL, fast)) as cand,
    ):
        r = CliRunner().invoke(
            app,
            [
                "loadtest",
                "mtp",
                "--baseline",
                base.url,
                "--candidate",
                cand.url,
                "--model",
                "m",
                "--mode",
                "episode",
                "--requests",
                "4",
                "--warmup",
                "1",
                "--out",
                str(tmp_path),
            ],
        )
        served = (base.served, cand.served)
    assert r.exit_code == 0, r.output
    assert "MTP episode speed-up" in r.output
    # the pre-flight probe, then (1 warm-up + 4) episodes of two turns on each server
    assert [len(s) for s in served] == [1 + 2 * 5] * 2
    res = json.loads((tmp_path / "mtp.json").read_text())
    assert res["mode"] == "episode" and res["episode_pairs_used"] == 4 and res["pairs_used"] == 4
    e2e = {
        arm: [e.e2e_s for e in read_episode_records([tmp_path / f"episodes-{arm}.jsonl"])]
        for arm in ("baseline", "candidate")
    }
    assert res["episode_speedup"] == pytest.approx(
        sum(e2e["baseline"]) / sum(e2e["candidate"]), rel=1e-12
    )
    assert res["episode_ci_low"] <= res["episode_speedup"] <= res["episode_ci_high"]
    for arm in ("baseline", "candidate"):
        assert res[arm]["episodes"]["episodes"] == 4 and res[arm]["episodes"]["turns_mean"] == 2
    assert "Episode speed-up" in (tmp_path / "mtp.md").read_text()
