"""MTP on/off: the decode-throughput ratio of two servers at concurrency 1, on the same prompts.

Runs in the calling process with the blocking client (no Locust): prompt ``i`` goes to both servers,
one request at a time, alternating which goes first so slow drifts (thermal, other tenants) hit both
arms alike. Both servers' ``/metrics`` are scraped before and after for vLLM's speculative-decoding
counters. See :func:`~hat_eval.loadtest.paired_ratio_bootstrap` for the statistics.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ._client import ChatStreamClient
from ._config import MtpConfig
from ._metrics import scrape_spec_decode, spec_decode_delta
from ._prompts import PromptSet
from ._records import RequestRecord, write_records
from ._stats import decode_rate, paired_ratio_bootstrap, summarize


def _decode(rec: RequestRecord) -> tuple[float, float] | None:
    if not rec.ok or rec.output_tokens < 2 or rec.e2e_s is None or rec.ttft_s is None:
        return None
    return float(rec.output_tokens - 1), rec.e2e_s - rec.ttft_s


def compare_mtp(
    cfg: MtpConfig,
    prompts: PromptSet,
    out: Path,
    on_progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Run the comparison, write ``mtp.json``, ``mtp.md`` and both arms' raw records to ``out``.

    Returns:
        The result written to ``mtp.json``: per-arm summaries and decode rates, ``speedup`` with
        ``ci_low``/``ci_high`` (``None`` with fewer than one usable pair), and the spec-decode
        figures of each arm whose server exposes them.
    """
    from ._report import write_mtp_report

    out.mkdir(parents=True, exist_ok=True)
    arms = {"baseline": cfg.baseline, "candidate": cfg.candidate}
    clients = {k: ChatStreamClient(c) for k, c in arms.items()}
    records: dict[str, list[RequestRecord]] = {k: [] for k in arms}
    try:
        for i in range(cfg.warmup):
            for client in clients.values():
                client.send(prompts[i], i)
        before = {k: scrape_spec_decode(c.host) for k, c in arms.items()}
        for i in range(cfg.requests):
            order = ("baseline", "candidate") if i % 2 == 0 else ("candidate", "baseline")
            for k in order:
                records[k].append(
                    clients[k].send(prompts[cfg.warmup + i], (cfg.warmup + i) % len(prompts))
                )
            if on_progress is not None:
                on_progress(i + 1)
        after = {k: scrape_spec_decode(c.host) for k, c in arms.items()}
    finally:
        for client in clients.values():
            client.close()
    pairs = [
        (b, c)
        for b, c in zip(
            map(_decode, records["baseline"]), map(_decode, records["candidate"]), strict=True
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
        col = 0 if k == "baseline" else 1
        sd = spec_decode_delta(before[k], after[k])
        result[k] = {
            "url": conf.host,
            "summary": summarize(records[k], users=1),
            "decode_tokens_per_s": (
                decode_rate([p[col][0] for p in pairs], [p[col][1] for p in pairs])
                if pairs
                else None
            ),
            "spec_decode": sd.to_dict() if sd is not None else None,
        }
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
    (out / "mtp.json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    write_mtp_report(result, out)
    return result
