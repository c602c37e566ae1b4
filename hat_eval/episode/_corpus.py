"""The hand-labelled answer corpus: answers a careful human judged, and how the checks agree.

Each line of ``judge/corpus/answers_*.jsonl`` is an answer written for a real case, the case and
its gold as stored when the answer was written (so the corpus does not move when the case
generator does), and a human verdict per part (``pass``/``fail``) with a one-line reason. The
labels come from reading the case and the knowledge base, never from the checks' output.
:func:`agreement` compares the deterministic verdicts with them, per part and per kind of answer.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from hat_eval._jsonl import JsonlError, read_jsonl
from hat_eval.world import Case, FaultPlan, mark_unasked

from ._checks import AnswerCheck, check_answer
from ._context import knowledge_base
from ._record import Gold
from ._runtime import CallRecord

LABELLED_PARTS = ("accuracy", "safety")
"""The parts the corpus labels (the others are mechanical: tags, limits, calls)."""


class CorpusError(ValueError):
    """A corpus line that cannot be read; the message names the file and line."""


@dataclass(frozen=True)
class CorpusEntry:
    """One labelled answer."""

    id: str
    case_id: str
    kind: str
    answer: str
    case: Case
    gold: Gold
    kb_seed: int
    fault: FaultPlan | None
    records: tuple[CallRecord, ...]
    labels: dict[str, bool]
    reason: str
    where: str


def _records(tool_calls: Any, case: Case, gold: Gold) -> tuple[CallRecord, ...]:
    if tool_calls == "expected":  # what a correct agent does: every expected call, all answered
        return tuple(
            CallRecord(gold.tools.get(c.function, c.function), c.function, dict(c.args), "ok")
            for c in case.expected_calls
        )
    return tuple(
        CallRecord.from_dict(
            {**c, "name": c.get("name") or gold.tools.get(c["function"], c["function"])}
        )
        for c in tool_calls
    )


def read_corpus(paths: Iterable[str | Path]) -> list[CorpusEntry]:
    """Every entry of the corpus files, in file and line order.

    Raises:
        CorpusError: a missing file, or a line that is not a JSON object or lacks a field,
            naming the file and line.
    """
    entries = []
    for path in paths:
        try:
            for n, row in read_jsonl(path, what="labelled answers"):
                entries.append(_entry(row, f"{path}:{n}"))
        except JsonlError as err:
            raise CorpusError(str(err)) from None
    return entries


def _entry(row: dict[str, Any], where: str) -> CorpusEntry:
    try:
        stored = row["stored"]
        case = Case.from_dict(stored["case"])
        # the rule of which facts the viewer asked for, as it is now (the case may be older)
        asked = mark_unasked(case.intent, case.message, case.facts, dict(case.details))
        case = replace(case, facts=asked)
        gold = Gold.from_dict(stored["gold"])
        fault = stored.get("fault")
        return CorpusEntry(
            id=str(row["id"]),
            case_id=str(row["case_id"]),
            kind=str(row["kind"]),
            answer=str(row["answer"]),
            case=case,
            gold=gold,
            kb_seed=int(stored.get("kb_seed", 0)),
            fault=FaultPlan.from_dict(fault) if fault else None,
            records=_records(row.get("tool_calls", "expected"), case, gold),
            labels={part: row["labels"][part] == "pass" for part in LABELLED_PARTS},
            reason=str(row.get("reason", "")),
            where=where,
        )
    except (ValueError, KeyError, TypeError) as err:
        raise CorpusError(
            f"{where}: {type(err).__name__} {err}; expected a JSON object with id, "
            "case_id, kind, answer, labels {accuracy, safety} and stored {case, gold}"
        ) from None


def check_entry(entry: CorpusEntry) -> AnswerCheck:
    """The deterministic verdicts on one corpus answer."""
    return check_answer(
        entry.case,
        entry.gold,
        entry.answer,
        entry.records,
        entry.fault,
        knowledge_base(entry.kb_seed),
    )


@dataclass(frozen=True)
class Agreement:
    """How often the checks' verdict on a part equals the human one, over decided answers."""

    part: str
    group: str
    agree: int
    decided: int
    undecided: int

    @property
    def rate(self) -> float:
        """Agreement over decided answers (NaN when none was decided)."""
        return self.agree / self.decided if self.decided else math.nan


def verdict(check: AnswerCheck, part: str) -> bool | None:
    """The checks' pass (value 1) / fail verdict on a part; None when undecided or not scored."""
    value = check.parts.get(part, math.nan)
    if part in check.undecided or math.isnan(value):
        return None
    return value >= 1.0


@dataclass(frozen=True)
class AnswerAgreement:
    """Answer-level agreement of the checks with the human labels over a set of answers.

    An answer is *decided* when the checks decided at least one labelled part, and *agrees*
    when every part they decided equals the human label ("answer level over decided parts",
    the validation targets' measure); it is *undecided* when any labelled part is undecided.
    """

    answers: int
    decided: int
    agree: int
    undecided: int
    judged_parts: int
    """Labelled parts the checks decided."""
    false_passes: int
    """Parts the checks passed and the humans failed."""


def answer_agreement(
    entries: Sequence[CorpusEntry], checks: Sequence[AnswerCheck]
) -> AnswerAgreement:
    """:class:`AnswerAgreement` of ``checks`` (one per entry) with the entries' labels."""
    decided = agree = undecided = judged = false_passes = 0
    for entry, check in zip(entries, checks, strict=True):
        verdicts = {p: verdict(check, p) for p in LABELLED_PARTS}
        made = {p: v for p, v in verdicts.items() if v is not None}
        undecided += len(made) < len(verdicts)
        judged += len(made)
        false_passes += sum(v and not entry.labels[p] for p, v in made.items())
        if made:
            decided += 1
            agree += all(v == entry.labels[p] for p, v in made.items())
    return AnswerAgreement(len(entries), decided, agree, undecided, judged, false_passes)


def agreement(
    entries: Sequence[CorpusEntry], checks: Sequence[AnswerCheck], by: str = "part"
) -> list[Agreement]:
    """Agreement per part (``by="part"``) or per part and kind of answer (``by="kind"``)."""
    table: dict[tuple[str, str], list[int]] = {}
    for entry, check in zip(entries, checks, strict=True):
        for part in LABELLED_PARTS:
            key = (part, "all" if by == "part" else entry.kind)
            row = table.setdefault(key, [0, 0, 0])
            v = verdict(check, part)
            if v is None:
                row[2] += 1
            else:
                row[1] += 1
                row[0] += v == entry.labels[part]
    return [Agreement(p, g, a, d, u) for (p, g), (a, d, u) in sorted(table.items())]
