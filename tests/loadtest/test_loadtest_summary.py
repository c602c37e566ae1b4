"""The level summary as one typed record: its JSON, its reader and the per-level latencies."""

import json
import math

import pytest
from typer.testing import CliRunner

from hat_eval.cli import app
from hat_eval.loadtest import (
    FakeChatServer,
    LevelSummary,
    StreamPlan,
    SummaryError,
    level_latencies,
    read_summary,
)
from hat_eval.loadtest._config import SUMMARY_FILE
from hat_eval.loadtest._episode import EpisodeRecord
from hat_eval.loadtest._records import RequestRecord, raw_files, read_records
from hat_eval.loadtest._report import slo_verdict, write_sweep_report
from hat_eval.loadtest._runner import read_locust_percentiles
from hat_eval.loadtest._stats import summarize
from hat_eval.loadtest._summary import write_summary

# The keys of one level of summary.json, in order, as the dicts before LevelSummary wrote them.
REQUEST_KEYS = [
    "users",
    "requests",
    "successes",
    "failures",
    "cancelled",
    "failure_rate",
    "failure_reasons",
    "resent",
    "unreachable_s",
    "duration_s",
    "e2e_p50_s",
    "e2e_p90_s",
    "e2e_p95_s",
    "e2e_p99_s",
    "e2e_mean_s",
    "e2e_p95_with_failures_s",
    "ttft_p50_s",
    "ttft_p95_s",
    "ttft_p99_s",
    "tpot_p50_s",
    "tpot_p95_s",
    "itl_p50_s",
    "itl_p95_s",
    "itl_p99_s",
    "output_tokens",
    "output_tokens_per_s",
    "requests_per_s",
    "token_sources",
    "slo_p95_s",
    "slo_pass",
    "warmup_s",
]
WARMUP_KEYS = ["warmup_requests", "steady_e2e_p50_s", "steady_e2e_p95_s"]
LAG_KEYS = ["server_lag_p50_s", "server_lag_p95_s"]
LOCUST_KEYS = ["locust_e2e_p50_s", "locust_e2e_p95_s", "locust_ttft_p50_s", "locust_ttft_p95_s"]
LOCUST_EPISODE_KEYS = [
    "locust_episode_e2e_p50_s",
    "locust_episode_e2e_p95_s",
    "locust_answer_ttft_p50_s",
    "locust_answer_ttft_p95_s",
]
EPISODE_KEYS = [
    "episodes",
    "episode_successes",
    "episode_failures",
    "episode_cancelled",
    "episode_failure_reasons",
    "episode_e2e_p50_s",
    "episode_e2e_p95_s",
    "episode_e2e_p99_s",
    "episode_e2e_p95_with_failures_s",
    "answer_ttft_p50_s",
    "answer_ttft_p95_s",
    "answer_ttft_p99_s",
    "turns_mean",
    "tool_s_p50_s",
    "tool_s_p95_s",
    "episode_output_tokens_mean",
    "episodes_per_s",
    "slo_on",
]


def ok(start, e2e, ttft, tokens, itl=(), lag=()):
    return RequestRecord(
        "ok",
        start,
        e2e,
        ttft_s=ttft,
        e2e_s=e2e,
        output_tokens=tokens,
        token_source="usage",
        tpot_s=(e2e - ttft) / (tokens - 1),
        itl_s=itl,
        server_lag_s=lag,
    )


RECORDS = [
    ok(0.0, 1.0, 0.25, 5, itl=(0.1, 0.2)),
    ok(1.0, 2.0, 0.5, 9, itl=(0.3,)),
    RequestRecord("failure", 2.0, 0.5, reason="HTTP 503"),
    RequestRecord("cancelled", 2.5, 0.1, reason="the run ended"),
]


def episode(outcome, start, e2e=None, answer=None):
    return EpisodeRecord(
        outcome,
        start,
        e2e or 1.0,
        0,
        "c",
        answer_ttft_s=answer,
        e2e_s=e2e,
        turns=2,
        tool_s=0.01,
        output_tokens=12,
        reason=None if outcome == "ok" else "HTTP 500",
    )


def summary_from_a_sweep(tmp_path):
    """A level as run_level builds it: with Locust's figures read from a locust.json."""
    entries = [
        {"method": "POST", "name": "chat", "response_times": {"1000": 2, "2000": 1}},
        {"method": "TTFT", "name": "chat", "response_times": {"250": 2, "500": 1}},
    ]
    (tmp_path / "locust.json").write_text(json.dumps(entries))
    return summarize(
        RECORDS,
        users=2,
        slo_p95_s=2.0,
        locust=read_locust_percentiles(tmp_path / "locust.json"),
    )


