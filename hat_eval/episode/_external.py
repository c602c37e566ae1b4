"""Scoring answers made outside Inspect: production transcripts, another framework's logs.

Each input line is ``{"id": <case id>, "answer": <text>, "tool_calls": [...]}``, read by the
typed models of :mod:`._answer_line` (the owner of a call's shape). The case id is the episode
id the suites use (``hat-eval suites cases NAME --jsonl`` lists them with their gold). A tool
given by ``name`` is resolved through the harness in force for that case (a name the harness
does not have is an unexpected call, not an error). A ``result`` is compared with what the
world returns for the call, so a cut-off, emptied, truncated or schema-drifted result is
recorded as the fault it is (:func:`result_fault`), as the runtime records it in a log. Each
output line holds the case id, the score parts under the suites' names (``null`` where
undecided or not applicable), the aggregate, recovery and the fault's outcome (``null`` where
there is none), the undecided parts and a reason per failed part.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from hat_eval._fields import field_problem
from hat_eval._jsonl import JsonlError, parse_jsonl, read_jsonl
from hat_eval.harness import SKILL_LOADER, MessageStructure

from ._answer_line import AnswerFileError, ToolCallLine, parse_answer_line
from ._checks import PARTS, check_answer
from ._context import EpisodeContext, episode_context, episode_kb
from ._record import Episode
from ._runtime import CallRecord, ToolRuntime

OnBad = Callable[[AnswerFileError], None]
"""What to do with a bad line (report it) when the reading goes on past it."""


@dataclass(frozen=True)
class ExternalAnswer:
    """One answer to score, as read from a line."""

    id: str
    answer: str
    tool_calls: tuple[ToolCallLine, ...]
    where: str


def read_answers(
    lines: Iterable[str],
    source: str,
    *,
    case_ids: Collection[str] | None = None,
    on_bad: OnBad | None = None,
) -> list[ExternalAnswer]:
    """Parse answer lines (JSONL text, one string a line, named ``source`` in messages).

    Blank lines are skipped. An id not among ``case_ids`` (the suite's; None: not checked) is a
    bad line; ``on_bad`` is called with each bad line's error, which is then skipped (None:
    the first raises).

    Raises:
        AnswerFileError: (without ``on_bad``) a line that is not a JSON object of the answer
            line's shape, an unknown case id, or a case id already answered.
    """
    rows = parse_jsonl(lines, source, on_error=_jsonl_errors(on_bad))
    return _answers(rows, str(source), case_ids, on_bad)


def read_answer_file(
    path: str | Path,
    *,
    case_ids: Collection[str] | None = None,
    on_bad: OnBad | None = None,
) -> list[ExternalAnswer]:
    """Read an answers file (JSONL, one answer a line), streaming it; as :func:`read_answers`.

    Raises:
        AnswerFileError: a missing or unreadable file, or (without ``on_bad``) the first bad
            line (the message names the file, the line and the field).
    """
    rows = read_jsonl(path, what="answers", on_error=_jsonl_errors(on_bad))
    return _answers(rows, str(path), case_ids, on_bad)  # read_jsonl raises as it is iterated


def _jsonl_errors(on_bad: OnBad | None) -> Callable[[JsonlError], None] | None:
    if on_bad is None:
        return None
    return lambda err: on_bad(AnswerFileError(str(err)))


def _answers(
    rows: Iterable[tuple[int, dict[str, Any]]],
    source: str,
    case_ids: Collection[str] | None,
    on_bad: OnBad | None,
) -> list[ExternalAnswer]:
    out: list[ExternalAnswer] = []
    first_line: dict[str, int] = {}
    try:
        for number, row in rows:
            where = f"{source}:{number}"
            try:
                line = parse_answer_line(row, where)
                if case_ids is not None and line.id not in case_ids:
                    raise _unknown_id(where, line.id)
                if line.id in first_line:
                    raise AnswerFileError(
                        f"{where}: field id: case id {line.id!r} again (first on line "
                        f"{first_line[line.id]}), expected each case answered once"
                    )
            except AnswerFileError as err:
                if on_bad is None:
                    raise
                on_bad(err)
                continue
            first_line[line.id] = number
            out.append(
                ExternalAnswer(line.id, line.answer or "", tuple(line.tool_calls or ()), where)
            )
    except JsonlError as err:
        raise AnswerFileError(str(err)) from None
    return out


def _unknown_id(where: str, case_id: str) -> AnswerFileError:
    return AnswerFileError(
        f"{where}: field id: unknown case id {case_id!r}, expected an id that "
        "`hat-eval suites cases NAME --jsonl` lists for this suite"
    )


def answer_records(
    episode: Episode, calls: Sequence[ToolCallLine | Mapping[str, Any]]
) -> list[CallRecord]:
    """The call records of an answer made elsewhere, as the runtime would have logged them.

    Tool names are resolved through the episode's harness; a call to a tool the harness does
    not have is ``unknown_tool``. The outcome, faults, attempts, backoff and skill type are the
    ones given (defaults: a clean first attempt); a ``result`` given for a call whose outcome
    is ``ok`` adds the fault it shows (:func:`result_fault`).

    Raises:
        AnswerFileError: a mapping in ``calls`` that is not a tool call (``field tool_calls.N``).
    """
    ctx = episode_context(episode)
    by_name = {t.name: t.function for t in ctx.harness.tools}
    functions = set(by_name.values())
    records = []
    for i, given in enumerate(calls):
        c = given if isinstance(given, ToolCallLine) else _call(given, i)
        name = c.tool
        function = c.function_id if c.function_id in functions else by_name.get(name)
        record = CallRecord(
            name=name,
            function=function,
            arguments=c.args,
            outcome=c.outcome if function is not None else "unknown_tool",
            attempts=c.attempts,
            faults=list(c.faults),
            backoff_s=c.backoff_s,
            skill_type=c.skill_type,
        )
        if c.result is not None and record.outcome == "ok" and function not in (None, SKILL_LOADER):
            shown = result_fault(ctx, str(function), name, record.arguments, c.result)
            if shown is not None:
                _add_fault(record, *shown)
        records.append(record)
    return records


def _call(data: Mapping[str, Any], index: int) -> ToolCallLine:
    try:
        return ToolCallLine.model_validate(dict(data))
    except ValidationError as err:
        problem = field_problem(err, ToolCallLine).removeprefix("field ")
        raise AnswerFileError(f"field tool_calls.{index}.{problem}") from None


def _add_fault(record: CallRecord, kind: str, seen: str | None) -> None:
    """Record that the call's last attempt returned a ``kind`` fault (``seen``: as what)."""
    if not (record.faults and record.faults[-1] == kind and len(record.faults) >= record.attempts):
        record.faults.append(kind)
        record.attempts = max(record.attempts, len(record.faults))
    if seen is not None:
        record.outcome = f"fault:{seen}"


