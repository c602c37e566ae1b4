"""``hat-eval loadtest`` (a concurrency sweep) and ``hat-eval loadtest mtp`` (MTP on/off).

Each option is a field of :class:`~hat_eval.loadtest.ClientConfig`,
:class:`~hat_eval.loadtest.SweepConfig` or :class:`~hat_eval.loadtest.MtpConfig`: its flag, help,
lower bound and default come from the field (:func:`_opt`), each is declared once below as an
``Annotated`` type the commands' parameters name, and each command builds its configs from its
parameters by field name (:func:`_config`). Both commands need the ``load`` extra
(:mod:`hat_eval._extras`); this module imports no Locust.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from dataclasses import fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from rich.progress import TaskID

from hat_eval.cli._common import (
    FAILED,
    console,
    extra_help,
    fail,
    need_extra,
    output_dir,
    progress,
)

from ._config import (
    API_KEY_ENV,
    ClientConfig,
    MtpConfig,
    SweepConfig,
)
from ._option_fields import (
    ConfigError,
    option_default,
    option_flag,
    option_help,
    option_min,
)

if TYPE_CHECKING:
    from . import LevelSummary, Prompt, PromptSet

loadtest_app = typer.Typer(
    help="Load-test an OpenAI-compatible deployment with Locust: latency, TTFT, throughput, "
    "SLO. " + extra_help("loadtest"),
)

_DURATION = re.compile(r"^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+(?:\.\d+)?)s?)?$")


def _opt(cls: type, name: str, extra: str = "", **kw: Any) -> Any:
    """The typer option of config field ``cls.name``: the field's flag, help and lower bound."""
    kw.setdefault("min", option_min(cls, name))
    return typer.Option(option_flag(name), help=option_help(cls, name) + extra, **kw)


def _defaults(cls: type) -> dict[str, Any]:
    """Field name -> default, for each field of config class ``cls`` that has one."""
    out = {}
    for f in fields(cls):
        with suppress(KeyError):  # a required field
            out[f.name] = option_default(cls, f.name)
    return out


_CLIENT = _defaults(ClientConfig)
_SWEEP = _defaults(SweepConfig)
_MTP = _defaults(MtpConfig)


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
    low = option_min(SweepConfig, "duration_s")
    if seconds < low:
        fail(f"--duration {text!r} is {seconds:g} s; a level needs at least {low:g} s")
    return seconds


def _check_url(option: str, url: str | None) -> str:
    from . import Endpoint, EndpointError

    if not url:
        fail(f"{option} is required: the server's base URL, e.g. http://127.0.0.1:8000")
    try:
        return Endpoint.parse(url).url
    except EndpointError as err:
        fail(f"{option}: {err}")


def _prompts(build: Callable[[], PromptSet]) -> PromptSet:
    """Build the prompt set; a bad harness, prompts file or source is one error line."""
    from hat_eval.harness import HarnessError

    from ._prompts import PromptError

    try:
        return build()
    except (HarnessError, PromptError) as err:
        fail(str(err))


def _preflight(option: str, config: ClientConfig, prompt: Prompt, auto_usage: bool) -> ClientConfig:
    """One short request; drop ``stream_options`` if the server refuses it and we may."""
    from . import probe

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


T = TypeVar("T")
_USERS = ",".join(map(str, _SWEEP["users"]))
_DURATION_DEFAULT = f"{_SWEEP['duration_s']:g}s"

