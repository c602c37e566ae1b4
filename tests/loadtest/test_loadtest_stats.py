import math

import numpy as np
import pytest

from hat_eval.loadtest._metrics import parse_prometheus, spec_decode_delta
from hat_eval.loadtest._records import RequestRecord
from hat_eval.loadtest._runner import locust_percentile
from hat_eval.loadtest._stats import paired_ratio_bootstrap, percentile, summarize


def ok(e2e, ttft, tokens=11, start=0.0):
    return RequestRecord(
        "ok",
        start,
        e2e,
        ttft_s=ttft,
        e2e_s=e2e,
        output_tokens=tokens,
        token_source="usage",
        tpot_s=(e2e - ttft) / (tokens - 1),
    )


def test_percentile_is_linear_interpolation():
    assert percentile([4.0, 1.0, 3.0, 2.0], 50) == pytest.approx(2.5)
    assert percentile([1.0, 2.0, 3.0, 4.0], 95) == pytest.approx(3.85)  # 3 + 0.85 * (4 - 3)
    assert percentile([], 50) is None


def test_summary_counts_failures_and_keeps_them_in_the_slo_percentile():
    recs = [
        ok(1.0, 0.1, start=0.0),
        ok(2.0, 0.2, start=1.0),
        ok(3.0, 0.3, start=2.0),
        RequestRecord("failure", 3.0, 0.5, reason="HTTP 503"),
        RequestRecord("failure", 3.5, 60.0, reason="stalled"),
        RequestRecord("cancelled", 0.0, 0.0, reason="the run ended"),
    ]
    s = summarize(recs, users=4, slo_p95_s=15.0)
    assert (s.requests, s.successes, s.failures, s.cancelled) == (5, 3, 2, 1)
    assert s.failure_reasons == {"HTTP 503": 1, "stalled": 1}
    assert s.e2e_p50_s == pytest.approx(2.0)
    assert s.ttft_p95_s == pytest.approx(0.29)
    assert s.output_tokens == 33
    assert s.duration_s == pytest.approx(63.5)  # first start 0.0, last end 3.5 + 60
    assert s.output_tokens_per_s == pytest.approx(33 / 63.5)
    # two of five are failures: the P95 with failures as misses is infinite, so the SLO fails
    assert s.e2e_p95_with_failures_s is None and s.slo_pass is False


def test_slo_passes_when_p95_with_failures_is_within():
    recs = [ok(float(i), 0.1) for i in range(1, 41)]
    s = summarize(recs, users=1, slo_p95_s=39.0)
    assert s.e2e_p95_with_failures_s == pytest.approx(38.05)
    assert s.slo_pass is True
    failed = [RequestRecord("failure", 0, 1, reason="x")] * 3
    assert summarize(recs + failed, users=1, slo_p95_s=39.0).slo_pass is False


def test_paired_ratio_estimate_is_ratio_of_aggregate_rates():
    bt, bs = [9.0, 19.0], [1.0, 1.0]  # 28 tokens in 2 s: 14 tok/s
    ct, cs = [9.0, 19.0], [0.5, 1.5]  # 28 tokens in 2 s: 14 tok/s
    est = paired_ratio_bootstrap(bt, bs, ct, cs, n_resamples=500)
    assert est.ratio == pytest.approx(1.0)  # a mean of per-pair ratios would say 1.33
    assert est.low <= est.ratio <= est.high


def test_constant_speedup_gives_a_zero_width_interval_and_seed_determinism():
    rng = np.random.default_rng(1)
    tokens = rng.integers(10, 200, 30).astype(float)
    secs = tokens / rng.uniform(20, 40, 30)
    est = paired_ratio_bootstrap(tokens, secs, tokens, secs / 1.69)
    assert est.ratio == pytest.approx(1.69)
    assert est.low == pytest.approx(1.69) and est.high == pytest.approx(1.69)
    noisy = secs / 1.69 * rng.uniform(0.8, 1.2, 30)
    a = paired_ratio_bootstrap(tokens, secs, tokens, noisy, seed=3)
    b = paired_ratio_bootstrap(tokens, secs, tokens, noisy, seed=3)
    assert a == b and a.low < a.ratio < a.high and a.n_pairs == 30


def test_paired_bootstrap_rejects_unpaired_input():
    with pytest.raises(ValueError, match="equal, non-zero length"):
        paired_ratio_bootstrap([1.0], [1.0], [1.0, 2.0], [1.0, 1.0])


def test_prometheus_counters_and_acceptance():
    before = parse_prometheus(
        '# HELP x\nvllm:spec_decode_num_drafts_total{engine="0"} 10\n'
        'vllm:spec_decode_num_drafts_total{engine="1"} 10\n'
        "vllm:spec_decode_num_draft_tokens_total 40\n"
        "vllm:spec_decode_num_accepted_tokens_total 30 1700000000\n"
    )
    assert before["vllm:spec_decode_num_drafts_total"] == 20
    pick = {
        k: before[f"vllm:spec_decode_num_{k}_total"]
        for k in ("drafts", "draft_tokens", "accepted_tokens")
    }
    after = {"drafts": 120.0, "draft_tokens": 240.0, "accepted_tokens": 180.0}
    sd = spec_decode_delta(pick, after)
    assert sd is not None
    assert sd.acceptance_rate == pytest.approx(150 / 200)
    assert sd.acceptance_length == pytest.approx(1 + 150 / 100)
    assert spec_decode_delta(None, after) is None
    assert math.isfinite(sd.to_dict()["acceptance_rate"])


def test_locust_percentile_reads_its_buckets():
    # 10 requests: six in the 290 ms bucket, three at 300 ms, one at 3400 ms
    buckets = {"290": 6, "300": 3, "3400": 1}
    assert locust_percentile(buckets, 0.5) == 290
    assert locust_percentile(buckets, 0.8) == 300
    assert locust_percentile(buckets, 0.9) == 3400  # Locust's rule: at most 10 % above it
    assert locust_percentile({}, 0.5) is None
