"""Run the suites on a model from Python: :func:`run_suites` of :class:`RunOptions`."""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable, Sequence
from contextlib import ExitStack, nullcontext, redirect_stderr, redirect_stdout
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ._options import RunInputError, RunOptionError, RunOptions

if TYPE_CHECKING:
    from inspect_ai import Task
    from inspect_ai.log import EvalLog
    from inspect_ai.model import Model

    from ._session import Interrupt


def _to_stderr(line: str) -> None:
    print(line, file=sys.stderr)


class RunError(RuntimeError):
    """A run that could not start (a model provider's package or variable missing): one line."""


@dataclass(frozen=True)
class TaskRun:
    """One model's run of one task: its newest log and how many of its samples finished."""

    model: str
    """The Inspect model string (``hf/ABSOLUTE_PATH`` for a checkpoint folder)."""
    task: str
    expected: int
    """Samples it has (every epoch)."""
    finished: int
    """Samples finished (this run's and a resumed run's earlier ones)."""
    log: EvalLog | None
    """Its newest log's header (None: no log was written)."""


@dataclass(frozen=True)
class RunResult:
    """What a run left: the newest log of each (model, task) and how much of it finished.

    ``status`` is ``success`` (every sample finished), ``incomplete`` (some failed or remain:
    the same options resume them), ``interrupted`` (Ctrl-C) or ``terminated`` (SIGTERM).
    :attr:`runs` has one :class:`TaskRun` per model and task; :attr:`logs`,
    :attr:`expected` and :attr:`finished` are their sums per task (one model: that model's).
    """

    runs: tuple[TaskRun, ...]
    status: str
    described: str
    signum: int | None = None

    @property
    def models(self) -> tuple[str, ...]:
        """The models run, in order."""
        return tuple(dict.fromkeys(run.model for run in self.runs))

    @property
    def logs(self) -> tuple[EvalLog, ...]:
        """The newest log of each model's task, in order (one missing when none was written)."""
        return tuple(run.log for run in self.runs if run.log is not None)

    @property
    def expected(self) -> dict[str, int]:
        """Samples each task has, over every model."""
        out: dict[str, int] = {}
        for run in self.runs:
            out[run.task] = out.get(run.task, 0) + run.expected
        return out

    @property
    def finished(self) -> dict[str, int]:
        """Samples finished of each task that has a log, over every model."""
        out: dict[str, int] = {}
        for run in self.runs:
            if run.log is not None:
                out[run.task] = out.get(run.task, 0) + run.finished
        return out

    @property
    def total(self) -> int:
        """Samples the run has (every model, task and epoch)."""
        return sum(run.expected for run in self.runs)

    @property
    def done(self) -> int:
        """Samples finished (this run's and a resumed run's earlier ones)."""
        return sum(run.finished for run in self.runs)

    def run(self, model: str, task: str) -> TaskRun:
        """The run of ``task`` on ``model`` (KeyError: not one of this run's)."""
        for run in self.runs:
            if (run.model, run.task) == (model, task):
                return run
        raise KeyError((model, task))


