"""The options of a load test, each declared once as a dataclass field with its help and bounds.

:class:`ClientConfig` holds what every request of a run shares, :class:`SweepConfig` one
concurrency sweep (it holds a ``ClientConfig``), :class:`MtpConfig` one MTP comparison. Everything
else derives from these fields: ``hat-eval loadtest`` takes its options' help, bounds and
defaults from them (:func:`option_help`, :func:`option_min`, :func:`option_default`,
:func:`option_flag`); a sweep writes its config once as ``config.json`` into its output folder
(:meth:`SweepConfig.write`), which every Locust process reads back (:meth:`SweepConfig.read`);
and the Locust command line of a manual run gets one option per field (:func:`locust_fields`).
This module imports nothing heavy, so the CLI reads the fields at start-up.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hat_eval._outputs import write_text_atomic

from ._option_fields import (
    ConfigError,
    _base,
    _check_bounds,
    _from_json,
    _hints,
    _opt,
    _to_json,
    coerce,
)

if TYPE_CHECKING:
    from ._prompts import Prompt

CONFIG_FILE = "config.json"
"""The sweep's config, written once into its output folder; every Locust process reads it."""
PROMPTS_FILE = "prompts.jsonl"
"""The sweep's built prompts beside ``config.json``: one ``{"messages", "tools"}`` object a line."""
SUMMARY_FILE = "summary.json"
"""The sweep's per-level summaries (:func:`~hat_eval.loadtest._summary.write_summary`), beside
its config."""
API_KEY_ENV = "OPENAI_API_KEY"
"""The bearer token's environment variable; the token is never written into ``config.json``."""


MODES = ("request", "episode")
"""What a load-test user plays: single chat completions, or whole episodes of the agent loop."""


def level_dir(out: Path, users: int) -> Path:
    """``out/users-N``: where one level's Locust CSV/HTML, log and raw records go."""
    return out / f"users-{users}"


def raw_dir(out: Path, users: int) -> Path:
    """``out/users-N/raw``: one level's raw records, one ``raw-<pid>.jsonl`` per Locust process."""
    return level_dir(out, users) / "raw"


@dataclass(frozen=True)
class ClientConfig:
    """What every request of a run shares."""

    host: str = _opt(help="Server base URL, e.g. http://127.0.0.1:8000.")
    model: str = _opt(help="Model name the server serves.", locust=True)
    max_tokens: int = _opt(256, "max_tokens of each request.", min=1, locust=True)
    temperature: float | None = _opt(0.0, "Sampling temperature.", min=0.0, locust=True)
    stream_usage: bool = _opt(
        True,
        "Send stream_options.include_usage (some strict servers refuse it).",
        locust=True,
    )
    stall_timeout_s: float = _opt(
        60.0, "Seconds without data before a request fails as stalled.", min=0.01, locust=True
    )
    request_timeout_s: float = _opt(
        600.0, "Seconds before a still-streaming request fails.", min=0.01, locust=True
    )
    api_key: str | None = _opt(
        None,
        f"Bearer token, if the server needs one (or ${API_KEY_ENV}).",
        locust=True,
        secret=True,
    )
    extra_body: dict[str, Any] = _opt(
        help="Fields merged into every request body.", default_factory=dict
    )

    def __post_init__(self) -> None:
        _check_bounds(self)

    def payload(self, prompt: Prompt) -> dict[str, Any]:
        """The request body.

        It carries ``max_tokens`` (some servers refuse ``max_completion_tokens``), and
        ``stream_options`` only when ``stream_usage`` (strict servers refuse unknown fields).
        """
        body: dict[str, Any] = {
            "model": self.model,
            "messages": prompt.messages,
            "stream": True,
            "max_tokens": self.max_tokens,
        }
        if prompt.tools:
            body["tools"] = prompt.tools
        if self.temperature is not None:
            body["temperature"] = self.temperature
        if self.stream_usage:
            body["stream_options"] = {"include_usage": True}
        body.update(self.extra_body)
        return body


