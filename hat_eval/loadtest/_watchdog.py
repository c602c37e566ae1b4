"""Stall detection for many streaming clients at once, without a timer per socket read.

A socket timeout under gevent costs a ``Timeout``, a timer watcher and, when it is cancelled,
a few objects in reference cycles, on every wait for data: at thousands of chunks a second that
garbage fills the young GC generation, and each collection pauses every user for milliseconds.
So the Locust users read with no socket timeout and register each request here instead: one
background thread (a greenlet under gevent's monkey-patching) wakes a few times a second and
shuts down the socket of any request that has received nothing for its stall timeout, which ends
the blocked ``recv``; the client then sees :attr:`Watch.fired` and reports the request stalled.
"""

from __future__ import annotations

import socket
import threading
import time


class Watch:
    """One request under watch; the client sets :attr:`last` to the stamp of every read."""

    __slots__ = ("fired", "last", "limit_s", "sock")

    def __init__(self, sock: socket.socket, limit_s: float) -> None:
        self.sock = sock
        self.limit_s = limit_s
        self.last = time.perf_counter()
        self.fired = False


class StallWatchdog:
    """Shuts down the socket of any watched request silent for longer than its ``limit_s``.

    Args:
        max_period_s: The longest time between two scans; a scan also comes at least four times
            per shortest watched limit, so a stall is caught within about a quarter of its limit.
    """

    def __init__(self, max_period_s: float = 0.25) -> None:
        self.max_period_s = max_period_s
        self._active: set[Watch] = set()
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._closed = False

    def watch(self, sock: socket.socket, limit_s: float) -> Watch:
        """Start watching a request on ``sock`` (its clock starts now)."""
        w = Watch(sock, limit_s)
        with self._lock:
            self._active.add(w)
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="hat-eval-stall-watchdog", daemon=True
                )
                self._thread.start()
        if limit_s < 4 * self.max_period_s:
            self._wake.set()  # rescan at the shorter period now
        return w

    def unwatch(self, w: Watch) -> None:
        """Stop watching a request."""
        with self._lock:
            self._active.discard(w)

    def close(self) -> None:
        """Stop the background thread."""
        self._closed = True
        self._wake.set()

    def _period(self) -> float:
        with self._lock:
            shortest = min((w.limit_s for w in self._active), default=self.max_period_s * 4)
        return max(0.005, min(self.max_period_s, shortest / 4))

    def _run(self) -> None:
        while not self._closed:
            self._wake.wait(self._period())
            self._wake.clear()
            now = time.perf_counter()
            with self._lock:
                late = [w for w in self._active if not w.fired and now - w.last > w.limit_s]
            for w in late:
                w.fired = True
                try:
                    w.sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass  # already closed
