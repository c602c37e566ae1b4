"""What the Locust users of one process share: options, config, prompts, episodes, sinks.

Imported only by :mod:`hat_eval.loadtest._user` (it imports gevent, so only in a Locust child).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import gevent
from locust.env import Environment

if TYPE_CHECKING:
    from hat_eval.episode import Episode

from ._client import ChatStreamClient
from ._config import (
    API_KEY_ENV,
    PROMPTS_FILE,
    ClientConfig,
    SweepConfig,
    locust_fields,
    with_overrides,
)
from ._episode import EpisodeRecord, load_episodes
from ._option_fields import (
    ConfigError,
    option_default,
    option_flag,
    option_help,
    option_secret,
)
from ._prompts import PROMPT_OPTIONS, PromptSet, prompts_for, read_prompt_set
from ._records import RequestRecord
from ._watchdog import StallWatchdog

__all__ = [
    "EPISODES_PREFIX",
    "add_arguments",
    "load_setup",
]


EPISODES_PREFIX = "episodes-"
"""Episode records go to ``--raw-dir/episodes-<pid>.jsonl`` beside the turns' ``raw-<pid>``."""


def _keep(rec: RequestRecord | EpisodeRecord, sink: TextIO | None, store: list[Any]) -> None:
    """Write a record as a JSON line to ``sink`` (flushed: a child may die), else keep it."""
    if sink is not None:
        sink.write(json.dumps(rec.to_dict()) + "\n")
        sink.flush()
    else:
        store.append(rec)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add hat-eval's options to Locust's command line (``init_command_line_parser``).

    ``hat-eval loadtest`` passes only ``--hat-config`` and ``--raw-dir``. The other options, one
    per config field a Locust process uses (:func:`~hat_eval.loadtest._config.locust_fields`),
    with the field's help, are for runs started by hand; given with ``--hat-config`` they
    override the file (a prompt option then rebuilds the prompts).
    """
    parser.add_argument(
        "--hat-config",
        default="",
        help="config.json written by hat-eval loadtest; the prompts.jsonl beside it is sent.",
    )
    parser.add_argument(
        "--raw-dir", default="", help="Folder for raw per-request JSONL records (optional)."
    )
    for cls, name, tp in locust_fields():
        try:
            value = option_default(cls, name)
            default = "" if value is None else f" Default: {value}."
        except KeyError:
            default = " Required without --hat-config."
        kw: dict[str, Any] = {"dest": name, "default": None}
        if tp is bool:
            kw["action"] = argparse.BooleanOptionalAction
        else:
            kw["type"] = tp if tp in (int, float) else str
        if option_secret(cls, name):
            kw["is_secret"] = True  # Locust masks it in the web UI
        parser.add_argument(option_flag(name), help=option_help(cls, name) + default, **kw)


def _options(o: argparse.Namespace) -> dict[str, Any]:
    return {name: getattr(o, name, None) for _cls, name, _tp in locust_fields()}


def load_setup(o: argparse.Namespace, host: str | None) -> tuple[SweepConfig, PromptSet]:
    """The config and prompts of this Locust process, from its parsed options.

    Raises:
        ConfigError: A bad or missing config, a bad option value, or a bad harness file.
        PromptError: A missing or bad prompts file or messages source.
    """
    values = _options(o)
    if o.hat_config:
        path = Path(o.hat_config)
        cfg = with_overrides(SweepConfig.read(path), values)
        rebuild = any(values.get(n) not in (None, "") for n in PROMPT_OPTIONS)
    else:
        if not values.get("model"):
            raise ConfigError(
                "--model is required without --hat-config: the model name the server serves"
            )
        base = SweepConfig(client=ClientConfig(host=host or "", model=str(values["model"])))
        cfg = with_overrides(base, values)
        rebuild = True
    if rebuild:
        from hat_eval.harness import HarnessError

        try:
            prompts = prompts_for(cfg)
        except HarnessError as err:
            raise ConfigError(f"harness: {err}") from None
    else:
        prompts = read_prompt_set(Path(o.hat_config).parent / PROMPTS_FILE)
    client = replace(
        cfg.client,
        host=host or cfg.client.host,
        api_key=cfg.client.api_key or os.environ.get(API_KEY_ENV) or None,
    )
    return replace(cfg, client=client), prompts


@dataclass
class _Shared:
    """What the users of one process share."""

    config: ClientConfig
    prompts: PromptSet
    count_tokens: Callable[[str], int] | None
    max_requests: int
    offset: int
    sink: TextIO | None
    mode: str = "request"
    episodes: list[Episode] = field(default_factory=list)
    max_turns: int = 5
    episode_sink: TextIO | None = None
    episode_records: list[EpisodeRecord] = field(default_factory=list)
    spawn_interval_s: float = 0.0
    """Time between two users' starts in this process (0: as Locust starts them)."""
    spawn_start: float | None = None
    spawned: int = 0
    watchdog: StallWatchdog = field(default_factory=StallWatchdog)
    counter: itertools.count[int] = field(default_factory=itertools.count)
    issued: int = 0
    in_flight: int = 0
    records: list[RequestRecord] = field(default_factory=list)
    bodies: dict[int, bytes] = field(default_factory=dict)

    def body(self, client: ChatStreamClient, i: int) -> bytes:
        """Prompt ``i``'s request body, encoded once per process."""
        if i not in self.bodies:
            self.bodies[i] = client.encode(self.prompts[i])
        return self.bodies[i]

    def take(self) -> int | None:
        if self.max_requests and self.issued >= self.max_requests:
            return None
        self.issued += 1
        return self.offset + next(self.counter)

    def keep(self, rec: RequestRecord) -> None:
        _keep(rec, self.sink, self.records)

    def keep_episode(self, rec: EpisodeRecord) -> None:
        _keep(rec, self.episode_sink, self.episode_records)


