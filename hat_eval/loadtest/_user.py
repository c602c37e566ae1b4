"""The Locust user; this module imports locust, so load it only from a locustfile.

Importing locust monkey-patches the process with gevent: only the locustfile
(``hat_eval/loadtest/_locustfile.py``, or ``loadtest/locustfile.py`` over it), run by Locust in a
child process, imports this module, never the CLI process.

Each user sends streamed chat completions back to back (a closed loop: the Locust user count is the
concurrency), times them with :class:`~hat_eval.loadtest._client.ChatStreamClient`, fires Locust
``request`` events with its own numbers (``POST chat`` = E2E, or the time to the failure;
``TTFT chat`` = time to first token) so the web UI, CSV and HTML reports work, and appends every raw
record to ``--raw-dir/raw-<pid>.jsonl`` for exact percentiles.

The options come from ``--hat-config DIR/config.json`` (written by ``hat-eval loadtest``), with
the prompts built once beside it in ``DIR/prompts.jsonl``; a manual run may instead, or on top,
give the config's fields as options (:func:`add_arguments`).
"""

from __future__ import annotations

import argparse
import gc
import itertools
import json
import logging
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import gevent
from locust import User, constant, task
from locust.env import Environment
from locust.exception import StopUser
from locust.runners import LocalRunner, MasterRunner

from ._client import ChatStreamClient, EndpointError
from ._config import (
    API_KEY_ENV,
    PROMPTS_FILE,
    ClientConfig,
    ConfigError,
    SweepConfig,
    locust_fields,
    option_default,
    option_flag,
    option_help,
    option_secret,
    with_overrides,
)
from ._episode import EpisodeRecord, load_episodes, play_episode
from ._prompts import PROMPT_OPTIONS, PromptError, PromptSet, prompts_for, read_prompt_set
from ._records import RequestRecord
from ._stats import summarize
from ._watchdog import StallWatchdog

if TYPE_CHECKING:
    from hat_eval.episode import Episode

log = logging.getLogger("hat_eval.loadtest")
EPISODES_PREFIX = "episodes-"
"""Episode records go to ``--raw-dir/episodes-<pid>.jsonl`` beside the turns' ``raw-<pid>``."""


def _keep(rec: RequestRecord | EpisodeRecord, sink: TextIO | None, store: list[Any]) -> None:
    """Write a record as a JSON line to ``sink`` (flushed: a child may die), else keep it."""
    if sink is not None:
        sink.write(json.dumps(rec.to_dict()) + "\n")
        sink.flush()
    else:
        store.append(rec)


class LoadTestFailure(Exception):
    """What Locust lists for a failed request: the failure's reason."""


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


BACKOFF_S = (0.05, 2.0)
"""A user waits this long (first, most) after a connection error, doubling while they go on."""


