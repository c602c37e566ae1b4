"""A model server that misbehaves never hangs ``hat-eval run``: one line, a bounded wait.

A tiny in-process server on port 0 answers the chat completions; it either answers HTTP 200
with a body that is not a chat completion, or answers the pre-flight's requests and then stops
answering (it holds each later request until the test ends: an event, not a sleep). The run's
per-request timeout is made small with ``--request-timeout`` / ``HAT_EVAL_TIMEOUT``.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from hat_eval.cli import app
from hat_eval.runner._preflight import Server, completion_problem

runner = CliRunner()

COMPLETION = {
    "id": "chatcmpl-1",
    "object": "chat.completion",
    "created": 0,
    "model": "tiny",
    "choices": [
        {"index": 0, "message": {"role": "assistant", "content": "OK"}, "finish_reason": "stop"}
    ],
    "usage": {"prompt_tokens": 3, "completion_tokens": 1, "total_tokens": 4},
}


class _Handler(BaseHTTPRequestHandler):
    server: _FakeServer

    def log_message(self, *_args: Any) -> None:
        pass

    def do_POST(self) -> None:  # noqa: N802
        payload = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
        with self.server.lock:
            self.server.requests += 1
            index = self.server.requests
        if self.server.mode == "not_a_completion":
            self._send(200, "text/html", b"<html><body>login required</body></html>")
        elif self.server.mode == "other_json":
            self._send(200, "application/json", b'{"status": "ok"}')
        elif self.server.mode == "stalls" and index > self.server.answered:
            self.server.stalled.set()
            self.server.release.wait()  # never answers while the test runs
        elif payload.get("stream"):
            chunk = {
                "id": "c",
                "object": "chat.completion.chunk",
                "created": 0,
                "model": "tiny",
                "choices": [{"index": 0, "delta": {"content": "OK"}, "finish_reason": "stop"}],
            }
            body = f"data: {json.dumps(chunk)}\n\ndata: [DONE]\n\n".encode()
            self._send(200, "text/event-stream", body)
        else:
            self._send(200, "application/json", json.dumps(COMPLETION).encode())

    def _send(self, status: int, kind: str, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class _FakeServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, mode: str, answered: int) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.mode = mode
        self.answered = answered
        self.requests = 0
        self.lock = threading.Lock()
        self.stalled = threading.Event()
        self.release = threading.Event()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"


@pytest.fixture
def serve(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    servers: list[_FakeServer] = []

    def start(mode: str, answered: int = 0) -> _FakeServer:
        srv = _FakeServer(mode, answered)
        threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.05}).start()
        servers.append(srv)
        monkeypatch.setenv("LOCAL_BASE_URL", srv.url)
        monkeypatch.setenv("LOCAL_API_KEY", "none")
        return srv

    yield start
    for srv in servers:
        srv.release.set()
        srv.shutdown()
        srv.server_close()


def run(log_dir: Path, *extra: str):  # type: ignore[no-untyped-def]
    args = ["run", "--suite", "livestream", "--limit", "1", "--model", "openai-api/local/tiny"]
    return runner.invoke(app, [*args, "--log-dir", str(log_dir), *extra])


def test_a_200_that_is_not_a_chat_completion_stops_the_run_before_any_sample(
    tmp_path: Path, serve: Any
) -> None:
    srv = serve("not_a_completion")
    res = run(tmp_path)
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output
    (line,) = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert line.startswith("error: --model openai-api/local/tiny: ")
    assert f"{srv.url} (from LOCAL_BASE_URL) answered a test chat completion with HTTP 200" in line
    assert "its body is not JSON ('<html><body>login required" in line
    assert "expected an OpenAI-compatible chat completion" in line
    assert srv.requests == 2  # the streamed probe, then one request as Inspect sends it
    assert not list(tmp_path.glob("*.eval"))


def test_the_body_check_names_what_the_body_is(serve: Any) -> None:
    def problem(mode: str) -> str | None:
        srv = serve(mode)
        server = Server(srv.url, "LOCAL_BASE_URL", "tiny", "none", "LOCAL_API_KEY")
        return completion_problem(server, 5.0)

    assert problem("answers") is None
    assert problem("other_json") == 'its JSON has no choices[0].message ({"status": "ok"}...)'
    assert problem("not_a_completion") == (
        "its body is not JSON ('<html><body>login required</body></html>')"
    )


def test_a_server_that_stops_answering_fails_the_samples_within_the_timeout(
    tmp_path: Path, serve: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    srv = serve("stalls", answered=1)  # the pre-flight's request, then silence
    monkeypatch.setenv("HAT_EVAL_TIMEOUT", "1")
    monkeypatch.setenv("HAT_EVAL_PROGRESS_S", "0")  # a progress line per sample
    res = run(tmp_path, "--max-retries", "1")
    assert srv.stalled.is_set()
    assert res.exit_code == 1, res.output
    assert "Traceback" not in res.output
    out = res.stdout
    # the first retry of the error is said once, with the try it is on
    assert "retrying: a call to " in out and "(AttemptTimeoutError); try 2 of 2" in out
    errors = res.stderr
    assert (
        "1 sample of livestream failed: hat_eval.suites._agent.ModelServerError: the model gave "
        "no usable reply in 2 tries (last: AttemptTimeoutError: attempt_timeout '1' exceeded.)"
    ) in errors
    assert "--request-timeout and --max-retries bound each try and the tries" in errors
    assert "0 of 1 samples finished, 1 remain; resume with: hat-eval run" in errors
    assert "progress: 0 of 1 samples (0%), 1 failed (named when the run ends)" in out
    # the sample runs twice (Inspect retries a failed task once), each time two tries: the
    # pre-flight's request and at most four more reached the server
    assert 2 <= srv.requests - 1 <= 4


def test_a_grader_behind_a_server_is_bounded_as_the_model_is(serve: Any) -> None:
    from hat_eval.runner._prepare import resolve_judge

    serve("answers")
    grader = resolve_judge("openai-api/local/tiny", request_timeout=7, max_retries=1)
    assert (grader.config.attempt_timeout, grader.config.max_retries) == (7, 1)
    capped = resolve_judge("openai-api/local/tiny", max_tokens=99)
    assert capped.config.max_tokens == 99 and capped.config.attempt_timeout == 300
