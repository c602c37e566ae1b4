"""How many concurrent streams one load generator holds with its timing overhead < 1 ms at P95.

A minimal single-threaded asyncio SSE server (its own process, so it never holds the generator's
CPU or GIL) stamps every token chunk with ``perf_counter()`` right before writing it; the Locust
user records receive-stamp minus send-stamp per chunk (same host, same monotonic clock). That lag
is the generator's own overhead: kernel delivery plus the wait until the gevent hub runs the
reading greenlet. Run ``python bench/bench_loadtest.py [levels] [workers]`` (default levels
50,100,200,300,500, 10 s each; one token every 50 ms per stream = 20 tokens/s, a realistic
per-stream decode rate under load). Streams start at random phases, so chunks arrive spread out
as from a busy API server rather than in one burst per decode step.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing as mp
import random
import sys
import tempfile
import time
from pathlib import Path

from hat_eval.loadtest import SweepConfig, run_level

TARGET_S = 1e-3
TTFT_S, GAP_S, TOKENS = 0.05, 0.05, 100


def _chunk(obj: dict) -> bytes:
    data = b"data: " + json.dumps(obj).encode() + b"\n\n"
    return b"%x\r\n%s\r\n" % (len(data), data)


async def _handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    loop = asyncio.get_running_loop()
    try:
        while True:
            head = await reader.readuntil(b"\r\n\r\n")
            t0 = loop.time() + random.uniform(0.0, GAP_S)  # streams out of phase, as in vLLM
            length = next(
                (
                    int(line.split(b":")[1])
                    for line in head.split(b"\r\n")
                    if line.lower().startswith(b"content-length:")
                ),
                0,
            )
            await reader.readexactly(length)
            writer.write(
                b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                b"Transfer-Encoding: chunked\r\n\r\n"
            )
            writer.write(_chunk({"choices": [{"index": 0, "delta": {"role": "assistant"}}]}))
            for k in range(TOKENS):
                await asyncio.sleep(max(0.0, t0 + TTFT_S + k * GAP_S - loop.time()))
                writer.write(
                    _chunk(
                        {
                            "choices": [{"index": 0, "delta": {"content": " t"}}],
                            "x_sent_at": time.perf_counter(),
                        }
                    )
                )
            writer.write(
                _chunk(
                    {
                        "choices": [{"index": 0, "delta": {}, "finish_reason": "length"}],
                        "usage": {"completion_tokens": TOKENS},
                    }
                )
            )
            writer.write(b"e\r\ndata: [DONE]\n\n\r\n")
            writer.write(b"0\r\n\r\n")
            await writer.drain()
    except (asyncio.IncompleteReadError, ConnectionError):
        writer.close()


def _serve(queue: mp.Queue) -> None:
    async def main() -> None:
        server = await asyncio.start_server(_handle, "127.0.0.1", 0, backlog=2048)
        queue.put(server.sockets[0].getsockname()[1])
        await server.serve_forever()

    asyncio.run(main())


def main() -> None:
    workers = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    levels = [
        int(x) for x in (sys.argv[1] if len(sys.argv) > 1 else "50,100,200,300,500").split(",")
    ]
    ctx = mp.get_context("spawn")
    queue: mp.Queue = ctx.Queue()
    server = ctx.Process(target=_serve, args=(queue,), daemon=True)
    server.start()
    try:
        url = f"http://127.0.0.1:{queue.get(timeout=30)}"
        held, missed = 0, False
        with tempfile.TemporaryDirectory() as tmp:
            for users in levels:
                cfg = SweepConfig(
                    host=url,
                    model="fake",
                    users=(users,),
                    duration_s=10,
                    out=Path(tmp),
                    spawn_rate=max(50.0, users / 2),
                    max_tokens=TOKENS,
                    stop_timeout_s=10,
                    workers=workers,
                )
                t = time.monotonic()
                lv = run_level(cfg, users)
                p50, p95 = lv.get("server_lag_p50_s"), lv.get("server_lag_p95_s")
                ok = p95 is not None and p95 < TARGET_S and lv["failures"] == 0
                if ok and not missed:
                    held = users
                missed = missed or not ok  # levels above a miss do not count
                print(
                    f"users={users:4d}: {lv['requests']:5d} requests, {lv['failures']} failed, "
                    f"{lv['output_tokens_per_s']:8.0f} tok/s; generator overhead P50 "
                    f"{(p50 or 0) * 1e3:.3f} ms, P95 {(p95 or 0) * 1e3:.3f} ms "
                    f"{'ok' if ok else 'over 1 ms'} ({time.monotonic() - t:.0f} s)",
                    flush=True,
                )
        print(f"held {held} concurrent streams with P95 overhead < 1 ms (target 500)")
    finally:
        server.terminate()
        server.join()


if __name__ == "__main__":
    main()
