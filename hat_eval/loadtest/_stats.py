"""Exact statistics over raw per-request records, and the paired bootstrap of the MTP speed-up.

Percentiles are ``numpy.percentile`` with linear interpolation over the raw samples, the way
``vllm bench serve`` computes them. Locust's own percentiles round every response time into a
bucket first (1 ms steps under 100 ms, 10 ms under 1 s, 100 ms under 10 s, 1 s above), so a 3.407 s
P50 reads as 3.4 s there: both are reported side by side.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import numpy as np

from hat_eval.stats import bootstrap_indices, percentile_interval

from ._records import RequestRecord
from ._summary import LevelSummary

if TYPE_CHECKING:
    from ._episode import EpisodeRecord


def percentile(values: Sequence[float], q: float) -> float | None:
    """The ``q``-th percentile (0..100) by linear interpolation; ``None`` for no values.

    For sorted values ``x_0..x_{n-1}`` it is ``x_i + f * (x_{i+1} - x_i)`` with
    ``i + f = q / 100 * (n - 1)``; ``+inf`` values are allowed and sort last.
    """
    if not len(values):
        return None
    return float(np.percentile(np.asarray(values, dtype=float), q))


def _percentile_with_misses(values: Sequence[float], misses: int, q: float) -> float | None:
    """:func:`percentile` of ``values`` plus ``misses`` infinite values; ``None`` if infinite."""
    n = len(values) + misses
    if not values or math.ceil(q / 100 * (n - 1)) >= len(values):
        return None
    return percentile(sorted(values) + [max(values)] * misses, q)


def unreachable_s(records: Iterable[RequestRecord]) -> float:
    """Seconds the server could not be reached, summed over its outages.

    An outage runs from a connection error to the send of the next request that succeeded
    (or, with none, to the end of the last request). Requests are taken in the order they
    were sent, all users together; a connection error during an outage adds nothing, so
    overlapping users do not count an outage twice.
    """
    done = sorted((r for r in records if r.outcome != "cancelled"), key=lambda r: r.started_at)
    total, down = 0.0, None
    for r in done:
        if r.reason == "connection error" and down is None:
            down = r.started_at
        elif r.ok and down is not None:
            total += r.started_at - down
            down = None
    if down is not None:
        total += max(r.started_at + r.elapsed_s for r in done) - down
    return total


class _Timed(Protocol):
    @property
    def outcome(self) -> str: ...
    @property
    def ok(self) -> bool: ...
    @property
    def started_at(self) -> float: ...
    @property
    def elapsed_s(self) -> float: ...


T = TypeVar("T", bound=_Timed)


def _split(recs: list[T]) -> tuple[list[T], list[T], list[T], float]:
    """Records not cancelled, those that succeeded, those that failed, and the wall window."""
    done = [r for r in recs if r.outcome != "cancelled"]
    ok = [r for r in done if r.ok]
    failed = [r for r in done if not r.ok]
    window = (
        max(r.started_at + r.elapsed_s for r in done) - min(r.started_at for r in done)
        if done
        else 0.0
    )
    return done, ok, failed, window


def _latencies(ok: list[RequestRecord]) -> dict[str, Any]:
    """The exact latency percentiles of a level's successful requests (``LevelSummary`` keys)."""
    e2e = [r.e2e_s for r in ok if r.e2e_s is not None]
    ttft = [r.ttft_s for r in ok if r.ttft_s is not None]
    tpot = [r.tpot_s for r in ok if r.tpot_s is not None]
    itl = [x for r in ok for x in r.itl_s]
    lags = [x for r in ok for x in r.server_lag_s]
    return {
        "e2e_p50_s": percentile(e2e, 50),
        "e2e_p90_s": percentile(e2e, 90),
        "e2e_p95_s": percentile(e2e, 95),
        "e2e_p99_s": percentile(e2e, 99),
        "e2e_mean_s": float(np.mean(e2e)) if e2e else None,
        "ttft_p50_s": percentile(ttft, 50),
        "ttft_p95_s": percentile(ttft, 95),
        "ttft_p99_s": percentile(ttft, 99),
        "tpot_p50_s": percentile(tpot, 50),
        "tpot_p95_s": percentile(tpot, 95),
        "itl_p50_s": percentile(itl, 50),
        "itl_p95_s": percentile(itl, 95),
        "itl_p99_s": percentile(itl, 99),
        "server_lag_p50_s": percentile(lags, 50),
        "server_lag_p95_s": percentile(lags, 95),
    }


def _steady_state(
    done: list[RequestRecord], ok: list[RequestRecord], warmup_s: float
) -> dict[str, Any]:
    """``warmup_requests`` and the steady-state E2E percentiles (all ``None`` without warm-up)."""
    if not (warmup_s > 0 and done):
        return {"warmup_requests": None, "steady_e2e_p50_s": None, "steady_e2e_p95_s": None}
    end = min(r.started_at for r in done) + warmup_s
    steady = [r.e2e_s for r in ok if r.e2e_s is not None and r.started_at >= end]
    return {
        "warmup_requests": sum(r.started_at < end for r in done),
        "steady_e2e_p50_s": percentile(steady, 50),
        "steady_e2e_p95_s": percentile(steady, 95),
    }