def test_to_dict_is_the_summary_json_object_with_its_keys_in_order(tmp_path):
    s = summary_from_a_sweep(tmp_path)
    d = s.to_dict()
    assert list(d) == REQUEST_KEYS + LOCUST_KEYS
    expected = {
        "users": 2,
        "requests": 3,
        "successes": 2,
        "failures": 1,
        "cancelled": 1,
        "failure_rate": 1 / 3,
        "failure_reasons": {"HTTP 503": 1},
        "resent": 0,
        "unreachable_s": 0.0,
        "duration_s": 3.0,  # first send 0.0, last end 1.0 + 2.0
        "e2e_p50_s": 1.5,
        "e2e_p90_s": 1.9,
        "e2e_p95_s": 1.95,
        "e2e_p99_s": 1.99,
        "e2e_mean_s": 1.5,
        "e2e_p95_with_failures_s": None,  # 0.95 * 2 lands on the failure: infinite
        "ttft_p50_s": 0.375,
        "ttft_p95_s": 0.4875,
        "ttft_p99_s": 0.4975,
        "tpot_p50_s": 0.1875,  # 0.75 / 4 and 1.5 / 8
        "tpot_p95_s": 0.1875,
        "itl_p50_s": 0.2,
        "itl_p95_s": 0.29,
        "itl_p99_s": 0.298,
        "output_tokens": 14,
        "output_tokens_per_s": 14 / 3,
        "requests_per_s": 2 / 3,
        "token_sources": {"usage": 2},
        "slo_p95_s": 2.0,
        "slo_pass": False,
        "warmup_s": 0.0,
        "locust_e2e_p50_s": 1.0,
        "locust_e2e_p95_s": 2.0,
        "locust_ttft_p50_s": 0.25,
        "locust_ttft_p95_s": 0.5,
    }
    assert list(expected) == list(d)
    for key, value in expected.items():  # pytest.approx takes no nested dicts
        assert d[key] == (value if isinstance(value, dict) else pytest.approx(value)), key
    # attributes, not keys
    assert (s.users, s.failures, s.slo_pass, s.failure_reasons) == (2, 1, False, {"HTTP 503": 1})
    assert s.episodes is None and s.warmup_requests is None and s.server_lag_p50_s is None


def test_round_trip_through_json_gives_the_same_object_and_record(tmp_path):
    s = summary_from_a_sweep(tmp_path)
    d = json.loads(json.dumps(s.to_dict()))
    back = LevelSummary.from_dict(d, "summary.json[0]")
    assert back == s
    assert json.dumps(back.to_dict()) == json.dumps(d)  # same keys, same order, same values


def test_every_optional_group_round_trips_in_place():
    lagged = [ok(float(i), 1.0 + i, 0.1, 3, lag=(0.001, 0.002)) for i in range(4)]
    eps = [
        episode("ok", 0.0, 2.0, 1.0),
        episode("ok", 1.0, 3.0, 1.5),
        episode("failure", 2.0),
        episode("cancelled", 3.0),
    ]
    locust = dict.fromkeys(LOCUST_KEYS + LOCUST_EPISODE_KEYS, 0.5)
    s = summarize(lagged, users=4, slo_p95_s=10.0, locust=locust, warmup_s=1.5, episodes=eps)
    d = s.to_dict()
    assert list(d) == (
        REQUEST_KEYS + WARMUP_KEYS + LAG_KEYS + LOCUST_KEYS + LOCUST_EPISODE_KEYS + EPISODE_KEYS
    )
    assert (s.warmup_requests, s.steady_e2e_p50_s) == (2, 3.5)  # sent at 0.0 and 1.0
    assert s.episodes == 3 and s.episode_failures == 1 and s.episode_cancelled == 1
    assert s.slo_on == "episode_e2e" and s.slo_pass is False  # 1 failed of 3: P95 infinite
    assert LevelSummary.from_dict(json.loads(json.dumps(d)), "x").to_dict() == d
    # a level with no steady requests writes steady_* as null, not nothing
    early = summarize(lagged, users=4, warmup_s=100.0).to_dict()
    assert early["warmup_requests"] == 4 and early["steady_e2e_p50_s"] is None
    assert LevelSummary.from_dict(early, "x").to_dict() == early


