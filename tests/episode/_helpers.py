"""Helpers the episode tests (and the HSA tests over the agent loop) share."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from pathlib import Path

from hat_eval.episode import (
    AnswerCheck,
    CallRecord,
    Episode,
    EpisodeContext,
    Message,
    knowledge_base,
)
from hat_eval.episode._corpus import CorpusEntry, check_entry, read_corpus
from hat_eval.harness import Harness, Tool
from hat_eval.hsa import Mapping
from hat_eval.world import Case

Generate = Callable[[Sequence[Message], Sequence[Tool]], Message]


def scripted(replies: list[Message]) -> tuple[Generate, list[list[Message]]]:
    """A model that answers with ``replies`` in turn, and the messages it was shown each turn."""
    seen: list[list[Message]] = []

    def generate(messages: Sequence[Message], tools: Sequence[Tool]) -> Message:
        seen.append(list(messages))
        return replies[len(seen) - 1]

    return generate, seen


def context(harness: Harness, case: Case) -> EpisodeContext:
    """The context of ``case`` under ``harness`` itself (no variant, no fault)."""
    return EpisodeContext(harness, Mapping(), knowledge_base(0), case.session, None)


def ok_records(e: Episode) -> list[CallRecord]:
    """Every expected call of the episode, made under the names in force and answered."""
    return [
        CallRecord(e.gold.tools.get(c.function, c.function), c.function, dict(c.args), "ok")
        for c in e.case.expected_calls
    ]


CORPUS = Path(__file__).resolve().parents[2] / "judge" / "corpus"


def corpus_lines(*sets: str) -> dict[str, CorpusEntry]:
    """The labelled corpus lines of the sets named (``"L26"`` reads ``answers_L26.jsonl``)."""
    return {e.id: e for e in read_corpus([CORPUS / f"answers_{n}.jsonl" for n in sets])}


def part_value(value: float) -> float | None:
    """A part's value as a test compares it: ``None`` for undecided (NaN), else the value."""
    return None if math.isnan(value) else value


def check_line(lines: dict[str, CorpusEntry], line_id: str, answer: str) -> AnswerCheck:
    """The checks on a corpus line's own case and call records, with ``answer`` written here."""
    return check_entry(dataclasses.replace(lines[line_id], answer=answer))


def assert_parts(
    lines: dict[str, CorpusEntry], line_id: str, answer: str, **expected: float | None
) -> None:
    """Assert the parts named (``accuracy=1.0``, ``safety=None``: undecided) of ``answer``."""
    check = check_line(lines, line_id, answer)
    got = {part: part_value(check.parts[part]) for part in expected}
    assert got == expected, (check.reasons, check.undecided)
