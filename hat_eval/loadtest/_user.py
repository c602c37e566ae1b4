"""The Locust user; this module imports locust, so load it only from a locustfile.

Importing locust monkey-patches the process with gevent: only ``hat_eval/loadtest/locustfile.py``,
run by Locust in a child process, imports this module, never the CLI process.

Each user sends streamed chat completions back to back (a closed loop: the Locust user count is the
concurrency), times them with :class:`~hat_eval.loadtest._client.ChatStreamClient`, fires Locust
``request`` events with its own numbers (``POST chat`` = E2E, or the time to the failure;
``TTFT chat`` = time to first token) so the web UI, CSV and HTML reports work, and appends every raw
record to ``--raw-dir/raw-<pid>.jsonl`` for exact percentiles.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import json
import logging
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import gevent
from locust import User, constant, task
from locust.env import Environment
from locust.exception import StopUser
from locust.runners import LocalRunner, MasterRunner

from ._client import ChatStreamClient, ClientConfig
from ._prompts import PromptSet, build_prompts, resolve_messages_source
from ._records import RequestRecord
from ._stats import summarize
from ._watchdog import StallWatchdog

log = logging.getLogger("hat_eval.loadtest")


class LoadTestFailure(Exception):
    """What Locust lists for a failed request: the failure's reason."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add hat-eval's options to Locust's command line (``init_command_line_parser``)."""
    g = parser
    g.add_argument("--model", default="default", help="Model name sent in each request.")
    g.add_argument("--max-tokens", type=int, default=256, help="max_tokens of each request.")
    g.add_argument("--temperature", type=float, default=0.0, help="Sampling temperature.")
    g.add_argument("--harness", default="", help="Harness file; the default harness if empty.")
    g.add_argument("--prompts", default="", help="JSONL of viewer messages or OpenAI messages.")
    g.add_argument(
        "--messages-source", default="", help="module:function returning N viewer messages."
    )
    g.add_argument("--n-prompts", type=int, default=64, help="Prompts to build from a source.")
    g.add_argument(
        "--no-stream-usage",
        action="store_true",
        help="Do not send stream_options (for servers that refuse it).",
    )
    g.add_argument(
        "--tokenizer",
        default="",
        help="Tokenizer dir to count output tokens when the server sends no usage.",
    )
    g.add_argument(
        "--stall-timeout",
        type=float,
        default=60.0,
        help="Seconds without data before a request fails as stalled.",
    )
    g.add_argument(
        "--request-timeout",
        type=float,
        default=600.0,
        help="Seconds before a still-streaming request fails.",
    )
    g.add_argument(
        "--max-requests",
        type=int,
        default=0,
        help="Stop after this many requests in this process (0: no limit).",
    )
    g.add_argument("--raw-dir", default="", help="Folder for raw per-request JSONL records.")
    g.add_argument("--api-key", default="", is_secret=True, help="Bearer token, if any.")


@dataclass
class _Shared:
    """What the users of one process share."""

    config: ClientConfig
    prompts: PromptSet
    count_tokens: Callable[[str], int] | None
    max_requests: int
    offset: int
    sink: TextIO | None
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
        if self.sink is not None:
            self.sink.write(json.dumps(rec.to_dict()) + "\n")
            self.sink.flush()
        else:
            self.records.append(rec)


_SHARED: dict[int, _Shared] = {}


def _tokenizer(path: str) -> Callable[[str], int]:
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(path)
    return lambda text: len(tok(text, add_special_tokens=False)["input_ids"])