def test_a_summary_outside_a_sweep_writes_locusts_figures_as_null():
    d = summarize(RECORDS, users=1).to_dict()
    assert list(d) == REQUEST_KEYS + LOCUST_KEYS
    assert all(d[k] is None for k in LOCUST_KEYS) and d["slo_pass"] is None


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        ({"e2e_p95_s": ...}, "field 'e2e_p95_s' is missing, expected a number or null"),
        ({"users": "4"}, "field 'users' is \"4\", expected an integer"),
        ({"requests": True}, "field 'requests' is true, expected an integer"),
        ({"slo_pass": "yes"}, "field 'slo_pass' is \"yes\", expected true or false or null"),
        ({"duration_s": None}, "field 'duration_s' is null, expected a number"),
        ({"failure_reasons": {"x": 1.5}}, "'failure_reasons' is {\"x\": 1.5}, expected an object"),
        ({"slo_on": "e2e"}, 'field \'slo_on\' is "e2e", expected "episode_e2e" or null'),
        ({"warmup_requests": 2}, "field 'steady_e2e_p50_s' is missing"),  # its group is there
        ({"episodes": 3}, "field 'episode_successes' is missing"),
    ],
)
def test_a_missing_or_mistyped_field_is_one_line_naming_file_and_field(change, needle):
    d = summarize(RECORDS, users=2).to_dict()
    for key, value in change.items():
        if value is ...:
            del d[key]
        else:
            d[key] = value
    with pytest.raises(SummaryError) as err:
        LevelSummary.from_dict(d, "out/summary.json[1]")
    message = str(err.value)
    assert message.startswith("out/summary.json[1]: ") and needle in message, message
    assert "\n" not in message and isinstance(err.value, ValueError)


def test_from_dict_needs_an_object_and_ignores_unknown_keys():
    with pytest.raises(SummaryError, match=r"^s\.json\[0\]: a JSON array, expected an object"):
        LevelSummary.from_dict([1], "s.json[0]")
    d = summarize(RECORDS, users=2).to_dict()
    assert LevelSummary.from_dict({**d, "from_a_newer_version": 1}, "x").to_dict() == d
    # the locust figures may be absent (read as null): what a summary built without them had
    bare = {k: v for k, v in d.items() if k not in LOCUST_KEYS}
    assert LevelSummary.from_dict(bare, "x") == summarize(RECORDS, users=2)


def test_read_summary_reads_what_write_summary_wrote(tmp_path):
    levels = [summarize(RECORDS, users=u, slo_p95_s=2.0) for u in (1, 4)]
    path = write_summary(tmp_path, levels)
    assert path == tmp_path / SUMMARY_FILE == tmp_path / "summary.json"
    assert json.loads(path.read_text()) == [lv.to_dict() for lv in levels]
    assert read_summary(tmp_path) == levels


def test_read_summary_errors_name_the_folder_or_the_file(tmp_path):
    with pytest.raises(SummaryError) as err:
        read_summary(tmp_path)
    assert str(err.value) == (
        f"{tmp_path}: no summary.json, expected the --out folder of `hat-eval loadtest`"
    )
    path = tmp_path / "summary.json"
    path.write_text("[{")
    with pytest.raises(SummaryError, match=r"not valid JSON \(Expecting property name") as err:
        read_summary(tmp_path)
    assert str(err.value).startswith(f"{path}: not valid JSON (") and "\n" not in str(err.value)
    path.write_bytes(b"\xff\xfe\xfa")
    with pytest.raises(SummaryError, match="not valid JSON"):
        read_summary(tmp_path)
    path.write_text('{"users": 1}')
    with pytest.raises(SummaryError, match="a JSON object, expected a list with one object per"):
        read_summary(tmp_path)
    good = summarize(RECORDS, users=1).to_dict()
    path.write_text(json.dumps([good, {**good, "e2e_p50_s": "1.5"}]))
    with pytest.raises(SummaryError) as err:
        read_summary(tmp_path)
    assert str(err.value).startswith(f"{path}[1]: field 'e2e_p50_s' is \"1.5\", expected")


def raw_line(outcome, e2e=None, start=0.0):
    return json.dumps({"outcome": outcome, "started_at": start, "elapsed_s": 1.0, "e2e_s": e2e})