class ChatStreamUser(User):
    """A viewer-facing client: streamed chat completions, one after another.

    After a connection error (server down, reset) the user waits before its next request:
    0.05 s, doubling up to 2 s while the errors go on, none after a success. So a dead server
    costs a few requests per user and second, not thousands; the summary's ``unreachable_s``
    says for how long it was down.
    """

    wait_time = constant(0)
    backoff_s = 0.0

    def on_start(self) -> None:
        """Take the prompts and client settings this process read before the test started."""
        if id(self.environment) not in _SHARED:
            raise StopUser()  # the setup failed; the test is stopping
        self.shared = _SHARED[id(self.environment)]
        self.chat_client = ChatStreamClient(
            self.shared.config,
            self.shared.count_tokens,
            pause=gevent.idle,
            watchdog=self.shared.watchdog,
        )
        self._pace()

    def _pace(self) -> None:
        """With a spawn rate, start the n-th user of this process n / rate seconds in.

        Locust starts a second's worth of users at once, so without this they would all
        connect within a few milliseconds whatever the rate says (a server with a small
        listen backlog then drops SYNs and some first requests wait for the retry).
        """
        shared = self.shared
        if not shared.spawn_interval_s:
            return
        now = time.perf_counter()
        if shared.spawn_start is None:
            shared.spawn_start = now
        slot = shared.spawn_start + shared.spawned * shared.spawn_interval_s
        shared.spawned += 1
        if slot > now:
            gevent.sleep(slot - now)

    def on_stop(self) -> None:
        """Close the connection."""
        self.chat_client.close()

    def _take(self) -> int:
        """The next request's (or episode's) number; stops the user when the run is done."""
        shared = self.shared
        index = shared.take()
        if index is None:
            if shared.in_flight == 0 and isinstance(self.environment.runner, LocalRunner):
                gevent.spawn(self.environment.runner.quit)
            raise StopUser()
        return index

    @task
    def chat(self) -> None:
        """Send one prompt (or, in episode mode, play one episode) and report it."""
        shared = self.shared
        if shared.mode == "episode":
            self._episode()
            return
        index = self._take()
        shared.in_flight += 1
        i = index % len(shared.prompts)
        try:
            rec = self.chat_client.send(shared.prompts[i], i, shared.body(self.chat_client, i))
        except gevent.GreenletExit:
            shared.keep(
                RequestRecord(
                    "cancelled",
                    0.0,
                    0.0,
                    reason="the run ended",
                    prompt_index=i,
                )
            )
            raise
        finally:
            shared.in_flight -= 1
        try:
            gevent.idle()  # the bookkeeping waits until no other user has a chunk to stamp
        finally:
            shared.keep(rec)
            self._fire(rec)
        self._back_off(rec.reason)

    def _episode(self) -> None:
        """Play one episode; report each turn (``chat``) and the episode (``episode``)."""
        shared = self.shared
        i = self._take() % len(shared.episodes)
        shared.in_flight += 1
        turns: list[RequestRecord] = []
        try:
            rec = play_episode(
                self.chat_client,
                shared.episodes[i],
                i,
                max_turns=shared.max_turns,
                turns=turns,
                execute=_on_thread,
            )
        except gevent.GreenletExit:
            for t in turns:
                shared.keep(t)
            cut = RequestRecord("cancelled", 0.0, 0.0, reason="the run ended", prompt_index=i)
            shared.keep(cut)
            shared.keep_episode(
                EpisodeRecord(
                    "cancelled",
                    0.0,
                    0.0,
                    i,
                    shared.episodes[i].id,
                    turns=len(turns) + 1,
                    reason="the run ended",
                )
            )
            raise
        finally:
            shared.in_flight -= 1
        try:
            gevent.idle()  # the bookkeeping waits until no other user has a chunk to stamp
        finally:
            for t in turns:
                shared.keep(t)
                self._fire(t)
            shared.keep_episode(rec)
            self._fire_episode(rec)
        self._back_off(rec.reason)

    def _back_off(self, reason: str | None) -> None:
        """Wait after a connection error (see the class docstring); reset after anything else."""
        if reason != "connection error":
            self.backoff_s = 0.0
            return
        first, most = BACKOFF_S
        self.backoff_s = min(most, self.backoff_s * 2 if self.backoff_s else first)
        gevent.sleep(self.backoff_s)

    def _emit(
        self,
        request_type: str,
        name: str,
        seconds: float,
        length: int,
        context: dict[str, Any],
        failure: str | None = None,
    ) -> None:
        """One Locust request event (milliseconds, as Locust counts them)."""
        self.environment.events.request.fire(
            request_type=request_type,
            name=name,
            response_time=seconds * 1000,
            response_length=length,
            response=None,
            context=context,
            exception=None if failure is None else LoadTestFailure(failure),
        )

    def _fire_episode(self, rec: EpisodeRecord) -> None:
        context: dict[str, Any] = {"turns": rec.turns, "tool_s": rec.tool_s}
        seconds = rec.e2e_s if rec.ok and rec.e2e_s is not None else rec.elapsed_s
        failure = None if rec.ok else str(rec.reason)
        self._emit("EPISODE", "episode", seconds, rec.output_tokens, context, failure)
        if rec.ok and rec.answer_ttft_s is not None:
            self._emit("ANSWER_TTFT", "episode", rec.answer_ttft_s, 0, context)

    def _fire(self, rec: RequestRecord) -> None:
        context: dict[str, Any] = {"output_tokens": rec.output_tokens, "ttft_s": rec.ttft_s}
        seconds = (rec.e2e_s or 0.0) if rec.ok else rec.elapsed_s
        failure = None if rec.ok else str(rec.reason)
        self._emit("POST", "chat", seconds, rec.bytes_received, context, failure)
        if rec.ok and rec.ttft_s is not None:
            self._emit("TTFT", "chat", rec.ttft_s, 0, context)


def _on_test_stop(environment: Environment, **_kwargs: Any) -> None:
    shared = _SHARED.get(id(environment))
    if shared is None or shared.sink is not None:
        return
    s = summarize(
        shared.records,
        users=environment.runner.user_count if environment.runner else 0,
        episodes=shared.episode_records if shared.mode == "episode" else None,
    )
    log.warning(
        "hat-eval exact: %d requests, %d failures, E2E P50 %s s P95 %s s, TTFT P50 %s s P95 %s s",
        s.requests,
        s.failures,
        s.e2e_p50_s,
        s.e2e_p95_s,
        s.ttft_p50_s,
        s.ttft_p95_s,
    )
    if s.episodes is not None:
        log.warning(
            "hat-eval exact: %d episodes, %d failures, E2E P50 %s s P95 %s s, answer TTFT "
            "P50 %s s P95 %s s, %s turns on average",
            s.episodes,
            s.episode_failures,
            s.episode_e2e_p50_s,
            s.episode_e2e_p95_s,
            s.answer_ttft_p50_s,
            s.answer_ttft_p95_s,
            s.turns_mean,
        )


def _on_test_start(environment: Environment, **_kwargs: Any) -> None:
    # Read the config and prompts (or, in a manual run, build the prompts) before any user
    # starts: done in the first user's on_start it would stall the spawner, which then starts
    # the delayed users all at once, and their requests would keep ending in one burst.
    if not isinstance(environment.runner, MasterRunner):
        try:
            _shared(environment)
        except (ConfigError, PromptError, EndpointError) as err:
            log.error("hat-eval: %s", err)
            environment.process_exit_code = 2
            if environment.runner is not None:
                gevent.spawn(environment.runner.quit)
            return
    # Locust's imports leave a large heap; a full collection of it pauses every user for tens of
    # milliseconds, which would land in the measured latencies. Freeze what exists now.
    gc.collect()
    gc.freeze()


def install(events: Any) -> None:
    """Register hat-eval's command-line options and end-of-test summary with Locust."""
    events.init_command_line_parser.add_listener(add_arguments)
    events.test_start.add_listener(_on_test_start)
    events.test_stop.add_listener(_on_test_stop)
