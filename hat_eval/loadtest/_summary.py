"""One concurrency level's summary as a typed record, and the sweep's ``summary.json``.

:class:`LevelSummary` is what :func:`~hat_eval.loadtest._stats.summarize` builds, what
:func:`~hat_eval.loadtest.run_level` returns and what the report, the CLI and the readers of a
finished sweep take. ``summary.json`` (:func:`write_summary`, :func:`read_summary`) is a list of
:meth:`LevelSummary.to_dict` objects, one per level, in the order the levels ran; its keys are
the record's field names, in field order, and a few groups of keys appear only where they apply
(see :meth:`LevelSummary.to_dict`). :func:`level_latencies` goes back to a finished sweep's raw
per-request records for a latency CDF.
"""

from __future__ import annotations

import functools
import json
import math
import types
import typing
from collections.abc import Mapping, Sequence
from dataclasses import MISSING, dataclass, field, fields
from pathlib import Path
from typing import Any, Literal

from hat_eval._jsonl import JsonlError
from hat_eval._outputs import write_text_atomic

from ._config import SUMMARY_FILE, raw_dir
from ._records import raw_files, read_records


class SummaryError(ValueError):
    """A ``summary.json`` (or a level's raw records) that cannot be read; one line, naming the file.

    The message gives the place (``FILE`` or ``FILE[i]`` for the i-th level), what is wrong and
    what was expected.
    """


def _shown_when(key: str | None = None) -> Any:
    """An optional field: in :meth:`LevelSummary.to_dict` only when ``key`` is not ``None``.

    ``key`` is the field that decides for a group of keys written together (the warm-up and the
    episode figures); ``None`` means the field's own value decides.
    """
    return field(default=None, metadata={"shown_when": key})


