"""A small OpenAI-compatible streaming server with injected latencies and faults.

It serves the tests and dry runs of the harness without a GPU.

Each request gets a :class:`StreamPlan` (a fixed one, or one from a ``planner(index, payload)``):
the headers and a role-only chunk go out at once, then token chunk ``k`` is written at
``t0 + ttft_s + k * token_gap_s`` (``t0`` = when the request was read), each deadline slept to on
its own thread so errors do not add up. ``t0`` is the ``perf_counter()`` our client sends in its
``X-Hat-Sent-At`` header (the moment it started timing; the same monotonic clock on one host), else
the arrival of the request line. So the true TTFT of a request is ``ttft_s`` and its true E2E
``ttft_s + (n_chunks - 1) * token_gap_s``, up to the delivery and wake-up delays of the client,
a fraction of a millisecond on an idle loopback.
Faults: an HTTP error status, ``truncate`` (the connection drops mid-stream), ``non_json``,
``error_event`` (vLLM's in-stream error object), ``stall`` (silence) and ``disconnect`` (no
response at all). ``/metrics`` serves vLLM-named speculative-decoding counters when asked to.

Run ``python -m hat_eval.loadtest._serve --port 8000`` to serve one in the foreground.
"""

from __future__ import annotations

import argparse
import json
import math
import socket
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

from ._client import SENT_AT_HEADER
from ._sse import SENT_AT_FIELD

Fault = Literal["truncate", "non_json", "error_event", "stall", "disconnect"]


@dataclass(frozen=True)
class StreamPlan:
    """How the server answers one request."""

    ttft_s: float = 0.02
    n_tokens: int = 16
    token_gap_s: float = 0.005
    tokens_per_chunk: int = 1
    status: int = 200
    fault: Fault | None = None
    fault_after: int = 0
    reasoning_chunks: int = 0
    reasoning_field: str = "reasoning"
    usage: bool | None = None
    done: bool = True
    stamp: bool = False
    stall_s: float = 30.0
    tool_call: str | None = None
    """Answer with a call of this tool ("": the request's first tool) instead of text: the
    first token chunk carries the call's id and name, the others its arguments in pieces."""
    tool_arguments: str = "{}"
    """The tool call's arguments (JSON text)."""

    @property
    def n_chunks(self) -> int:
        """Token-carrying chunks: ``ceil(n_tokens / tokens_per_chunk)``."""
        return math.ceil(self.n_tokens / self.tokens_per_chunk)

    @property
    def e2e_s(self) -> float:
        """The planned end-to-end latency: the last token chunk's send time."""
        return self.ttft_s + (self.n_chunks - 1) * self.token_gap_s


Planner = Callable[[int, dict[str, Any]], StreamPlan]


def episode_planner(call: StreamPlan, answer: StreamPlan) -> Planner:
    """Plans a two-turn episode: ``call`` (a tool call) first, ``answer`` once results are in.

    A request whose messages hold no ``tool`` message yet gets ``call`` (with ``tool_call``
    set to the request's first tool if it names none); one that holds a tool result gets
    ``answer``.
    """
    first = call if call.tool_call is not None else replace(call, tool_call="")

    def plan(_index: int, payload: dict[str, Any]) -> StreamPlan:
        messages = payload.get("messages") or ()
        if any(isinstance(m, dict) and m.get("role") == "tool" for m in messages):
            return answer
        return first

    return plan


@dataclass
class ServedRequest:
    """One request the server received, its plan, and whether the plan ran to the end."""

    index: int
    payload: dict[str, Any]
    plan: StreamPlan
    completed: bool = False
    headers: dict[str, str] = field(default_factory=dict)
    """The request's headers (lower-case names)."""
    t0: float = 0.0
    """The ``perf_counter()`` the plan's deadlines counted from (the client's send)."""
    first_token_at: float | None = None
    """The ``perf_counter()`` just before the first token chunk was written (same host clock:
    the client cannot receive it earlier)."""
    last_token_at: float | None = None
    """The ``perf_counter()`` just before the last token chunk was written."""


def episode_truths(served: Sequence[ServedRequest]) -> list[tuple[float, float]]:
    """(answer TTFT, E2E) of each episode the server played, from its own records.

    An answer request carries the tool result of call ``call_<k>``, ``k`` being the index of
    the request that made the call: the episode's first turn. Times run from that turn's
    send (its ``t0``) to the server's write of the answer's first and last token chunk.
    """
    by_index = {s.index: s for s in served}
    out = []
    for s in served:
        tool = [m for m in s.payload["messages"] if m["role"] == "tool"]
        if not tool or s.first_token_at is None or s.last_token_at is None:
            continue
        first = by_index[int(tool[0]["tool_call_id"].removeprefix("call_"))]
        out.append((s.first_token_at - first.t0, s.last_token_at - first.t0))
    return out