def run_suites(
    options: RunOptions,
    *,
    progress: Callable[[str], None] | None = None,
    warn: Callable[[str], None] = _to_stderr,
    interrupt: bool = True,
) -> RunResult:
    """Run ``options.suites`` as ``hat-eval run`` does and return what the logs say.

    Every input is checked (harness, model, server pre-flight, changelog, shop, cases) and every
    task built before any sample runs; a rerun with the same ``log_dir`` resumes. ``progress``
    gets the limit notes, a line per cases file written (with ``shop`` or ``cases``) and, off a
    terminal, the progress lines (None: none); ``warn`` a line
    for each unreadable log set aside; ``interrupt`` handles SIGINT / SIGTERM so the logs are
    marked cancelled and the result says so. Several ``models`` run in one eval set, every
    model's tasks at once (:attr:`RunResult.runs` has each model's); with ``output_log``,
    whatever prints while the suites run is appended to that file.

    Raises:
        RunOptionError: an option that cannot run (``.option`` names the field).
        InputFileError: the shop or cases file does not read or cannot be run (a
            :class:`RunInputError` carrying each typed problem; nothing has run).
        RunInputError: an input that cannot be read or used (nothing has run).
        RunError: a model provider's package or variable is missing.
    """
    from hat_eval._hub import hub_kernel_setting

    from . import _prepare as prep
    from . import _session as session
    from ._preflight import preflight

    inputs = _check_inputs(options)
    names, models, log_dir = list(options.suites), inputs.model_names, options.log_dir
    with ExitStack() as stack:
        # every load below, the judge's too
        stack.enter_context(hub_kernel_setting(False if options.no_hub_kernels else None))
        for model_name in inputs.model_names:  # before any task is built or sample starts
            preflight(model_name, inputs.model_args, options.request_timeout)
        if progress is not None:
            session.check_progress_setting()
        if options.output_log is not None:
            _check_output_log(options.output_log)
        # after the checks of the input, before any model loads
        session.prepare_log_dir(log_dir, warn)
        grader = prep.resolve_judge(  # before any sample runs
            options.judge,
            request_timeout=options.request_timeout,
            max_retries=options.max_retries,
            max_tokens=options.judge_max_tokens,
        )
        if progress is not None:
            for name in names:
                for line in session.limit_notes([name], options.suite_limit(name), options.seed):
                    progress(line)
        tasks = _build_tasks(options, inputs, judged=grader is not None, progress=progress)
        trials = options.epochs if options.epochs > 1 else None
        expected = {task.name: len(task.dataset) * (trials or task.epochs or 1) for task in tasks}
        _, retries = prep.server_bounds(models[0], options.request_timeout, options.max_retries)
        if progress is not None:
            total = sum(expected.values()) * len(models)
            done = sum(run.finished for run in _task_runs(log_dir, models, expected))
            stack.enter_context(session.run_progress(total, done, retries, progress))
        stop = stack.enter_context(
            session.stop_signals() if interrupt else nullcontext(session.Interrupt())
        )
        if options.output_log is not None:
            options.output_log.parent.mkdir(parents=True, exist_ok=True)
            f = stack.enter_context(options.output_log.open("a", encoding="utf-8", buffering=1))
            stack.enter_context(redirect_stdout(f))
            stack.enter_context(redirect_stderr(f))
        _eval(options, inputs, tasks, grader, stop)
    judge = str(grader) if grader else None
    described = session.describe_run(options, models, inputs.harness_file, judge)
    return _result(log_dir, models, expected, stop.signum, described)


def _fresh_display(display: str) -> None:
    """Let a plain run print plainly, whatever display an earlier run made in this process.

    Inspect makes its display object once per process and keeps it (``display()`` in
    ``inspect_ai._display.core.active``), so a run asking for ``plain`` after one that made a
    rich or silent display would print nothing into ``output_log``. Dropping the kept object
    makes the next eval build the display this run asks for.
    """
    if display != "plain":
        return
    from inspect_ai._display.core import active
    from inspect_ai._display.plain.display import PlainDisplay

    if not isinstance(active.active_display(), PlainDisplay | None):
        active._active_display = None


def _check_output_log(path: Path) -> None:
    """``output_log`` names a file that can be appended to (its folder made when it runs)."""
    from hat_eval._outputs import OutputError, check_output_file

    try:
        check_output_file(path, option="output_log", create=False)
    except OutputError as err:
        raise RunInputError(str(err)) from None


@dataclass(frozen=True)
class _Inputs:
    """What :func:`_check_inputs` read: the files to run and the model to call."""

    harness_file: str | None
    changelog_file: str | None
    shop_dir: str | None
    cases_text: str | None
    """The ``cases`` file's cases, complete (:func:`~hat_eval.runner._inputs.read_cases`)."""
    model_names: tuple[str, ...]
    """The Inspect model string of each model, in order (one provider)."""
    model_args: dict[str, Any]