# Each option once, as typer reads it: flag, help and bounds from its config field (_opt).
HostOpt = Annotated[str | None, _opt(ClientConfig, "host")]
ModelOpt = Annotated[str | None, _opt(ClientConfig, "model")]
MaxTokensOpt = Annotated[int, _opt(ClientConfig, "max_tokens")]
TemperatureOpt = Annotated[float, _opt(ClientConfig, "temperature")]
StreamUsageOpt = Annotated[
    bool | None,
    typer.Option(
        "--stream-usage/--no-stream-usage",
        help=option_help(ClientConfig, "stream_usage")
        + " By default on, and off when the server refuses it.",
    ),
]
StallTimeoutOpt = Annotated[float, _opt(ClientConfig, "stall_timeout_s")]
RequestTimeoutOpt = Annotated[float, _opt(ClientConfig, "request_timeout_s")]
ApiKeyOpt = Annotated[str | None, _opt(ClientConfig, "api_key", envvar=API_KEY_ENV)]
UsersOpt = Annotated[str, _opt(SweepConfig, "users", " Comma-separated.")]
DurationOpt = Annotated[
    str, _opt(SweepConfig, "duration_s", " Or with units: 90s, 2m, 1h30m.", min=None)
]
SpawnRateOpt = Annotated[float | None, _opt(SweepConfig, "spawn_rate")]
WorkersOpt = Annotated[int, _opt(SweepConfig, "workers")]
SloOpt = Annotated[float, _opt(SweepConfig, "slo_p95_s")]
HarnessOpt = Annotated[Path | None, _opt(SweepConfig, "harness")]
PromptsOpt = Annotated[Path | None, _opt(SweepConfig, "prompts")]
MessagesSourceOpt = Annotated[str | None, _opt(SweepConfig, "messages_source")]
NPromptsOpt = Annotated[int, _opt(SweepConfig, "n_prompts")]
MaxRequestsOpt = Annotated[int, _opt(SweepConfig, "max_requests")]
TokenizerOpt = Annotated[str | None, _opt(SweepConfig, "tokenizer")]
StopTimeoutOpt = Annotated[float, _opt(SweepConfig, "stop_timeout_s")]
OutOpt = Annotated[Path, _opt(SweepConfig, "out")]
ModeOpt = Annotated[str, _opt(SweepConfig, "mode")]
MaxTurnsOpt = Annotated[int, _opt(SweepConfig, "max_turns")]
BaselineOpt = Annotated[str, typer.Option(help=option_help(MtpConfig, "baseline") + " Base URL.")]
CandidateOpt = Annotated[str, typer.Option(help=option_help(MtpConfig, "candidate") + " Base URL.")]
BothModelOpt = Annotated[str, _opt(ClientConfig, "model", " Both servers.")]
CandidateModelOpt = Annotated[
    str | None, typer.Option(help="Model name on the candidate, if it differs.")
]
RequestsOpt = Annotated[int, _opt(MtpConfig, "requests")]
WarmupOpt = Annotated[int, _opt(MtpConfig, "warmup")]
DecodeTokensOpt = Annotated[
    int, _opt(ClientConfig, "max_tokens", " At least 2: decode needs two tokens.", min=2)
]
ConfidenceOpt = Annotated[float, _opt(MtpConfig, "confidence", max=0.999)]
ResamplesOpt = Annotated[int, _opt(MtpConfig, "resamples")]
SeedOpt = Annotated[int, _opt(MtpConfig, "seed")]
MtpOutOpt = Annotated[Path, typer.Option(help="Output folder.")]
MtpModeOpt = Annotated[str, _opt(MtpConfig, "mode")]
MtpMaxTurnsOpt = Annotated[int, _opt(MtpConfig, "max_turns")]


def _config(cls: type[T], options: Mapping[str, Any], **values: Any) -> T:
    """``cls`` from the command's ``options`` that are its fields, ``values`` over them.

    A command's parameters are named as the config fields they fill, so each config is built
    from them without restating them; a broken rule (:class:`ConfigError`) is one line, exit 2.
    """
    names = {f.name for f in fields(cls)}  # type: ignore[arg-type]
    kwargs = {name: value for name, value in options.items() if name in names} | values
    try:
        return cls(**kwargs)
    except ConfigError as err:
        fail(str(err))


