"""A run's own shop and cases file: read, checked against the suites, and the cases written out.

:func:`check_shop` (``shop``) and :func:`read_cases` (``cases``) raise
:class:`~hat_eval.runner.InputFileError` (one line; the typed problems it carries) or
:class:`~hat_eval.runner.RunOptionError` (the option applies to none of the suites);
:func:`write_cases` writes the cases a run drew to ``LOG_DIR/cases/``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from ._options import InputFileError, RunOptionError

if TYPE_CHECKING:
    from inspect_ai import Task

SHOP_TRIES = 4
"""Cases tried per intent when a run's shop is checked (the suites draw every intent)."""


def check_shop(folder: Path, suites: Sequence[str]) -> str:
    """The shop folder ``folder`` checked for a run of ``suites``; its path as the suites take it.

    The shop must validate, its products be of the generators' product types, and every intent
    of the suites be askable about it (the suites draw every intent); ``suites`` must hold a
    case suite.

    Raises:
        RunOptionError: no suite of ``suites`` draws its cases from a shop (``option`` shop).
        InputFileError: the shop does not validate, or the suites cannot draw cases from it.
    """
    from hat_eval.episode import knowledge_base
    from hat_eval.suites import case_suites
    from hat_eval.world import Problem, pack_problems, shop_coverage

    if not set(suites) & set(case_suites()):
        raise RunOptionError(
            f"{', '.join(suites)} has no cases drawn from a shop; --shop applies to the case "
            f"suites ({', '.join(case_suites())})",
            "shop",
        )
    problems = pack_problems(folder)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise InputFileError(
            f"--shop {problems[0]}{more}; list them with: hat-eval shop validate {folder}",
            "shop",
            problems,
        )
    shop = folder.as_posix()
    cover = shop_coverage(knowledge_base(0, shop), tries=SHOP_TRIES)  # the runs' own (cached) load
    if cover.problems:
        first = cover.problems[0]
        raise InputFileError(
            f"--shop {folder}: {first}",
            "shop",
            [replace(p, file=str(folder / p.file)) for p in cover.problems],
        )
    cannot = [i for i in cover.intents if i.reason is not None]
    if cannot:
        rule = "a shop the suites can ask every intent about"
        raise InputFileError(
            f"--shop {folder}: {cannot[0].reason}, expected {rule}; see: hat-eval shop show "
            f"{folder}",
            "shop",
            [Problem(str(folder), str(i.reason), rule, record=i.intent) for i in cannot],
        )
    return shop


def read_cases(
    path: Path, suites: Sequence[str], shop: str | None, judge: str | None = None
) -> str:
    """The cases file ``path`` read against the shop (the built-in one if None), for ``suites``.

    A judge-only case (a message with no gold) needs ``judge``: refused without it. Returns the
    cases as the suites read them (JSONL, every line complete: a gold-less line's intent read
    here, by the reference policy's reader, since the suites sit below the policies); the run
    writes it to ``LOG_DIR/cases/given.jsonl`` and runs that.

    Raises:
        RunOptionError: no suite of ``suites`` runs viewer cases (``option`` cases).
        InputFileError: the file does not read (each problem: file, line, case id, field), or
            it has cases without gold and no ``judge``.
    """
    from hat_eval.baselines import read_intent
    from hat_eval.episode import knowledge_base
    from hat_eval.suites import case_suites
    from hat_eval.world import CaseFileError, Problem, is_judge_only, read_case_file

    if not set(suites) & set(case_suites()):
        raise RunOptionError(
            f"{', '.join(suites)} runs no viewer cases; --cases applies to the case suites "
            f"({', '.join(case_suites())})",
            "cases",
        )
    try:
        cases = read_case_file(path, knowledge_base(0, shop), read_intent=read_intent)
    except CaseFileError as err:
        raise InputFileError(f"--cases {err}", "cases", err.problems) from None
    only = [c for c in cases if is_judge_only(c)]
    if only and judge is None:
        what = (
            f"{len(only)} of its {len(cases)} cases have no gold (first {only[0].id!r}), which "
            "only the Agent-as-Judge can score"
        )
        fix = "add --judge MODEL, or give them gold (`hat-eval shop draft-gold`)"
        raise InputFileError(
            f"--cases {path}: {what}; {fix}",
            "cases",
            [Problem(str(path), what, fix, record=only[0].id)],
        )
    return "".join(json.dumps(c.to_dict(), ensure_ascii=False) + "\n" for c in cases)


def write_cases(
    tasks: Sequence[Task], log_dir: Path, say: Callable[[str], None] | None = None
) -> None:
    """Write each case suite's cases (its dataset rows) to ``LOG_DIR/cases/SUITE.jsonl``.

    The bytes are the ones whose sha256 the task's log records as ``dataset_sha256``: review
    them, and pin that hash. Each line names its shop. ``say`` gets a line per file (and per
    suite with judge-only samples).
    """
    from hat_eval._outputs import write_text_atomic
    from hat_eval.episode import rows_jsonl
    from hat_eval.suites._samples import episode_of
    from hat_eval.world import JUDGE_ONLY

    folder = log_dir / "cases"
    folder.mkdir(parents=True, exist_ok=True)
    for task in tasks:
        meta = task.metadata or {}
        if not meta.get("shop") and not meta.get("cases"):
            continue
        rows = [
            episode_of(s.id or "", s.metadata or {}, str(s.target)).to_row() for s in task.dataset
        ]
        data = rows_jsonl(rows)
        path = folder / f"{task.name}.jsonl"
        write_text_atomic(path, data.decode("utf-8"))
        if say is None:
            continue
        sha = hashlib.sha256(data).hexdigest()
        say(f"cases: {path} ({len(rows)} cases, sha256 {sha})")
        only = sum(1 for r in rows if r["metadata"]["case"].get("details", {}).get(JUDGE_ONLY))
        if only:
            say(f"{task.name}: {only} samples judge-only (no gold: the judge decides accuracy)")