def result_fault(
    ctx: EpisodeContext, function: str, name: str, arguments: Mapping[str, Any], result: Any
) -> tuple[str, str | None] | None:
    """The fault a call's returned ``result`` shows against the world's, or None.

    ``ctx`` is the episode's :class:`~hat_eval.episode.EpisodeContext`. The world's result for
    the call (its knowledge base and live session) is the clean one; ``result`` may be its JSON
    text, the JSON value, or the text as the harness's message structure wraps it. Returns
    ``(fault kind, what the runtime sees)``: the second is ``malformed`` or ``empty`` where the
    runtime's hooks see the fault on its face (the call's outcome becomes ``fault:<that>``) and
    None for a silent fault (``schema_drift``, ``partial``). None when the result is the
    world's, or the world refuses these arguments (nothing to compare with), or it differs in
    a way no fault kind explains (prose a framework's own tool wrote, other values).
    """
    from hat_eval.world import ToolInputError, call_function, drift, render_result

    try:
        real = call_function(ctx.kb, ctx.session, function, dict(arguments))
    except ToolInputError:
        return None
    runtime = ToolRuntime(ctx.harness, ctx.kb, ctx.session)
    text = result if isinstance(result, str) else json.dumps(result, ensure_ascii=False)
    clean = render_result(real)
    drifted = drift(real) if drift(real) != real else {"data": real}
    empty: Any = [] if isinstance(real, list) else {}
    # what the world's fault injector can make of this result, as the runtime shows it
    shapes: list[tuple[str | None, Any]] = [(None, real), ("schema_drift", drifted)]
    shapes += [("empty", empty), *(("partial", short) for short in _cut_short(real))]
    for kind, value in shapes:
        rendered = render_result(value)
        if text.strip() in (rendered, runtime.wrap(name, rendered)):
            if kind is None:
                return None
            return kind, ("empty" if value in ({}, []) else None)
    body = _unwrap(runtime.messages, name, text)
    try:
        value = json.loads(body)
    except ValueError:
        if not body.startswith(("{", "[")):
            return None  # prose or key: value text, not broken JSON: no fault kind to name
        cut = len(body) < len(clean) and clean.startswith(body)
        return ("partial" if cut else "malformed", "malformed")
    if _same_json(value, real):
        return None
    if value in ({}, [], None, ""):
        return ("empty", "empty")
    if _same_json(value, drifted):
        return ("schema_drift", None)
    if _part_of(value, real):
        return ("partial", None)
    return None


