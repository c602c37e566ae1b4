"""How many concurrent streams one load generator holds with its timing overhead < 1 ms at P95.

A minimal single-threaded SSE server (its own process, so it never holds the generator's CPU or
GIL) stamps every token chunk with ``perf_counter()`` right before its ``send``; the Locust user
stamps every ``recv`` as it returns and records receive-stamp minus send-stamp per token chunk
(same host, same monotonic clock). That lag is the generator's own timing error: kernel delivery
plus the wait until the gevent hub runs the reading greenlet, which grows with whatever else the
generator's CPU is doing. Run ``python bench/bench_loadtest.py [levels] [workers]`` (default
levels 50,100,200,300,500, 10 s each; one token every 50 ms per stream = 20 tokens/s, a realistic
per-stream decode rate under load, so 500 streams are 10,000 chunks/s). Streams start at random
phases, so chunks arrive spread out as from a busy API server rather than in one burst per decode
step, and answers are 50-150 tokens long (mean 100), so streams that Locust starts together (it
spawns a second's worth of users at once) do not all end together. Each level also prints how
late the server's chunks left against their plan: the server holding its schedule is what makes
the measured lag the generator's own.

``python bench/bench_loadtest.py --episodes [levels] [workers]`` (default levels 25,50,100,200)
measures whole episodes instead (``--mode episode``): the server answers a request without a tool
result with a streamed tool call (a catalogue search, one chunk for its name and five for its
arguments, stamped like tokens) and one with a result with the answer above, so the generator
also runs the agent loop and each episode's tool call against the world (about 10 ms of CPU for a
catalogue search, on gevent's thread pool). Use ``workers`` 2 for a 2-core generator. It prints
the same overhead per level, and the episodes' count and P50/P95 end-to-end time.
"""

from __future__ import annotations

import heapq
import multiprocessing as mp
import random
import selectors
import socket
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from hat_eval.loadtest import (
    ClientConfig,
    PromptSet,
    SweepConfig,
    prompts_for,
    run_level,
    write_run_files,
)

TARGET_S = 1e-3
TTFT_S, GAP_S = 0.05, 0.05
MIN_TOKENS, MAX_TOKENS = 50, 150


def _frame(data: bytes) -> bytes:
    return b"%x\r\n%s\r\n" % (len(data), data)


_HEAD = (
    b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
    + _frame(b'data: {"choices": [{"index": 0, "delta": {"role": "assistant"}}]}\n\n')
)
_TOKEN = b'data: {"choices": [{"index": 0, "delta": {"content": " t"}}], "x_sent_at": %.9f}\n\n'
_TAIL = (
    b'data: {"choices": [{"index": 0, "delta": {}, "finish_reason": "length"}], '
    b'"usage": {"completion_tokens": %d}}\n\n'
)
_END = _frame(b"data: [DONE]\n\n") + b"0\r\n\r\n"
_ARGS = ['{"query', '": "bo', 'ots", "', "max_res", 'ults": 3}']
_CALL_HEAD = (
    b'data: {"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "call_1", '
    b'"type": "function", "function": {"name": "%s", "arguments": ""}}]}}], '
    b'"x_sent_at": %.9f}\n\n'
)
_CALL_ARGS = (
    b'data: {"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": '
    b'{"arguments": %s}}]}}], "x_sent_at": %.9f}\n\n'
)
_CALL_TAIL = (
    b'data: {"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}], '
    b'"usage": {"completion_tokens": %d}}\n\n'
)


class _Conn:
    __slots__ = ("alive", "buf", "call", "sock", "tokens")

    def __init__(self, sock: socket.socket) -> None:
        self.sock, self.buf, self.alive, self.tokens = sock, b"", True, 0
        self.call = b""  # the tool name when this stream is a tool call


def _first_tool(body: bytes) -> bytes:
    """The name of the first tool a request offers (the catalogue search of the harness)."""
    import json

    tools = json.loads(body).get("tools") or [{}]
    return str(tools[0].get("function", {}).get("name", "tool")).encode()