@loadtest_app.callback(invoke_without_command=True)
def sweep(
    ctx: typer.Context,
    host: HostOpt = None,
    model: ModelOpt = None,
    users: UsersOpt = _USERS,
    duration: DurationOpt = _DURATION_DEFAULT,
    spawn_rate: SpawnRateOpt = _SWEEP["spawn_rate"],
    workers: WorkersOpt = _SWEEP["workers"],
    slo_p95_s: SloOpt = _SWEEP["slo_p95_s"],
    harness: HarnessOpt = None,
    prompts: PromptsOpt = None,
    messages_source: MessagesSourceOpt = None,
    n_prompts: NPromptsOpt = _SWEEP["n_prompts"],
    max_tokens: MaxTokensOpt = _CLIENT["max_tokens"],
    temperature: TemperatureOpt = _CLIENT["temperature"],
    max_requests: MaxRequestsOpt = _SWEEP["max_requests"],
    stream_usage: StreamUsageOpt = None,
    tokenizer: TokenizerOpt = None,
    stall_timeout_s: StallTimeoutOpt = _CLIENT["stall_timeout_s"],
    request_timeout_s: RequestTimeoutOpt = _CLIENT["request_timeout_s"],
    stop_timeout_s: StopTimeoutOpt = _SWEEP["stop_timeout_s"],
    api_key: ApiKeyOpt = None,
    out: OutOpt = _SWEEP["out"],
    mode: ModeOpt = _SWEEP["mode"],
    max_turns: MaxTurnsOpt = _SWEEP["max_turns"],
) -> None:
    """Sweep concurrency levels (one headless Locust run each); `mtp` compares MTP on/off."""
    options = dict(locals())  # the parameters, named as the config fields they fill
    if ctx.invoked_subcommand is not None:
        return
    need_extra("loadtest")
    from . import prompts_for
    from ._report import slo_verdict

    levels_users = parse_users(users)
    seconds = parse_duration(duration)
    url = _check_url("--host", host)
    if not model:
        fail("--model is required: the model name the server serves")
    client = _config(ClientConfig, options, host=url, stream_usage=stream_usage is not False)
    cfg = _config(SweepConfig, options, client=client, users=levels_users, duration_s=seconds)
    output_dir(out, inputs=_inputs(harness, prompts))  # before any request
    prompt_set = _prompts(lambda: prompts_for(cfg))
    client = _preflight("--host", cfg.client, prompt_set[0], auto_usage=stream_usage is None)
    cfg = replace(cfg, client=client)
    levels = _sweep_levels(cfg, prompt_set, levels_users, seconds)
    for lv in levels:
        _print_level(lv)
    typer.echo(slo_verdict(levels, slo_p95_s).replace("**", ""))
    _write_sweep_report(levels, cfg)


def _sweep_levels(
    cfg: SweepConfig, prompt_set: PromptSet, levels_users: Sequence[int], seconds: float
) -> list[LevelSummary]:
    """Run the sweep's levels with a progress bar per level; a failed run exits 1."""
    from ._runner import LoadTestError, run_sweep

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
            return run_sweep(cfg, prompt_set, on_progress=on_progress)
        except LoadTestError as err:
            fail(str(err), code=1)


def _write_sweep_report(levels: list[LevelSummary], cfg: SweepConfig) -> None:
    """Write ``report.md``; if it cannot be, exit saying where the levels' summaries are."""
    from ._report import write_sweep_report

    out = cfg.out
    try:
        report = write_sweep_report(levels, out, cfg.meta())
    except OSError as err:  # the levels are above and in summary.json, written after each
        fail(
            f"--out {out}: the report could not be written ({err.strerror or err}); the "
            f"levels' summaries are printed above and in {cfg.summary_path}",
            code=FAILED,
        )
    typer.echo(f"wrote {cfg.summary_path} and {report} (config: {cfg.config_path})")


def _print_mtp(result: dict[str, Any], confidence: float, out: Path) -> None:
    """Each arm's figures and the speed-ups; exit 1 when no prompt gave a pair."""
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
    if result.get("episode_speedup") is not None:
        typer.echo(
            f"MTP episode speed-up {result['episode_speedup']:.3f}x "
            f"({confidence * 100:g}% CI {result['episode_ci_low']:.3f}-"
            f"{result['episode_ci_high']:.3f}, {result['episode_pairs_used']} episodes)"
        )