def _shared(env: Environment) -> _Shared:
    if id(env) in _SHARED:
        return _SHARED[id(env)]
    o = env.parsed_options
    assert o is not None, "Locust parses its options before it starts users"
    source = resolve_messages_source(o.messages_source) if o.messages_source else None
    prompts = build_prompts(
        Path(o.harness) if o.harness else None,
        prompts_file=Path(o.prompts) if o.prompts else None,
        messages_source=source,
        n=o.n_prompts,
    )
    config = ClientConfig(
        host=env.host or "",
        model=o.model,
        max_tokens=o.max_tokens,
        temperature=o.temperature,
        stream_usage=not o.no_stream_usage,
        stall_timeout_s=o.stall_timeout,
        request_timeout_s=o.request_timeout,
        api_key=o.api_key or None,
    )
    sink = None
    if o.raw_dir:
        Path(o.raw_dir).mkdir(parents=True, exist_ok=True)
        sink = (Path(o.raw_dir) / f"raw-{os.getpid()}.jsonl").open("a", encoding="utf-8")
    index = getattr(env.runner, "worker_index", 0) or 0
    shared = _Shared(
        config,
        prompts,
        _tokenizer(o.tokenizer) if o.tokenizer else None,
        o.max_requests,
        offset=(index * 7919) % len(prompts),
        sink=sink,
    )
    _SHARED[id(env)] = shared
    return shared


class ChatStreamUser(User):
    """A viewer-facing client: streamed chat completions, one after another."""

    wait_time = constant(0)

    def on_start(self) -> None:
        """Build (once per process) the prompts and client settings from the options."""
        self.shared = _shared(self.environment)
        self.chat_client = ChatStreamClient(
            self.shared.config,
            self.shared.count_tokens,
            pause=gevent.idle,
            watchdog=self.shared.watchdog,
        )

    def on_stop(self) -> None:
        """Close the connection."""
        self.chat_client.close()

    @task
    def chat(self) -> None:
        """Send one prompt and report it."""
        shared = self.shared
        index = shared.take()
        if index is None:
            if shared.in_flight == 0 and isinstance(self.environment.runner, LocalRunner):
                gevent.spawn(self.environment.runner.quit)
            raise StopUser()
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

    def _fire(self, rec: RequestRecord) -> None:
        fire = self.environment.events.request.fire
        context: dict[str, Any] = {"output_tokens": rec.output_tokens, "ttft_s": rec.ttft_s}
        if rec.ok:
            fire(
                request_type="POST",
                name="chat",
                response_time=(rec.e2e_s or 0.0) * 1000,
                response_length=rec.bytes_received,
                response=None,
                context=context,
                exception=None,
            )
        else:
            fire(
                request_type="POST",
                name="chat",
                response_time=rec.elapsed_s * 1000,
                response_length=rec.bytes_received,
                response=None,
                context=context,
                exception=LoadTestFailure(rec.reason),
            )
        if rec.ok and rec.ttft_s is not None:
            fire(
                request_type="TTFT",
                name="chat",
                response_time=rec.ttft_s * 1000,
                response_length=0,
                response=None,
                context=context,
                exception=None,
            )


def _on_test_stop(environment: Environment, **_kwargs: Any) -> None:
    shared = _SHARED.get(id(environment))
    if shared is None or shared.sink is not None:
        return
    s = summarize(shared.records, users=environment.runner.user_count if environment.runner else 0)
    log.warning(
        "hat-eval exact: %d requests, %d failures, E2E P50 %s s P95 %s s, TTFT P50 %s s P95 %s s",
        s["requests"],
        s["failures"],
        s["e2e_p50_s"],
        s["e2e_p95_s"],
        s["ttft_p50_s"],
        s["ttft_p95_s"],
    )


def _on_test_start(environment: Environment, **_kwargs: Any) -> None:
    # Build the prompts (importing the harness and the suites' world) before any user starts:
    # done in the first user's on_start it would stall the spawner for a second, which then
    # starts the delayed users all at once, and their requests would keep ending in one burst.
    if not isinstance(environment.runner, MasterRunner):
        _shared(environment)
    # Locust's imports leave a large heap; a full collection of it pauses every user for tens of
    # milliseconds, which would land in the measured latencies. Freeze what exists now.
    gc.collect()
    gc.freeze()


def install(events: Any) -> None:
    """Register hat-eval's command-line options and end-of-test summary with Locust."""
    events.init_command_line_parser.add_listener(add_arguments)
    events.test_start.add_listener(_on_test_start)
    events.test_stop.add_listener(_on_test_stop)
