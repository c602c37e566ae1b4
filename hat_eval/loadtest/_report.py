"""The sweep and MTP reports: Markdown with matplotlib PNG plots and the SLO verdict."""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hat_eval._outputs import write_bytes_atomic, write_text_atomic

if TYPE_CHECKING:
    from ._summary import LevelSummary


def _save_png(fig: Any, path: Path) -> None:
    """Write a matplotlib figure as PNG atomically (rendered in memory, renamed into place)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110)
    write_bytes_atomic(path, buf.getvalue())


def _s(x: float | None, digits: int = 3) -> str:
    return "–" if x is None else f"{x:.{digits}f}"


def slo_verdict(levels: Sequence[LevelSummary], slo_p95_s: float) -> str:
    """One sentence: at which concurrency levels P95 E2E (failures as misses) meets the SLO."""
    met = [lv.users for lv in levels if lv.slo_pass]
    missed = [lv.users for lv in levels if not lv.slo_pass]
    head = f"SLO: P95 end-to-end latency <= {slo_p95_s:g} s, failed requests counted as misses."
    if any(lv.slo_on == "episode_e2e" for lv in levels):
        head = (
            f"SLO: P95 episode end-to-end time <= {slo_p95_s:g} s, failed episodes counted as "
            "misses."
        )
    if not missed:
        return f"{head} **Met at every level** (up to {max(met)} concurrent users)."
    if not met:
        return f"{head} **Missed at every level** ({', '.join(map(str, missed))} users)."
    return (
        f"{head} **Met up to {max(met)} concurrent users** (met at "
        f"{', '.join(map(str, met))}; missed at {', '.join(map(str, missed))})."
    )


def plot_sweep(levels: Sequence[LevelSummary], out: Path, slo_p95_s: float | None) -> list[Path]:
    """Write ``latency_vs_users.png`` and ``throughput_vs_users.png``; return their paths."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    users = [lv.users for lv in levels]
    paths = [out / "latency_vs_users.png", out / "throughput_vs_users.png"]
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for values, label, style in (
        ([lv.e2e_p50_s for lv in levels], "E2E P50", "o-"),
        ([lv.e2e_p95_s for lv in levels], "E2E P95", "s-"),
        ([lv.ttft_p50_s for lv in levels], "TTFT P50", "o--"),
        ([lv.ttft_p95_s for lv in levels], "TTFT P95", "s--"),
    ):
        pts = [(u, v) for u, v in zip(users, values, strict=True) if v is not None]
        if pts:
            ax.plot(*zip(*pts, strict=True), style, label=label)
    if slo_p95_s is not None:
        ax.axhline(slo_p95_s, color="red", linestyle=":", label=f"SLO {slo_p95_s:g} s")
    ax.set_xscale("log", base=2)
    ax.set_xticks(users, [str(u) for u in users])
    ax.set_xlabel("concurrent users")
    ax.set_ylabel("seconds")
    ax.set_title("Latency vs concurrency (exact percentiles)")
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    _save_png(fig, paths[0])
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(7, 4.2))
    ax.plot(users, [lv.output_tokens_per_s for lv in levels], "o-", label="output tokens/s")
    ax.set_xscale("log", base=2)
    ax.set_xticks(users, [str(u) for u in users])
    ax.set_xlabel("concurrent users")
    ax.set_ylabel("output tokens / s")
    ax2 = ax.twinx()
    ax2.plot(
        users,
        [lv.requests_per_s for lv in levels],
        "s--",
        color="tab:orange",
        label="requests/s",
    )
    ax2.set_ylabel("requests / s")
    lines = ax.get_legend_handles_labels()
    lines2 = ax2.get_legend_handles_labels()
    ax.legend(lines[0] + lines2[0], lines[1] + lines2[1], loc="upper left")
    ax.set_title("Throughput vs concurrency")
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    _save_png(fig, paths[1])
    plt.close(fig)
    return paths


