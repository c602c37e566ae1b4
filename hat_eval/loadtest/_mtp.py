"""MTP on/off: the decode-throughput ratio of two servers at concurrency 1, on the same prompts.

Runs in the calling process with the blocking client (no Locust): prompt ``i`` goes to both servers,
one request at a time, alternating which goes first so slow drifts (thermal, other tenants) hit both
arms alike. Both servers' ``/metrics`` are scraped before and after for vLLM's speculative-decoding
counters. See :func:`~hat_eval.loadtest._stats.paired_ratio_bootstrap` for the statistics.

In episode mode (``MtpConfig.mode``) episode ``i`` (a livestream test case, played by the
suites' agent loop, :mod:`hat_eval.loadtest._episode`) is played on both servers instead: an
arm's decode figures of one episode are summed over its turns, and the result adds
``episode_speedup`` = sum of baseline episode E2E / sum of candidate episode E2E over the
episodes both answered, with the same paired bootstrap (each episode counting as one unit).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hat_eval._outputs import write_text_atomic

from ._client import ChatStreamClient
from ._config import MtpConfig
from ._episode import EpisodeRecord, play_episode, write_episode_records
from ._metrics import scrape_spec_decode, spec_decode_delta
from ._prompts import PromptSet
from ._records import RequestRecord, write_records
from ._stats import decode_rate, paired_ratio_bootstrap, summarize, summarize_episodes

if TYPE_CHECKING:
    from hat_eval.episode import Episode


def _decode(rec: RequestRecord) -> tuple[float, float] | None:
    if not rec.ok or rec.output_tokens < 2 or rec.e2e_s is None or rec.ttft_s is None:
        return None
    return float(rec.output_tokens - 1), rec.e2e_s - rec.ttft_s


def _decode_sum(turns: list[RequestRecord]) -> tuple[float, float] | None:
    """Decode tokens and seconds of one prompt's turns together (``None`` if none counts)."""
    parts = [d for d in map(_decode, turns) if d is not None]
    if not parts or len(parts) < len(turns):
        return None
    return sum(p[0] for p in parts), sum(p[1] for p in parts)


@dataclass(frozen=True)
class _Played:
    """Both arms' kept turns (one list per prompt or episode), episodes and spec-decode scrapes."""

    units: dict[str, list[list[RequestRecord]]]
    episodes: dict[str, list[EpisodeRecord]]
    before: dict[str, Any]
    after: dict[str, Any]


def _play_arms(
    cfg: MtpConfig,
    prompts: PromptSet,
    on_progress: Callable[[int], None] | None,
    episodes: list[Episode] | None,
) -> _Played:
    """Warm both arms up, then send each prompt (or play each episode) to both, alternating."""
    arms = {"baseline": cfg.baseline, "candidate": cfg.candidate}
    clients = {k: ChatStreamClient(c) for k, c in arms.items()}
    units: dict[str, list[list[RequestRecord]]] = {k: [] for k in arms}
    played: dict[str, list[EpisodeRecord]] = {k: [] for k in arms}

    def one(k: str, i: int, keep: bool) -> None:
        if episodes:
            j = i % len(episodes)
            turns: list[RequestRecord] = []
            rec = play_episode(clients[k], episodes[j], j, max_turns=cfg.max_turns, turns=turns)
            if keep:
                units[k].append(turns)
                played[k].append(rec)
        else:
            r = clients[k].send(prompts[i], i % len(prompts))
            if keep:
                units[k].append([r])

    try:
        for i in range(cfg.warmup):
            for k in arms:
                one(k, i, keep=False)
        before = {k: scrape_spec_decode(c.host) for k, c in arms.items()}
        for i in range(cfg.requests):
            order = ("baseline", "candidate") if i % 2 == 0 else ("candidate", "baseline")
            for k in order:
                one(k, cfg.warmup + i, keep=True)
            if on_progress is not None:
                on_progress(i + 1)
        after = {k: scrape_spec_decode(c.host) for k, c in arms.items()}
    finally:
        for client in clients.values():
            client.close()
    return _Played(units, played, before, after)


def _arm_result(
    k: str,
    url: str,
    records: list[RequestRecord],
    pairs: list[tuple[tuple[float, float], tuple[float, float]]],
    played: _Played,
) -> dict[str, Any]:
    """One arm's entry of ``mtp.json``: its summary, decode rate over the pairs, spec decode."""
    col = 0 if k == "baseline" else 1
    sd = spec_decode_delta(played.before[k], played.after[k])
    return {
        "url": url,
        "summary": summarize(records, users=1).to_dict(),
        "decode_tokens_per_s": (
            decode_rate([p[col][0] for p in pairs], [p[col][1] for p in pairs]) if pairs else None
        ),
        "spec_decode": sd.to_dict() if sd is not None else None,
    }