def test_level_latencies_reads_each_levels_raw_records(tmp_path):
    files = {
        "users-1/raw/raw-100.jsonl": [
            raw_line("ok", 1.5),
            raw_line("failure"),
            raw_line("ok", 0.5),
            raw_line("cancelled"),
        ],
        # two Locust processes' files; an ok without a token chunk has no e2e_s
        "users-4/raw/raw-200.jsonl": [raw_line("ok", 2.0), raw_line("ok", 0.25)],
        "users-4/raw/raw-201.jsonl": [raw_line("failure"), raw_line("ok", 1.0), raw_line("ok")],
        # a level from an earlier sweep into the same folder: not in summary.json
        "users-16/raw/raw-300.jsonl": [raw_line("ok", 9.0)],
    }
    for name, lines in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("\n".join(lines) + "\n")
    # a writer killed mid-line leaves a cut last line: skipped, as the sweep skips it
    with (tmp_path / "users-4/raw/raw-201.jsonl").open("a") as f:
        f.write('{"outcome": "ok", "started_')
    write_summary(
        tmp_path,
        [
            summarize(read_records(raw_files(tmp_path / f"users-{u}" / "raw")), users=u)
            for u in (4, 1)
        ],
    )
    got = level_latencies(tmp_path)
    assert got == {4: [0.25, 1.0, 2.0, math.inf], 1: [0.5, 1.5, math.inf]}
    assert list(got) == [4, 1]  # the order the levels ran


def test_level_latencies_errors(tmp_path):
    with pytest.raises(SummaryError, match="no summary.json"):
        level_latencies(tmp_path)
    write_summary(tmp_path, [summarize([], users=8)])
    with pytest.raises(SummaryError) as err:
        level_latencies(tmp_path)
    assert str(err.value).startswith(f"{tmp_path / 'users-8' / 'raw'}: no such folder")
    raw = tmp_path / "users-8" / "raw"
    raw.mkdir(parents=True)
    assert level_latencies(tmp_path) == {8: []}
    (raw / "raw-1.jsonl").write_text(raw_line("ok", 1.0) + "\n[1]\n")
    with pytest.raises(SummaryError, match=r"raw-1\.jsonl:2: "):
        level_latencies(tmp_path)


def test_the_report_and_verdict_take_the_records(tmp_path):
    eps = [episode("ok", float(i), 2.0 + i, 1.0) for i in range(3)]
    levels = [
        summarize(RECORDS, users=1, slo_p95_s=5.0, episodes=eps),
        summarize(RECORDS[:2], users=4, slo_p95_s=5.0, episodes=eps),
    ]
    assert [lv.slo_pass for lv in levels] == [True, True]  # on the episodes
    verdict = slo_verdict(levels, 5.0)
    assert "episode end-to-end time" in verdict and "Met at every level" in verdict
    report = write_sweep_report(levels, tmp_path, {"slo_p95_s": 5.0}).read_text()
    assert "| 1 | 3 | 1 | 1.500 [–] | 1.950 [–] |" in report
    assert "## Episodes" in report and "| 4 | 3 | 0 | 3.000 [–] |" in report
    assert "- 1 users: 1 failed (HTTP 503: 1); 1 cut off by the end of the run" in report
    assert (tmp_path / "latency_vs_users.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.slow
def test_a_sweeps_summary_json_reads_back_unchanged(tmp_path):
    good = StreamPlan(ttft_s=0.01, n_tokens=4, token_gap_s=0.002)
    # request 0 is the CLI's pre-flight probe; request 3 fails
    with FakeChatServer(lambda i, _p: StreamPlan(status=503) if i == 3 else good) as srv:
        r = CliRunner().invoke(
            app,
            ["loadtest", "--host", srv.url, "--model", "m", "--users", "2",
             "--duration", "20s", "--max-requests", "6", "--out", str(tmp_path / "out")],
        )  # fmt: skip
    assert r.exit_code == 0, r.output
    text = (tmp_path / "out" / "summary.json").read_text()
    levels = read_summary(tmp_path / "out")
    assert [lv.to_dict() for lv in levels] == json.loads(text)
    assert write_summary(tmp_path, levels).read_text() == text  # byte for byte
    [lv] = levels
    assert lv.requests == 6 and lv.failures == 1 and lv.locust_e2e_p50_s is not None
    recs = list(read_records(raw_files(tmp_path / "out" / "users-2" / "raw")))
    e2e = sorted(x.e2e_s for x in recs if x.ok)
    assert level_latencies(tmp_path / "out") == {2: [*e2e, math.inf]}
