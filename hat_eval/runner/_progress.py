"""``hat-eval run``'s progress lines: samples done, seconds per sample, time left; model retries.

Inspect's plain display (what a run shows when its output is not a terminal) prints a status
line only when a sample finishes a step, and nothing about the time left; a local model on a
CPU takes minutes per sample, so a run looked hung. While :func:`watch` lasts, an Inspect hook
(:class:`_ProgressHooks`, registered once, on the first :func:`watch`) counts finished samples
and a :class:`Progress` writes one plain line per sample, at most one every ``every_s`` seconds,
and one every ``every_s`` seconds while none finishes (a heartbeat, so a slow first sample still
shows the run is alive). Each kind of failed model call that Inspect retries gets one line when
it first happens (never a silent retry loop); the next progress line counts the retries.
"""

from __future__ import annotations

import functools
import math
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

PROGRESS_EVERY_S = 30.0
"""Default seconds between progress lines (``HAT_EVAL_PROGRESS_S`` changes it)."""
PROGRESS_VAR = "HAT_EVAL_PROGRESS_S"
"""The variable that sets the seconds between progress lines (0: a line per sample)."""


def duration(seconds: float) -> str:
    """``42 s``, ``3 min 05 s``, ``2 h 10 min``: a duration as a reader takes it in."""
    s = max(0, round(seconds))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {s % 3600 // 60:02d} min"


@dataclass(frozen=True)
class Retry:
    """One model call Inspect is about to retry (from its ``on_model_retry`` hook)."""

    model: str
    attempt: int
    """The try that just failed (1: the first)."""
    wait_s: float
    error: str
    """The exception's type, with the HTTP status when there is one."""


class Progress:
    """Counts a run's finished samples and writes progress lines through ``write``.

    Args:
        total: samples the run has to finish (those of earlier runs of the log folder included).
        done: samples already finished before this run (a resumed run does not redo them).
        every_s: seconds between progress lines (0: one per finished sample).
        write: where each line goes (one plain line, no markup).
        max_retries: Inspect's ``max_retries`` (for "try 2 of 3" in retry lines); None: unbounded.
        clock: seconds, monotonic (tests pass their own).
    """

    def __init__(
        self,
        total: int,
        done: int = 0,
        *,
        every_s: float = PROGRESS_EVERY_S,
        write: Callable[[str], None],
        max_retries: int | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.total = total
        self.before = done
        self.done = 0
        self.failed = 0
        self.every_s = every_s
        self.write = write
        self.max_retries = max_retries
        self.clock = clock
        self.start = clock()
        self.last_line = self.start
        self.retries = 0
        self._retry_kinds: set[str] = set()
        self._lock = threading.Lock()

    def line(self) -> str:
        """``progress: 5 of 20 samples (25%), 41.2 s/sample, about 10 min 18 s left``.

        Seconds per sample: this run's time over the samples it ended (failed ones included);
        the time left: that times the samples still to finish.
        """
        elapsed = self.clock() - self.start
        finished = self.before + self.done
        share = f" ({100 * finished / self.total:.0f}%)" if self.total else ""
        text = f"progress: {finished} of {self.total} samples{share}"
        if self.failed:
            text += f", {self.failed} failed (named when the run ends)"
        if self.done + self.failed:
            per = elapsed / (self.done + self.failed)
            left = max(0, self.total - finished) * per
            text += f", {per:.1f} s/sample, about {duration(left)} left"
        else:
            text += f"; none finished yet after {duration(elapsed)} (the first is still running)"
        if self.retries:
            text += f"; {self.retries} model call{'s' if self.retries > 1 else ''} retried"
        return text

    def _emit(self, now: float) -> None:
        self.last_line = now
        self.write(self.line())

    def sample_done(self, *, failed: bool = False) -> None:
        """Count one sample that ended (``failed``: with an error; Inspect may retry it).

        Writes a line if ``every_s`` has passed since the last, or the run has all its samples.
        """
        with self._lock:
            if failed:
                self.failed += 1
            else:
                self.done = min(self.done + 1, self.total - self.before)
            now = self.clock()
            last = self.before + self.done >= self.total
            if last or now - self.last_line >= self.every_s:
                self._emit(now)

    def heartbeat(self) -> None:
        """Write a line if none was written for ``every_s`` seconds (called by :func:`watch`)."""
        with self._lock:
            now = self.clock()
            if now - self.last_line >= self.every_s:
                self._emit(now)

    def retry(self, retry: Retry) -> None:
        """Count a retried model call; the first of each kind of error gets its own line."""
        with self._lock:
            self.retries += 1
            if retry.error in self._retry_kinds:
                return
            self._retry_kinds.add(retry.error)
        tries = f" of {self.max_retries + 1}" if self.max_retries is not None else ""
        self.write(
            f"retrying: a call to {retry.model} failed ({retry.error}); try "
            f"{retry.attempt + 1}{tries} in {retry.wait_s:.0f} s (later retries of this error "
            "are counted in the progress lines)"
        )


_active: list[Progress] = []


@functools.cache
def _register() -> None:
    """Register the Inspect hook that feeds :data:`_active` (once per process)."""
    from inspect_ai.hooks import Hooks, ModelRetry, SampleEnd, hooks

    class _ProgressHooks(Hooks):
        def enabled(self) -> bool:
            return bool(_active)

        async def on_sample_end(self, data: SampleEnd) -> None:
            failed = data.sample.error is not None
            for p in list(_active):
                p.sample_done(failed=failed)

        async def on_model_retry(self, data: ModelRetry) -> None:
            kind = data.exception_type or "an error"
            if data.status_code is not None:
                kind += f", HTTP {data.status_code}"
            for p in list(_active):
                p.retry(Retry(data.model_name, data.attempt, data.wait_time, kind))

    hooks(name="hat_eval_progress", description="hat-eval run's progress lines")(_ProgressHooks)


@contextmanager
def watch(progress: Progress, *, heartbeat: bool = True) -> Iterator[Progress]:
    """While it lasts, finished samples and retries of any Inspect run reach ``progress``.

    With ``heartbeat``, a thread calls :meth:`Progress.heartbeat` every ``every_s`` seconds
    (at least 1 s apart), so a run whose samples take minutes still shows a line.
    """
    _register()
    stop = threading.Event()
    thread = None
    if heartbeat and progress.every_s > 0:
        period = max(1.0, progress.every_s)

        def beat() -> None:
            while not stop.wait(period):
                progress.heartbeat()

        thread = threading.Thread(target=beat, name="hat-eval-progress", daemon=True)
        thread.start()
    _active.append(progress)
    try:
        yield progress
    finally:
        _active.remove(progress)
        stop.set()
        if thread is not None:
            thread.join(timeout=5)


def every_s_from_env(environ: Any = None) -> float:
    """Seconds between progress lines: ``HAT_EVAL_PROGRESS_S`` or :data:`PROGRESS_EVERY_S`.

    Raises:
        ValueError: the variable is not a number of seconds at least 0.
    """
    import os

    raw = (environ if environ is not None else os.environ).get(PROGRESS_VAR)
    if raw is None or raw == "":
        return PROGRESS_EVERY_S
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not value >= 0:
        raise ValueError(
            f"{PROGRESS_VAR}={raw!r} is not a number of seconds at least 0, expected e.g. "
            f"{PROGRESS_VAR}=60 (0: a line per finished sample)"
        )
    return value
