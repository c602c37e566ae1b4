"""``hat-eval run``'s endpoint pre-flight: find the server a model provider will call, check it.

Inspect's OpenAI-compatible providers retry an unreachable server for many minutes without a word,
and report a missing variable as a long traceback. Before any sample starts, ``hat-eval run``
(for ``--model`` and for the ``--judge`` grader, as ``hat-eval score --judge``) reads the
variables Inspect reads (:func:`model_server`) and sends one short chat completion
through the load harness's pre-flight, :func:`hat_eval.loadtest.probe` (:func:`check_server`):
the same request code ``hat-eval loadtest`` checks its server with, on a plain socket. Importing it
loads neither Locust nor gevent, only the harness's small config and client modules.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from hat_eval._device import vllm_installed

from ._options import PROBE_TIMEOUT_S, RunInputError

FALLBACK_URL_VAR = "INSPECT_EVAL_MODEL_BASE_URL"
"""Inspect's fallback base URL for every provider, read when the provider's own is unset."""


@dataclass(frozen=True)
class Server:
    """Where an Inspect model provider sends its chat completions."""

    url: str
    """The base URL the provider uses (usually ending in ``/v1``)."""
    source: str
    """Where the URL came from: a variable name or ``-M port``."""
    model: str
    """The model name the provider sends."""
    api_key: str | None
    key_source: str | None
    """The variable the key came from (``None``: a default key)."""


def _base_url(var: str) -> tuple[str | None, str]:
    """The provider's base URL and its variable, falling back as Inspect does."""
    if url := os.environ.get(var):
        return url, var
    if url := os.environ.get(FALLBACK_URL_VAR):
        return url, FALLBACK_URL_VAR
    return None, var


def model_server(
    model_name: str, model_args: Mapping[str, Any], option: str = "--model"
) -> Server | None:
    """The server ``model_name`` will call, or ``None`` when there is none to check.

    ``option`` names the model in error lines (``--model``, or ``--judge`` for the grader).

    Covered: ``openai-api/<service>/<model>`` (``<SERVICE>_BASE_URL``, ``<SERVICE>_API_KEY``),
    ``openai/<model>`` when ``OPENAI_BASE_URL`` is set (else OpenAI's own API: not checked), and
    ``vllm/<model>`` with ``VLLM_BASE_URL`` or ``-M port=N``. A variable Inspect needs and does not
    find is one error line naming it (exit 2).
    """
    provider, _, rest = model_name.partition("/")
    if provider == "openai-api":
        service, sep, served = rest.partition("/")
        if not (sep and service and served):
            raise RunInputError(
                f"{option} {model_name}: expected openai-api/<service>/<model>, e.g. "
                "openai-api/local/qwen with LOCAL_BASE_URL and LOCAL_API_KEY set"
            )
        env = service.upper().replace("-", "_")
        url, url_var = _base_url(f"{env}_BASE_URL")
        key_var = f"{env}_API_KEY"
        missing = [
            v for v, value in ((url_var, url), (key_var, os.environ.get(key_var))) if not value
        ]
        if missing:
            raise RunInputError(
                f"{option} {model_name}: {' and '.join(missing)} "
                f"{'is' if len(missing) == 1 else 'are'} not set, expected the server's base URL "
                f"and key, e.g. export {env}_BASE_URL=http://127.0.0.1:8000/v1 "
                f"{key_var}=none (any key for a server started without one)"
            )
        assert url is not None  # for mypy: checked just above
        return Server(url, url_var, served, os.environ[key_var], key_var)
    if provider == "openai":
        if rest.startswith(("azure/", "bedrock/")):
            return None
        url, url_var = _base_url("OPENAI_BASE_URL")
        if url is None:
            return None  # OpenAI's own API
        if not os.environ.get("OPENAI_API_KEY"):
            raise RunInputError(
                f"{option} {model_name}: OPENAI_API_KEY is not set, expected the key of the server "
                f"at {url} ({url_var}); any value for a server started without one"
            )
        return Server(url, url_var, rest, os.environ["OPENAI_API_KEY"], "OPENAI_API_KEY")
    if provider == "vllm":
        served = rest.split(":", 1)[0]  # the base model, as Inspect's vLLM provider splits it
        key = os.environ.get("VLLM_API_KEY")
        key_source = "VLLM_API_KEY" if key else None
        key = key or "inspectai"  # Inspect's default key for vLLM
        if url := os.environ.get("VLLM_BASE_URL"):
            return Server(url, "VLLM_BASE_URL", served, key, key_source)
        if port := model_args.get("port"):
            return Server(f"http://localhost:{port}/v1", "-M port", served, key, key_source)
        if not vllm_installed():
            raise RunInputError(
                f"{option} {model_name}: VLLM_BASE_URL is not set and the vllm package is not "
                "installed, expected a running server: start `vllm serve MODEL` and export "
                "VLLM_BASE_URL=http://127.0.0.1:8000/v1"
            )
    return None


