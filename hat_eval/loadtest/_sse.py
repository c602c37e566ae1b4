"""Reading an OpenAI chat-completion SSE stream and timing it the way ``vllm bench serve`` does.

:class:`StreamMeter` is fed the bytes of a response body as they arrive, each with the
``time.perf_counter()`` of its arrival, and turns them into a :class:`RequestRecord`:

- TTFT is the arrival of the first chunk whose delta carries text: ``content``, ``reasoning``
  (newer vLLM), ``reasoning_content`` (older vLLM) or tool-call name/arguments. The role-only chunk
  servers send before any token exists does not stop the clock, nor does an empty string.
- E2E is the arrival of the last such chunk (not the ``[DONE]`` line, not the usage chunk).
- ITL are the gaps between successive token-carrying chunks. Under MTP one chunk may carry several
  tokens, so ITLs are per chunk, and the output token count comes from ``usage.completion_tokens``
  when the server sends it, else from a tokenizer over the streamed text, else (a lower bound) the
  number of token-carrying chunks.
- TPOT = (E2E - TTFT) / (N - 1) for N >= 2 output tokens.

A stream is complete when it sent ``[DONE]`` or a ``finish_reason`` (``transformers serve`` sends no
``[DONE]``). Anything else is a failure with a short reason: ``non-JSON chunk``, ``error event``,
``truncated stream`` (the body ended before either), ``no output tokens``.

JSON is decoded with ``pydantic_core.from_json`` (a Rust parser, about 4x ``json.loads`` on
chunk-sized objects; pydantic is a base dependency).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic_core import from_json

from ._records import RequestRecord, TokenSource

TokenCounter = Callable[[str], int]
"""Counts the tokens of a text (a tokenizer's ``len(encode(text))``)."""

SENT_AT_FIELD = "x_sent_at"
"""A chunk field the bundled fake server can stamp with its ``perf_counter()`` at write time, so
the generator's own timing overhead (receive stamp minus send stamp) can be measured."""

_MAX_LINE = 1 << 22


def _delta_text(delta: dict[str, Any]) -> str:
    content = delta.get("content")
    if len(delta) == 1 and isinstance(content, str):
        return content  # the common token chunk: {"content": "..."}
    parts: list[str] = []
    for key in ("content", "reasoning", "reasoning_content"):
        value = delta.get(key)
        if isinstance(value, str) and value:
            parts.append(value)
    calls = delta.get("tool_calls")
    if isinstance(calls, list):
        for call in calls:
            fn = call.get("function") if isinstance(call, dict) else None
            if isinstance(fn, dict):
                for key in ("name", "arguments"):
                    value = fn.get(key)
                    if isinstance(value, str) and value:
                        parts.append(value)
    return "".join(parts)


class StreamMeter:
    """Times one SSE response body; see the module docstring for the definitions.

    Args:
        assemble: Also put the assistant's message together (:attr:`content`,
            :attr:`tool_calls`), for a caller that continues the conversation (an episode).
    """

    def __init__(self, assemble: bool = False) -> None:
        self.assemble = assemble
        self.content: list[str] = []
        """The ``content`` deltas (not reasoning), when assembling."""
        self.tool_calls: dict[int, list[str]] = {}
        """Per tool-call index: ``[id, name, arguments]`` joined from the deltas."""
        self._buf = b""
        self.ttft: float | None = None
        self.last_token: float | None = None
        self.itl: list[float] = []
        self.lags: list[float] = []
        self.text: list[str] = []
        self.token_chunks = 0
        self.usage_tokens: int | None = None
        self.done = False
        self.finished = False
        self.error: tuple[str, str] | None = None
        self.bytes_received = 0

    @property
    def stopped(self) -> bool:
        """Whether reading further is pointless: ``[DONE]`` arrived or the stream is broken."""
        return self.done or self.error is not None

    def feed(self, data: bytes, now: float) -> None:
        """Consume body bytes that arrived at ``now`` (a ``time.perf_counter()`` value)."""
        self.bytes_received += len(data)
        if self.stopped:
            return
        lines = (self._buf + data if self._buf else data).split(b"\n")
        self._buf = lines.pop()  # the unfinished last line, b"" after a newline
        for line in lines:
            if line.startswith(b"data:"):
                self._on_data(line[5:].strip(), now)
                if self.stopped:
                    return
        if len(self._buf) > _MAX_LINE:
            self.error = ("non-JSON chunk", f"a line longer than {_MAX_LINE} bytes")

    def _on_data(self, payload: bytes, now: float) -> None:
        if payload == b"[DONE]":
            self.done = True
            return
        try:
            obj = from_json(payload)
        except ValueError:
            self.error = ("non-JSON chunk", payload[:120].decode("utf-8", "replace"))
            return
        if not isinstance(obj, dict):
            self.error = ("non-JSON chunk", f"a JSON {type(obj).__name__}, not an object")
            return
        if "error" in obj:
            err = obj["error"]
            msg = err.get("message", err) if isinstance(err, dict) else err
            self.error = ("error event", str(msg)[:200])
            return
        usage = obj.get("usage")
        if isinstance(usage, dict) and isinstance(usage.get("completion_tokens"), int):
            self.usage_tokens = usage["completion_tokens"]
        text = ""
        for choice in obj.get("choices") or ():
            if not isinstance(choice, dict):
                continue
            if choice.get("finish_reason"):
                self.finished = True
            delta = choice.get("delta")
            if isinstance(delta, dict):
                text += _delta_text(delta)
                if self.assemble:
                    self._assemble(delta)
        if not text:
            return
        if self.ttft is None:
            self.ttft = now
        elif self.last_token is not None:
            self.itl.append(now - self.last_token)
        self.last_token = now
        self.token_chunks += 1
        self.text.append(text)
        sent_at = obj.get(SENT_AT_FIELD)
        if isinstance(sent_at, float):
            self.lags.append(now - sent_at)

    def _assemble(self, delta: dict[str, Any]) -> None:
        content = delta.get("content")
        if isinstance(content, str):
            self.content.append(content)
        for call in delta.get("tool_calls") or ():
            if not isinstance(call, dict):
                continue
            index = call.get("index", len(self.tool_calls))
            parts = self.tool_calls.setdefault(index if isinstance(index, int) else 0, ["", "", ""])
            if isinstance(call.get("id"), str):
                parts[0] = call["id"]
            fn = call.get("function")
            if isinstance(fn, dict):
                if isinstance(fn.get("name"), str):
                    parts[1] += fn["name"]
                if isinstance(fn.get("arguments"), str):
                    parts[2] += fn["arguments"]

    def record(
        self,
        *,
        started_at: float,
        elapsed_s: float,
        status: int | None,
        prompt_index: int,
        count_tokens: TokenCounter | None = None,
        start: float = 0.0,
    ) -> RequestRecord:
        """The record of a body that has ended (EOF or ``[DONE]``).

        Args:
            started_at: Wall-clock ``time.time()`` when the request was sent.
            elapsed_s: Seconds from sending to the end of reading.
            status: The HTTP status.
            prompt_index: Which prompt of the prompt set was sent.
            count_tokens: Token counter used when the server sends no usage.
            start: The ``perf_counter()`` the ``now`` values given to :meth:`feed` count from.
        """
        common: dict[str, Any] = {
            "started_at": started_at,
            "elapsed_s": elapsed_s,
            "status": status,
            "prompt_index": prompt_index,
            "chunks": self.token_chunks,
            "bytes_received": self.bytes_received,
        }
        ttft = None if self.ttft is None else self.ttft - start
        if self.error is not None:
            return RequestRecord(
                "failure", ttft_s=ttft, reason=self.error[0], detail=self.error[1], **common
            )
        if not (self.done or self.finished):
            return RequestRecord(
                "failure",
                ttft_s=ttft,
                reason="truncated stream",
                detail=f"the body ended after {self.token_chunks} token chunks "
                "without a finish_reason or [DONE]",
                **common,
            )
        if ttft is None or self.last_token is None:
            return RequestRecord(
                "failure",
                reason="no output tokens",
                detail="the stream completed without any text",
                **common,
            )
        source: TokenSource
        if self.usage_tokens is not None:
            n, source = self.usage_tokens, "usage"
        elif count_tokens is not None:
            n, source = count_tokens("".join(self.text)), "tokenizer"
        else:
            n, source = self.token_chunks, "chunks"
        e2e = self.last_token - start
        tpot = (e2e - ttft) / (n - 1) if n > 1 else None
        return RequestRecord(
            "ok",
            ttft_s=ttft,
            e2e_s=e2e,
            output_tokens=n,
            token_source=source,
            tpot_s=tpot,
            itl_s=tuple(self.itl),
            server_lag_s=tuple(self.lags),
            **common,
        )
