"""Scoring answers made outside Inspect: production transcripts, another framework's logs.

Each input line is ``{"id": <case id>, "answer": <text>, "tool_calls": [{"function" or "name",
"arguments", "outcome"}]}``; the case id is the episode id the suites use (``hat-eval suites cases
NAME --jsonl`` lists them with their gold). A tool given by ``name`` is resolved through the
harness in force for that case (a name the harness does not have is an unexpected call, not an
error). Each output line holds the case id, the score parts under the suites' names, the
undecided parts and a reason per failed part.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hat_eval._jsonl import JsonlError, parse_jsonl, read_jsonl

from ._checks import PARTS, check_answer
from ._context import knowledge_base, resolve_harness
from ._record import Episode
from ._runtime import CallRecord


class AnswerFileError(ValueError):
    """An answers line that cannot be scored; the message names the file and line."""


@dataclass(frozen=True)
class ExternalAnswer:
    """One answer to score, as read from a line."""

    id: str
    answer: str
    tool_calls: tuple[dict[str, Any], ...]
    where: str


def read_answers(lines: Iterable[str], source: str) -> list[ExternalAnswer]:
    """Parse answer lines (JSONL text named ``source``); blank lines are skipped.

    Raises:
        AnswerFileError: a line that is not a JSON object with ``id`` and ``answer``.
    """
    try:
        return [_answer(row, f"{source}:{n}") for n, row in parse_jsonl(lines, source)]
    except JsonlError as err:
        raise AnswerFileError(str(err)) from None


def read_answer_file(path: str | Path) -> list[ExternalAnswer]:
    """Read an answers file (JSONL, one answer a line), streaming it; blank lines are skipped.

    Raises:
        AnswerFileError: a missing file, or a line that is not a JSON object with ``id`` and
            ``answer`` (the message names the file and line).
    """
    try:
        return [_answer(row, f"{path}:{n}") for n, row in read_jsonl(path, what="answers")]
    except JsonlError as err:
        raise AnswerFileError(str(err)) from None


def _answer(row: dict[str, Any], where: str) -> ExternalAnswer:
    if "id" not in row or "answer" not in row:
        raise AnswerFileError(
            f"{where}: expected an object with 'id' (a case id) and 'answer' (text), "
            f"got {str(row)[:60]!r}"
        )
    calls = row.get("tool_calls") or []
    if not isinstance(calls, list) or not all(isinstance(c, dict) for c in calls):
        raise AnswerFileError(f"{where}: 'tool_calls' must be a list of objects")
    return ExternalAnswer(str(row["id"]), str(row["answer"] or ""), tuple(calls), where)


def answer_records(episode: Episode, calls: Sequence[Mapping[str, Any]]) -> list[CallRecord]:
    """The call records of an answer made elsewhere (tool names resolved through its harness)."""
    harness, _ = resolve_harness(episode.harness)
    by_name = {t.name: t.function for t in harness.tools}
    functions = set(by_name.values())
    records = []
    for c in calls:
        name = str(c.get("name") or c.get("function") or "")
        function = c.get("function") if c.get("function") in functions else by_name.get(name)
        args = c.get("arguments") or {}
        if isinstance(args, str):
            try:
                args = json.loads(args)
            except ValueError:
                args = {}
        records.append(
            CallRecord(
                name=name,
                function=None if function is None else str(function),
                arguments=dict(args) if isinstance(args, dict) else {},
                outcome=str(c.get("outcome", "ok")) if function is not None else "unknown_tool",
            )
        )
    return records


def score_answers(
    answers: Sequence[ExternalAnswer], episodes: Mapping[str, Episode]
) -> Iterator[dict[str, Any]]:
    """One result per answer, in order.

    Raises:
        AnswerFileError: an id that is not a case of the suite (named with its line).
    """
    for a in answers:
        episode = episodes.get(a.id)
        if episode is None:
            raise AnswerFileError(
                f"{a.where}: unknown case id {a.id!r}; expected an id that "
                "`hat-eval suites cases NAME --jsonl` lists for this suite"
            )
        check = check_answer(
            episode.case,
            episode.gold,
            a.answer,
            answer_records(episode, a.tool_calls),
            episode.fault,
            knowledge_base(episode.kb_seed),
        )
        yield {
            "id": a.id,
            **{p: (None if v != v else v) for p, v in check.parts.items() if p in PARTS},
            "aggregate": None if check.aggregate != check.aggregate else check.aggregate,
            "recovery": check.recovery,
            "undecided": sorted(check.undecided),
            "reasons": {**check.reasons, **check.undecided},
        }


def case_line(episode: Episode) -> dict[str, Any]:
    """What ``hat-eval suites cases --jsonl`` writes for a case: enough to write an answer."""
    return {
        "id": episode.id,
        "intent": episode.case.intent,
        "language": episode.case.language,
        "message": episode.case.message,
        "product_on_screen": episode.case.session.product_on_screen,
        "harness": {**episode.harness.base_dict(), "variant": episode.harness.variant_dict()},
        "fault": episode.fault.to_dict() if episode.fault else None,
        "gold": {
            "facts": [f.to_dict() for f in episode.case.facts],
            "expected_calls": [c.to_dict() for c in episode.case.expected_calls],
            **episode.gold.to_dict(),
        },
    }