def _chunk(c: _Conn, k: int, sent_at: float) -> bytes:
    """Token chunk ``k`` of ``c``'s stream, with the tail after the last one."""
    if not c.call:
        data = _frame(_TOKEN % sent_at)
        return data + (_frame(_TAIL % c.tokens) + _END if k == c.tokens - 1 else b"")
    if k == 0:
        return _frame(_CALL_HEAD % (c.call, sent_at))
    piece = json_string(_ARGS[k - 1])
    data = _frame(_CALL_ARGS % (piece, sent_at))
    return data + (_frame(_CALL_TAIL % c.tokens) + _END if k == c.tokens - 1 else b"")


def json_string(text: str) -> bytes:
    """``text`` as a JSON string literal."""
    import json

    return json.dumps(text).encode()


def _serve(queue: mp.Queue) -> None:
    """Serve streams from one thread: a heap of chunk deadlines, each met by a precise sleep.

    ``asyncio`` (like any ``epoll`` loop) wakes on whole milliseconds, so it writes the chunks due
    in a millisecond as one burst; here a deadline under 2 ms away is slept to with ``time.sleep``
    (nanosleep, ~0.1 ms late on this VM), so chunks go out spread as planned. Each chunk is stamped
    with ``perf_counter()`` just before its ``send``. ``GET /lateness`` returns (and resets) the
    P50/P95 of how late chunks left against their planned times.
    """
    sel = selectors.DefaultSelector()
    lsock = socket.create_server(("127.0.0.1", 0), backlog=4096)
    lsock.setblocking(False)
    sel.register(lsock, selectors.EVENT_READ)
    queue.put(lsock.getsockname()[1])
    heap: list[tuple[float, int, _Conn, int]] = []
    late: list[float] = []
    seq = 0
    clock = time.perf_counter

    def drop(c: _Conn) -> None:
        if c.alive:
            c.alive = False
            sel.unregister(c.sock)
            c.sock.close()

    def on_readable(c: _Conn) -> None:
        nonlocal seq
        try:
            data = c.sock.recv(1 << 20)
        except OSError:
            data = b""
        if not data:
            drop(c)
            return
        c.buf += data
        while (end := c.buf.find(b"\r\n\r\n")) >= 0:
            head = c.buf[:end].lower()
            length = 0
            for line in head.split(b"\r\n"):
                if line.startswith(b"content-length:"):
                    length = int(line[15:])
            if len(c.buf) < end + 4 + length:
                return
            body = c.buf[end + 4 : end + 4 + length]
            c.buf = c.buf[end + 4 + length :]
            if head.startswith(b"get /lateness"):
                q = sorted(late) or [0.0]
                late.clear()
                body = b"%.9f %.9f" % (q[len(q) // 2], q[int(len(q) * 0.95)])
                c.sock.sendall(
                    b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body)
                )
                continue
            c.sock.sendall(_HEAD)
            # an episode's first turn (no tool result yet) is a tool call, when asked for one
            c.call = b"" if not EPISODES or b'"role": "tool"' in body else _first_tool(body)
            c.tokens = 1 + len(_ARGS) if c.call else random.randint(MIN_TOKENS, MAX_TOKENS)
            t0 = clock() + random.uniform(0.0, GAP_S)  # streams out of phase, as in vLLM
            heapq.heappush(heap, (t0 + TTFT_S, seq, c, 0))
            seq += 1

    while True:
        now = clock()
        while heap and heap[0][0] <= now:
            due, _, c, k = heapq.heappop(heap)
            if not c.alive:
                continue
            try:
                sent_at = clock()
                data = _chunk(c, k, sent_at)
                if k < c.tokens - 1:
                    heapq.heappush(heap, (due + GAP_S, seq, c, k + 1))
                    seq += 1
                if c.sock.send(data) != len(data):  # a client that stopped reading
                    drop(c)
            except OSError:
                drop(c)
            late.append(sent_at - due)
            now = clock()
        wait = heap[0][0] - clock() if heap else 0.5
        if wait > 0.002:
            events = sel.select(wait - 0.0015)  # epoll's millisecond wake-up, early on purpose
        else:
            events = sel.select(0)
            if not events and wait > 0:
                time.sleep(wait)
        for key, _ in events:
            if key.fileobj is lsock:
                try:
                    sock, _addr = lsock.accept()
                except BlockingIOError:
                    continue
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                sock.setblocking(False)
                c = _Conn(sock)
                sel.register(sock, selectors.EVENT_READ, c)
            else:
                on_readable(key.data)


def _lateness(url: str) -> tuple[float, float]:
    with urllib.request.urlopen(url + "/lateness", timeout=10) as resp:
        p50, p95 = resp.read().split()
    return float(p50), float(p95)


EPISODES = False
"""Whether the server plays episodes (``--episodes``): set in the server's process too."""


def _serve_mode(queue: mp.Queue, episodes: bool) -> None:
    global EPISODES
    EPISODES = episodes
    _serve(queue)


def main() -> None:
    args = sys.argv[1:]
    episodes = "--episodes" in args
    args = [a for a in args if a != "--episodes"]
    workers = int(args[1]) if len(args) > 1 else 0
    default = "25,50,100,200" if episodes else "50,100,200,300,500"
    levels = [int(x) for x in (args[0] if args else default).split(",")]
    ctx = mp.get_context("spawn")
    queue: mp.Queue = ctx.Queue()
    server = ctx.Process(target=_serve_mode, args=(queue, episodes), daemon=True)
    server.start()
    try:
        url = f"http://127.0.0.1:{queue.get(timeout=30)}"
        held, missed = 0, False
        prompts: PromptSet | None = None
        with tempfile.TemporaryDirectory() as tmp:
            for users in levels:
                cfg = SweepConfig(
                    ClientConfig(url, "fake", max_tokens=MAX_TOKENS),
                    users=(users,),
                    duration_s=10,
                    out=Path(tmp),
                    spawn_rate=max(50.0, users / 2),
                    stop_timeout_s=10,
                    workers=workers,
                    mode="episode" if episodes else "request",
                )
                if prompts is None:  # built once, sent at every level
                    prompts = prompts_for(cfg)
                write_run_files(cfg, prompts)
                t = time.monotonic()
                _lateness(url)  # reset
                lv = run_level(cfg, users)
                late50, late95 = _lateness(url)
                p50, p95 = lv.server_lag_p50_s, lv.server_lag_p95_s
                ok = p95 is not None and p95 < TARGET_S and lv.failures == 0
                ok = ok and (not episodes or lv.episode_failures == 0)
                if ok and not missed:
                    held = users
                missed = missed or not ok  # levels above a miss do not count
                print(
                    f"users={users:4d}: {lv.requests:5d} requests, {lv.failures} failed, "
                    f"{lv.output_tokens_per_s:8.0f} tok/s; generator overhead P50 "
                    f"{(p50 or 0) * 1e3:.3f} ms, P95 {(p95 or 0) * 1e3:.3f} ms "
                    f"{'ok' if ok else 'over 1 ms'}; server late P50 {late50 * 1e3:.3f} ms, "
                    f"P95 {late95 * 1e3:.3f} ms ({time.monotonic() - t:.0f} s)",
                    flush=True,
                )
                if episodes:
                    print(
                        f"           {lv.episodes} episodes, {lv.episode_failures} failed, "
                        f"E2E P50 {lv.episode_e2e_p50_s or 0:.3f} s "
                        f"P95 {lv.episode_e2e_p95_s or 0:.3f} s, tool time P50 "
                        f"{(lv.tool_s_p50_s or 0) * 1e3:.1f} ms",
                        flush=True,
                    )
        what = "concurrent episodes" if episodes else "concurrent streams"
        print(f"held {held} {what} with P95 overhead < 1 ms")
    finally:
        server.terminate()
        server.join()


if __name__ == "__main__":
    main()