def _episode_speedup(cfg: MtpConfig, played: _Played) -> dict[str, Any]:
    """Episode mode's keys: the paired ratio of episode end-to-end times and its interval."""
    result: dict[str, Any] = {
        "mode": "episode",
        "episode_speedup": None,
        "episode_ci_low": None,
        "episode_ci_high": None,
    }
    both = [
        (b.e2e_s, c.e2e_s)
        for b, c in zip(played.episodes["baseline"], played.episodes["candidate"], strict=True)
        if b.e2e_s is not None and c.e2e_s is not None
    ]
    result["episode_pairs_used"] = len(both)
    if both:
        ones = [1.0] * len(both)
        est = paired_ratio_bootstrap(
            ones,
            [b for b, _ in both],
            ones,
            [c for _, c in both],
            n_resamples=cfg.resamples,
            confidence=cfg.confidence,
            seed=cfg.seed,
        )
        result.update(episode_speedup=est.ratio, episode_ci_low=est.low, episode_ci_high=est.high)
    return result


def compare_mtp(
    cfg: MtpConfig,
    prompts: PromptSet,
    out: Path,
    on_progress: Callable[[int], None] | None = None,
    episodes: list[Episode] | None = None,
) -> dict[str, Any]:
    """Run the comparison, write ``mtp.json``, ``mtp.md`` and both arms' raw records to ``out``.

    Args:
        cfg: The comparison.
        prompts: The prompts (request mode).
        out: Output folder.
        on_progress: Called with the number of prompts (or episodes) done.
        episodes: The episodes to play in episode mode (:func:`load_episodes`).

    Returns:
        The result written to ``mtp.json``: per-arm summaries and decode rates, ``speedup`` with
        ``ci_low``/``ci_high`` (``None`` with fewer than one usable pair), and the spec-decode
        figures of each arm whose server exposes them; in episode mode also each arm's episode
        summary and ``episode_speedup`` with ``episode_ci_low``/``episode_ci_high``.

    Raises:
        ValueError: Episode mode without episodes.
    """
    from ._report import write_mtp_report

    if cfg.mode == "episode" and not episodes:
        raise ValueError("mode 'episode' needs the episodes to play; pass load_episodes(n)")
    out.mkdir(parents=True, exist_ok=True)
    arms = {"baseline": cfg.baseline, "candidate": cfg.candidate}
    played = _play_arms(cfg, prompts, on_progress, episodes)
    records = {k: [r for turns in played.units[k] for r in turns] for k in arms}
    pairs = [
        (b, c)
        for b, c in zip(
            map(_decode_sum, played.units["baseline"]),
            map(_decode_sum, played.units["candidate"]),
            strict=True,
        )
        if b is not None and c is not None
    ]
    result: dict[str, Any] = {
        "model": cfg.baseline.model,
        "requests": cfg.requests,
        "warmup": cfg.warmup,
        "pairs_used": len(pairs),
        "confidence": cfg.confidence,
        "resamples": cfg.resamples,
        "speedup": None,
        "ci_low": None,
        "ci_high": None,
    }
    for k, conf in arms.items():
        write_path = out / f"raw-{k}.jsonl"
        write_path.unlink(missing_ok=True)
        write_records(write_path, records[k])
        if episodes:
            (out / f"episodes-{k}.jsonl").unlink(missing_ok=True)
            write_episode_records(out / f"episodes-{k}.jsonl", played.episodes[k])
        result[k] = _arm_result(k, conf.host, records[k], pairs, played)
        if episodes:
            result[k]["episodes"] = summarize_episodes(played.episodes[k])
    if pairs:
        est = paired_ratio_bootstrap(
            [p[0][0] for p in pairs],
            [p[0][1] for p in pairs],
            [p[1][0] for p in pairs],
            [p[1][1] for p in pairs],
            n_resamples=cfg.resamples,
            confidence=cfg.confidence,
            seed=cfg.seed,
        )
        result.update(speedup=est.ratio, ci_low=est.low, ci_high=est.high)
    if episodes:
        result.update(_episode_speedup(cfg, played))
    write_text_atomic(out / "mtp.json", json.dumps(result, indent=2) + "\n")
    write_mtp_report(result, out)
    return result