def check_server(
    model_name: str, server: Server, timeout_s: float = PROBE_TIMEOUT_S, option: str = "--model"
) -> None:
    """Send ``server`` one short chat completion; one error line (exit 2) unless it answers.

    It fails when nothing accepts the connection, nothing answers within ``timeout_s``, the key is
    refused (HTTP 401/403), the model is unknown (HTTP 404, when the URL ends in ``/v1``: the
    probe then asks the path the provider asks) or the server errs (HTTP 5xx). Any other answer
    means a live server: a strict server may refuse the probe's fields and still serve Inspect.
    ``option`` names the model in error lines (``--model`` or ``--judge``).
    """
    from hat_eval.loadtest import ClientConfig, Endpoint, EndpointError, Prompt, probe

    try:
        endpoint = Endpoint.parse(server.url)
    except EndpointError as err:
        raise RunInputError(f"{option} {model_name}: {server.source}: {err}") from None
    config = ClientConfig(
        host=server.url,
        model=server.model,
        max_tokens=1,
        temperature=None,
        stream_usage=False,
        stall_timeout_s=timeout_s,
        request_timeout_s=2 * timeout_s,
        api_key=server.api_key,
    )
    rec = probe(config, Prompt([{"role": "user", "content": "Reply with OK."}], []))
    if rec.ok:
        return
    where = f"{server.url} (from {server.source})"
    detail = f": {rec.detail}" if rec.detail else ""
    if rec.reason == "connection error":
        raise RunInputError(
            f"{option} {model_name}: cannot reach {where}{detail}; expected an OpenAI-compatible "
            f"server listening there: start it (e.g. `vllm serve MODEL`) or correct {server.source}"
        )
    if rec.reason == "stalled":
        raise RunInputError(
            f"{option} {model_name}: {where} sent no response within {timeout_s:g} s; expected an "
            "OpenAI-compatible server answering chat completions"
        )
    if rec.status in (401, 403):
        raise RunInputError(
            f"{option} {model_name}: {where} refused the API key "
            f"{f'from {server.key_source}' if server.key_source else '(the default)'} with HTTP "
            f"{rec.status}{detail}; expected the key the server was started with"
        )
    if rec.status == 404 and urlsplit(server.url).path.rstrip("/").endswith("/v1"):
        raise RunInputError(
            f"{option} {model_name}: {endpoint.url}/v1/chat/completions answered HTTP 404{detail}; "
            f"expected it to serve the model {server.model!r} (see {endpoint.url}/v1/models)"
        )
    if rec.status is not None and rec.status >= 500:
        raise RunInputError(
            f"{option} {model_name}: {where} answered a test chat completion with HTTP "
            f"{rec.status}{detail}; expected a working server (see the server's log)"
        )
    if rec.status == 200:  # answered, but not with a chat completion stream: ask as Inspect does
        problem = completion_problem(server, timeout_s)
        if problem is not None:
            raise RunInputError(
                f"{option} {model_name}: {where} answered a test chat completion with HTTP 200 "
                f"but {problem}; expected an OpenAI-compatible chat completion "
                '({"choices": [{"message": ...}]}): is that URL the model server\'s /v1?'
            )


def preflight(
    model_name: str, model_args: Mapping[str, Any], request_timeout: int, option: str = "--model"
) -> None:
    """:func:`check_server` on the server ``model_name`` calls, if any (:func:`model_server`)."""
    server = model_server(model_name, model_args, option)
    if server is not None:
        timeout_s = min(PROBE_TIMEOUT_S, request_timeout)
        check_server(model_name, server, timeout_s=timeout_s, option=option)


def completion_problem(server: Server, timeout_s: float) -> str | None:
    """What is wrong with ``server``'s answer to one short non-streamed chat completion.

    The request Inspect's OpenAI-compatible providers send (``stream`` off, one token). None
    when the body is a chat completion (JSON with ``choices[0].message``) or the server refuses
    the request with an HTTP error (the streamed probe has judged those); otherwise what the
    body is, in a few words. A server that takes longer than ``timeout_s`` is a problem too.
    """
    import json
    import urllib.error
    import urllib.request

    body = {
        "model": server.model,
        "messages": [{"role": "user", "content": "Reply with OK."}],
        "max_tokens": 1,
        "stream": False,
    }
    request = urllib.request.Request(
        server.url.rstrip("/") + "/chat/completions",
        data=json.dumps(body).encode(),
        headers={
            "Content-Type": "application/json",
            **({"Authorization": f"Bearer {server.api_key}"} if server.api_key else {}),
        },
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout_s) as response:
            raw = response.read(65536)
    except urllib.error.HTTPError:
        return None
    except (OSError, ValueError) as err:  # a timeout, a reset
        return f"a non-streamed request failed ({type(err).__name__}: {err})"
    try:
        data = json.loads(raw)
    except ValueError:
        text = raw.decode("utf-8", "replace").strip()
        return f"its body is not JSON ({text[:60]!r})" if text else "its body is empty"
    choices = data.get("choices") if isinstance(data, dict) else None
    if not (
        isinstance(choices, list)
        and choices
        and isinstance(choices[0], dict)
        and isinstance(choices[0].get("message"), dict)
    ):
        shown = json.dumps(data, ensure_ascii=False)
        return f"its JSON has no choices[0].message ({shown[:60]}...)"
    return None