@dataclass(frozen=True)
class LevelSummary:
    """One concurrency level of a sweep: one object of ``summary.json``.

    Built by :func:`~hat_eval.loadtest._stats.summarize` (see it for how each figure is computed).
    Latency percentiles are exact (linear interpolation over every successful request's own
    timing), in seconds; ``None`` where there is no sample. Counts are of requests that ended;
    the ``cancelled`` ones, cut off by the end of the run, count in nothing else. Fields with a
    default are optional keys of the JSON: :meth:`to_dict` says when each is written.
    """

    users: int
    """Concurrent users of the level (Locust's user count)."""
    requests: int
    """Requests that ended, succeeded or failed (count)."""
    successes: int
    """Requests that succeeded (count)."""
    failures: int
    """Requests that failed (count)."""
    cancelled: int
    """Requests cut off by the end of the run (count); in no other figure."""
    failure_rate: float
    """``failures / requests`` (fraction, 0 to 1; 0 with no requests)."""
    failure_reasons: Mapping[str, int]
    """Failure reason (``HTTP 503``, ``stalled``, ...) -> count, most common first."""
    resent: int
    """Sends repeated on a new connection after the server dropped a reused one (count)."""
    unreachable_s: float
    """Seconds the server could not be reached, over all outages (seconds)."""
    duration_s: float
    """Wall window from the first request sent to the last one finished (seconds)."""
    e2e_p50_s: float | None
    """Median end-to-end latency of successful requests, to the last token (seconds)."""
    e2e_p90_s: float | None
    """P90 end-to-end latency (seconds)."""
    e2e_p95_s: float | None
    """P95 end-to-end latency (seconds)."""
    e2e_p99_s: float | None
    """P99 end-to-end latency (seconds)."""
    e2e_mean_s: float | None
    """Mean end-to-end latency (seconds)."""
    e2e_p95_with_failures_s: float | None
    """P95 end-to-end latency with every failed request counted as infinitely slow (seconds);
    ``None`` when that lands on a failure (more than 5 % failed). The SLO is on this."""
    ttft_p50_s: float | None
    """Median time to the first token-carrying chunk (seconds)."""
    ttft_p95_s: float | None
    """P95 time to first token (seconds)."""
    ttft_p99_s: float | None
    """P99 time to first token (seconds)."""
    tpot_p50_s: float | None
    """Median time per output token after the first, ``(e2e - ttft) / (N - 1)`` (seconds)."""
    tpot_p95_s: float | None
    """P95 time per output token (seconds)."""
    itl_p50_s: float | None
    """Median gap between successive token-carrying chunks, all requests pooled (seconds)."""
    itl_p95_s: float | None
    """P95 inter-chunk gap (seconds)."""
    itl_p99_s: float | None
    """P99 inter-chunk gap (seconds)."""
    output_tokens: int
    """Output tokens of the successful requests (count)."""
    output_tokens_per_s: float
    """``output_tokens / duration_s`` (tokens per second; 0 for an empty window)."""
    requests_per_s: float
    """``successes / duration_s`` (requests per second; 0 for an empty window)."""
    token_sources: Mapping[str, int]
    """Where successful requests' token counts came from (``usage``, ``tokenizer``, ``chunks``,
    ``none``) -> count."""
    slo_p95_s: float | None
    """The SLO's bound on P95 end-to-end time (seconds); ``None``: no SLO."""
    slo_pass: bool | None
    """Whether the level met the SLO: ``e2e_p95_with_failures_s <= slo_p95_s``, or, in episode
    mode (``slo_on``), ``episode_e2e_p95_with_failures_s <= slo_p95_s``; ``None``: no SLO."""
    warmup_s: float
    """Time from the first request until the last user started, ``(users - 1) / spawn rate``
    (seconds; 0 when every user started at once)."""
    warmup_requests: int | None = _shown_when()
    """Requests sent before ``warmup_s`` ran out (count); with ``steady_*``, only when
    ``warmup_s > 0`` and a request ended."""
    steady_e2e_p50_s: float | None = _shown_when("warmup_requests")
    """Median end-to-end latency of the requests sent after the warm-up (seconds)."""
    steady_e2e_p95_s: float | None = _shown_when("warmup_requests")
    """P95 end-to-end latency of the requests sent after the warm-up (seconds)."""
    server_lag_p50_s: float | None = _shown_when()
    """Median lag of the client's chunk stamps behind the server's send stamps (seconds); only
    against a server that stamps its chunks (the fake server's ``stamp=True``)."""
    server_lag_p95_s: float | None = _shown_when()
    """P95 lag of the client's chunk stamps behind the server's (seconds)."""
    locust_e2e_p50_s: float | None = None
    """Locust's own bucketed median of ``POST chat`` (seconds); ``None`` without Locust's
    figures (no ``locust.json``; a summary built outside a sweep)."""
    locust_e2e_p95_s: float | None = None
    """Locust's bucketed P95 of ``POST chat`` (seconds)."""
    locust_ttft_p50_s: float | None = None
    """Locust's bucketed median of ``TTFT chat`` (seconds)."""
    locust_ttft_p95_s: float | None = None
    """Locust's bucketed P95 of ``TTFT chat`` (seconds)."""
    locust_episode_e2e_p50_s: float | None = _shown_when()
    """Locust's bucketed median of ``EPISODE episode`` (seconds); episode mode only."""
    locust_episode_e2e_p95_s: float | None = _shown_when()
    """Locust's bucketed P95 of ``EPISODE episode`` (seconds); episode mode only."""
    locust_answer_ttft_p50_s: float | None = _shown_when()
    """Locust's bucketed median of ``ANSWER_TTFT episode`` (seconds); episode mode only."""
    locust_answer_ttft_p95_s: float | None = _shown_when()
    """Locust's bucketed P95 of ``ANSWER_TTFT episode`` (seconds); episode mode only."""
    episodes: int | None = _shown_when()
    """Episodes that ended, answered or failed (count). Episode mode only, as every
    ``episode_*``, ``answer_ttft_*``, ``turns_mean`` and ``tool_s_*`` field: ``None`` otherwise."""
    episode_successes: int | None = _shown_when("episodes")
    """Episodes that reached a final answer (count)."""
    episode_failures: int | None = _shown_when("episodes")
    """Episodes that failed (count)."""
    episode_cancelled: int | None = _shown_when("episodes")
    """Episodes cut off by the end of the run (count)."""
    episode_failure_reasons: Mapping[str, int] | None = _shown_when("episodes")
    """Episode failure reason -> count, most common first."""
    episode_e2e_p50_s: float | None = _shown_when("episodes")
    """Median episode time, first turn's send to the answer's last token (seconds)."""
    episode_e2e_p95_s: float | None = _shown_when("episodes")
    """P95 episode end-to-end time (seconds)."""
    episode_e2e_p99_s: float | None = _shown_when("episodes")
    """P99 episode end-to-end time (seconds)."""
    episode_e2e_p95_with_failures_s: float | None = _shown_when("episodes")
    """P95 episode time with failed episodes counted as infinitely slow (seconds); ``None``
    above 5 % failed."""
    answer_ttft_p50_s: float | None = _shown_when("episodes")
    """Median time from the first turn's send to the final answer's first token (seconds)."""
    answer_ttft_p95_s: float | None = _shown_when("episodes")
    """P95 answer TTFT (seconds)."""
    answer_ttft_p99_s: float | None = _shown_when("episodes")
    """P99 answer TTFT (seconds)."""
    turns_mean: float | None = _shown_when("episodes")
    """Mean model turns of an answered episode (turns)."""
    tool_s_p50_s: float | None = _shown_when("episodes")
    """Median time an answered episode spent running its tool calls (seconds)."""
    tool_s_p95_s: float | None = _shown_when("episodes")
    """P95 tool time of an answered episode (seconds)."""
    episode_output_tokens_mean: float | None = _shown_when("episodes")
    """Mean output tokens of an answered episode, over its turns (tokens)."""
    episodes_per_s: float | None = _shown_when("episodes")
    """Answered episodes over the episodes' wall window (episodes per second)."""
    slo_on: Literal["episode_e2e"] | None = _shown_when()
    """``"episode_e2e"`` when ``slo_pass`` is the episodes' verdict (episode mode)."""

    def to_dict(self) -> dict[str, Any]:
        """The level's ``summary.json`` object: one key per field, in field order.

        Every field without a default is always written, and so are the four ``locust_e2e_*``/
        ``locust_ttft_*`` (``null`` without Locust's figures). The others are written only where
        they apply: ``warmup_requests`` and ``steady_*`` when ``warmup_requests`` is set (a
        spawn rate), every episode figure when ``episodes`` is set (episode mode), and
        ``server_lag_*``, ``locust_episode_*``/``locust_answer_*`` and ``slo_on`` when not
        ``None``. So a summary read by :meth:`from_dict` writes back the same object, and a
        ``summary.json`` written before this record existed reads back and writes out unchanged.
        """
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if "shown_when" in f.metadata:
                if getattr(self, f.metadata["shown_when"] or f.name) is None:
                    continue
            out[f.name] = dict(value) if isinstance(value, Mapping) else value
        return out

    @classmethod
    def from_dict(cls, data: Any, source: str | Path) -> LevelSummary:
        """The inverse of :meth:`to_dict`, checking every key.

        Unknown keys are ignored (a newer hat-eval may write more). An optional key may be
        absent, except the members of a group whose deciding key is there (``steady_*`` with
        ``warmup_requests``, the episode figures with ``episodes``).

        Args:
            data: One level's object, as ``json.load`` gave it.
            source: Where it came from, for messages (``out/summary.json[2]``).

        Raises:
            SummaryError: ``data`` is not an object, or a key is missing or has a value of the
                wrong type; the one-line message names ``source`` and the field.
        """
        if not isinstance(data, dict):
            raise SummaryError(
                f"{source}: a JSON {_kind(data)}, expected an object (one concurrency level)"
            )
        hints = _hints()
        kwargs: dict[str, Any] = {}
        for f in fields(cls):
            hint = hints[f.name]
            if f.name not in data:
                group = f.metadata.get("shown_when")
                if f.default is MISSING or (group is not None and data.get(group) is not None):
                    raise SummaryError(
                        f"{source}: field {f.name!r} is missing, expected {_expected(hint)}"
                    )
                continue
            value = data[f.name]
            if not _matches(value, hint):
                shown = json.dumps(value, default=str)
                shown = shown if len(shown) <= 60 else shown[:57] + "..."
                raise SummaryError(
                    f"{source}: field {f.name!r} is {shown}, expected {_expected(hint)}"
                )
            kwargs[f.name] = dict(value) if isinstance(value, dict) else value
        return cls(**kwargs)