_SHARED: dict[int, _Shared] = {}


def _tokenizer(path: str) -> Callable[[str], int]:
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(path)
    return lambda text: len(tok(text, add_special_tokens=False)["input_ids"])


def _processes(o: argparse.Namespace) -> int:
    """How many Locust processes run users (``--processes``; -1 is one per CPU core)."""
    n = getattr(o, "processes", None) or 1
    return (os.cpu_count() or 1) if n < 0 else n


_SWITCH_INTERVAL_S = 1e-4
"""The interpreter's thread switch interval in episode mode (Python's default is 5 ms)."""


def _episodes(cfg: SweepConfig) -> list[Episode]:
    """The episodes this process plays, their worlds built; a bad harness is a ConfigError.

    Tool calls run on gevent's thread pool (:func:`_on_thread`); with the switch interval
    lowered to 0.1 ms the event loop's thread takes the interpreter back within about that
    when a read arrives, instead of after up to 5 ms of another thread's tool call.
    """
    from hat_eval.episode import episode_context
    from hat_eval.harness import HarnessError

    try:
        episodes = load_episodes(cfg.n_prompts, cfg.harness)
        for e in episodes:
            episode_context(e)  # the knowledge base and harness variants, built once, now
    except (HarnessError, ValueError) as err:
        raise ConfigError(f"episodes: {err}") from None
    sys.setswitchinterval(_SWITCH_INTERVAL_S)
    return episodes


def _on_thread(fn: Callable[[], Any]) -> Any:
    """Run ``fn`` on gevent's thread pool; this user waits cooperatively meanwhile."""
    return gevent.get_hub().threadpool.apply(fn)


def _shared(env: Environment) -> _Shared:
    if id(env) in _SHARED:
        return _SHARED[id(env)]
    o = env.parsed_options
    assert o is not None, "Locust parses its options before it starts users"
    cfg, prompts = load_setup(o, env.host)
    episodes = _episodes(cfg) if cfg.mode == "episode" else []
    sink = episode_sink = None
    if o.raw_dir:
        Path(o.raw_dir).mkdir(parents=True, exist_ok=True)
        sink = (Path(o.raw_dir) / f"raw-{os.getpid()}.jsonl").open("a", encoding="utf-8")
        if episodes:
            name = f"{EPISODES_PREFIX}{os.getpid()}.jsonl"
            episode_sink = (Path(o.raw_dir) / name).open("a", encoding="utf-8")
    index = getattr(env.runner, "worker_index", 0) or 0
    shared = _Shared(
        cfg.client,
        prompts,
        _tokenizer(cfg.tokenizer) if cfg.tokenizer else None,
        cfg.requests_per_process(_processes(o)),
        offset=(index * 7919) % len(episodes or prompts),
        sink=sink,
        mode=cfg.mode,
        episodes=episodes,
        max_turns=cfg.max_turns,
        episode_sink=episode_sink,
        spawn_interval_s=_processes(o) / cfg.spawn_rate if cfg.spawn_rate else 0.0,
    )
    _SHARED[id(env)] = shared
    return shared