def _cut_short(real: Any) -> Iterator[Any]:
    """The shorter results a ``partial`` fault can return: fewer items, or fewer keys."""
    if isinstance(real, list):
        yield from (real[:n] for n in range(1, len(real)))
    elif isinstance(real, dict):
        keys = list(real)
        yield from ({**{k: real[k] for k in keys[:n]}, "truncated": True} for n in range(len(keys)))


def _same_json(a: Any, b: Any) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def _part_of(value: Any, real: Any) -> bool:
    """Whether ``value`` is ``real`` cut short: fewer list items, or fewer keys (``truncated``)."""
    if isinstance(value, list) and isinstance(real, list):
        return len(value) < len(real) and _same_json(value, real[: len(value)])
    if isinstance(value, dict) and isinstance(real, dict):
        kept = {k: v for k, v in value.items() if k != "truncated"}
        return all(k in real and _same_json(v, real[k]) for k, v in kept.items()) and (
            len(kept) < len(real) or value.get("truncated") is True
        )
    return False


def _unwrap(messages: MessageStructure, name: str, text: str) -> str:
    """The result inside the runtime's wrapping (prefix, ``<tool_result>`` tag), if there."""
    body = text.strip().removeprefix(messages.result_prefix).strip()
    head, tail = f'<tool_result name="{name}">', "</tool_result>"
    if body.startswith(head):
        body = body[len(head) :].removesuffix(tail)
    return body


def score_answers(
    answers: Sequence[ExternalAnswer], episodes: Mapping[str, Episode]
) -> Iterator[dict[str, Any]]:
    """One result per answer, in order; every number finite or ``None`` (strict JSON).

    Raises:
        AnswerFileError: an id that is not a case of the suite (named with its line).
    """
    for a in answers:
        episode = episodes.get(a.id)
        if episode is None:
            raise _unknown_id(a.where, a.id)
        check = check_answer(
            episode.case,
            episode.gold,
            a.answer,
            answer_records(episode, a.tool_calls),
            episode.fault,
            episode_kb(episode),
        )
        yield {
            "id": a.id,
            **{p: _number(v) for p, v in check.parts.items() if p in PARTS},
            "aggregate": _number(check.aggregate),
            "recovery": _number(check.recovery),
            "fault": check.fault,
            "undecided": sorted(check.undecided),
            "reasons": {**check.reasons, **check.undecided},
        }


def _number(value: float) -> float | None:
    """``value``, or None for NaN (undecided, not applicable) or an infinity."""
    return value if math.isfinite(value) else None


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
