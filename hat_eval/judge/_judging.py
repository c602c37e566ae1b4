"""Running the judge where humans have labels: a log's labelled samples, the answer corpus.

:func:`judge_log` re-scores the labelled samples of an Inspect log with :func:`agent_judge`
(through ``inspect_ai.score``, so the cache and the per-sample costs work as in any re-score)
and returns the raw scores per (sample, dimension). :func:`corpus_agreement` runs the same scorer
on the hand-labelled answer corpus (``judge/corpus``), each entry as the task state a suite sample
would have had, and :func:`corpus_report` sets the judge's pass/fail verdicts on the labelled
parts beside the deterministic checks' (``hat_eval.episode.agreement``).
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessage, ChatMessageTool, ChatMessageUser, ModelName, ModelOutput
from inspect_ai.scorer import Score, Scorer, Target
from inspect_ai.solver import TaskState

from hat_eval._aio import run_blocking
from hat_eval.episode import (
    LABELLED_PARTS,
    TRACE_KEY,
    AnswerCheck,
    CorpusEntry,
    Episode,
    harness_ref,
    verdict,
)
from hat_eval.stats import wilson_interval
from hat_eval.suites import to_sample

from ._labels import JudgeScore
from ._scorer import FAIL_AT, PART_DIMENSIONS, PASS_AT, decide_parts, score_numbers

SCORER_NAME = "agent_judge"
"""The name the judge's scores carry in a log (``EvalSample.scores``)."""


@dataclass(frozen=True)
class JudgedSamples:
    """The judge's raw scores on a log's samples, and the samples it could not rate."""

    scores: tuple[JudgeScore, ...]
    failed: tuple[tuple[str, str], ...]
    """(sample id, judge error) of samples with no valid judge reply."""
    extra_epochs: int
    """Samples of epochs after the first, left out (humans label a sample, not an epoch)."""


def log_sample_ids(log: EvalLog) -> list[str]:
    """The ids of the log's first-epoch samples, in log order."""
    return [str(s.id) for s in log.samples or [] if s.epoch == 1]


def judge_log(
    log: EvalLog,
    sample_ids: Sequence[str],
    scorer: Scorer,
    *,
    dimensions: Sequence[str] | None = None,
) -> JudgedSamples:
    """Score the first-epoch samples of ``log`` whose ids are in ``sample_ids`` with ``scorer``.

    ``scorer`` is an :func:`agent_judge` (its cache makes a second run free). Dimensions whose
    value is NaN (a failed judgement) are left out of the scores and the sample is listed in
    ``failed`` with the judge's error.
    """
    from inspect_ai import score as inspect_score

    wanted = set(sample_ids)
    samples = [s for s in log.samples or [] if s.epoch == 1 and str(s.id) in wanted]
    extra = sum(1 for s in log.samples or [] if s.epoch != 1 and str(s.id) in wanted)
    subset = log.model_copy(update={"samples": samples})
    scored = inspect_score(subset, scorer, action="overwrite", display="none")
    out: list[JudgeScore] = []
    failed: list[tuple[str, str]] = []
    for sample in scored.samples or []:
        result = (sample.scores or {}).get(SCORER_NAME)
        got = [
            JudgeScore(str(sample.id), dimension, value, "judge")
            for dimension, value in score_numbers(result).items()
            if (dimensions is None or dimension in dimensions) and not math.isnan(value)
        ]
        out += got
        if not got:
            error = (result.metadata or {}).get("judge_error") if result is not None else None
            failed.append((str(sample.id), str(error or "no judge score")))
    return JudgedSamples(tuple(out), tuple(failed), extra)


def corpus_state(entry: CorpusEntry) -> tuple[TaskState, Target]:
    """The task state of a corpus answer, as a suite sample answered with it would have."""
    episode = Episode(  # its stored case and gold, the base harness
        id=f"corpus-{entry.id}",
        suite="corpus",
        case=entry.case,
        harness=harness_ref(),
        fault=entry.fault,
        kb_seed=entry.kb_seed,
        gold=entry.gold,
    )
    sample = to_sample(episode)
    assert isinstance(sample.target, str)
    messages: list[ChatMessage] = [ChatMessageUser(content=entry.case.message)]
    messages += [
        ChatMessageTool(
            content=r.outcome,
            tool_call_id=f"call-{n}",
            function=r.name,
            metadata={TRACE_KEY: r.to_dict()},
        )
        for n, r in enumerate(entry.records)
    ]
    state = TaskState(
        model=ModelName("hat/corpus"),
        sample_id=sample.id or entry.id,
        epoch=1,
        input=entry.case.message,
        messages=messages,
        target=Target(sample.target),
        output=ModelOutput.from_content("hat/corpus", entry.answer),
        metadata=dict(sample.metadata or {}),
    )
    return state, Target(sample.target)


@dataclass(frozen=True)
class CorpusJudgement:
    """The judge on one corpus answer: mean rating per dimension (NaN on failure)."""

    entry_id: str
    ratings: dict[str, float]
    error: str | None = None

    def verdict(self, part: str) -> bool | None:
        """The judge's pass/fail on a labelled part (``decide_parts``); None in between."""
        decided = decide_parts({part: ""}, self.ratings)
        return None if part not in decided else decided[part] >= 1.0


