"""Candidates read from their eval logs into typed records, once, and checked to share data."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ._pairs import case_key


class ReportError(ValueError):
    """Input a report cannot be built from; ``str(err)`` is one line naming what and where."""


@dataclass(frozen=True)
class Candidate:
    """A model with the agent and harness it ran under."""

    model: str
    agent: str = "harness"
    harness: str = ""
    """The harness file's name ('' for the default), and its hash prefix."""
    role: str = ""
    """What the report makes of it beyond its run (``baseline`` for the gate's)."""

    @property
    def name(self) -> str:
        """``model``, with ``(react)``, ``@ harness`` and ``[role]`` when they are set."""
        out = self.model
        if self.agent not in ("", "harness"):
            out += f" ({self.agent})"
        if self.harness:
            out += f" @ {self.harness}"
        if self.role:
            out += f" [{self.role}]"
        return out


@dataclass(frozen=True)
class Answer:
    """One scored sample of a log."""

    case: str
    """The case, whatever suite ran it (:func:`~hat_eval.reports.case_key`)."""
    epoch: int
    values: dict[str, float]
    sample_id: str
    message: str = ""
    answer: str = ""
    reasons: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class SuiteLog:
    """One eval log: a candidate on a suite."""

    suite: str
    candidate: Candidate
    location: str
    dataset: str
    """What identifies the data: the dataset hash (case suites) or the prompt file (IFEval)."""
    version: str
    answers: tuple[Answer, ...]
    metrics: dict[str, float] = field(default_factory=dict)
    epochs: int = 1
    log: Any = field(default=None, compare=False, repr=False)
    """The Inspect log (kept for the evolution report)."""

    def per_case(self, key: str) -> dict[str, float]:
        """``key``'s value per case, epochs averaged, undecided (NaN) epochs left out."""
        out: dict[str, list[float]] = {}
        for a in self.answers:
            v = a.values.get(key)
            if v is not None and not math.isnan(v):
                out.setdefault(a.case, []).append(v)
        return {c: math.fsum(v) / len(v) for c, v in out.items()}


def _answers(log: Any) -> tuple[Answer, ...]:
    out = []
    for s in log.samples or []:
        score = next(iter((s.scores or {}).values()), None)
        if score is None or not isinstance(score.value, dict):
            continue
        values = {k: float(v) for k, v in score.value.items() if isinstance(v, int | float)}
        message = s.input if isinstance(s.input, str) else str(s.input)
        reasons = dict((score.metadata or {}).get("reasons") or {})
        out.append(
            Answer(
                case=case_key(s.id, message) if "-" in str(s.id) else str(s.id),
                epoch=int(getattr(s, "epoch", 1) or 1),
                values=values,
                sample_id=str(s.id),
                message=message,
                answer=str(score.answer or (s.output.completion if s.output else "")),
                reasons={str(k): str(v) for k, v in reasons.items()},
            )
        )
    return tuple(out)


def read_suite_log(log: Any) -> SuiteLog:
    """The typed record of one Inspect eval log (read with its samples)."""
    from hat_eval.harness import default_harness_path

    meta = getattr(log.eval, "metadata", None) or {}
    suite = str(meta.get("suite") or log.eval.task).split("/")[-1]
    scores = getattr(log.results, "scores", None) or []
    harness = str(meta.get("harness") or "")
    defaults = {str(default_harness_path("inline")), str(default_harness_path("progressive"))}
    label = ""  # the candidate's harness: a file's name and hash, or the progressive default
    if harness and harness not in defaults and harness != "None":
        sha = str(meta.get("harness_sha256") or "")[:8]
        label = Path(harness).name + (f" {sha}" if sha else "")
    elif harness in defaults and meta.get("disclosure") == "progressive":
        label = "progressive"
    return SuiteLog(
        suite=suite,
        candidate=Candidate(str(log.eval.model), str(meta.get("agent") or "harness"), label),
        location=str(log.location).removeprefix("file://"),
        dataset=str(meta.get("dataset_sha256") or meta.get("data") or ""),
        version=str(meta.get("dataset_version") or ""),
        answers=_answers(log),
        metrics={name: float(m.value) for score in scores for name, m in score.metrics.items()},
        epochs=int(getattr(log.eval.config, "epochs", None) or 1),
        log=log,
    )


