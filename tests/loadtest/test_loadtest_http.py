import json
import socket
import threading
import time

import pytest

from hat_eval.loadtest import ClientConfig, FakeChatServer, StreamPlan
from hat_eval.loadtest._client import SENT_AT_HEADER, ChatStreamClient
from hat_eval.loadtest._http import BodyFramer, ProtocolError
from hat_eval.loadtest._prompts import build_prompts
from hat_eval.loadtest._sse import StreamMeter
from hat_eval.loadtest._watchdog import StallWatchdog

PROMPTS = build_prompts(n=2)
CHUNKED = {"transfer-encoding": "chunked"}


def chunked(*parts, trailers=b""):
    return b"".join(b"%x\r\n%s\r\n" % (len(p), p) for p in parts) + b"0\r\n" + trailers + b"\r\n"


@pytest.mark.parametrize("step", [1, 2, 3, 5, 7, 1000])
def test_chunked_bodies_are_cut_out_at_any_read_boundary(step):
    parts = [b"data: {}\n\n", b"x" * 300, b"tail"]
    wire = chunked(*parts, trailers=b"X-Trailer: 1\r\n") + b"NEXT"
    f = BodyFramer(CHUNKED)
    out = []
    for i in range(0, len(wire), step):
        assert not f.ended
        out.append(f.feed(wire[i : i + step]))
        if f.ended:
            rest = f.rest + wire[i + step :]
            break
    assert f.ended and b"".join(out) == b"".join(parts) and rest == b"NEXT"


def test_content_length_and_read_to_eof_bodies():
    f = BodyFramer({"content-length": "5"})
    assert f.feed(b"abc") == b"abc" and not f.ended
    assert f.feed(b"deFG") == b"de" and f.ended and f.rest == b"FG"
    assert BodyFramer({"content-length": "0"}).ended
    eof = BodyFramer({})
    assert eof.feed(b"anything") == b"anything" and not eof.ended
    with pytest.raises(ProtocolError, match="Content-Length"):
        BodyFramer({"content-length": "many"})


def test_bad_chunk_size_is_a_protocol_error():
    with pytest.raises(ProtocolError, match="bad chunk size"):
        BodyFramer(CHUNKED).feed(b"zz\r\nhello\r\n")


def test_watchdog_ends_a_silent_read():
    a, b = socket.socketpair()
    dog = StallWatchdog()
    try:
        t = time.perf_counter()  # before the watch starts its clock, so waited >= 0.2 holds
        w = dog.watch(a, 0.2)
        assert a.recv(10) == b""  # the watchdog shut the socket down
        waited = time.perf_counter() - t
        assert w.fired and 0.2 <= waited < 1.0
        quiet = dog.watch(b, 0.2)
        dog.unwatch(quiet)
        time.sleep(0.4)
        assert not quiet.fired
    finally:
        dog.close()
        a.close()
        b.close()


@pytest.mark.parametrize("fault_after", [0, 2])
def test_client_with_a_watchdog_reports_stalls(fault_after):
    plan = StreamPlan(fault="stall", fault_after=fault_after, stall_s=5.0, token_gap_s=0.001)
    dog = StallWatchdog()
    with FakeChatServer(plan) as srv:
        client = ChatStreamClient(ClientConfig(srv.url, "fake", stall_timeout_s=0.3), watchdog=dog)
        rec = client.send(PROMPTS[0], 0)
        client.close()
    dog.close()
    assert not rec.ok and rec.reason == "stalled"
    assert rec.chunks == fault_after
    assert 0.3 <= rec.elapsed_s < 1.5