def _check_inputs(options: RunOptions) -> _Inputs:
    """The harness, disclosure, changelog, shop, cases and model checked; nothing loaded yet."""
    from . import _prepare as prep

    names = list(options.suites)
    harness_file = None
    if options.harness is not None:
        from hat_eval.harness import HarnessError, load_harness

        try:
            load_harness(options.harness)
        except HarnessError as err:
            raise RunInputError(str(err)) from None
        harness_file = str(options.harness.resolve())
    if options.disclosure is not None:
        _check_disclosure(names, harness_file, options.disclosure)
    changelog_file = prep.check_changelog_options(names, options.harness_version, options.changelog)
    shop_dir = None
    if options.shop is not None:
        from ._inputs import check_shop

        shop_dir = check_shop(options.shop, names)
    cases_text = None
    if options.cases is not None:
        from ._inputs import read_cases

        cases_text = read_cases(options.cases, names, shop_dir, options.judge)
    model_names = tuple(prep.resolve_model(m, options.engine) for m in options.all_models)
    providers = list(dict.fromkeys(m.split("/", 1)[0] for m in model_names))
    if len(providers) > 1:
        raise RunOptionError(
            f"models={options.models!r}: they run through the providers {', '.join(providers)}; "
            "the models of one run share one provider's settings (model args, timeouts, "
            "connections), expected models of one provider; run the others in a run of their own",
            "models",
        )
    for model_name in model_names:
        prep.check_mock_model(model_name)
    # the same for every model of one provider
    model_args = prep.generation_model_args(
        model_names[0], dict(options.model_args), options.temperature
    )
    if model_names[0].startswith("hf/"):  # what Inspect's hf provider hands from_pretrained
        prep.check_load_args(model_args)
    return _Inputs(harness_file, changelog_file, shop_dir, cases_text, model_names, model_args)


def _check_disclosure(names: list[str], harness_file: str | None, disclosure: str) -> None:
    """``disclosure`` applies to the suites and names a form the harness can take."""
    from hat_eval.suites import IFEVAL, disclosure_harness, suite_names

    from ._prepare import EVOLUTION

    if names == [EVOLUTION]:
        raise RunOptionError(
            f"{EVOLUTION} runs the harness versions of its changelog, in their own form; "
            "--disclosure applies to livestream, variant and robustness",
            "disclosure",
        )
    if names == [IFEVAL]:
        raise RunOptionError(
            "ifeval has no skills to disclose; --disclosure applies to the case suites "
            f"({', '.join(n for n in suite_names() if n != IFEVAL)})",
            "disclosure",
        )
    try:
        disclosure_harness(harness_file, disclosure)
    except ValueError as err:
        raise RunOptionError(str(err), "disclosure") from None


def _build_tasks(
    options: RunOptions,
    inputs: _Inputs,
    *,
    judged: bool,
    progress: Callable[[str], None] | None,
) -> list[Task]:
    """Every task built (and its data read) before any sample runs; the cases written."""
    from hat_eval.suites import TaskOptions, make_task

    from ._session import with_judge

    cases_file = None
    if inputs.cases_text is not None:  # the suites read the cases complete (see read_cases)
        from hat_eval._outputs import write_text_atomic

        given = options.log_dir / "cases" / "given.jsonl"
        given.parent.mkdir(parents=True, exist_ok=True)
        cases_file = str(write_text_atomic(given, inputs.cases_text))
    task_options = TaskOptions(
        limit=options.limit,  # each suite's own: options.suite_limit
        harness=inputs.harness_file,
        seed=options.seed,
        agent=options.agent,
        ifeval_data=options.ifeval_data,
        disclosure=options.disclosure,
        harness_version=options.harness_version,
        changelog=inputs.changelog_file,
        shop=inputs.shop_dir,
        cases=cases_file,
    )
    names = list(options.suites)
    try:
        tasks = [
            _with_max_tokens(
                make_task(name, replace(task_options, limit=options.suite_limit(name))),
                options.suite_max_tokens(name) if options.max_tokens_per_suite else None,
            )
            for name in names
        ]
    except (FileNotFoundError, ValueError) as err:
        raise RunInputError(str(err)) from None
    if inputs.shop_dir is not None or cases_file is not None:
        from ._inputs import write_cases

        write_cases(tasks, options.log_dir, progress)
    return with_judge(tasks, names) if judged else tasks


def _with_max_tokens(task: Task, max_tokens: int | None) -> Task:
    """``task`` with its turns capped at ``max_tokens`` (None: its own cap), its config kept.

    What Inspect's eval-level ``max_tokens`` does to every task (it overrides the task's), for
    one task: with ``max_tokens_per_suite`` each task gets its suite's cap (or ``max_tokens``)
    this way and the eval level none, since it would override them.
    """
    if max_tokens is None:
        return task
    from inspect_ai import task_with
    from inspect_ai.model import GenerateConfig

    return task_with(task, config=task.config.merge(GenerateConfig(max_tokens=max_tokens)))


