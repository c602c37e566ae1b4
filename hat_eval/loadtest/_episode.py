"""Whole episodes under load: the suites' agent loop driven over the streaming client.

An episode is one viewer case of the livestream suite (its message, harness, world and fault
plan, :func:`hat_eval.suites.suite_episodes`), played by the episode layer's own loop
(:func:`hat_eval.episode.run_agent`, the loop the suites' ``harness_agent`` runs): each model
turn is one streamed chat completion (the transcript so far in OpenAI form, the harness's tool
schemas), timed like any request; the turn's tool calls run against the world through the
harness's hooks; the loop stops at the final answer or ``max_turns``.

Per episode (:class:`EpisodeRecord`), all from the send of the first turn: the time to the
first token of the final answer (what the viewer waits for), the end-to-end time (its last
token), the number of model turns, the time spent running tools, and the output tokens. Each
turn also gives the usual :class:`~hat_eval.loadtest._records.RequestRecord`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hat_eval._cache import by_identity
from hat_eval._jsonl import read_jsonl

from ._client import ChatStreamClient, Reply
from ._prompts import Prompt
from ._records import Outcome, RequestRecord

if TYPE_CHECKING:
    from hat_eval.episode import AgentRun, Episode, Execute, Message
    from hat_eval.harness import Harness

EPISODE_SUITE = "livestream"
"""The suite whose test cases episode mode plays."""


@dataclass(frozen=True)
class EpisodeRecord:
    """One episode's measurements; durations in seconds from the first turn's send."""

    outcome: Outcome
    started_at: float
    """Wall-clock ``time.time()`` of the first turn's send."""
    elapsed_s: float
    """To the end of the last turn read (or the failure)."""
    episode_index: int
    case_id: str
    answer_ttft_s: float | None = None
    """To the first token of the final answer (the final turn's TTFT, plus the turns before)."""
    e2e_s: float | None = None
    """To the last token of the final answer."""
    turns: int = 0
    """Model turns sent (a failed turn counts)."""
    tool_s: float = 0.0
    """Time spent running tool calls (world, hooks, faults), all turns together."""
    tool_calls: int = 0
    output_tokens: int = 0
    """Output tokens over the successful turns."""
    reason: str | None = None
    detail: str | None = None

    @property
    def ok(self) -> bool:
        """Whether the episode reached a final answer."""
        return self.outcome == "ok"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> EpisodeRecord:
        """The inverse of :meth:`to_dict`."""
        return cls(**d)


def read_episode_records(paths: Iterable[Path]) -> Iterator[EpisodeRecord]:
    """Read episode records; a last line cut short by a killed writer is skipped."""
    for path in paths:
        for _, row in read_jsonl(path, what="episode records", skip_cut_tail=True):
            yield EpisodeRecord.from_dict(row)


def write_episode_records(path: Path, records: Iterable[EpisodeRecord]) -> None:
    """Append episode records to a JSON Lines file."""
    with path.open("a", encoding="utf-8") as f:
        for r in records:
            f.write(json.dumps(r.to_dict()) + "\n")


def load_episodes(n: int, harness: Path | None = None) -> list[Episode]:
    """The episodes a load test plays: the first ``n`` test cases of the livestream suite.

    Deterministic, so every Locust process builds the same list from the config alone; ``n``
    above the suite's size gives the whole suite.

    Args:
        n: How many cases (a sweep's ``n_prompts``).
        harness: The harness file the cases run under; the default harness when ``None``.
    """
    from hat_eval.suites import suite_episodes, suite_recipe

    size = min(n, suite_recipe(EPISODE_SUITE).cases)
    path = str(harness) if harness else None
    return suite_episodes(EPISODE_SUITE, split="test", n=size, harness=path)


def _arguments(text: str) -> dict[str, Any]:
    """A streamed call's arguments; text that is not a JSON object runs as no arguments."""
    try:
        value = json.loads(text) if text.strip() else {}
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


