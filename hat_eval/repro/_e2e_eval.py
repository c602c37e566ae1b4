"""Every model of an end-to-end re-test run on the suites, as ``hat-eval run`` runs them.

Every model runs ``livestream``, ``variant``, ``evolution`` and ``ifeval`` through
:func:`~hat_eval.runner.run_suites`, the library call under ``hat-eval run`` (the budget's case
limit and reply budget per suite, every model side by side in one eval set), with what it gives a
checkpoint folder: Inspect's ``hf/`` provider decoding greedily, the harness agent, the default
harness, Inspect ``.eval`` logs in a folder of its own. The logs are read back through the
report's own reader (:func:`~hat_eval.reports.read_logs`) into each model's values per case
(:func:`case_values`), which the contrasts pair (:mod:`._contrast`).
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ._budget import E2EBudget, EvalSize, ReproError
from ._contrast import E2E_MEASURES, CaseValues

if TYPE_CHECKING:
    from inspect_ai import Task

    from hat_eval.reports import SuiteLog
    from hat_eval.runner import RunOptions

_LIMITS: dict[str, str] = {
    "livestream": "cases",
    "variant": "cases",  # the same cases, paired
    "evolution": "evolution_cases",
    "ifeval": "ifeval_prompts",
}
"""Each suite an end-to-end run answers, and the :class:`EvalSize` field of its ``--limit``."""

E2E_SUITES: tuple[str, ...] = tuple(_LIMITS)
"""The suites every model of an end-to-end run answers, in the order they run."""


def suite_limits(size: EvalSize) -> dict[str, int]:
    """Cases (prompts for IFEval) each suite runs at this size: its ``--limit``."""
    return {suite: int(getattr(size, field)) for suite, field in _LIMITS.items()}


def suite_max_tokens(size: EvalSize) -> dict[str, int]:
    """Most tokens per reply in each suite at this size (the case suites' or IFEval's)."""
    from hat_eval.suites import IFEVAL

    return {
        suite: size.ifeval_max_tokens if suite == IFEVAL else size.max_tokens
        for suite in E2E_SUITES
    }


def suite_tasks(size: EvalSize, ifeval_data: Path | None) -> list[Task]:
    """The Inspect task of each suite of :data:`E2E_SUITES` at this size (its data read).

    Building them reads every suite's data, so a run builds them once before anything trains
    (:func:`evaluate` builds them again, through :func:`~hat_eval.runner.run_suites`).

    Raises:
        ReproError: a suite's data cannot be read (IFEval from the Hub while offline, a
            ``--ifeval-data`` file that is missing or malformed); the message names it.
    """
    from hat_eval.suites import IFEVAL, TaskOptions, make_task

    tasks = []
    for name, limit in suite_limits(size).items():
        options = TaskOptions(limit=limit, ifeval_data=ifeval_data)
        try:
            tasks.append(make_task(name, options))
        except (FileNotFoundError, ValueError) as err:
            where = f"suite {name}" + (" (--ifeval-data)" if name == IFEVAL else "")
            raise ReproError(f"{where}: {err}") from None
    return tasks


def model_name(checkpoint: Path) -> str:
    """The Inspect model string of a checkpoint folder, as ``hat-eval run --model DIR`` makes it."""
    from hat_eval.runner import checkpoint_model

    return checkpoint_model(checkpoint)


def eval_options(
    checkpoints: Sequence[Path],
    log_dir: Path,
    size: EvalSize,
    *,
    ifeval_data: Path | None,
    log: Path,
) -> RunOptions:
    """What :func:`evaluate` asks :func:`~hat_eval.runner.run_suites`: every checkpoint at once.

    Every suite of :data:`E2E_SUITES` with its own case limit and reply budget, the default
    harness and agent, greedy decoding (what ``hat-eval run`` gives an ``hf/`` checkpoint),
    Inspect's plain display appended to ``log``.
    """
    from hat_eval.runner import RunOptions

    return RunOptions(
        suites=E2E_SUITES,
        # Inspect model strings (what --model DIR resolves to), so run_suites passes them on
        # without its checkpoint checks: the tiny base's Qwen3 template does not render a tool
        # call as Inspect's hf/ gives it (its checkpoints never make one), which they refuse
        models=tuple(model_name(c) for c in checkpoints),
        limit_per_suite=suite_limits(size),
        max_tokens_per_suite=suite_max_tokens(size),
        ifeval_data=ifeval_data,
        max_connections=size.max_connections,
        log_dir=log_dir,
        display="plain",
        output_log=log,
    )


def evaluate(
    checkpoints: Sequence[Path],
    log_dir: Path,
    budget: E2EBudget,
    *,
    ifeval_data: Path | None,
    log: Path,
) -> float:
    """Run every suite on every checkpoint, in one Inspect eval set into ``log_dir``.

    One :func:`~hat_eval.runner.run_suites` of :func:`eval_options`: all the models run side
    by side (every model's tasks at once), so their calls batch together; each model is loaded
    once. The folder is emptied first: logs already there scored earlier checkpoints of the
    same paths, so they are replaced, not resumed. Inspect's output goes to ``log``. Returns
    the wall seconds.

    Raises:
        ReproError: an input the run refuses, or a suite that did not finish every sample on
            some model (the message names the model, the suite, the error and the log to read).
    """
    from hat_eval.runner import RunError, RunInputError, RunOptionError, run_suites

    from ._e2e_arms import free_accelerator

    if log_dir.exists():
        shutil.rmtree(log_dir)
    started = time.monotonic()
    options = eval_options(checkpoints, log_dir, budget.eval, ifeval_data=ifeval_data, log=log)
    try:
        result = run_suites(options, interrupt=False)
    except (RunOptionError, RunInputError, RunError) as err:
        raise ReproError(f"the suites' run: {err}") from None
    free_accelerator()
    for run in result.runs:
        if run.log is None:
            raise ReproError(
                f"{run.model}: the {run.task} suite left no log in {log_dir}; read the output "
                f"in {log}"
            )
        if run.log.status != "success" or run.finished < run.expected:
            error = run.log.error.message.strip().splitlines()[0] if run.log.error else ""
            raise ReproError(
                f"{run.model}: the {run.task} suite stopped ({run.log.status}, "
                f"{run.finished} of {run.expected} samples{': ' + error if error else ''}); read "
                f"{run.log.location} (inspect view) and the output in {log}"
            )
    return time.monotonic() - started


def finished_runs(log_dir: Path) -> int:
    """How many (model, suite) runs in ``log_dir`` have finished (for progress lines)."""
    from inspect_ai.log import list_eval_logs, read_eval_log

    if not log_dir.is_dir():
        return 0
    done = 0
    for info in list_eval_logs(str(log_dir), recursive=False):
        try:
            done += read_eval_log(info, header_only=True).status == "success"
        except Exception:  # noqa: BLE001 - a log being written reads as not finished
            continue
    return done


def read_scores(
    log_dirs: Sequence[Path], arms: Mapping[str, str]
) -> dict[str, dict[str, CaseValues]]:
    """Each model's values per case on every end-to-end measure, from the run's log folders.

    ``arms`` maps each model's Inspect name (:func:`model_name`) to its arm. Returns arm ->
    measure -> case -> values (:data:`~hat_eval.repro.CaseValues`). Read with the report's
    reader (:func:`~hat_eval.reports.read_logs`), so the cases are the report's.

    Raises:
        ReproError: a model has no finished log of some suite.
    """
    from hat_eval.reports import ReportError, read_logs

    try:
        logs = read_logs(list(log_dirs))
    except ReportError as err:
        raise ReproError(f"the run's logs: {err}") from None
    out: dict[str, dict[str, CaseValues]] = {}
    for model, arm in arms.items():
        mine = [s for s in logs if s.candidate.model == model]
        missing = sorted({m.suite for m in E2E_MEASURES.values()} - _suites(mine))
        if missing:
            raise ReproError(
                f"{arm}: no finished log of {', '.join(missing)} for {model} under "
                f"{', '.join(map(str, log_dirs))}; expected one of each suite the run evaluates"
            )
        out[arm] = case_values(mine)
    return out


def _suites(logs: Sequence[SuiteLog]) -> set[str]:
    return {s.suite for s in logs}


def case_values(logs: Sequence[SuiteLog]) -> dict[str, CaseValues]:
    """Measure -> case -> values, from one model's suite logs (the report's records).

    A mean measure's value is the case's score key (epochs averaged, undecided left out:
    :meth:`~hat_eval.reports.SuiteLog.per_case`); the error reduction's are the case's errors
    under the first and the last version run (:func:`~hat_eval.reports.error_pairs`).
    """
    from hat_eval.reports import error_pairs, log_evolution_answers

    by_suite = {s.suite: s for s in logs}
    out: dict[str, CaseValues] = {}
    for name, spec in E2E_MEASURES.items():
        log = by_suite.get(spec.suite)
        if log is None:
            continue
        if spec.statistic == "mean":
            out[name] = {c: (v,) for c, v in log.per_case(spec.key).items()}
        else:
            answers, _, order = log_evolution_answers(log.log)
            out[name] = {c: pair for c, pair in error_pairs(answers, order).items()}
    return out
