"""Every model of an end-to-end re-test run on the suites, as ``hat-eval run`` runs them.

Each model runs ``livestream``, ``variant``, ``evolution`` and ``ifeval`` through the suites'
catalogue (:func:`~hat_eval.suites.make_task` of :class:`~hat_eval.suites.TaskOptions`, with the
budget's case limit per suite) and Inspect's ``eval_set``, with what ``hat-eval run`` gives a
checkpoint folder: Inspect's ``hf/`` provider decoding greedily, the harness agent, the default
harness, Inspect ``.eval`` logs in a folder of its own. The logs are read back through the
report's own reader (:func:`~hat_eval.reports.read_logs`) into each model's values per case
(:func:`case_values`), which the contrasts pair (:mod:`._contrast`).
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Mapping, Sequence
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import TYPE_CHECKING

from ._budget import E2EBudget, EvalSize, ReproError
from ._contrast import E2E_MEASURES, CaseValues

if TYPE_CHECKING:
    from inspect_ai import Task

    from hat_eval.reports import SuiteLog

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


def suite_tasks(size: EvalSize, ifeval_data: Path | None) -> list[Task]:
    """The Inspect task of each suite of :data:`E2E_SUITES` at this size.

    Each carries its reply budget (``max_tokens``: the case suites' or IFEval's). Building them
    reads every suite's data, so a run builds them once before anything trains.

    Raises:
        ReproError: a suite's data cannot be read (IFEval from the Hub while offline, a
            ``--ifeval-data`` file that is missing or malformed); the message names it.
    """
    from inspect_ai import task_with
    from inspect_ai.model import GenerateConfig

    from hat_eval.suites import IFEVAL, TaskOptions, make_task

    tasks = []
    for name, limit in suite_limits(size).items():
        options = TaskOptions(limit=limit, ifeval_data=ifeval_data)
        try:
            task = make_task(name, options)
        except (FileNotFoundError, ValueError) as err:
            where = f"suite {name}" + (" (--ifeval-data)" if name == IFEVAL else "")
            raise ReproError(f"{where}: {err}") from None
        tokens = size.ifeval_max_tokens if name == IFEVAL else size.max_tokens
        tasks.append(task_with(task, config=GenerateConfig(max_tokens=tokens)))
    return tasks


def model_name(checkpoint: Path) -> str:
    """The Inspect model string of a checkpoint folder, as ``hat-eval run --model DIR`` makes it."""
    from hat_eval.runner import checkpoint_model

    return checkpoint_model(checkpoint)


def evaluate(
    checkpoints: Sequence[Path],
    log_dir: Path,
    budget: E2EBudget,
    *,
    ifeval_data: Path | None,
    log: Path,
) -> float:
    """Run every suite on every checkpoint, in one Inspect eval set into ``log_dir``.

    All the models run side by side (every model's tasks at once), so their calls batch
    together; each model is loaded once. The folder is emptied first: logs already there scored
    earlier checkpoints of the same paths, so they are replaced, not resumed. Inspect's output
    goes to ``log``. Returns the wall seconds.

    Raises:
        ReproError: a suite did not finish every sample on some model (the message names the
            model, the suite, the error and the log to read).
    """
    from inspect_ai import eval_set

    from hat_eval._hub import hub_kernel_setting
    from hat_eval.runner import generation_model_args

    from ._e2e_arms import free_accelerator

    if log_dir.exists():
        shutil.rmtree(log_dir)
    started = time.monotonic()
    tasks = suite_tasks(budget.eval, ifeval_data)
    models = [model_name(c) for c in checkpoints]
    with (
        log.open("a", encoding="utf-8", buffering=1) as f,
        redirect_stdout(f),
        redirect_stderr(f),
        hub_kernel_setting(),
    ):
        _, logs = eval_set(
            tasks,
            model=models,
            # what `hat-eval run` gives an hf/ checkpoint (every model here is one): greedy
            model_args=generation_model_args(models[0], {}, None),
            log_dir=str(log_dir),
            max_tasks=len(tasks) * len(checkpoints),
            max_connections=budget.eval.max_connections,
            log_format="eval",
            retry_attempts=1,
            display="plain",
            score_display=False,
        )
    free_accelerator()
    for result in logs:
        finished = result.results.completed_samples if result.results else 0
        total = result.results.total_samples if result.results else 0
        if result.status != "success" or finished < total:
            error = result.error.message.strip().splitlines()[0] if result.error else ""
            raise ReproError(
                f"{result.eval.model}: the {result.eval.task} suite stopped ({result.status}, "
                f"{finished} of {total} samples{': ' + error if error else ''}); read "
                f"{result.location} (inspect view) and the output in {log}"
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