@by_identity(4096)
def _tool_schemas(harness: Harness) -> list[dict[str, Any]]:
    from hat_eval.harness import render_tools

    return render_tools(harness)


class _TurnFailed(Exception):
    def __init__(self, record: RequestRecord) -> None:
        super().__init__(record.reason)
        self.record = record


def _failed_record(
    replies: list[Reply], failed: RequestRecord, common: dict[str, Any]
) -> EpisodeRecord:
    """The record of an episode whose turn ``failed`` (a server or network fault)."""
    first, last = replies[0], replies[-1]
    return EpisodeRecord(
        "failure",
        first.record.started_at,
        last.start + last.record.elapsed_s - first.start,
        turns=len(replies),
        output_tokens=sum(r.record.output_tokens for r in replies if r.record.ok),
        reason=failed.reason,
        detail=f"turn {len(replies)}: {failed.detail or failed.reason}",
        **common,
    )


def _finished_record(
    run: AgentRun, replies: list[Reply], max_turns: int, common: dict[str, Any]
) -> EpisodeRecord:
    """The record of an episode the agent loop finished: answered, or out of turns."""
    first, last = replies[0], replies[-1]
    stats: dict[str, Any] = {
        "turns": run.turns,
        "tool_s": sum(run.tool_s),
        "tool_calls": len(run.records),
        "output_tokens": sum(r.record.output_tokens for r in replies),
    }
    elapsed = last.start + last.record.elapsed_s - first.start
    if not run.answered:
        return EpisodeRecord(
            "failure",
            first.record.started_at,
            elapsed,
            reason="no final answer",
            detail=f"still calling tools after {max_turns} turns",
            **stats,
            **common,
        )
    rec = last.record
    assert rec.ttft_s is not None and rec.e2e_s is not None  # an ok record has both
    return EpisodeRecord(
        "ok",
        first.record.started_at,
        elapsed,
        answer_ttft_s=last.start + rec.ttft_s - first.start,
        e2e_s=last.start + rec.e2e_s - first.start,
        **stats,
        **common,
    )


def play_episode(
    client: ChatStreamClient,
    episode: Episode,
    index: int,
    *,
    max_turns: int = 5,
    turns: list[RequestRecord] | None = None,
    execute: Execute[Any] | None = None,
) -> EpisodeRecord:
    """Play one episode through ``client``; never raises for server or network faults.

    Args:
        client: The streaming client (its config gives model, ``max_tokens``, ...).
        episode: The case to play.
        index: Recorded with the episode and as each turn's ``prompt_index``.
        max_turns: Most model turns.
        turns: Each turn's record is appended here as it ends (also when the episode fails).
        execute: Runs each turn's tool calls (in line when ``None``): a Locust user runs them
            on a thread, so its event loop keeps stamping other users' arrivals meanwhile.
    """
    from hat_eval.episode import (
        Message,
        ToolCall,
        episode_context,
        openai_message,
        run_agent,
        stable_seed,
    )

    ctx = episode_context(episode)
    schemas = _tool_schemas(ctx.harness)
    replies: list[Reply] = []
    sink = turns if turns is not None else []

    def generate(messages: Sequence[Message], _tools: object) -> Message:
        reply = client.exchange(Prompt([openai_message(m) for m in messages], schemas), index)
        replies.append(reply)
        sink.append(reply.record)
        if not reply.record.ok:
            raise _TurnFailed(reply.record)
        calls = tuple(ToolCall(i, name, _arguments(args)) for i, name, args in reply.tool_calls)
        return Message("assistant", reply.content, tool_calls=calls)

    common: dict[str, Any] = {"episode_index": index, "case_id": episode.id}
    try:
        run = run_agent(
            ctx,
            [Message("user", episode.case.message)],
            generate,
            seed=stable_seed(episode.id),
            max_turns=max_turns,
            execute=execute,
        )
    except _TurnFailed as failed:
        return _failed_record(replies, failed.record, common)
    return _finished_record(run, replies, max_turns, common)
