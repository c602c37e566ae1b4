"""Run the suites on a model from Python: :func:`run_suites` of :class:`RunOptions`."""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable
from contextlib import ExitStack, nullcontext
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ._options import PROBE_TIMEOUT_S, RunInputError, RunOptionError, RunOptions

if TYPE_CHECKING:
    from pathlib import Path

    from inspect_ai import Task
    from inspect_ai.log import EvalLog
    from inspect_ai.model import Model

    from ._session import Interrupt


def _to_stderr(line: str) -> None:
    print(line, file=sys.stderr)


class RunError(RuntimeError):
    """A run that could not start (a model provider's package or variable missing): one line."""


@dataclass(frozen=True)
class RunResult:
    """What a run left: the newest log of each task and how much of it finished.

    ``status`` is ``success`` (every sample finished), ``incomplete`` (some failed or remain:
    the same options resume them), ``interrupted`` (Ctrl-C) or ``terminated`` (SIGTERM).
    """

    logs: tuple[EvalLog, ...]
    expected: dict[str, int]
    finished: dict[str, int]
    status: str
    described: str
    signum: int | None = None

    @property
    def total(self) -> int:
        """Samples the run has (every task, every epoch)."""
        return sum(self.expected.values())

    @property
    def done(self) -> int:
        """Samples finished (this run's and a resumed run's earlier ones)."""
        return sum(self.finished.values())


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
    marked cancelled and the result says so.

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
    from ._preflight import check_server, model_server

    inputs = _check_inputs(options)
    names, model_name, log_dir = list(options.suites), inputs.model_name, options.log_dir
    with ExitStack() as stack:
        # every load below, the judge's too
        stack.enter_context(hub_kernel_setting(False if options.no_hub_kernels else None))
        server = model_server(model_name, inputs.model_args)
        if server is not None:  # before any task is built or sample starts
            check_server(
                model_name, server, timeout_s=min(PROBE_TIMEOUT_S, options.request_timeout)
            )
        if progress is not None:
            session.check_progress_setting()
        # after the checks of the input, before any model loads
        session.prepare_log_dir(log_dir, warn)
        grader = (
            prep.resolve_judge(
                options.judge,
                request_timeout=options.request_timeout,
                max_retries=options.max_retries,
                max_tokens=options.judge_max_tokens,
            )
            if options.judge is not None
            else None
        )
        if progress is not None:
            for line in session.limit_notes(names, options.limit, options.seed):
                progress(line)
        tasks = _build_tasks(options, inputs, judged=grader is not None, progress=progress)
        _, retries = prep.server_bounds(model_name, options.request_timeout, options.max_retries)
        if progress is not None:
            stack.enter_context(
                session.run_progress(tasks, log_dir, options.epochs, retries, progress)
            )
        stop = stack.enter_context(
            session.stop_signals() if interrupt else nullcontext(session.Interrupt())
        )
        _eval(options, inputs, tasks, grader, stop)
    trials = options.epochs if options.epochs > 1 else None
    expected = {task.name: len(task.dataset) * (trials or task.epochs or 1) for task in tasks}
    described = session.describe_run(
        model_name,
        options.agent,
        inputs.harness_file,
        names,
        str(grader) if grader else None,
        disclosure=options.disclosure,
    )
    return _result(log_dir, expected, stop.signum, described)


@dataclass(frozen=True)
class _Inputs:
    """What :func:`_check_inputs` read: the files to run and the model to call."""

    harness_file: str | None
    changelog_file: str | None
    shop_dir: str | None
    cases_text: str | None
    """The ``cases`` file's cases, complete (:func:`~hat_eval.runner._inputs.read_cases`)."""
    model_name: str
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
    model_name = prep.resolve_model(options.model, options.engine)
    prep.check_mock_model(model_name)
    model_args = prep.generation_model_args(
        model_name, dict(options.model_args), options.temperature
    )
    if model_name.startswith("hf/"):  # what Inspect's hf provider hands from_pretrained
        prep.check_load_args(model_args)
    return _Inputs(harness_file, changelog_file, shop_dir, cases_text, model_name, model_args)


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
        limit=options.limit,
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
        tasks = [make_task(name, task_options) for name in names]
    except (FileNotFoundError, ValueError) as err:
        raise RunInputError(str(err)) from None
    if inputs.shop_dir is not None or cases_file is not None:
        from ._inputs import write_cases

        write_cases(tasks, options.log_dir, progress)
    return with_judge(tasks, names) if judged else tasks


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

    model_name, epochs = inputs.model_name, options.epochs
    attempt_timeout, retries = server_bounds(
        model_name, options.request_timeout, options.max_retries
    )
    max_connections = options.max_connections
    if max_connections is None:
        from hat_eval._device import default_connections

        max_connections = default_connections(model_name)[0]
    try:
        with tracebacks_in_log_only(), no_eval_set_verdict():
            eval_set(
                tasks,
                model=model_name,
                model_args=inputs.model_args,
                log_dir=str(options.log_dir),
                max_connections=max_connections,
                model_roles={"grader": grader} if grader is not None else None,
                seed=options.seed,
                max_tokens=options.max_tokens,
                attempt_timeout=attempt_timeout,
                max_retries=retries,
                epochs=Epochs(epochs, part_mean()) if epochs > 1 else None,
                temperature=options.temperature,
                log_format="eval",
                retry_attempts=1,
                display="rich" if os.isatty(2) else "plain",
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


def _result(
    log_dir: Path, expected: dict[str, int], signum: int | None, described: str
) -> RunResult:
    """The run's newest logs, counted (one count: :func:`hat_eval.reports.finished_samples`)."""
    from hat_eval.reports import finished_samples

    from ._session import latest_logs

    logs = latest_logs(log_dir, expected)
    finished = {log.eval.task: min(finished_samples(log), expected[log.eval.task]) for log in logs}
    if signum is None and any(log.status == "cancelled" for log in logs):
        signum = signal.SIGINT  # stopped by a Ctrl-C the handler did not see
    if signum is not None:
        status = "terminated" if signum == signal.SIGTERM else "interrupted"
    elif sum(finished.values()) < sum(expected.values()) or any(
        log.status != "success" for log in logs
    ):
        status = "incomplete"
    else:
        status = "success"
    return RunResult(tuple(logs), expected, finished, status, described, signum)