def test_watchdog_and_pause_clients_time_like_the_plain_one():
    plan = StreamPlan(ttft_s=0.05, n_tokens=40, token_gap_s=0.004, stamp=True)
    pauses = []
    dog = StallWatchdog()
    with FakeChatServer(plan) as srv:
        cfg = ClientConfig(srv.url, "fake")
        plain = ChatStreamClient(cfg)
        fast = ChatStreamClient(cfg, watchdog=dog, pause=lambda: pauses.append(1))
        recs = [c.send(PROMPTS[i % 2], i) for i in range(4) for c in (plain, fast)]
        plain.close()
        fast.close()
    dog.close()
    assert all(r.ok and r.output_tokens == 40 and r.chunks == 40 for r in recs)
    for r in recs:
        assert len(r.itl_s) == 39 and len(r.server_lag_s) == 40
        # the server never sends a chunk before its planned time (it may send one late)
        assert r.ttft_s >= plan.ttft_s and r.e2e_s >= plan.e2e_s
        # each chunk carries the server's perf_counter() at its send: the client's stamp minus
        # that is its own timing error, never negative, and far below the 0.16 s stream, so the
        # stamps are the arrival times, not the parse times
        assert min(r.server_lag_s) >= 0 and max(r.server_lag_s) < 0.05
    assert len(srv.served) == 8  # keep-alive: neither client reconnected mid-run


def test_parsing_after_the_stream_gives_the_inline_timings():
    """The client parses after the body ends; the stamps must still be each line's arrival.

    Checked on the client's own clock against the send times the server records (one host, one
    monotonic clock), not against sleep lengths a busy machine may stretch.
    """
    events = [{"choices": [{"index": 0, "delta": {"role": "assistant"}}]}]
    events += [{"choices": [{"index": 0, "delta": {"content": f" t{k}"}}]} for k in range(6)]
    events += [{"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}]
    lines = [f"data: {json.dumps(e)}\n\n".encode() for e in events] + [b"data: [DONE]\n\n"]
    # the role-only chunk, then the six token chunks apart, then a long pause before the finish
    gaps = [0.0, 0.03, 0.01, 0.02, 0.01, 0.04, 0.01, 0.2, 0.0]
    sent: list[float] = []
    start: list[float] = []

    def serve(sock):
        conn, _ = sock.accept()
        head = conn.recv(1 << 20)
        start.append(float(head.split(SENT_AT_HEADER.encode() + b": ")[1].split(b"\r\n")[0]))
        conn.sendall(
            b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
        )
        for line, gap in zip(lines, gaps, strict=True):
            time.sleep(gap)
            sent.append(time.perf_counter())
            conn.sendall(b"%x\r\n%s\r\n" % (len(line), line))
        conn.sendall(b"0\r\n\r\n")
        time.sleep(0.2)
        conn.close()

    with socket.create_server(("127.0.0.1", 0)) as sock:
        thread = threading.Thread(target=serve, args=(sock,))
        thread.start()
        url = f"http://127.0.0.1:{sock.getsockname()[1]}"
        client = ChatStreamClient(ClientConfig(url, "fake", stream_usage=False))
        rec = client.send(PROMPTS[0])
        client.close()
        thread.join()
    assert rec.ok and rec.chunks == 6 and len(rec.itl_s) == 5
    assert all(gap >= 0 for gap in rec.itl_s)  # the chunks were stamped in order
    # each token chunk's arrival on the client's clock (perf_counter() at the request's start)
    arrivals = [start[0] + rec.ttft_s + sum(rec.itl_s[:k]) for k in range(6)]
    assert start[0] + rec.e2e_s == pytest.approx(arrivals[-1], abs=1e-9)
    tokens_sent, finish_sent = sent[1:7], sent[7]
    for arrived, left in zip(arrivals, tokens_sent, strict=True):
        # stamped after the server sent it: TTFT does not stop at the role-only chunk, which
        # left 30 ms before the first token
        assert arrived >= left
        # and before the finish line left, 0.2 s after the last token: stamped on arrival, not
        # when the lines were parsed after the body ended
        assert arrived < finish_sent
    m = StreamMeter()  # the same lines fed one by one give the same token count
    for line in lines:
        m.feed(line, 0.0)
    assert m.token_chunks == rec.chunks and m.done