def summarize(
    records: Iterable[RequestRecord],
    *,
    users: int,
    slo_p95_s: float | None = None,
    locust: Mapping[str, float | None] | None = None,
    warmup_s: float = 0.0,
    episodes: Iterable[EpisodeRecord] | None = None,
) -> LevelSummary:
    """One concurrency level's summary.

    Latency percentiles are over successful requests. Failures are counted with their reasons and
    also enter ``e2e_p95_with_failures_s``, where each failed request counts as an infinitely slow
    one (``None`` when more than 5 % failed): the SLO verdict ``slo_pass`` is
    ``e2e_p95_with_failures_s <= slo_p95_s``, so failures can never make a level look faster.
    Throughput is the output tokens of successful requests over the window from the first request
    sent to the last one finished. Requests cut off by the end of the run are ``cancelled``.
    ``resent`` counts the sends the client repeated on a new connection after the server dropped
    them on a reused one (the server saw ``requests + resent``); ``unreachable_s`` is
    :func:`unreachable_s`. With ``warmup_s`` > 0 (users started at a spawn rate, the last one
    ``warmup_s`` after the first request), the requests sent before then are counted as
    ``warmup_requests`` and ``steady_e2e_p50_s``/``steady_e2e_p95_s`` are the percentiles of
    the others; the other figures include them.

    Args:
        records: The level's request records (in episode mode, every turn).
        users: The level's concurrency.
        slo_p95_s: The SLO's bound on P95 end-to-end time; ``None``: no verdict.
        locust: Locust's own percentiles
            (:func:`~hat_eval.loadtest._runner.read_locust_percentiles`),
            keyed by their :class:`~hat_eval.loadtest.LevelSummary` field names.
        warmup_s: See above.
        episodes: In episode mode, the level's episode records: the summary adds
            :func:`summarize_episodes`' figures, and ``slo_pass`` is the episodes' verdict.
    """
    recs = list(records)
    done, ok, failed, window = _split(recs)
    e2e = [r.e2e_s for r in ok if r.e2e_s is not None]
    tokens = sum(r.output_tokens for r in ok)
    p95_all = _percentile_with_misses(e2e, len(failed), 95)
    summary = LevelSummary(
        users=users,
        requests=len(done),
        successes=len(ok),
        failures=len(failed),
        cancelled=len(recs) - len(done),
        failure_rate=len(failed) / len(done) if done else 0.0,
        failure_reasons=dict(Counter(r.reason or "unknown" for r in failed).most_common()),
        resent=sum(r.resent for r in done),
        unreachable_s=unreachable_s(done),
        duration_s=window,
        e2e_p95_with_failures_s=p95_all,
        output_tokens=tokens,
        output_tokens_per_s=tokens / window if window > 0 else 0.0,
        requests_per_s=len(ok) / window if window > 0 else 0.0,
        token_sources=dict(Counter(r.token_source for r in ok)),
        slo_p95_s=slo_p95_s,
        slo_pass=_slo_pass(e2e, p95_all, slo_p95_s),
        warmup_s=warmup_s,
        **_latencies(ok),
        **_steady_state(done, ok, warmup_s),
    )
    if locust:
        figures: dict[str, Any] = dict(locust)  # from Locust's JSON: checked by name here
        if any(not k.startswith("locust_") for k in figures):
            raise ValueError(f"locust figures must be locust_* fields, got {sorted(figures)}")
        summary = replace(summary, **figures)
    if episodes is not None:
        summary = replace(summary, **summarize_episodes(episodes, slo_p95_s=slo_p95_s))
    return summary


def _slo_pass(e2e: list[float], p95_all: float | None, slo_p95_s: float | None) -> bool | None:
    """P95 with failures as misses within the SLO (``None`` without one); never with no success."""
    if slo_p95_s is None:
        return None
    return p95_all is not None and bool(e2e) and p95_all <= slo_p95_s