def _eval(
    options: RunOptions, inputs: _Inputs, tasks: list[Task], grader: Model | None, stop: Interrupt
) -> None:
    """Inspect's eval set over ``tasks`` (resuming ``log_dir``); a Ctrl-C is noted in ``stop``."""
    from inspect_ai import Epochs, eval_set
    from inspect_ai._util.error import PrerequisiteError

    import hat_eval._registry  # noqa: F401  (registers the reference policy model)
    from hat_eval.suites import part_mean

    from ._prepare import one_line, server_bounds
    from ._session import dirty_log_dir_line, no_eval_set_verdict, tracebacks_in_log_only

    models, epochs = inputs.model_names, options.epochs
    # one provider: the same bounds and default for every model
    attempt_timeout, retries = server_bounds(
        models[0], options.request_timeout, options.max_retries
    )
    max_connections = options.max_connections
    if max_connections is None:
        from hat_eval._device import default_connections

        max_connections = default_connections(models[0])
    display = options.display
    if display == "auto":
        display = "rich" if options.output_log is None and os.isatty(2) else "plain"
    _fresh_display(display)
    # several models: every model's tasks at once, so each model loads once and their calls
    # batch together (Inspect's default runs one task per model at a time)
    several: dict[str, Any] = (
        {"model": list(models), "max_tasks": len(tasks) * len(models)}
        if len(models) > 1
        else {"model": models[0]}
    )
    try:
        with tracebacks_in_log_only(), no_eval_set_verdict():
            eval_set(
                tasks,
                **several,
                model_args=inputs.model_args,
                log_dir=str(options.log_dir),
                max_connections=max_connections,
                model_roles={"grader": grader} if grader is not None else None,
                seed=options.seed,
                # with caps per suite, each task carries its own (see _with_max_tokens)
                max_tokens=None if options.max_tokens_per_suite else options.max_tokens,
                attempt_timeout=attempt_timeout,
                max_retries=retries,
                epochs=Epochs(epochs, part_mean()) if epochs > 1 else None,
                temperature=options.temperature,
                log_format="eval",
                retry_attempts=1,
                # one of DISPLAYS (RunOptions checks it), each one of Inspect's
                display=display,  # type: ignore[arg-type]
                # Inspect's live score is recomputed at most every 0.9 s and its last frame
                # can stop samples short of the end (35.00 shown, 33.25 final): the progress
                # bar shows progress, the summary table the scores.
                score_display=False,
            )
    except KeyboardInterrupt:  # after Ctrl-C Inspect raises this or returns: the logs decide
        stop.note(signal.SIGINT)
    except PrerequisiteError as err:  # a missing package or variable of a model provider
        raise RunError(
            dirty_log_dir_line(err.message, options.log_dir) or one_line(err.message)
        ) from None


def _task_runs(log_dir: Path, models: Sequence[str], expected: dict[str, int]) -> list[TaskRun]:
    """Each (model, task) of a run with its newest log in ``log_dir`` and its finished samples.

    One model: each task's newest log whatever model it names (a log dir holds one run);
    several: each log is matched to its model by the model it names.
    """
    from hat_eval.reports import finished_samples

    from ._session import newest_logs

    newest = newest_logs(log_dir)
    runs = []
    for model in models:
        for task, samples in expected.items():
            log = newest.get((model, task)) if len(models) > 1 else newest.get((None, task))
            done = min(finished_samples(log), samples) if log is not None else 0
            runs.append(TaskRun(model, task, samples, done, log))
    return runs


def _result(
    log_dir: Path,
    models: Sequence[str],
    expected: dict[str, int],
    signum: int | None,
    described: str,
) -> RunResult:
    """The run's newest logs, counted (one count: :func:`hat_eval.reports.finished_samples`)."""
    runs = _task_runs(log_dir, models, expected)
    logs = [run.log for run in runs if run.log is not None]
    if signum is None and any(log.status == "cancelled" for log in logs):
        signum = signal.SIGINT  # stopped by a Ctrl-C the handler did not see
    if signum is not None:
        status = "terminated" if signum == signal.SIGTERM else "interrupted"
    elif any(
        run.log is None or run.log.status != "success" or run.finished < run.expected
        for run in runs
    ):
        status = "incomplete"
    else:
        status = "success"
    return RunResult(tuple(runs), status, described, signum)