def _level_row(lv: LevelSummary) -> str:
    """One level's row of the sweep table (exact figures, Locust's bucketed ones in brackets)."""
    tpot = lv.tpot_p50_s
    return (
        f"| {lv.users} | {lv.requests} | {lv.failures} "
        f"| {_s(lv.e2e_p50_s)} [{_s(lv.locust_e2e_p50_s, 2)}] "
        f"| {_s(lv.e2e_p95_s)} [{_s(lv.locust_e2e_p95_s, 2)}] "
        f"| {_s(lv.ttft_p50_s)} [{_s(lv.locust_ttft_p50_s, 2)}] "
        f"| {_s(lv.ttft_p95_s)} [{_s(lv.locust_ttft_p95_s, 2)}] "
        f"| {_s(None if tpot is None else tpot * 1000, 1)} "
        f"| {lv.output_tokens_per_s:.1f} | {lv.requests_per_s:.2f} "
        f"| {'pass' if lv.slo_pass else 'FAIL'} |"
    )


def _episode_section(levels: Sequence[LevelSummary]) -> list[str]:
    """The report's "Episodes" section: one row per level that played episodes."""
    lines = [
        "",
        "## Episodes",
        "",
        "Each episode is the suites' agent loop over one viewer case: model turns (each one "
        "request above), tool calls run against the world with the harness's hooks, until "
        "the final answer. Times from the first turn's send; answer TTFT = to the first "
        "token of the final answer.",
        "",
        "| users | episodes | failures | E2E P50 s | E2E P95 s | answer TTFT P50 s "
        "| answer TTFT P95 s | turns (mean) | tool time P50 s | episodes/s |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for lv in levels:
        if lv.episodes is None:
            continue
        lines.append(
            f"| {lv.users} | {lv.episodes} | {lv.episode_failures} "
            f"| {_s(lv.episode_e2e_p50_s)} [{_s(lv.locust_episode_e2e_p50_s, 2)}] "
            f"| {_s(lv.episode_e2e_p95_s)} [{_s(lv.locust_episode_e2e_p95_s, 2)}] "
            f"| {_s(lv.answer_ttft_p50_s)} | {_s(lv.answer_ttft_p95_s)} "
            f"| {_s(lv.turns_mean, 2)} | {_s(lv.tool_s_p50_s, 4)} "
            f"| {_s(lv.episodes_per_s, 2)} |"
        )
    return lines


def _failure_section(levels: Sequence[LevelSummary]) -> list[str]:
    """The report's "Failures" section (empty when no level failed or was cut off)."""
    failing = [lv for lv in levels if lv.failures or lv.cancelled]
    if not failing:
        return []
    lines = ["", "## Failures", ""]
    for lv in failing:
        reasons = ", ".join(f"{k}: {v}" for k, v in lv.failure_reasons.items()) or "none"
        lines.append(
            f"- {lv.users} users: {lv.failures} failed ({reasons}); "
            f"{lv.cancelled} cut off by the end of the run"
        )
    return lines


def write_sweep_report(levels: Sequence[LevelSummary], out: Path, meta: dict[str, Any]) -> Path:
    """Write ``report.md`` (with the two plots) and return its path."""
    slo = meta.get("slo_p95_s")
    plots = plot_sweep(levels, out, slo) if levels else []
    lines = [
        "# Load test report",
        "",
        f"- host: `{meta.get('host')}`, model: `{meta.get('model')}`",
        f"- {meta.get('duration_s', 0):g} s per level, Locust workers: {meta.get('workers') or 0}, "
        f"max_tokens {meta.get('max_tokens')}, temperature {meta.get('temperature')}",
        f"- harness: {meta.get('harness')}; viewer messages: {meta.get('prompts')}",
        "",
    ]
    if slo is not None and levels:
        lines += [slo_verdict(levels, slo), ""]
    lines += [
        "Exact percentiles come from every request's own timing; Locust's bucketed ones are in "
        "brackets.",
        "",
        "| users | requests | failures | E2E P50 s | E2E P95 s | TTFT P50 s | TTFT P95 s "
        "| TPOT P50 ms | output tok/s | req/s | SLO |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|:--:|",
    ]
    lines += [_level_row(lv) for lv in levels]
    if any(lv.episodes is not None for lv in levels):
        lines += _episode_section(levels)
    lines += _failure_section(levels)
    sources = sorted({s for lv in levels for s in lv.token_sources})
    if any(s != "usage" for s in sources):
        lines += [
            "",
            f"Note: output tokens were counted from {', '.join(sources)}; only the "
            "server's `usage` is exact under MTP (one chunk can carry several tokens).",
        ]
    for p in plots:
        lines += ["", f"![{p.stem}]({p.name})"]
    lines += [
        "",
        "Definitions (as `vllm bench serve`): TTFT = first chunk with content or "
        "reasoning text; E2E = last token chunk; TPOT = (E2E - TTFT) / (N - 1); output "
        "tokens from `usage.completion_tokens`. Raw records: `users-N/raw/*.jsonl`; "
        "Locust's CSV, JSON and HTML: `users-N/locust*`.",
        "",
    ]
    path = out / "report.md"
    write_text_atomic(path, "\n".join(lines))
    return path


def write_mtp_report(result: dict[str, Any], out: Path) -> Path:
    """Write ``mtp.md`` for an MTP on/off comparison and return its path."""
    b, c = result["baseline"], result["candidate"]
    lines = [
        "# MTP on/off decode throughput",
        "",
        f"- baseline (no MTP): `{b['url']}`; candidate (MTP): `{c['url']}`; model "
        f"`{result['model']}`; concurrency 1, {result['requests']} prompts sent to both "
        f"(interleaved), {result['warmup']} warm-up requests each",
        "",
    ]
    if result["speedup"] is None:
        lines.append(f"No speed-up could be computed: {result['pairs_used']} usable pairs.")
    else:
        lines.append(
            f"**Decode speed-up: {result['speedup']:.3f}x** "
            f"({result['confidence'] * 100:g}% CI {result['ci_low']:.3f} - "
            f"{result['ci_high']:.3f}, paired bootstrap over {result['pairs_used']} prompts, "
            f"{result['resamples']} resamples)"
        )
    if result.get("mode") == "episode":
        if result.get("episode_speedup") is None:
            lines.append("\nNo episode speed-up: no episode reached an answer on both servers.")
        else:
            lines.append(
                f"\n**Episode speed-up: {result['episode_speedup']:.3f}x** (sum of baseline over "
                f"candidate episode end-to-end time, {result['confidence'] * 100:g}% CI "
                f"{result['episode_ci_low']:.3f} - {result['episode_ci_high']:.3f}, "
                f"{result['episode_pairs_used']} episodes answered on both)"
            )
        for name in ("baseline", "candidate"):
            e = result[name]["episodes"]
            lines.append(
                f"\n{name} episodes: {e['episode_successes']} answered, "
                f"{e['episode_failures']} failed; E2E P50 {_s(e['episode_e2e_p50_s'])} s, "
                f"answer TTFT P50 {_s(e['answer_ttft_p50_s'])} s, {_s(e['turns_mean'], 2)} turns"
            )
    lines += [
        "",
        "| | decode tok/s | E2E P50 s | E2E P95 s | TTFT P50 s | TPOT P50 ms | failures |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name, arm in (("baseline", b), ("candidate", c)):
        s = arm["summary"]
        tpot = s["tpot_p50_s"]
        lines.append(
            f"| {name} | {_s(arm['decode_tokens_per_s'], 1)} | {_s(s['e2e_p50_s'])} "
            f"| {_s(s['e2e_p95_s'])} | {_s(s['ttft_p50_s'])} "
            f"| {_s(None if tpot is None else tpot * 1000, 1)} | {s['failures']} |"
        )
    for name, arm in (("baseline", b), ("candidate", c)):
        sd = arm.get("spec_decode")
        if sd:
            lines.append(
                f"\n{name} speculative decoding (from /metrics): acceptance rate "
                f"{_s(sd['acceptance_rate'])}, acceptance length "
                f"{_s(sd['acceptance_length'], 2)} ({sd['accepted_tokens']:.0f} of "
                f"{sd['draft_tokens']:.0f} draft tokens in {sd['drafts']:.0f} drafts)"
            )
    lines += [
        "",
        "Decode rate of an arm = sum(N_i - 1) / sum(E2E_i - TTFT_i) over the prompts "
        "both arms answered; speed-up = candidate rate / baseline rate. The CI resamples "
        "prompts (pairs) with replacement and takes percentiles of the recomputed ratio.",
        "",
    ]
    path = out / "mtp.md"
    write_text_atomic(path, "\n".join(lines))
    return path