@dataclass(frozen=True)
class SpecDecodeCounters:
    """Per-request increments of vLLM's speculative-decoding counters at ``/metrics``."""

    drafts: int
    draft_tokens: int
    accepted_tokens: int


@dataclass
class _State:
    planner: Planner
    reject_fields: tuple[str, ...]
    spec_decode: SpecDecodeCounters | None
    stop: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)
    served: list[ServedRequest] = field(default_factory=list)
    completed_requests: int = 0


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        """Quiet."""

    def parse_request(self) -> bool:
        """Stamp the arrival of the request line: the clock the plan's deadlines count from."""
        self.t0 = time.perf_counter()
        return super().parse_request()

    def _json(self, status: int, obj: Any) -> None:
        data = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:  # noqa: N802
        """``/health``, ``/v1/models`` and ``/metrics``."""
        st = self.server.state
        if self.path == "/health":
            self._json(200, {"status": "ok"})
        elif self.path == "/v1/models":
            self._json(200, {"object": "list", "data": [{"id": "fake", "object": "model"}]})
        elif self.path == "/metrics" and st.spec_decode is not None:
            n, c = st.completed_requests, st.spec_decode
            lines = []
            for name, per in (
                ("num_drafts", c.drafts),
                ("num_draft_tokens", c.draft_tokens),
                ("num_accepted_tokens", c.accepted_tokens),
            ):
                metric = f"vllm:spec_decode_{name}_total"
                lines += [f"# TYPE {metric} counter", f'{metric}{{engine="0"}} {float(n * per)}']
            data = ("\n".join(lines) + "\n").encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/plain; version=0.0.4")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        else:
            self._json(404, {"error": {"message": f"no route {self.path}"}})

    def do_POST(self) -> None:  # noqa: N802
        """``/v1/chat/completions`` with ``stream: true``."""
        st = self.server.state
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        t0 = self.t0
        sent_at = self.headers.get(SENT_AT_HEADER)
        if sent_at is not None:
            try:
                t0 = min(t0, float(sent_at))
            except ValueError:
                pass
        if self.path != "/v1/chat/completions":
            self._json(404, {"error": {"message": f"no route {self.path}"}})
            return
        try:
            payload = json.loads(raw)
        except ValueError:
            self._json(400, {"error": {"message": "body is not JSON"}})
            return
        bad = [k for k in st.reject_fields if k in payload]
        if bad:
            self._json(
                422,
                {
                    "detail": [
                        {
                            "loc": ["body", k],
                            "msg": "Extra inputs are not permitted",
                            "type": "extra_forbidden",
                        }
                        for k in bad
                    ]
                },
            )
            return
        with st.lock:
            served = ServedRequest(
                len(st.served),
                payload,
                st.planner(len(st.served), payload),
                headers={k.lower(): v for k, v in self.headers.items()},
                t0=t0,
            )
            st.served.append(served)
        plan = served.plan
        if plan.fault == "disconnect":
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        if plan.status != 200:
            self._json(
                plan.status,
                {"error": {"message": f"injected HTTP {plan.status}", "code": plan.status}},
            )
            return
        try:
            self._stream(plan, payload, t0, served)
        except OSError:
            self.close_connection = True
            return
        served.completed = plan.fault is None
        if served.completed:
            with st.lock:
                st.completed_requests += 1

    def _write(self, obj: dict[str, Any] | str, stamp: bool = False) -> None:
        if isinstance(obj, dict):
            if stamp:
                obj[SENT_AT_FIELD] = time.perf_counter()
            text = json.dumps(obj)
        else:
            text = obj
        data = f"data: {text}\n\n".encode()
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))

    def _stream(
        self, plan: StreamPlan, payload: dict[str, Any], t0: float, served: ServedRequest
    ) -> None:
        st = self.server.state
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        base = {
            "id": "chatcmpl-fake",
            "object": "chat.completion.chunk",
            "created": int(time.time()),
            "model": payload.get("model", "fake"),
        }
        self._write({**base, "choices": [{"index": 0, "delta": {"role": "assistant"}}]})
        sent = 0
        call = _tool_call_deltas(plan, payload, served.index)
        for k in range(plan.n_chunks):
            if plan.fault is not None and k == plan.fault_after:
                self._fault(plan)
                return
            delay = t0 + plan.ttft_s + k * plan.token_gap_s - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
            n = min(plan.tokens_per_chunk, plan.n_tokens - sent)
            delta: dict[str, Any]
            if call is not None:
                delta = {"tool_calls": [call[k]]}
            else:
                text = "".join(f" t{sent + i}" for i in range(n))
                delta = {plan.reasoning_field if k < plan.reasoning_chunks else "content": text}
            now = time.perf_counter()  # before the write: no byte of it can arrive earlier
            self._write({**base, "choices": [{"index": 0, "delta": delta}]}, plan.stamp)
            if served.first_token_at is None:
                served.first_token_at = now
            served.last_token_at = now
            sent += n
        if plan.fault is not None:
            self._fault(plan)
            return
        finish = "length" if call is None else "tool_calls"
        self._write({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]})
        opts = payload.get("stream_options")
        asked = isinstance(opts, dict) and bool(opts.get("include_usage"))
        if plan.usage or (plan.usage is None and asked):
            self._write(
                {
                    **base,
                    "choices": [],
                    "usage": {
                        "prompt_tokens": 10,
                        "completion_tokens": plan.n_tokens,
                        "total_tokens": 10 + plan.n_tokens,
                    },
                }
            )
        if plan.done:
            self._write("[DONE]")
        self.wfile.write(b"0\r\n\r\n")
        if st.stop.is_set():
            self.close_connection = True

    def _fault(self, plan: StreamPlan) -> None:
        self.close_connection = True
        if plan.fault == "non_json":
            self._write("{this is not json")
        elif plan.fault == "error_event":
            self._write({"error": {"message": "injected engine error", "code": 500}})
        elif plan.fault == "stall":
            self.server.state.stop.wait(plan.stall_s)
        self.connection.shutdown(socket.SHUT_RDWR)


