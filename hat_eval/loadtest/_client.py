"""A blocking streaming chat-completions client on a plain socket (see :mod:`._http`).

It runs as it is in a plain process (the CLI's pre-flight check, the MTP comparison) and, under
Locust's gevent monkey-patching, cooperatively inside Locust users, where every socket wait yields.
Locust's own HTTP clients time a streamed response when its headers arrive; this one stamps every
``recv`` as it returns and times the chunks from those stamps (see :mod:`hat_eval.loadtest._sse`).
"""

from __future__ import annotations

import http.client
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from urllib.parse import urlsplit

from ._config import ClientConfig
from ._http import RECV_BYTES, BodyFramer, Connection, ProtocolError, RemoteDisconnected
from ._prompts import Prompt
from ._records import RequestRecord
from ._sse import StreamMeter, TokenCounter
from ._watchdog import StallWatchdog, Watch

CHAT_PATH = "/v1/chat/completions"
SENT_AT_HEADER = "X-Hat-Sent-At"
"""Each request carries the ``perf_counter()`` it was timed from; real servers ignore it, the
bundled fake server counts its injected latencies from it (same host, same monotonic clock)."""


class EndpointError(ValueError):
    """A base URL that is not an ``http(s)://host[:port]`` address."""


@dataclass(frozen=True)
class Endpoint:
    """Where an OpenAI-compatible server listens; built from a URL by :meth:`parse`."""

    scheme: str
    host: str
    port: int
    base_path: str = ""

    @classmethod
    def parse(cls, url: str) -> Endpoint:
        """Parse ``http://host:port`` (a trailing ``/v1`` is accepted and dropped).

        Raises:
            EndpointError: The URL has no http(s) scheme or no host, or a bad port.
        """
        parts = urlsplit(url.strip())
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise EndpointError(f"{url!r} is not a server URL; expected http://HOST:PORT")
        try:
            port = parts.port or (443 if parts.scheme == "https" else 80)
        except ValueError as err:
            raise EndpointError(f"{url!r} has a bad port ({err})") from None
        path = parts.path.rstrip("/")
        if path.endswith("/v1"):
            path = path[:-3]
        return cls(parts.scheme, parts.hostname, port, path)

    @property
    def url(self) -> str:
        """The base URL, without ``/v1``."""
        return f"{self.scheme}://{self.host}:{self.port}{self.base_path}"

    def connect(self, timeout: float) -> http.client.HTTPConnection:
        """A new (not yet connected) HTTP connection."""
        cls = http.client.HTTPSConnection if self.scheme == "https" else http.client.HTTPConnection
        return cls(self.host, self.port, timeout=timeout)


_BACKLOG = 256
"""Received reads kept unparsed at most; a longer stream is parsed in batches of this many."""
_SLICE_S = 100e-6

Pause = Callable[[], None]
"""Gives other users the CPU until none has a read to stamp (Locust users pass ``gevent.idle``)."""


@dataclass(frozen=True)
class Reply:
    """One streamed turn of a conversation: its record and the assistant's message."""

    record: RequestRecord
    start: float
    """The ``perf_counter()`` the record's durations count from (the request's send)."""
    content: str
    """The answer's text (``content`` deltas; reasoning left out)."""
    tool_calls: tuple[tuple[str, str, str], ...]
    """``(id, name, arguments JSON)`` of each tool call, in index order."""