@functools.cache
def _hints() -> dict[str, Any]:
    return typing.get_type_hints(LevelSummary)


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    return {dict: "object", list: "array", str: "string", int: "number", float: "number"}.get(
        type(value), type(value).__name__
    )


def _union_args(hint: Any) -> tuple[Any, ...] | None:
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        return typing.get_args(hint)
    return None


def _matches(value: Any, hint: Any) -> bool:
    """Whether a JSON value fits a field type of :class:`LevelSummary`."""
    args = _union_args(hint)
    if args is not None:
        return any(_matches(value, a) for a in args)
    if hint is type(None):
        return value is None
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if typing.get_origin(hint) is Literal:
        return value in typing.get_args(hint)
    if typing.get_origin(hint) is Mapping:
        key_type, value_type = typing.get_args(hint)
        return isinstance(value, dict) and all(
            _matches(k, key_type) and _matches(v, value_type) for k, v in value.items()
        )
    if hint is str:
        return isinstance(value, str)
    raise TypeError(f"no JSON check for {hint}")  # a field type this module lacks


def _expected(hint: Any) -> str:
    """``float | None`` -> ``a number or null``."""
    args = _union_args(hint)
    if args is not None:
        return " or ".join(_expected(a) for a in args)
    if hint is type(None):
        return "null"
    if typing.get_origin(hint) is Literal:
        return " or ".join(json.dumps(a) for a in typing.get_args(hint))
    if typing.get_origin(hint) is Mapping:
        return f"an object of {_expected(typing.get_args(hint)[1]).split(' ', 1)[1]}s"
    names = {bool: "true or false", int: "an integer", float: "a number", str: "a string"}
    return names[hint]


