"""The checks' own error, carried beside every score they produce.

A suite's score is only as good as the deterministic checks that decide it. This module states,
per suite, how often those checks agree with careful human labels on the shipped labelled sets
(``judge/corpus/``): the answers the checks were developed on (``answers_*.jsonl``, "corpus") and
the sets held out from that development (``heldout_*.jsonl``, "held-out"), each with a Wilson 95%
interval and the share of answers the checks left undecided.

The numbers are measured from the corpus by :func:`measure_instrument` and shipped as
``instrument.json`` beside this module, so that an installed package (which carries no corpus)
can print them; ``python bench/corpus_agreement.py --write-instrument`` rewrites that file and a
test keeps it equal to what the corpus gives today.

Agreement is answer-level over decided parts, as the validation targets measure it
(:func:`hat_eval.episode.answer_agreement`): an answer is decided when the checks decided one of
its labelled parts (accuracy, safety), and agrees when every part they decided equals the human
label; the undecided share is the answers with a part left undecided (for the Agent-as-Judge).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

INSTRUMENT_FILE = "instrument.json"
"""The shipped measurement, beside this module."""

SETS = {"answers_": "corpus", "heldout_": "held-out"}
"""File-name prefix in ``judge/corpus`` -> the set it belongs to."""


@dataclass(frozen=True)
class InstrumentRow:
    """The checks against human labels on one labelled set of one suite.

    Attributes:
        suite: The suite of the labelled cases.
        set: ``corpus`` (developed on) or ``held-out`` (never tuned on).
        files: The labelled files measured.
        answers: Labelled answers.
        decided: Answers with a labelled part the checks decided.
        agree: Decided answers whose every decided part equals the human label.
        undecided: Answers with a labelled part the checks left undecided.
        low, high: The Wilson 95% interval of ``agree / decided`` (None when nothing was decided).
        false_passes: Parts the checks passed and the humans failed.
        judged_parts: Parts the checks decided.
    """

    suite: str
    set: str
    files: tuple[str, ...]
    answers: int
    decided: int
    agree: int
    undecided: int
    low: float | None
    high: float | None
    false_passes: int
    judged_parts: int

    @property
    def rate(self) -> float | None:
        """Agreement over decided answers."""
        return self.agree / self.decided if self.decided else None

    @property
    def undecided_share(self) -> float:
        """Share of labelled answers with a part the checks left undecided."""
        return self.undecided / self.answers if self.answers else 0.0


def measure_instrument(paths: Iterable[Path]) -> list[InstrumentRow]:
    """Measure the checks on the labelled files ``paths``, per suite and set.

    A file belongs to the set its name's prefix gives (:data:`SETS`); other files are ignored.
    """
    from hat_eval.episode import answer_agreement, check_entry, read_corpus
    from hat_eval.stats import wilson_interval

    groups: dict[tuple[str, str], list[Any]] = {}
    files: dict[tuple[str, str], set[str]] = {}
    for path in sorted(paths):
        kind = next((s for p, s in SETS.items() if path.name.startswith(p)), None)
        if kind is None:
            continue
        for entry in read_corpus([path]):
            key = (entry.case_id.split("-", 1)[0], kind)  # the case id starts with its suite
            groups.setdefault(key, []).append(entry)
            files.setdefault(key, set()).add(path.name)
    rows = []
    for (suite, kind), entries in sorted(groups.items()):
        a = answer_agreement(entries, [check_entry(e) for e in entries])
        interval = wilson_interval(a.agree, a.decided)
        rows.append(
            InstrumentRow(
                suite=suite,
                set=kind,
                files=tuple(sorted(files[(suite, kind)])),
                answers=len(entries),
                decided=a.decided,
                agree=a.agree,
                undecided=a.undecided,
                low=None if interval is None else round(interval[0], 4),
                high=None if interval is None else round(interval[1], 4),
                false_passes=a.false_passes,
                judged_parts=a.judged_parts,
            )
        )
    return rows


def rows_to_json(rows: Sequence[InstrumentRow]) -> str:
    """The shipped file's text for ``rows`` (stable, so a test can compare it)."""
    data = [{**asdict(r), "files": list(r.files)} for r in rows]
    return json.dumps({"rows": data}, indent=1, ensure_ascii=False) + "\n"


@cache
def instrument_rows() -> tuple[InstrumentRow, ...]:
    """The shipped measurement (read once)."""
    text = resources.files(__package__).joinpath(INSTRUMENT_FILE).read_text(encoding="utf-8")
    return tuple(
        InstrumentRow(**{**r, "files": tuple(r["files"])}) for r in json.loads(text)["rows"]
    )


def _suite_rows(suite: str) -> list[InstrumentRow]:
    """The shipped rows of ``suite``, its held-out set first."""
    return sorted(
        (r for r in instrument_rows() if r.suite == suite), key=lambda r: r.set != "held-out"
    )


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.1f}%"


def instrument_lines(suites: Iterable[str]) -> list[str]:
    """One line per suite: the checks' agreement with human labels, interval and undecided share.

    Suites without labelled answers (IFEval, evolution) are said to have none.
    """
    out = []
    for suite in suites:
        parts = [
            f"{r.set} {_pct(r.rate)} [{_pct(r.low)}, {_pct(r.high)}] of {r.decided} "
            f"decided answers, {_pct(r.undecided_share)} undecided"
            for r in _suite_rows(suite)
        ]
        said = "; ".join(parts) or "no labelled answers for this suite"
        out.append(f"checks vs human labels, {suite}: {said}")
    return out


def instrument_table(suites: Iterable[str]) -> tuple[str, list[str], list[list[str]]]:
    """The report's table: per suite and labelled set, agreement, interval, undecided share.

    IFEval is left out (its checks are the published instruction checks, not these).
    """
    wanted = [s for s in dict.fromkeys(suites) if s != "ifeval"]
    rows = []
    for suite in wanted:
        mine = _suite_rows(suite)
        if not mine:
            rows.append([suite, "none", "—", "—", "—", "no labelled answers for this suite"])
        for r in mine:
            rows.append(
                [
                    suite,
                    r.set,
                    str(r.answers),
                    f"{_pct(r.rate)} [{_pct(r.low)}, {_pct(r.high)}]",
                    _pct(r.undecided_share),
                    f"{r.false_passes}/{r.judged_parts} parts passed that humans failed",
                ]
            )
    header = ["suite", "labelled set", "answers", "agreement [95% CI]", "undecided", "false passes"]
    return "The checks against human labels (their own error)", header, rows
