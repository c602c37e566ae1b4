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


class _Conn:
    __slots__ = ("alive", "buf", "sock", "tokens")

    def __init__(self, sock: socket.socket) -> None:
        self.sock, self.buf, self.alive, self.tokens = sock, b"", True, 0


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
            c.tokens = random.randint(MIN_TOKENS, MAX_TOKENS)
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
                data = _frame(_TOKEN % sent_at)
                if k == c.tokens - 1:
                    data += _frame(_TAIL % c.tokens) + _END
                else:
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


def main() -> None:
    args = sys.argv[1:]
    workers = int(args[1]) if len(args) > 1 else 0
    levels = [int(x) for x in (args[0] if args else "50,100,200,300,500").split(",")]
    ctx = mp.get_context("spawn")
    queue: mp.Queue = ctx.Queue()
    server = ctx.Process(target=_serve, args=(queue,), daemon=True)
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
                )
                if prompts is None:  # built once, sent at every level
                    prompts = prompts_for(cfg)
                write_run_files(cfg, prompts)
                t = time.monotonic()
                _lateness(url)  # reset
                lv = run_level(cfg, users)
                late50, late95 = _lateness(url)
                p50, p95 = lv.get("server_lag_p50_s"), lv.get("server_lag_p95_s")
                ok = p95 is not None and p95 < TARGET_S and lv["failures"] == 0
                if ok and not missed:
                    held = users
                missed = missed or not ok  # levels above a miss do not count
                print(
                    f"users={users:4d}: {lv['requests']:5d} requests, {lv['failures']} failed, "
                    f"{lv['output_tokens_per_s']:8.0f} tok/s; generator overhead P50 "
                    f"{(p50 or 0) * 1e3:.3f} ms, P95 {(p95 or 0) * 1e3:.3f} ms "
                    f"{'ok' if ok else 'over 1 ms'}; server late P50 {late50 * 1e3:.3f} ms, "
                    f"P95 {late95 * 1e3:.3f} ms ({time.monotonic() - t:.0f} s)",
                    flush=True,
                )
        print(f"held {held} concurrent streams with P95 overhead < 1 ms (target 500)")
    finally:
        server.terminate()
        server.join()


if __name__ == "__main__":
    main()