def _tool_call_deltas(
    plan: StreamPlan, payload: dict[str, Any], index: int
) -> list[dict[str, Any]] | None:
    """The tool-call delta of each token chunk, or ``None`` when the plan answers in text.

    Chunk 0 carries the call's id and name (and all its arguments if it is the only chunk);
    the arguments are cut into ``n_chunks - 1`` pieces over the other chunks.
    """
    if plan.tool_call is None:
        return None
    name = plan.tool_call
    if not name:
        tools = payload.get("tools") or [{}]
        name = str((tools[0].get("function") or {}).get("name", "tool"))
    n, args = plan.n_chunks, plan.tool_arguments
    cuts = [round(i * len(args) / max(1, n - 1)) for i in range(n)] if n > 1 else [0, len(args)]
    head = {"name": name, "arguments": args if n == 1 else ""}
    out: list[dict[str, Any]] = [
        {"index": 0, "id": f"call_{index}", "type": "function", "function": head}
    ]
    for k in range(1, n):
        piece = args[cuts[k - 1] : cuts[k]]
        out.append({"index": 0, "function": {"arguments": piece}})
    return out


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    request_queue_size = 1024  # the default listen backlog of 5 resets bursts of new users
    state: _State


class FakeChatServer:
    """The fake server on ``host:port`` (port 0 picks a free one), served from a thread.

    Use it as a context manager; :attr:`url` is its base URL and :attr:`served` its requests.
    """

    def __init__(
        self,
        plan: StreamPlan | Planner | None = None,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        reject_fields: tuple[str, ...] = (),
        spec_decode: SpecDecodeCounters | None = None,
    ) -> None:
        fixed = plan if isinstance(plan, StreamPlan) else StreamPlan()
        planner: Planner = plan if callable(plan) else (lambda _i, _p: fixed)
        self._server = _Server((host, port), _Handler)
        self._server.state = _State(planner, reject_fields, spec_decode)
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        """``http://host:port``."""
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    @property
    def served(self) -> list[ServedRequest]:
        """The requests received so far, in order."""
        with self._server.state.lock:
            return list(self._server.state.served)

    def start(self) -> FakeChatServer:
        """Start serving in a daemon thread."""
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop serving, wake stalled streams and close the socket."""
        self._server.state.stop.set()
        if self._thread is not None:
            self._server.shutdown()
            self._thread.join(timeout=5)
        self._server.server_close()

    def __enter__(self) -> FakeChatServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()


def main(argv: list[str] | None = None) -> None:
    """Serve a fixed plan until interrupted; print the URL on the first line."""
    parser = argparse.ArgumentParser(prog="python -m hat_eval.loadtest._serve")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--plan", default="{}", help="StreamPlan fields as a JSON object")
    parser.add_argument(
        "--plans", default="", help="A JSON file with a list of StreamPlan objects, used in turn"
    )
    args = parser.parse_args(argv)
    plan: StreamPlan | Planner = StreamPlan(**json.loads(args.plan))
    if args.plans:
        with open(args.plans, encoding="utf-8") as f:
            plans = [StreamPlan(**p) for p in json.load(f)]
        plan = lambda i, _p: plans[i % len(plans)]  # noqa: E731
    with FakeChatServer(plan, host=args.host, port=args.port) as srv:
        shown = asdict(plan) if isinstance(plan, StreamPlan) else {"plans": args.plans}
        print(srv.url, json.dumps(shown), flush=True)
        try:
            threading.Event().wait()
        except KeyboardInterrupt:
            pass