@dataclass(frozen=True)
class Tally:
    """One verdict source on one part: agreements with the human label over decided answers."""

    agree: int = 0
    decided: int = 0
    undecided: int = 0

    @property
    def rate(self) -> float | None:
        """Agreement over decided answers (None when none was decided)."""
        return self.agree / self.decided if self.decided else None

    def add(self, mine: bool | None, human: bool) -> Tally:
        """This tally with one more answer."""
        if mine is None:
            return Tally(self.agree, self.decided, self.undecided + 1)
        return Tally(self.agree + (mine == human), self.decided + 1, self.undecided)

    def to_json(self) -> dict[str, Any]:
        """``agree``, ``decided``, ``undecided``, ``rate`` and its 95% Wilson interval."""
        ci = wilson_interval(self.agree, self.decided)
        return {
            "agree": self.agree,
            "decided": self.decided,
            "undecided": self.undecided,
            "rate": self.rate,
            "rate_ci": list(ci) if ci is not None else None,
        }


SOURCES = ("checks", "judge", "combined")
"""The verdicts compared: the deterministic checks, the judge, and checks-then-judge."""


@dataclass(frozen=True)
class CorpusRow:
    """Agreement with the human labels of one part over one group of answers."""

    part: str
    group: str
    n: int
    tallies: dict[str, Tally] = field(default_factory=dict)
    both: tuple[int, int, int] = (0, 0, 0)
    """On the answers both the checks and the judge decided: (count, checks agree, judge agree)."""

    def trust(self) -> str:
        """``checks`` or ``judge``: the one that agrees more where both decided (``tie`` if even).

        Where they never both decided: the one that decided at all, else ``-``.
        """
        n, checks, judge = self.both
        if n == 0:
            decided = [s for s in ("checks", "judge") if self.tallies[s].decided]
            return decided[0] if len(decided) == 1 else "-"
        return "checks" if checks > judge else "judge" if judge > checks else "tie"


@dataclass(frozen=True)
class CorpusReport:
    """Per part, and per part and kind of answer: checks, judge and combined vs the humans."""

    rows: tuple[CorpusRow, ...]
    n_answers: int
    judge_failures: int

    def to_json(self) -> dict[str, Any]:
        """``corpus.json``: the settings and one entry per part and group."""
        return {
            "n_answers": self.n_answers,
            "judge_failures": self.judge_failures,
            "judge_rule": {
                "dimensions": dict(PART_DIMENSIONS),
                "pass_at_least": PASS_AT,
                "fail_at_most": FAIL_AT,
                "between": "undecided",
            },
            "combined": "the checks' verdict where they decide, else the judge's",
            "rows": [
                {
                    "part": r.part,
                    "group": r.group,
                    "n": r.n,
                    **{s: r.tallies[s].to_json() for s in SOURCES},
                    "both_decided": dict(
                        zip(("n", "checks_agree", "judge_agree"), r.both, strict=True)
                    ),
                    "trust": r.trust(),
                }
                for r in self.rows
            ],
        }


def corpus_report(
    entries: Sequence[CorpusEntry],
    checks: Sequence[AnswerCheck],
    judged: Sequence[CorpusJudgement],
) -> CorpusReport:
    """Agreement of the checks, the judge and both combined with the human pass/fail labels.

    The checks' verdict is ``hat_eval.episode.verdict``; the judge's is its rating of the part's
    dimension (``PART_DIMENSIONS``) through ``decide_parts`` (at least 4 passes, at most 2
    fails, in between undecided); the combined verdict is the checks' where they decide and the
    judge's elsewhere (what ``agent_judge`` does for a suite sample). Rows: each part over all
    answers (group ``all``), then each part per kind of answer.
    """
    table: dict[tuple[str, str], dict[str, Tally]] = {}
    counts: dict[tuple[str, str], int] = {}
    both: dict[tuple[str, str], tuple[int, int, int]] = {}
    for entry, check, judgement in zip(entries, checks, judged, strict=True):
        for part in LABELLED_PARTS:
            human = entry.labels[part]
            mine = verdict(check, part)
            theirs = judgement.verdict(part)
            combined = mine if mine is not None else theirs
            for group in ("all", entry.kind):
                key = (part, group)
                tallies = table.setdefault(key, {s: Tally() for s in SOURCES})
                counts[key] = counts.get(key, 0) + 1
                for source, value in (("checks", mine), ("judge", theirs), ("combined", combined)):
                    tallies[source] = tallies[source].add(value, human)
                if mine is not None and theirs is not None:
                    n, c, j = both.get(key, (0, 0, 0))
                    both[key] = (n + 1, c + (mine == human), j + (theirs == human))
    rows = sorted(table, key=lambda k: (k[1] != "all", k[0], k[1]))
    return CorpusReport(
        rows=tuple(
            CorpusRow(p, g, counts[(p, g)], table[(p, g)], both.get((p, g), (0, 0, 0)))
            for p, g in rows
        ),
        n_answers=len(entries),
        judge_failures=sum(1 for j in judged if j.error is not None),
    )


def corpus_agreement(
    entries: Sequence[CorpusEntry], scorer: Scorer, *, concurrency: int = 8
) -> CorpusReport:
    """Check and judge (``scorer``, ``concurrency`` at once) every corpus answer: the report."""
    from hat_eval.episode import check_entry

    async def one(entry: CorpusEntry, gate: asyncio.Semaphore) -> CorpusJudgement:
        state, target = corpus_state(entry)
        async with gate:
            result = await scorer(state, target)
        assert isinstance(result, Score)
        error = (result.metadata or {}).get("judge_error")
        return CorpusJudgement(entry.id, score_numbers(result), error)

    async def every_entry() -> list[CorpusJudgement]:
        gate = asyncio.Semaphore(concurrency)  # made inside the loop that runs it
        return list(await asyncio.gather(*(one(e, gate) for e in entries)))

    checks = [check_entry(e) for e in entries]
    return corpus_report(entries, checks, run_blocking(every_entry()))
