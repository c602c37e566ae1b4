"""One request's measurements, and the JSON Lines files the load generators write them to."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Literal

from hat_eval._jsonl import read_jsonl

TokenSource = Literal["usage", "tokenizer", "chunks", "none"]
"""Where ``output_tokens`` came from: the server's ``usage.completion_tokens``, our tokenizer
over the streamed text, a count of token-carrying chunks (a lower bound under MTP), or nothing."""

Outcome = Literal["ok", "failure", "cancelled"]
"""``cancelled``: the run ended while the request was in flight (neither success nor failure)."""


@dataclass(frozen=True)
class RequestRecord:
    """The timings of one streamed chat completion, measured the way ``vllm bench serve`` does.

    All durations are seconds from the moment before the request was sent. ``ttft_s`` is the
    arrival of the first chunk carrying content, reasoning or tool-call text (a role-only chunk does
    not count), ``e2e_s`` the arrival of the last such chunk, ``itl_s`` the gaps between
    successive token-carrying chunks and ``tpot_s`` = (e2e - ttft) / (output_tokens - 1).
    """

    outcome: Outcome
    started_at: float
    elapsed_s: float
    ttft_s: float | None = None
    e2e_s: float | None = None
    output_tokens: int = 0
    token_source: TokenSource = "none"
    tpot_s: float | None = None
    itl_s: tuple[float, ...] = ()
    status: int | None = None
    reason: str | None = None
    detail: str | None = None
    prompt_index: int = -1
    chunks: int = 0
    bytes_received: int = 0
    server_lag_s: tuple[float, ...] = field(default=())
    resent: int = 0
    """Times the request was sent again on a new connection because the server dropped it on
    a reused keep-alive one (the usual HTTP client behaviour, counted here so it is visible:
    the server saw ``1 + resent`` requests for this record)."""

    @property
    def ok(self) -> bool:
        """Whether the request succeeded."""
        return self.outcome == "ok"

    @property
    def decode_tokens_per_s(self) -> float | None:
        """``1 / tpot_s``: the decode rate after the first token; ``None`` below two tokens."""
        return None if not self.tpot_s else 1.0 / self.tpot_s

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; ``server_lag_s`` and ``resent`` are left out when empty or 0.

        Built field by field: ``dataclasses.asdict`` deep-copies every ITL sample, which costs a
        load generator hundreds of microseconds per request.
        """
        d = {f.name: getattr(self, f.name) for f in fields(self)}
        d["itl_s"] = list(self.itl_s)
        if self.server_lag_s:
            d["server_lag_s"] = list(self.server_lag_s)
        else:
            del d["server_lag_s"]
        if not self.resent:
            del d["resent"]
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> RequestRecord:
        """The inverse of :meth:`to_dict`."""
        d = dict(d)
        d["itl_s"] = tuple(d.get("itl_s", ()))
        d["server_lag_s"] = tuple(d.get("server_lag_s", ()))
        return cls(**d)


def write_records(path: Path, records: Iterable[RequestRecord]) -> None:
    """Append records to a JSON Lines file."""
    with path.open("a", encoding="utf-8") as f:
        for r in records:
            f.write(json.dumps(r.to_dict()) + "\n")


def raw_files(folder: Path) -> list[Path]:
    """A level's raw record files, ``folder/raw-*.jsonl`` (one per Locust process), sorted."""
    return sorted(folder.glob("raw-*.jsonl"))


def read_records(paths: Iterable[Path]) -> Iterator[RequestRecord]:
    """Read records from JSON Lines files; a last line cut short by a killed writer is skipped."""
    for path in paths:
        for _, row in read_jsonl(path, what="request records", skip_cut_tail=True):
            yield RequestRecord.from_dict(row)