def _inputs(harness: Path | None, prompts: Path | None) -> list[tuple[str, Path]]:
    """The files a load test reads, which its --out may not be."""
    named = (("--harness", harness), ("--prompts", prompts))
    return [(option, path) for option, path in named if path is not None]


def _fmt(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}"


def _print_level(lv: LevelSummary) -> None:
    typer.echo(
        f"users={lv.users}: {lv.requests} requests, {lv.failures} failed, "
        f"E2E P50 {_fmt(lv.e2e_p50_s)} s P95 {_fmt(lv.e2e_p95_s)} s, "
        f"TTFT P50 {_fmt(lv.ttft_p50_s)} s P95 {_fmt(lv.ttft_p95_s)} s, "
        f"{lv.output_tokens_per_s:.1f} output tok/s"
    )
    if lv.episodes is not None:
        typer.echo(
            f"users={lv.users}: {lv.episodes} episodes, {lv.episode_failures} failed, "
            f"E2E P50 {_fmt(lv.episode_e2e_p50_s)} s P95 {_fmt(lv.episode_e2e_p95_s)} s, "
            f"answer TTFT P50 {_fmt(lv.answer_ttft_p50_s)} s "
            f"P95 {_fmt(lv.answer_ttft_p95_s)} s, {_fmt(lv.turns_mean)} turns on average"
        )


@loadtest_app.command()
def mtp(
    baseline: BaselineOpt,
    candidate: CandidateOpt,
    model: BothModelOpt,
    candidate_model: CandidateModelOpt = None,
    requests: RequestsOpt = _MTP["requests"],
    warmup: WarmupOpt = _MTP["warmup"],
    harness: HarnessOpt = None,
    prompts: PromptsOpt = None,
    max_tokens: DecodeTokensOpt = _CLIENT["max_tokens"],
    temperature: TemperatureOpt = _CLIENT["temperature"],
    confidence: ConfidenceOpt = _MTP["confidence"],
    resamples: ResamplesOpt = _MTP["resamples"],
    seed: SeedOpt = _MTP["seed"],
    stall_timeout_s: StallTimeoutOpt = _CLIENT["stall_timeout_s"],
    request_timeout_s: RequestTimeoutOpt = _CLIENT["request_timeout_s"],
    api_key: ApiKeyOpt = None,
    out: MtpOutOpt = Path("mtp-out"),
    mode: MtpModeOpt = _MTP["mode"],
    max_turns: MtpMaxTurnsOpt = _MTP["max_turns"],
) -> None:
    """Decode tokens/s with MTP over without, at concurrency 1, with a bootstrap CI."""
    options = dict(locals())  # the parameters, named as the config fields they fill
    need_extra("loadtest")
    from ._episode import load_episodes
    from ._mtp import compare_mtp
    from ._prompts import build_prompts

    urls = {
        "--baseline": _check_url("--baseline", baseline),
        "--candidate": _check_url("--candidate", candidate),
    }
    prompt_set = _prompts(lambda: build_prompts(harness, prompts_file=prompts))
    if mode == "episode" and prompts is not None:
        fail("--prompts does not apply to --mode episode: it plays the livestream test cases")
    output_dir(out, inputs=_inputs(harness, prompts))  # before any request
    clients = {}
    for option, name in (("--baseline", model), ("--candidate", candidate_model or model)):
        client = _config(ClientConfig, options, host=urls[option], model=name)
        clients[option] = _preflight(option, client, prompt_set[0], auto_usage=True)
    cfg = _config(
        MtpConfig, options, baseline=clients["--baseline"], candidate=clients["--candidate"]
    )
    episodes = load_episodes(warmup + requests, harness) if mode == "episode" else None
    with progress("MTP pairs", requests) as bar:
        result = compare_mtp(
            cfg,
            prompt_set,
            out,
            on_progress=lambda i: bar.update(TaskID(0), completed=i),
            episodes=episodes,
        )
    _print_mtp(result, confidence, out)
    typer.echo(f"wrote {out / 'mtp.json'} and {out / 'mtp.md'}")
