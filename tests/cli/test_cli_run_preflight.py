"""``hat-eval run``'s endpoint pre-flight: one line, exit 2, before any sample starts."""

from __future__ import annotations

import importlib.util
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hat_eval.cli import app
from hat_eval.cli._run import error_kind
from hat_eval.loadtest import FakeChatServer, StreamPlan
from hat_eval.runner import RunInputError
from hat_eval.runner._preflight import Server, check_server, model_server
from hat_eval.runner._prepare import one_line

runner = CliRunner()


@pytest.fixture(autouse=True)
def _no_endpoint_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in (
        "LOCAL_BASE_URL",
        "LOCAL_API_KEY",
        "OPENAI_BASE_URL",
        "OPENAI_API_KEY",
        "VLLM_BASE_URL",
        "VLLM_API_KEY",
        "INSPECT_EVAL_MODEL_BASE_URL",
    ):
        monkeypatch.delenv(var, raising=False)


def dead_port() -> int:
    """A port nothing listens on: bound, then closed."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def run(model: str, log_dir: Path):  # type: ignore[no-untyped-def]
    args = ["run", "--suite", "livestream", "--limit", "1", "--model", model]
    return runner.invoke(app, [*args, "--log-dir", str(log_dir)])


def one_error_line(res) -> str:  # type: ignore[no-untyped-def]
    assert res.exit_code not in (0, None), res.output
    assert "Traceback" not in res.output
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, res.stderr
    assert lines[0].startswith("error: ")
    return lines[0]


def test_a_dead_port_fails_at_once_with_one_line_naming_the_url(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"http://127.0.0.1:{dead_port()}/v1"
    monkeypatch.setenv("LOCAL_BASE_URL", url)
    monkeypatch.setenv("LOCAL_API_KEY", "none")
    res = run("openai-api/local/tiny", tmp_path)
    assert res.exit_code == 2
    line = one_error_line(res)
    assert f"cannot reach {url} (from LOCAL_BASE_URL)" in line
    assert "expected an OpenAI-compatible server listening there" in line
    assert not list(tmp_path.glob("*.eval"))  # no sample started


@pytest.mark.parametrize(
    ("present", "named"),
    [
        ({"LOCAL_API_KEY": "none"}, "LOCAL_BASE_URL is not set"),
        ({"LOCAL_BASE_URL": "http://127.0.0.1:1/v1"}, "LOCAL_API_KEY is not set"),
        ({}, "LOCAL_BASE_URL and LOCAL_API_KEY are not set"),
    ],
)
def test_a_missing_variable_is_one_line_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, present: dict[str, str], named: str
) -> None:
    for var, value in present.items():
        monkeypatch.setenv(var, value)
    res = run("openai-api/local/tiny", tmp_path)
    assert res.exit_code == 2
    line = one_error_line(res)
    assert named in line and "export LOCAL_BASE_URL=http://" in line
    assert "[bold]" not in line


def test_openai_with_a_base_url_and_vllm_are_checked_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"http://127.0.0.1:{dead_port()}/v1"
    monkeypatch.setenv("OPENAI_BASE_URL", url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    line = one_error_line(run("openai/tiny", tmp_path))
    assert f"cannot reach {url} (from OPENAI_BASE_URL)" in line
    monkeypatch.setenv("VLLM_BASE_URL", url)
    line = one_error_line(run("vllm/tiny", tmp_path))
    assert f"cannot reach {url} (from VLLM_BASE_URL)" in line
    monkeypatch.setenv("LOCAL_BASE_URL", "localhost:8000")
    monkeypatch.setenv("LOCAL_API_KEY", "none")
    line = one_error_line(run("openai-api/local/tiny", tmp_path))
    assert "LOCAL_BASE_URL: 'localhost:8000' is not a server URL; expected http://HOST:PORT" in line


@pytest.mark.skipif(importlib.util.find_spec("vllm") is not None, reason="Inspect can start vLLM")
def test_vllm_without_a_server_is_one_line(tmp_path: Path) -> None:
    line = one_error_line(run("vllm/tiny", tmp_path))
    assert "VLLM_BASE_URL is not set" in line and "vllm serve" in line


def test_which_server_each_provider_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    assert model_server("openai/gpt-4o", {}) is None  # OpenAI's own API: not probed
    assert model_server("hf/some/dir", {}) is None
    assert model_server("mockllm/model", {}) is None
    monkeypatch.setenv("MY_LAB_BASE_URL", "http://h:1/v1")
    monkeypatch.setenv("MY_LAB_API_KEY", "k")
    assert model_server("openai-api/my-lab/org/qwen", {}) == Server(
        "http://h:1/v1", "MY_LAB_BASE_URL", "org/qwen", "k", "MY_LAB_API_KEY"
    )
    assert model_server("vllm/org/qwen:adapter", {"port": 8001}) == Server(
        "http://localhost:8001/v1", "-M port", "org/qwen", "inspectai", None
    )


def test_a_live_server_passes_with_one_short_request() -> None:
    with FakeChatServer(StreamPlan(ttft_s=0.0, n_tokens=2, token_gap_s=0.0)) as srv:
        check_server("openai-api/local/tiny", Server(srv.url + "/v1", "X", "tiny", "key", "X"))
        (served,) = srv.served
    assert served.payload["model"] == "tiny" and served.payload["max_tokens"] == 1
    assert "stream_options" not in served.payload  # strict servers refuse it; Inspect sends none
    assert served.headers["authorization"] == "Bearer key"


@pytest.mark.parametrize(
    ("status", "expected"),
    [
        (401, "refused the API key from LOCAL_API_KEY with HTTP 401"),
        (404, "answered HTTP 404"),
        (500, "answered a test chat completion with HTTP 500"),
    ],
)
def test_a_refusing_server_is_one_line(status: int, expected: str) -> None:
    with FakeChatServer(StreamPlan(status=status)) as srv:
        server = Server(srv.url + "/v1", "LOCAL_BASE_URL", "tiny", "k", "LOCAL_API_KEY")
        with pytest.raises(RunInputError) as exc:
            check_server("openai-api/local/tiny", server)
    assert "\n" not in str(exc.value) and expected in str(exc.value)


def test_a_server_that_refuses_only_the_probe_fields_passes() -> None:
    with FakeChatServer(StreamPlan(status=422)) as srv:
        check_server("openai-api/local/tiny", Server(srv.url + "/v1", "X", "tiny", "k", "X"))


def test_the_preflight_loads_neither_locust_nor_gevent() -> None:
    code = (
        "import sys; from hat_eval.runner._preflight import check_server; "
        "import hat_eval.loadtest._client; "
        "bad = [m for m in ('locust', 'gevent') if m in sys.modules]; assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.skipif(importlib.util.find_spec("anthropic") is not None, reason="installed")
def test_an_inspect_prerequisite_error_is_one_plain_line(tmp_path: Path) -> None:
    line = one_error_line(run("anthropic/claude-x", tmp_path))
    assert line == (
        "error: Anthropic API requires optional dependencies. Install with: pip install anthropic"
    )


def test_one_line_drops_rich_markup() -> None:
    text = "[bold]ERROR[/bold]: set [bold][blue]LOCAL_BASE_URL[/blue][/bold]\n\nto a URL"
    assert one_line(text) == "set LOCAL_BASE_URL to a URL"


def test_error_kind_is_the_type_and_first_line_after_the_last_frame() -> None:
    traceback = (
        "Traceback (most recent call last):\n"
        '  File "a.py", line 1, in f\n'
        "    raise KeyError('x')\n"
        "KeyError: 'x'\n\n"
        "During handling of the above exception, another exception occurred:\n\n"
        "Traceback (most recent call last):\n"
        '  File "b.py", line 2, in g\n'
        "    raise ValueError('bad value\\nsecond line')\n"
        "    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "ValueError: bad value\n"
        "second line\n"
    )
    assert error_kind("ValueError('bad value')", traceback) == "ValueError: bad value"
    assert error_kind("Connection error.\nmore", None) == "Connection error."