def write_summary(folder: Path, levels: Sequence[LevelSummary]) -> Path:
    """Write ``folder/summary.json`` (a list of :meth:`LevelSummary.to_dict`); return its path."""
    path = folder / SUMMARY_FILE
    text = json.dumps([lv.to_dict() for lv in levels], indent=2) + "\n"
    write_text_atomic(path, text)
    return path


def read_summary(folder: Path) -> list[LevelSummary]:
    """The levels of a finished sweep, from ``folder/summary.json``, in the order they ran.

    Args:
        folder: The ``--out`` folder of ``hat-eval loadtest``.

    Raises:
        SummaryError: No ``summary.json`` in ``folder``; the file is unreadable, not valid JSON
            or not a list of objects; a level has a missing or mistyped field
            (:meth:`LevelSummary.from_dict`).
    """
    path = folder / SUMMARY_FILE
    if not path.is_file():
        raise SummaryError(
            f"{folder}: no {SUMMARY_FILE}, expected the --out folder of `hat-eval loadtest`"
        )
    try:
        data = json.loads(path.read_bytes())
    except OSError as err:
        raise SummaryError(f"{path}: cannot read it ({err.strerror or err})") from None
    except ValueError as err:  # JSONDecodeError, or bytes that are no Unicode
        raise SummaryError(f"{path}: not valid JSON ({err})") from None
    if not isinstance(data, list):
        raise SummaryError(
            f"{path}: a JSON {_kind(data)}, expected a list with one object per concurrency level"
        )
    return [LevelSummary.from_dict(lv, f"{path}[{i}]") for i, lv in enumerate(data)]


def level_latencies(folder: Path) -> dict[int, list[float]]:
    """Every request's end-to-end seconds per concurrency level of a finished sweep, for a CDF.

    The levels are those of ``folder/summary.json`` (:func:`read_summary`), in the order they
    ran: the levels the sweep finished, not whatever ``users-N`` folders lie in ``folder`` (an
    interrupted level, or one left from an earlier sweep into the same folder, has a folder but
    no summary). Each level's records are the raw ones its Locust processes wrote,
    ``folder/users-N/raw/raw-*.jsonl``, all files together.

    A successful request gives its ``e2e_s``; a failed one gives ``math.inf``, as the SLO counts
    it (infinitely slow); a cancelled one (cut off by the end of the run) gives nothing, and
    neither does a successful one without a token chunk (no ``e2e_s``), as in
    :func:`~hat_eval.loadtest._stats.summarize`. Each list is sorted, fastest first, infinities
    last; in episode mode it holds the turns (each an ordinary request), not the episodes.

    Returns:
        ``users -> sorted seconds``, in the order of ``summary.json``.

    Raises:
        SummaryError: What :func:`read_summary` raises; a level without its ``raw`` folder; a
            raw file that is not JSON Lines (the message is the reader's ``FILE:LINE: ...``).
    """
    out: dict[int, list[float]] = {}
    for lv in read_summary(folder):
        raw = raw_dir(folder, lv.users)
        if not raw.is_dir():
            raise SummaryError(
                f"{raw}: no such folder, expected the raw records of the users={lv.users} level "
                f"of {folder / SUMMARY_FILE}"
            )
        try:
            records = list(read_records(raw_files(raw)))
        except JsonlError as err:
            raise SummaryError(str(err)) from None
        seconds: list[float] = []
        for r in records:
            if r.outcome == "failure":
                seconds.append(math.inf)
            elif r.ok and r.e2e_s is not None:
                seconds.append(r.e2e_s)
        out[lv.users] = sorted(seconds)
    return out
