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

import gc
import logging
import time
from typing import Any

import gevent
from locust import User, constant, task
from locust.env import Environment
from locust.exception import StopUser
from locust.runners import LocalRunner, MasterRunner

from ._client import ChatStreamClient, EndpointError
from ._episode import EpisodeRecord, play_episode
from ._option_fields import (
    ConfigError,
)
from ._prompts import PromptError
from ._records import RequestRecord
from ._stats import summarize
from ._user_setup import (
    _SHARED,
    _on_thread,
    _shared,
    add_arguments,
)

log = logging.getLogger("hat_eval.loadtest")


class LoadTestFailure(Exception):
    """What Locust lists for a failed request: the failure's reason."""


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