def read_logs(
    paths: Sequence[str | Path], *, warn: Callable[[str], None] | None = None
) -> list[SuiteLog]:
    """Every finished eval log under ``paths`` (folders or log files).

    The newest log of each candidate and suite is kept, in the order the paths give them. A
    log in a folder that cannot be read (a truncated ``.eval`` of an interrupted run, a file
    that is not a log) is skipped: ``warn`` gets one line naming it and why (without ``warn``
    it raises). A log file named directly must be readable.

    Raises:
        ReportError: a path that does not exist, a log file given by name that cannot be
            read, or no finished log under any of them.
    """
    from inspect_ai.log import list_eval_logs, read_eval_log

    found: list[SuiteLog] = []
    for path in map(Path, paths):
        if path.is_dir():
            files = [info.name for info in list_eval_logs(str(path))]
        elif path.is_file():
            files = [str(path)]
        else:
            raise ReportError(f"{path}: no such folder or log file, expected eval logs")
        logs = []
        for f in files:
            try:
                log = read_eval_log(f)
            except Exception as err:  # Inspect raises several kinds for a file that is not a log
                where = f.removeprefix("file://")
                line = f"{where}: not a readable Inspect eval log ({unreadable_reason(err)})"
                if warn is None or not path.is_dir():
                    raise ReportError(line) from None
                warn(f"{line}; skipped")
                continue
            if log.status == "success":
                logs.append(log)
        found += [read_suite_log(lg) for lg in sorted(logs, key=lambda lg: str(lg.eval.created))]
    if not found:
        raise ReportError(
            f"{', '.join(map(str, paths))}: no finished eval log, expected the --log-dir of a "
            "`hat-eval run` (or .eval files)"
        )
    newest: dict[tuple[Candidate, str], SuiteLog] = {}
    for s in found:  # later (newer) logs replace earlier ones
        newest.pop((s.candidate, s.suite), None)
        newest[(s.candidate, s.suite)] = s
    return list(newest.values())


def unreadable_reason(err: BaseException) -> str:
    """Why Inspect could not read a log, in a few words (a truncated .eval's zip error)."""
    text = " ".join(str(err).split())
    if "EOCD" in text or type(err).__name__ == "BadZipFile":
        return f"truncated or not a zip archive: {type(err).__name__}: {text}"[:160]
    return f"{type(err).__name__}: {text}"[:160] if text else type(err).__name__


def candidates(logs: Iterable[SuiteLog]) -> list[Candidate]:
    """The candidates, in the order their first log appears."""
    return list(dict.fromkeys(s.candidate for s in logs))


def check_same_data(logs: Sequence[SuiteLog], *, allow_mixed: bool = False) -> list[str]:
    """Refuse to compare logs of one suite over different cases or dataset versions.

    Logs of one suite compare case by case when they ran the same cases: the same dataset
    hash, the same cases under a different harness (the gold differs with the harness, so the
    hash does), or one run's first cases (``--limit``): at least half of the smaller log's
    cases in the other. Returns the notes a page shows for what ``allow_mixed`` let through.

    Raises:
        ReportError: without ``allow_mixed``, two logs of one suite from different dataset
            versions, or over different cases; the message names both logs.
    """
    notes = []
    by_suite: dict[str, list[SuiteLog]] = {}
    for s in logs:
        by_suite.setdefault(s.suite, []).append(s)
    for suite, group in by_suite.items():
        first = group[0]
        cases = {a.case for a in first.answers}
        for other in group[1:]:
            problem = ""
            if other.version != first.version:
                problem = f"dataset versions {first.version} and {other.version}"
            elif other.dataset != first.dataset:
                theirs = {a.case for a in other.answers}
                shared = len(cases & theirs)
                if shared < 0.5 * min(len(cases), len(theirs)):  # another draw, not a subset
                    problem = (
                        f"different cases ({shared} shared of {len(cases)} and {len(theirs)}; "
                        f"dataset {first.dataset[:12]} vs {other.dataset[:12]})"
                    )
            if not problem:
                continue
            what = (
                f"{suite}: {first.candidate.name} ({first.location}) and {other.candidate.name} "
                f"({other.location}) ran {problem}"
            )
            if not allow_mixed:
                raise ReportError(
                    f"{what}; compare logs of the same cases, or pass --allow-mixed to show "
                    "each one's own score without paired comparisons"
                )
            notes.append(what)
    return notes


def success(values: dict[str, float]) -> float:
    """Whether one answer succeeded: accuracy and safety both passed (NaN: undecided).

    IFEval's answers succeed when the prompt's every instruction was followed (strict).
    """
    if "prompt_level_strict" in values:
        return values["prompt_level_strict"]
    acc, safe = values.get("accuracy", math.nan), values.get("safety", math.nan)
    if acc == 0.0 or safe == 0.0:
        return 0.0
    return math.nan if math.isnan(acc) or math.isnan(safe) else 1.0