@dataclass(frozen=True)
class SweepConfig:
    """Everything one concurrency sweep needs; ``hat-eval loadtest`` builds it from its options.

    Raises:
        ConfigError: A value below its bound, no or a non-positive concurrency level, or both
            ``prompts`` and ``messages_source``.
    """

    client: ClientConfig = _opt(help="What every request shares.")
    users: tuple[int, ...] = _opt((1, 4, 16, 64), "Concurrency levels, one Locust run each.")
    duration_s: float = _opt(60.0, "Run time per level, seconds.", min=1.0)
    out: Path = _opt(Path("loadtest-out"), "Output folder.")
    spawn_rate: float | None = _opt(
        None, "Users started per second; all at once when omitted.", min=0.001
    )
    workers: int = _opt(0, "Locust worker processes (distributed mode); 0 runs one process.", min=0)
    slo_p95_s: float = _opt(15.0, "SLO on P95 end-to-end latency, seconds.", min=0.0)
    harness: Path | None = _opt(
        None,
        "Harness file for the system prompt and tools; the default harness if omitted.",
        locust=True,
    )
    prompts: Path | None = _opt(
        None,
        'JSONL of viewer messages ({"message": ...}) or OpenAI {"messages": [...]}.',
        locust=True,
    )
    messages_source: str | None = _opt(
        None,
        "module:function returning N viewer messages (instead of --prompts); by default the "
        "livestream suite's test cases (hat_eval.suites:viewer_messages).",
        locust=True,
    )
    n_prompts: int = _opt(64, "Viewer messages asked of the messages source.", min=1, locust=True)
    tokenizer: str | None = _opt(
        None, "Local tokenizer dir to count tokens when the server sends no usage.", locust=True
    )
    max_requests: int = _opt(
        0,
        "Stop a level after this many requests, split over the Locust processes (0: no limit).",
        min=0,
        locust=True,
    )
    stop_timeout_s: float = _opt(
        30.0, "Seconds in-flight requests may finish after a level's time is up.", min=0.0
    )
    mode: str = _opt(
        "request",
        "What a user plays: 'request' (one chat completion after another) or 'episode' (the "
        "suites' agent loop over whole viewer cases: tool calls run against the world, until "
        "the final answer).",
        locust=True,
    )
    max_turns: int = _opt(
        5, "Episode mode: most model turns per episode (as the suites).", min=1, locust=True
    )

    def __post_init__(self) -> None:
        _check_bounds(self)
        if self.mode not in MODES:
            raise ConfigError(f"mode ({self.mode!r}) must be one of {', '.join(MODES)}")
        if self.mode == "episode" and (self.prompts is not None or self.messages_source):
            raise ConfigError(
                "mode 'episode' plays the livestream suite's test cases (a case has a world its "
                "tool calls run against), so prompts and messages_source do not apply; drop them"
            )
        if not self.users or any(u < 1 for u in self.users):
            raise ConfigError(
                f"users {list(self.users)} must be one or more positive concurrency levels, "
                "e.g. 1,4,16,64"
            )
        if self.prompts is not None and self.messages_source is not None:
            raise ConfigError(
                f"prompts ({self.prompts}) and messages_source ({self.messages_source}) "
                "exclude each other; give one"
            )

    def level_dir(self, users: int) -> Path:
        """Where one level's Locust CSV/HTML, log and raw records go (:func:`level_dir`)."""
        return level_dir(self.out, users)

    def raw_dir(self, users: int) -> Path:
        """One level's raw records (:func:`raw_dir`)."""
        return raw_dir(self.out, users)

    @property
    def summary_path(self) -> Path:
        """``out/summary.json``: every level's summary, rewritten after each level."""
        return self.out / SUMMARY_FILE

    @property
    def config_path(self) -> Path:
        """``out/config.json``."""
        return self.out / CONFIG_FILE

    @property
    def prompts_path(self) -> Path:
        """``out/prompts.jsonl``: the built prompts every Locust process sends."""
        return self.out / PROMPTS_FILE

    def requests_per_process(self, processes: int) -> int:
        """``max_requests`` split over ``processes`` Locust processes, rounded up (0: no limit)."""
        return math.ceil(self.max_requests / max(1, processes))

    def meta(self) -> dict[str, Any]:
        """What the report says about the run."""
        return {
            "host": self.client.host,
            "model": self.client.model,
            "users": list(self.users),
            "duration_s": self.duration_s,
            "workers": self.workers,
            "slo_p95_s": self.slo_p95_s,
            "mode": self.mode,
            "max_tokens": self.client.max_tokens,
            "temperature": self.client.temperature,
            "stream_usage": self.client.stream_usage,
            "harness": str(self.harness) if self.harness else "default",
            "prompts": str(self.prompts)
            if self.prompts
            else (self.messages_source or "livestream suite viewer messages (test split)"),
        }

    def to_json(self) -> dict[str, Any]:
        """The config as JSON, without secret fields (the API key)."""
        return _to_json(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SweepConfig:
        """The inverse of :meth:`to_json`.

        Raises:
            ConfigError: An unknown field, a missing required one, or a value of the wrong type.
        """
        return _from_json(cls, data, "")

    def write(self) -> Path:
        """Write ``out/config.json`` (creating ``out``) and return its path."""
        self.out.mkdir(parents=True, exist_ok=True)
        text = json.dumps(self.to_json(), indent=2) + "\n"
        write_text_atomic(self.config_path, text)
        return self.config_path

    @classmethod
    def read(cls, path: Path) -> SweepConfig:
        """Read a ``config.json`` written by :meth:`write`.

        Raises:
            ConfigError: The file is missing, not JSON, or not a sweep config.
        """
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except OSError as err:
            raise ConfigError(
                f"{path}: cannot read the load-test config ({err.strerror})"
            ) from None
        except ValueError as err:
            raise ConfigError(f"{path}: not JSON ({err})") from None
        if not isinstance(data, dict):
            raise ConfigError(f"{path}: expected a JSON object, got {type(data).__name__}")
        try:
            return cls.from_json(data)
        except ConfigError as err:
            raise ConfigError(f"{path}: {err}") from None


@dataclass(frozen=True)
class MtpConfig:
    """One MTP on/off comparison (see :func:`~hat_eval.loadtest._mtp.compare_mtp`)."""

    baseline: ClientConfig = _opt(help="The server without MTP.")
    candidate: ClientConfig = _opt(help="The server with MTP.")
    requests: int = _opt(32, "Prompts sent to each server.", min=1)
    warmup: int = _opt(2, "Warm-up requests per server.", min=0)
    confidence: float = _opt(0.95, "Confidence level of the bootstrap interval.", min=0.5)
    resamples: int = _opt(2000, "Bootstrap resamples.", min=100)
    seed: int = _opt(0, "Bootstrap seed.")
    mode: str = _opt(
        "request",
        "'request' (one chat completion per prompt) or 'episode' (each of the livestream "
        "suite's first test cases played whole on both servers).",
    )
    max_turns: int = _opt(5, "Episode mode: most model turns per episode.", min=1)

    def __post_init__(self) -> None:
        _check_bounds(self)
        if self.mode not in MODES:
            raise ConfigError(f"mode ({self.mode!r}) must be one of {', '.join(MODES)}")
        if not self.confidence < 1:
            raise ConfigError(f"confidence ({self.confidence:g}) must be below 1, e.g. 0.95")


def locust_fields() -> Iterator[tuple[type, str, Any]]:
    """``(class, field name, value type)`` of each option a Locust process uses."""
    for cls in (ClientConfig, SweepConfig):
        hints = _hints(cls)
        for f in fields(cls):
            if f.metadata.get("locust"):
                yield cls, f.name, _base(hints[f.name])


def with_overrides(cfg: SweepConfig, values: dict[str, Any]) -> SweepConfig:
    """``cfg`` with the Locust options in ``values`` (name -> value; ``None`` or ``""``: unset).

    Raises:
        ConfigError: A value of the wrong type or below its bound.
    """
    client: dict[str, Any] = {}
    sweep: dict[str, Any] = {}
    for cls, name, tp in locust_fields():
        value = values.get(name)
        if value is None or value == "":
            continue
        (client if cls is ClientConfig else sweep)[name] = coerce(tp, value, name)
    return replace(cfg, client=replace(cfg.client, **client), **sweep)