class _Failed(Exception):
    """A request that failed before its body: the record's reason and detail."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(reason)
        self.reason, self.detail = reason, detail


def _parse(
    meter: StreamMeter, bodies: list[bytes], stamps: list[float], pause: Pause | None
) -> None:
    """Feed the stamped reads to the meter, calling ``pause`` after every ~0.1 ms of parsing.

    With ``pause=gevent.idle`` the hub stamps every read that arrived meanwhile before the next
    slice, so one user's parsing holds up another user's arrival stamp by one slice at most.
    """
    clock = time.perf_counter
    t = clock()
    for data, now in zip(bodies, stamps, strict=True):
        if meter.stopped:
            break
        meter.feed(data, now)
        if pause is not None and clock() - t > _SLICE_S:
            pause()
            t = clock()
    bodies.clear()
    stamps.clear()


class ChatStreamClient:
    """Sends streamed chat completions over one keep-alive connection and times them.

    The read loop is the timing path: each ``recv`` is stamped with ``perf_counter()`` the moment
    it returns; the loop then only cuts out the chunk framing and keeps the bytes and the stamp.
    The SSE/JSON parsing runs after the body ends (or early on a ``[DONE]``/``error`` line, or
    every ``_BACKLOG`` reads) over the kept stamps, so the timings are those an inline parser would
    give. Many users in one process (Locust's greenlets) share a
    :class:`~hat_eval.loadtest._watchdog.StallWatchdog` instead of per-read socket timeouts, and
    pass ``pause=gevent.idle``: the parsing then runs in ~0.1 ms slices, each only once no other
    user has a read waiting to be stamped.

    Args:
        config: What every request shares.
        count_tokens: Token counter for servers that send no ``usage``.
        pause: Called between parsing slices (see above); ``None`` parses in one go.
        watchdog: Detects stalls for this client; ``None`` uses a socket timeout per read.
    """

    def __init__(
        self,
        config: ClientConfig,
        count_tokens: TokenCounter | None = None,
        *,
        pause: Pause | None = None,
        watchdog: StallWatchdog | None = None,
    ) -> None:
        self.config = config
        self.endpoint = Endpoint.parse(config.host)
        self.count_tokens = count_tokens
        self.pause = pause
        self.watchdog = watchdog
        self._conn: Connection | None = None
        self._start = 0.0
        self._resent = 0
        ep = self.endpoint
        default_port = 443 if ep.scheme == "https" else 80
        host = f"[{ep.host}]" if ":" in ep.host else ep.host  # an IPv6 literal
        head = [
            f"POST {ep.base_path}{CHAT_PATH} HTTP/1.1",
            f"Host: {host}" if ep.port == default_port else f"Host: {host}:{ep.port}",
            "User-Agent: hat-eval-loadtest",
            "Content-Type: application/json",
            "Accept: text/event-stream",
            "Accept-Encoding: identity",
        ]
        if config.api_key:
            head.append(f"Authorization: Bearer {config.api_key}")
        self._head = ("\r\n".join(head) + "\r\n").encode("latin-1")

    def close(self) -> None:
        """Close the connection."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def _connect(self) -> Connection:
        if self._conn is None:
            ep, stall = self.endpoint, self.config.stall_timeout_s
            self._conn = Connection(ep.scheme, ep.host, ep.port, stall)
            if self.watchdog is not None:
                self._conn.sock.settimeout(None)  # the watchdog times the reads
        return self._conn

    def _open(
        self, body: bytes, watch: list[Watch]
    ) -> tuple[Connection, int, bool, dict[str, str], float, float]:
        """Send the request, reusing the connection; retry once when a reused one was stale."""
        for attempt in (0, 1):
            reused = self._conn is not None
            started_at, start = time.time(), time.perf_counter()
            try:
                conn = self._connect()
                if self.watchdog is not None:
                    watch.append(self.watchdog.watch(conn.sock, self.config.stall_timeout_s))
                head = self._head + b"%s: %.9f\r\nContent-Length: %d\r\n\r\n" % (
                    SENT_AT_HEADER.encode(),
                    start,
                    len(body),
                )
                conn.send(head, body)
                status, keep_alive, headers = conn.read_head()
                return conn, status, keep_alive, headers, started_at, start
            except OSError as err:
                self.close()
                if (watch and watch[-1].fired) or isinstance(err, TimeoutError):
                    what = f"no response headers within {self.config.stall_timeout_s:g} s"
                    raise _Failed("stalled", what) from None
                stale = isinstance(err, RemoteDisconnected | BrokenPipeError | ConnectionResetError)
                if not (stale and reused and not attempt):
                    detail = f"{type(err).__name__}: {err}"[:300]
                    raise _Failed("connection error", detail) from None
                if watch and self.watchdog is not None:
                    self.watchdog.unwatch(watch.pop())
                self._resent += 1  # dropped on a reused connection: sent again, and counted
        raise AssertionError("unreachable")

    def encode(self, prompt: Prompt) -> bytes:
        """The request body of ``prompt`` (to encode each prompt of a run once, not per send)."""
        return json.dumps(self.config.payload(prompt)).encode()

    def exchange(self, prompt: Prompt, prompt_index: int = -1) -> Reply:
        """Send one turn of a conversation; return its record and the assistant's message.

        Like :meth:`send` (never raises for server or network faults), and the streamed
        message is put together as well: its text and its tool calls.
        """
        meter = StreamMeter(assemble=True)
        watch: list[Watch] = []
        try:
            rec = self._send(prompt, prompt_index, watch, meter)
        finally:
            if watch and self.watchdog is not None:
                self.watchdog.unwatch(watch[0])
        calls = tuple(tuple(meter.tool_calls[i]) for i in sorted(meter.tool_calls))
        return Reply(rec, self._start, "".join(meter.content), calls)  # type: ignore[arg-type]

    def send(
        self, prompt: Prompt, prompt_index: int = -1, body: bytes | None = None
    ) -> RequestRecord:
        """Send one prompt and return its record; never raises for server or network faults.

        Args:
            prompt: What to send.
            prompt_index: Recorded with the result.
            body: ``encode(prompt)``, if the caller keeps it; encoded here when ``None``.
        """
        watch: list[Watch] = []
        try:
            return self._send(prompt if body is None else body, prompt_index, watch)
        finally:
            if watch and self.watchdog is not None:
                self.watchdog.unwatch(watch[0])

    def _send(
        self,
        prompt: Prompt | bytes,
        prompt_index: int,
        watch: list[Watch],
        meter: StreamMeter | None = None,
    ) -> RequestRecord:
        self._resent = 0
        rec = self._send_once(prompt, prompt_index, watch, meter)
        return replace(rec, resent=self._resent) if self._resent else rec

    def _send_once(
        self,
        prompt: Prompt | bytes,
        prompt_index: int,
        watch: list[Watch],
        meter: StreamMeter | None,
    ) -> RequestRecord:
        cfg = self.config
        body = prompt if isinstance(prompt, bytes) else self.encode(prompt)
        started_at, start = time.time(), time.perf_counter()
        self._start = start
        try:
            conn, status, keep_alive, headers, started_at, start = self._open(body, watch)
            self._start = start
            framer = BodyFramer(headers)
        except _Failed as err:
            return RequestRecord(
                "failure",
                started_at,
                time.perf_counter() - start,
                reason=err.reason,
                detail=err.detail,
                prompt_index=prompt_index,
            )
        except ProtocolError as err:
            self.close()
            return RequestRecord(
                "failure",
                started_at,
                time.perf_counter() - start,
                reason="connection error",
                detail=f"{type(err).__name__}: {err}"[:300],
                prompt_index=prompt_index,
            )
        if status != 200:
            text = self._error_body(conn, framer)
            self.close()
            return RequestRecord(
                "failure",
                started_at,
                time.perf_counter() - start,
                status=status,
                reason=f"HTTP {status}",
                detail=" ".join(text.split())[:300],
                prompt_index=prompt_index,
            )
        meter = StreamMeter() if meter is None else meter
        w = watch[0] if watch else None
        bodies, stamps, stalled, timed_out, broken, end = self._read(
            conn, framer, meter, w, start + cfg.request_timeout_s
        )
        stalled = stalled or (w is not None and w.fired)
        _parse(meter, bodies, stamps, self.pause)
        reusable = framer.ended and keep_alive and not (stalled or timed_out or broken)
        if reusable and meter.error is None:
            conn.buffered = framer.rest
        else:
            self.close()
        rec = meter.record(
            started_at=started_at,
            elapsed_s=end - start,
            status=status,
            prompt_index=prompt_index,
            count_tokens=self.count_tokens,
            start=start,
        )
        if (stalled or timed_out) and rec.ok is False and rec.reason == "truncated stream":
            return self._cut_short(rec, meter, stalled=stalled, end=end, start=start)
        return rec

    def _read(
        self,
        conn: Connection,
        framer: BodyFramer,
        meter: StreamMeter,
        w: Watch | None,
        deadline: float,
    ) -> tuple[list[bytes], list[float], bool, bool, bool, float]:
        """Read the streamed body with each read's arrival stamp, parsing as [DONE] or errors come.

        Returns the bodies, their stamps, whether the stream stalled, timed out or broke, and
        the clock when reading stopped.
        """
        stalled = timed_out = broken = False
        bodies: list[bytes] = []
        stamps: list[float] = []
        if conn.buffered:  # body bytes that came with the head arrived with it
            data, conn.buffered = conn.buffered, b""
            try:
                bodies.append(framer.feed(data))
                stamps.append(conn.arrived)
            except ProtocolError:
                broken = True
        recv, clock = conn.sock.recv, time.perf_counter
        frame, keep, stamp = framer.feed, bodies.append, stamps.append
        try:
            while not (framer.ended or broken or meter.error is not None):
                data = recv(RECV_BYTES)
                now = clock()  # the arrival stamp: nothing runs between recv and here
                if not data:
                    break
                chunk = frame(data)
                keep(chunk)
                stamp(now)
                if w is not None:
                    w.last = now
                if now > deadline:
                    timed_out = True
                    break
                if b"[DONE]" in chunk or b'"error"' in chunk or len(stamps) >= _BACKLOG:
                    _parse(meter, bodies, stamps, self.pause)  # may end the stream early
        except TimeoutError:
            stalled = True
        except OSError:
            broken = True  # reset, or a bad chunk: the meter tells truncated from complete
        return bodies, stamps, stalled, timed_out, broken, time.perf_counter()

    def _cut_short(
        self, rec: RequestRecord, meter: StreamMeter, *, stalled: bool, end: float, start: float
    ) -> RequestRecord:
        """A truncated stream the stall watchdog or the request timeout ended, as that failure."""
        cfg = self.config
        what = (
            f"no data for {cfg.stall_timeout_s:g} s"
            if stalled
            else f"still streaming after {cfg.request_timeout_s:g} s"
        )
        return RequestRecord(
            "failure",
            rec.started_at,
            end - start,
            ttft_s=rec.ttft_s,
            status=rec.status,
            reason="stalled" if stalled else "timeout",
            detail=f"{what} ({meter.token_chunks} token chunks received)",
            prompt_index=rec.prompt_index,
            chunks=rec.chunks,
            bytes_received=rec.bytes_received,
        )

    @staticmethod
    def _error_body(conn: Connection, framer: BodyFramer, limit: int = 4096) -> str:
        """Up to ``limit`` bytes of an error response's body, as text ("" if unreadable)."""
        parts = []
        size = 0
        try:
            data, conn.buffered = conn.buffered, b""
            while True:
                if data:
                    part = framer.feed(data)
                    parts.append(part)
                    size += len(part)
                if framer.ended or size >= limit:
                    break
                data = conn.sock.recv(RECV_BYTES)
                if not data:
                    break
        except OSError:
            pass
        return b"".join(parts)[:limit].decode("utf-8", "replace")


def probe(config: ClientConfig, prompt: Prompt) -> RequestRecord:
    """Send one short request (at most 8 tokens) to check a server before a run."""
    client = ChatStreamClient(replace(config, max_tokens=min(8, config.max_tokens)))
    try:
        return client.send(prompt)
    finally:
        client.close()