def summarize_episodes(
    episodes: Iterable[EpisodeRecord], *, slo_p95_s: float | None = None
) -> dict[str, Any]:
    """One level's episode figures: the episode keys of a :class:`LevelSummary` (JSON-ready).

    :func:`summarize` adds them to a level's summary when given the episodes; ``compare_mtp``
    writes them as each arm's ``episodes`` in ``mtp.json``.

    Percentiles are exact (as in :func:`summarize`) over the episodes that reached a final
    answer: ``episode_e2e_*`` from the first turn's send to the answer's last token,
    ``answer_ttft_*`` to its first token. Failed episodes count with their reasons and enter
    ``episode_e2e_p95_with_failures_s`` as infinitely slow ones (``None`` above 5 % failed);
    ``slo_pass`` is that value against ``slo_p95_s`` (in episode mode the verdict is on
    episodes). ``turns_mean`` and ``tool_s_*`` are over the successful episodes, ``tool_s``
    being the time the generator spent running their tool calls.
    """
    recs = list(episodes)
    done, ok, failed, window = _split(recs)
    e2e = [r.e2e_s for r in ok if r.e2e_s is not None]
    answer = [r.answer_ttft_s for r in ok if r.answer_ttft_s is not None]
    tool = [r.tool_s for r in ok]
    p95_all = _percentile_with_misses(e2e, len(failed), 95)
    return {
        "episodes": len(done),
        "episode_successes": len(ok),
        "episode_failures": len(failed),
        "episode_cancelled": len(recs) - len(done),
        "episode_failure_reasons": dict(
            Counter(r.reason or "unknown" for r in failed).most_common()
        ),
        "episode_e2e_p50_s": percentile(e2e, 50),
        "episode_e2e_p95_s": percentile(e2e, 95),
        "episode_e2e_p99_s": percentile(e2e, 99),
        "episode_e2e_p95_with_failures_s": p95_all,
        "answer_ttft_p50_s": percentile(answer, 50),
        "answer_ttft_p95_s": percentile(answer, 95),
        "answer_ttft_p99_s": percentile(answer, 99),
        "turns_mean": float(np.mean([r.turns for r in ok])) if ok else None,
        "tool_s_p50_s": percentile(tool, 50),
        "tool_s_p95_s": percentile(tool, 95),
        "episode_output_tokens_mean": (
            float(np.mean([r.output_tokens for r in ok])) if ok else None
        ),
        "episodes_per_s": len(ok) / window if window > 0 else 0.0,
        "slo_pass": _slo_pass(e2e, p95_all, slo_p95_s),
        "slo_on": "episode_e2e",
    }


@dataclass(frozen=True)
class RatioEstimate:
    """A ratio with its bootstrap confidence interval."""

    ratio: float
    low: float
    high: float
    confidence: float
    n_pairs: int
    n_resamples: int


def decode_rate(tokens: Sequence[float], seconds: Sequence[float]) -> float:
    """Aggregate decode rate ``sum(tokens) / sum(seconds)`` (tokens per second)."""
    total = float(np.sum(seconds))
    return float(np.sum(tokens)) / total if total > 0 else math.nan


def paired_ratio_bootstrap(
    base_tokens: Sequence[float],
    base_seconds: Sequence[float],
    cand_tokens: Sequence[float],
    cand_seconds: Sequence[float],
    *,
    n_resamples: int = 2000,
    confidence: float = 0.95,
    seed: int = 0,
) -> RatioEstimate:
    """The candidate-over-baseline decode-rate ratio with a paired percentile-bootstrap CI.

    Pair ``i`` is prompt ``i`` sent to both servers, with ``tokens = N_i - 1`` decode tokens and
    ``seconds = E2E_i - TTFT_i`` decode time on each. The estimate is

        R = (sum_i c_tok_i / sum_i c_sec_i) / (sum_i b_tok_i / sum_i b_sec_i),

    a ratio of aggregate decode rates (what a server sustains), not a mean of per-request ratios
    (which short answers would dominate). The CI resamples the *pairs* ``n_resamples`` times with
    replacement, keeping each prompt's two measurements together so prompt difficulty cancels,
    recomputes ``R`` on each resample, and takes the ``(1 - confidence) / 2`` and
    ``(1 + confidence) / 2`` quantiles. The resamples and the quantiles are
    :func:`hat_eval.stats.bootstrap_indices` and :func:`hat_eval.stats.percentile_interval`, the
    scheme every interval in hat-eval uses. With one pair, or identical ratios, the interval has
    zero width.

    Raises:
        ValueError: The four sequences differ in length, or are empty; ``n_resamples`` is below
            1; ``confidence`` is not strictly between 0 and 1.
    """
    arrays = [
        np.asarray(x, dtype=float) for x in (base_tokens, base_seconds, cand_tokens, cand_seconds)
    ]
    n = len(arrays[0])
    if n == 0 or any(len(a) != n for a in arrays):
        raise ValueError(
            f"paired samples must have one equal, non-zero length; got {[len(a) for a in arrays]}"
        )
    bt, bs, ct, cs = arrays
    ratio = (ct.sum() / cs.sum()) / (bt.sum() / bs.sum())
    idx = bootstrap_indices(n, n_boot=n_resamples, seed=seed)
    with np.errstate(divide="ignore", invalid="ignore"):
        boot = (ct[idx].sum(1) / cs[idx].sum(1)) / (bt[idx].sum(1) / bs[idx].sum(1))
    low, high = percentile_interval(boot, confidence=confidence)
    return RatioEstimate(float(ratio), low, high, confidence, n, n_resamples)
