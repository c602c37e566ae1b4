"""``hat-eval loadtest`` (a concurrency sweep) and ``hat-eval loadtest mtp`` (MTP on/off)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.progress import TaskID

from ._common import console, fail, progress

if TYPE_CHECKING:
    from hat_eval.loadtest import ClientConfig, Prompt, PromptSet

loadtest_app = typer.Typer(
    help="Load-test an OpenAI-compatible deployment with Locust: latency, TTFT, throughput, SLO.",
)

_DURATION = re.compile(r"^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+(?:\.\d+)?)s?)?$")


def parse_users(text: str) -> tuple[int, ...]:
    """``"1,4,16"`` -> ``(1, 4, 16)``; duplicates dropped, order kept; one error line otherwise."""
    out: list[int] = []
    for part in text.split(","):
        part = part.strip()
        if not part.isdigit() or int(part) < 1:
            fail(
                f"--users {text!r}: {part!r} is not a positive integer; expected a "
                "comma-separated list such as 1,4,16,64"
            )
        if int(part) not in out:
            out.append(int(part))
    return tuple(out)


def parse_duration(text: str) -> float:
    """``"60s"``, ``"90"``, ``"2m"``, ``"1h30m"`` -> seconds (at least 1); else one error line."""
    m = _DURATION.match(text.strip())
    if not text.strip() or m is None:
        fail(f"--duration {text!r} is not a duration; expected e.g. 60s, 90, 2m or 1h30m")
    h, mins, s = m.groups()
    seconds = int(h or 0) * 3600 + int(mins or 0) * 60 + float(s or 0)
    if seconds < 1:
        fail(f"--duration {text!r} is {seconds:g} s; a level needs at least 1 s")
    return seconds


def _check_url(option: str, url: str | None) -> str:
    from hat_eval.loadtest import Endpoint, EndpointError

    if not url:
        fail(f"{option} is required: the server's base URL, e.g. http://127.0.0.1:8000")
    try:
        return Endpoint.parse(url).url
    except EndpointError as err:
        fail(f"{option}: {err}")


def _prompts(harness: Path | None, prompts: Path | None, source: str | None) -> PromptSet:
    from hat_eval.harness import HarnessError
    from hat_eval.loadtest import PromptError, build_prompts, resolve_messages_source

    try:
        fn = resolve_messages_source(source) if source else None
        return build_prompts(harness, prompts_file=prompts, messages_source=fn)
    except (HarnessError, PromptError) as err:
        fail(str(err))


def _preflight(option: str, config: ClientConfig, prompt: Prompt, auto_usage: bool) -> ClientConfig:
    """One short request; drop ``stream_options`` if the server refuses it and we may."""
    from dataclasses import replace

    from hat_eval.loadtest import probe

    rec = probe(config, prompt)
    if rec.ok:
        return config
    if rec.reason == "connection error":
        fail(f"cannot reach {option} {config.host}: {rec.detail}")
    if auto_usage and config.stream_usage and rec.status in (400, 422):
        retry = replace(config, stream_usage=False)
        if probe(retry, prompt).ok:
            console.print(
                f"{config.host} refused stream_options ({rec.reason}); sending requests without it",
                markup=False,
            )
            return retry
    fail(
        f"{option} {config.host} did not answer a test chat completion: {rec.reason}"
        f"{': ' + rec.detail if rec.detail else ''}"
    )


@loadtest_app.callback(invoke_without_command=True)
def sweep(
    ctx: typer.Context,
    host: Annotated[
        str | None, typer.Option(help="Server base URL, e.g. http://127.0.0.1:8000.")
    ] = None,
    model: Annotated[str | None, typer.Option(help="Model name the server serves.")] = None,
    users: Annotated[str, typer.Option(help="Comma-separated concurrency levels.")] = "1,4,16,64",
    duration: Annotated[str, typer.Option(help="Run time per level: 60s, 2m, 1h30m.")] = "60s",
    spawn_rate: Annotated[
        float | None,
        typer.Option(min=0.001, help="Users started per second; all at once when omitted."),
    ] = None,
    workers: Annotated[
        int,
        typer.Option(min=0, help="Locust worker processes (distributed mode); 0 runs one process."),
    ] = 0,
    slo_p95: Annotated[
        float, typer.Option(min=0.0, help="SLO on P95 end-to-end latency, seconds.")
    ] = 15.0,
    harness: Annotated[
        Path | None,
        typer.Option(
            help="Harness file for the system prompt and tools; the default harness if omitted."
        ),
    ] = None,
    prompts: Annotated[
        Path | None,
        typer.Option(
            help='JSONL of viewer messages ({"message": ...}) or OpenAI {"messages": [...]}.'
        ),
    ] = None,
    messages_source: Annotated[
        str | None,
        typer.Option(
            help="module:function returning N viewer messages (instead of --prompts); by "
            "default the livestream suite's (hat_eval.suites:viewer_messages)."
        ),
    ] = None,
    max_tokens: Annotated[int, typer.Option(min=1, help="max_tokens of each request.")] = 256,
    temperature: Annotated[float, typer.Option(min=0.0, help="Sampling temperature.")] = 0.0,
    max_requests: Annotated[
        int,
        typer.Option(min=0, help="Stop a level after this many requests (0: run for --duration)."),
    ] = 0,
    stream_usage: Annotated[
        bool | None,
        typer.Option(
            "--stream-usage/--no-stream-usage",
            help="Send stream_options.include_usage; by default on unless the server refuses it.",
        ),
    ] = None,
    tokenizer: Annotated[
        str | None,
        typer.Option(help="Local tokenizer dir to count tokens when the server sends no usage."),
    ] = None,
    stall_timeout: Annotated[
        float,
        typer.Option(min=0.01, help="Seconds without data before a request fails as stalled."),
    ] = 60.0,
    request_timeout: Annotated[
        float, typer.Option(min=0.01, help="Seconds before a still-streaming request fails.")
    ] = 600.0,
    stop_timeout: Annotated[
        float,
        typer.Option(
            min=0.0, help="Seconds in-flight requests may finish after a level's time is up."
        ),
    ] = 30.0,
    api_key: Annotated[
        str | None,
        typer.Option(envvar="OPENAI_API_KEY", help="Bearer token, if the server needs one."),
    ] = None,
    out: Annotated[Path, typer.Option(help="Output folder.")] = Path("loadtest-out"),
) -> None:
    """Sweep concurrency levels (one headless Locust run each); `mtp` compares MTP on/off."""
    if ctx.invoked_subcommand is not None:
        return
    from hat_eval.loadtest import (
        ClientConfig,
        LoadTestError,
        SweepConfig,
        run_sweep,
        slo_verdict,
        write_sweep_report,
    )

    levels_users = parse_users(users)
    seconds = parse_duration(duration)
    url = _check_url("--host", host)
    if not model:
        fail("--model is required: the model name the server serves")
    if prompts is not None and messages_source is not None:
        fail("--prompts and --messages-source exclude each other; give one")
    prompt_set = _prompts(harness, prompts, messages_source)
    client = ClientConfig(
        url,
        model,
        max_tokens=max_tokens,
        temperature=temperature,
        stream_usage=stream_usage is not False,
        stall_timeout_s=stall_timeout,
        request_timeout_s=request_timeout,
        api_key=api_key,
    )
    client = _preflight("--host", client, prompt_set[0], auto_usage=stream_usage is None)
    cfg = SweepConfig(
        host=url,
        model=model,
        users=levels_users,
        duration_s=seconds,
        out=out,
        spawn_rate=spawn_rate,
        workers=workers,
        slo_p95_s=slo_p95,
        harness=harness,
        prompts=prompts,
        messages_source=messages_source,
        max_tokens=max_tokens,
        temperature=temperature,
        stream_usage=client.stream_usage,
        tokenizer=tokenizer,
        max_requests=max_requests,
        stall_timeout_s=stall_timeout,
        request_timeout_s=request_timeout,
        stop_timeout_s=stop_timeout,
        api_key=api_key,
    )
    total = max(1, round(seconds))
    with progress(f"users={levels_users[0]}", total) as bar:
        tasks = {levels_users[0]: TaskID(0)}

        def on_progress(u: int, elapsed: float, ok: int, failed: int) -> None:
            if u not in tasks:
                tasks[u] = bar.add_task(f"users={u}", total=total)
            bar.update(
                tasks[u],
                completed=min(total, round(elapsed)),
                description=f"users={u}: {ok} ok, {failed} failed",
            )

        try:
            levels = run_sweep(cfg, on_progress=on_progress)
        except LoadTestError as err:
            fail(str(err), code=1)
    report = write_sweep_report(levels, out, cfg.meta())
    for lv in levels:
        _print_level(lv)
    typer.echo(slo_verdict(levels, slo_p95).replace("**", ""))
    typer.echo(f"wrote {out / 'summary.json'} and {report}")


def _fmt(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}"


def _print_level(lv: dict[str, Any]) -> None:
    typer.echo(
        f"users={lv['users']}: {lv['requests']} requests, {lv['failures']} failed, "
        f"E2E P50 {_fmt(lv['e2e_p50_s'])} s P95 {_fmt(lv['e2e_p95_s'])} s, "
        f"TTFT P50 {_fmt(lv['ttft_p50_s'])} s P95 {_fmt(lv['ttft_p95_s'])} s, "
        f"{lv['output_tokens_per_s']:.1f} output tok/s"
    )


@loadtest_app.command()
def mtp(
    baseline: Annotated[str, typer.Option(help="Base URL of the server without MTP.")],
    candidate: Annotated[str, typer.Option(help="Base URL of the server with MTP.")],
    model: Annotated[str, typer.Option(help="Model name (both servers).")],
    candidate_model: Annotated[
        str | None, typer.Option(help="Model name on the candidate, if it differs.")
    ] = None,
    requests: Annotated[int, typer.Option(min=1, help="Prompts sent to each server.")] = 32,
    warmup: Annotated[int, typer.Option(min=0, help="Warm-up requests per server.")] = 2,
    harness: Annotated[
        Path | None, typer.Option(help="Harness file; the default if omitted.")
    ] = None,
    prompts: Annotated[Path | None, typer.Option(help="JSONL of viewer messages.")] = None,
    max_tokens: Annotated[int, typer.Option(min=2, help="max_tokens of each request.")] = 256,
    temperature: Annotated[float, typer.Option(min=0.0, help="Sampling temperature.")] = 0.0,
    confidence: Annotated[float, typer.Option(min=0.5, max=0.999, help="CI level.")] = 0.95,
    resamples: Annotated[int, typer.Option(min=100, help="Bootstrap resamples.")] = 2000,
    seed: Annotated[int, typer.Option(help="Bootstrap seed.")] = 0,
    stall_timeout: Annotated[float, typer.Option(min=0.01, help="Stall timeout, s.")] = 60.0,
    request_timeout: Annotated[float, typer.Option(min=0.01, help="Request timeout, s.")] = 600.0,
    api_key: Annotated[
        str | None, typer.Option(envvar="OPENAI_API_KEY", help="Bearer token.")
    ] = None,
    out: Annotated[Path, typer.Option(help="Output folder.")] = Path("mtp-out"),
) -> None:
    """Decode tokens/s with MTP over without, at concurrency 1, with a bootstrap CI."""
    from hat_eval.loadtest import ClientConfig, MtpConfig, compare_mtp

    urls = {
        "--baseline": _check_url("--baseline", baseline),
        "--candidate": _check_url("--candidate", candidate),
    }
    prompt_set = _prompts(harness, prompts, None)
    configs = {}
    for option, name in (("--baseline", model), ("--candidate", candidate_model or model)):
        c = ClientConfig(
            urls[option],
            name,
            max_tokens=max_tokens,
            temperature=temperature,
            stall_timeout_s=stall_timeout,
            request_timeout_s=request_timeout,
            api_key=api_key,
        )
        configs[option] = _preflight(option, c, prompt_set[0], auto_usage=True)
    cfg = MtpConfig(
        configs["--baseline"],
        configs["--candidate"],
        requests=requests,
        warmup=warmup,
        confidence=confidence,
        resamples=resamples,
        seed=seed,
    )
    with progress("MTP pairs", requests) as bar:
        result = compare_mtp(
            cfg, prompt_set, out, on_progress=lambda i: bar.update(TaskID(0), completed=i)
        )
    for arm in ("baseline", "candidate"):
        s = result[arm]["summary"]
        rate = result[arm]["decode_tokens_per_s"]
        typer.echo(
            f"{arm}: {s['successes']} ok, {s['failures']} failed, decode "
            f"{'-' if rate is None else f'{rate:.1f}'} tok/s"
        )
        if result[arm]["spec_decode"]:
            sd = result[arm]["spec_decode"]
            typer.echo(
                f"{arm} spec decode: acceptance rate {_fmt(sd['acceptance_rate'])}, "
                f"acceptance length {_fmt(sd['acceptance_length'])}"
            )
    if result["speedup"] is None:
        fail(f"no prompt succeeded on both servers with 2+ tokens; see {out}", code=1)
    typer.echo(
        f"MTP decode speed-up {result['speedup']:.3f}x "
        f"({confidence * 100:g}% CI {result['ci_low']:.3f}-{result['ci_high']:.3f}, "
        f"{result['pairs_used']} pairs)"
    )
    typer.echo(f"wrote {out / 'mtp.json'} and {out / 'mtp.md'}")
