"""A run's log folder, its stop signals and what it says it ran (``hat-eval run`` shares them)."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ._options import RunInputError, RunOptions
from ._prepare import one_line

if TYPE_CHECKING:
    from inspect_ai import Task
    from inspect_ai.log import EvalLog


def limit_notes(names: list[str], limit: int | None, seed: int | None) -> list[str]:
    """One line per case suite whose cases ``--limit`` or ``--seed`` changes.

    A limit at or above a suite's size runs the whole suite (its pinned dataset: the task
    builder never draws more cases than the suite has); a smaller limit or another seed draws
    a case set whose dataset hash is not the pinned one, and the line says so.
    """
    from hat_eval.suites import case_suites, suite_recipe

    out = []
    for name in names:
        if name not in case_suites():
            continue
        recipe = suite_recipe(name)
        size = f"{recipe.cases:,}"
        if limit is not None and limit > recipe.cases:
            out.append(
                f"{name} has {size} cases: --limit {limit} runs all of them (the suite's "
                "pinned dataset)"
            )
        elif limit is not None and limit < recipe.cases:
            out.append(
                f"{name}: --limit {limit} runs {limit:,} of its {size} cases, a subset whose "
                "dataset hash is not the suite's pinned one"
            )
        if seed is not None and seed != recipe.seed:
            out.append(
                f"{name}: --seed {seed} draws other cases than the suite's (seed {recipe.seed}): "
                "its dataset hash is not the pinned one"
            )
    return out


def with_judge(tasks: list[Task], names: list[str]) -> list[Task]:
    """The case suites' tasks scored through the judge (:func:`hat_eval.judge.judged`).

    Each case suite's scorer is wrapped so the grader (the ``grader`` model role) decides the
    parts its checks leave undecided; IFEval, which has none, is left as it is.
    """
    from inspect_ai import task_with

    from hat_eval.judge import judged
    from hat_eval.suites import IFEVAL

    return [
        t if name == IFEVAL else task_with(t, scorer=[judged(s) for s in t.scorer or []])
        for t, name in zip(tasks, names, strict=True)
    ]


INTERRUPTED = 130
"""Exit code of a run stopped by Ctrl-C (128 + SIGINT, the shell's convention)."""


TERMINATED = 143
"""Exit code of a run stopped by SIGTERM (128 + SIGTERM: ``timeout``, a scheduler, ``kill``)."""


def newest_logs(log_dir: Path) -> dict[tuple[str | None, str], EvalLog]:
    """The newest readable log header in ``log_dir`` of each (model, task), and of each task.

    Keyed ``(model, task)`` by the model the log names, and ``(None, task)`` whatever its model.
    """
    from inspect_ai.log import list_eval_logs, read_eval_log

    newest: dict[tuple[str | None, str], EvalLog] = {}
    if log_dir.is_dir():
        for info in list_eval_logs(str(log_dir), recursive=False):  # newest first
            try:
                log = read_eval_log(info, header_only=True)
            except Exception:  # one cut short as the run stopped: named by set_aside_unreadable
                continue
            newest.setdefault((log.eval.model, log.eval.task), log)
            newest.setdefault((None, log.eval.task), log)
    return newest


UNREADABLE = ".unreadable"
"""Suffix given to a log that cannot be read, so Inspect's listing of the folder skips it."""


def log_path(location: str) -> str:
    """A log's location as an absolute path (Inspect may give a ``file://`` URI)."""
    from urllib.parse import unquote, urlsplit

    if location.startswith("file://"):
        location = unquote(urlsplit(location).path)
    return str(Path(location).resolve()) if "://" not in location else location


def set_aside_unreadable(log_dir: Path) -> list[tuple[Path, Path, str]]:
    """Rename each log in ``log_dir`` that Inspect cannot read to ``NAME.unreadable``.

    A log cut short (a run killed while writing it) stops Inspect's resume with an error that
    names no file; renamed, it is kept for a look and no longer listed. Returns ``(log, new
    name, why)`` for each log set aside.
    """
    from inspect_ai.log import list_eval_logs, read_eval_log

    from hat_eval.reports import unreadable_reason

    moved = []
    for info in list_eval_logs(str(log_dir), recursive=True):
        try:
            read_eval_log(info, header_only=True)
        except Exception as err:  # Inspect raises several kinds for a file that is not a log
            path = Path(log_path(info.name))
            target = path.with_name(path.name + UNREADABLE)
            n = 1
            while target.exists():
                n += 1
                target = path.with_name(f"{path.name}{UNREADABLE}.{n}")
            path.rename(target)
            moved.append((path, target, unreadable_reason(err)))
    return moved


def dirty_log_dir_line(message: object, log_dir: Path) -> str | None:
    """Inspect's refusal of a log folder holding another run's logs, said the hat-eval way.

    None when ``message`` is not that refusal. Inspect's own advice (``--log-dir-allow-dirty``)
    is an option of ``inspect eval-set``, which ``hat-eval run`` does not take.
    """
    text = one_line(message)
    if "log-dir-allow-dirty" not in text:
        return None
    name = text.split("'", 2)[1] if text.count("'") >= 2 else "a log"
    return (
        f"--log-dir {log_dir}: holds {name}, a log of another run (another suite, model, limit "
        "or option); resume that run with its own command, or give this run a new --log-dir"
    )


@dataclass
class Interrupt:
    """The first stop signal a run received (SIGINT or SIGTERM), or None."""

    signum: int | None = None

    def note(self, signum: int) -> None:
        """Remember ``signum`` unless a signal came first."""
        if self.signum is None:
            self.signum = signum

    @property
    def code(self) -> int:
        """The exit code: 143 after SIGTERM, otherwise 130."""
        return TERMINATED if self.signum == signal.SIGTERM else INTERRUPTED

    @property
    def what(self) -> str:
        """``interrupted`` (Ctrl-C) or ``stopped by SIGTERM``."""
        return "stopped by SIGTERM" if self.signum == signal.SIGTERM else "interrupted"


@contextmanager
def stop_signals() -> Iterator[Interrupt]:
    """While it lasts, SIGTERM stops a run as Ctrl-C does, and the first of them is recorded.

    Ctrl-C is left to the event loop (:class:`asyncio.Runner` cancels the run, and Inspect
    writes the logs as cancelled); its handler is wrapped to record the signal, so the run
    exits 130 even when the cancellation lands after the last sample. SIGTERM goes to the same
    handler, so a ``timeout`` or a scheduler gets the same summary, resume line and logs, and
    the exit code 143.
    """
    import asyncio
    import threading

    record = Interrupt()
    if threading.current_thread() is not threading.main_thread():
        yield record
        return
    runner = asyncio.Runner
    original = getattr(runner, "_on_sigint", None)

    def on_sigint(self: Any, signum: int, frame: Any, main_task: Any) -> None:
        record.note(signal.SIGINT)
        assert original is not None
        original(self, signum, frame, main_task)

    def on_sigterm(signum: int, frame: Any) -> None:
        record.note(signal.SIGTERM)
        handler = signal.getsignal(signal.SIGINT)
        if not callable(handler):
            raise KeyboardInterrupt
        handler(signal.SIGINT, frame)

    previous = signal.signal(signal.SIGTERM, on_sigterm)
    if original is not None:
        runner._on_sigint = on_sigint  # type: ignore[attr-defined]
    try:
        yield record
    finally:
        signal.signal(signal.SIGTERM, previous)
        if original is not None:
            runner._on_sigint = original  # type: ignore[attr-defined]


@contextmanager
def _replaced(module: str, name: str, value: Any) -> Iterator[None]:
    """While it lasts, ``module.name`` is ``value``; under another Inspect layout, as it was."""
    import importlib

    try:
        owner = importlib.import_module(module)
    except ImportError:  # another Inspect layout: its display is left as it is
        yield
        return
    original = getattr(owner, name, None)
    if original is not None:
        setattr(owner, name, value)
    try:
        yield
    finally:
        if original is not None:
            setattr(owner, name, original)


def no_eval_set_verdict() -> AbstractContextManager[None]:
    """While it lasts, Inspect's eval set does not print its verdict on the run.

    Inspect prints "Completed all tasks ... successfully" when an interrupted eval set returns
    no logs (``inspect_ai._eval.evalset``); the run's summary and last line say what finished.
    """

    def silent(msg: str) -> str:
        return "" if msg.startswith(("Completed all tasks", "Did not successfully")) else msg

    return _replaced("inspect_ai._eval.evalset", "status_msg", silent)


def tracebacks_in_log_only() -> AbstractContextManager[None]:
    """While it lasts, Inspect's panel for a failed task shows one line, not the traceback.

    Inspect renders a task error as a rich traceback (``inspect_ai._display.core.results``);
    the traceback stays in the log, and :func:`error_lines` names the errors after the run.
    """
    from rich.text import Text

    def pointer(*_args: Any, **_kwargs: Any) -> Text:
        return Text(
            "stopped on an error: it is named after the results, its traceback is in the log"
        )

    return _replaced("inspect_ai._display.core.results", "rich_traceback", pointer)


def describe_run(
    options: RunOptions, models: Sequence[str], harness: str | None, judge: str | None
) -> str:
    """One line naming what ran: the model(s), the agent, harness and judge of each kind of suite.

    ``harness`` is the harness file run (None: the default of ``options.disclosure``).
    """
    from hat_eval.suites import IFEVAL

    parts = [f"model{'s' if len(models) > 1 else ''} {', '.join(models)}"]
    if any(name != IFEVAL for name in options.suites):
        disclosure = options.disclosure
        default = f"default {disclosure}" if disclosure else "default"
        parts += [f"agent {options.agent}", f"harness {harness or default + ' (embedded)'}"]
        if judge is not None:
            parts.append(f"judge {judge} for undecided parts")
    if IFEVAL in options.suites:
        parts.append(f"ifeval under the harness {harness}" if harness else "ifeval on bare prompts")
    return "ran: " + ", ".join(parts)


@contextmanager
def run_progress(
    total: int, done: int, max_retries: int | None, write: Callable[[str], None]
) -> Iterator[None]:
    """Progress lines to ``write`` while the run lasts, off a terminal (see ``_progress``).

    ``total`` samples, ``done`` of them finished by a resumed run earlier. A terminal shows
    Inspect's own progress display instead. ``HAT_EVAL_PROGRESS_S`` sets the seconds between
    lines (:func:`check_progress_setting` reads it first).
    """
    if os.isatty(2):
        yield
        return
    from ._progress import Progress, watch

    every_s = check_progress_setting()
    progress = Progress(total, done, every_s=every_s, write=write, max_retries=max_retries)
    with watch(progress):
        yield


def check_progress_setting() -> float:
    """Seconds between progress lines (``HAT_EVAL_PROGRESS_S``), or one line if it is bad."""
    from ._progress import every_s_from_env

    try:
        return every_s_from_env()
    except ValueError as err:
        raise RunInputError(str(err)) from None


def prepare_log_dir(log_dir: Path, warn: Callable[[str], None]) -> None:
    """Check ``log_dir`` before any work, and set its unreadable logs aside (a ``warn`` each).

    :class:`RunInputError` when it is a file, cannot be created or written (see
    :func:`hat_eval._outputs.check_output_dir`).
    """
    from hat_eval._outputs import OutputError, check_output_dir

    try:
        check_output_dir(log_dir, option="--log-dir", create=False)
    except OutputError as err:
        raise RunInputError(str(err)) from None
    for path, target, why in set_aside_unreadable(log_dir):
        warn(
            f"warning: {path}: not a readable Inspect eval log ({why}); moved aside to "
            f"{target.name} so this run can resume from the others"
        )
