"""The report's note on judge-only samples: a team's messages without gold, judged.

A sample of a judge-only case (``run --cases FILE --judge MODEL`` on logged messages without
gold) carries ``judge_only: true`` and ``decided_by`` (part -> ``judge`` or ``checks``) in
its score's metadata; the report says, per suite and candidate, how many there are and which
parts the judge decided on them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from ._compare import SuiteLog


def judge_only_notes(logs: Iterable[SuiteLog]) -> list[str]:
    """One line per log with judge-only samples: their count and the judge's parts.

    ``livestream (hat/reference): 3 samples judge-only (accuracy from the judge on 3)``.
    """
    notes = []
    for s in logs:
        samples = (s.log.samples or []) if s.log is not None else []
        n = 0
        judged: Counter[str] = Counter()
        for sample in samples:
            score = next(iter((sample.scores or {}).values()), None)
            md = (score.metadata or {}) if score is not None else {}
            if not md.get("judge_only"):
                continue
            n += 1
            judged.update(p for p, by in (md.get("decided_by") or {}).items() if by == "judge")
        if n:
            parts = ", ".join(f"{p} on {c}" for p, c in judged.items()) or "no part"
            notes.append(
                f"{s.suite}: {n} samples judge-only (no gold; from the judge: {parts}) "
                f"({s.candidate.name})"
            )
    return notes
