"""Helpers every command shares: one-line errors with exit code 2, progress bars."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NoReturn

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

BAD_INPUT = 2
"""Exit code for bad input (a file, a field, an option): the convention of typer and argparse."""

console = Console(width=None if sys.stdout.isatty() else 160)
err_console = Console(stderr=True, soft_wrap=True, highlight=False)


def fail(message: str, code: int = BAD_INPUT) -> NoReturn:
    """Print one error line to stderr and exit with ``code``."""
    err_console.print(f"error: {message}", markup=False)
    raise typer.Exit(code)


@contextmanager
def progress(description: str, total: int) -> Iterator[Progress]:
    """A rich progress bar on stderr; the task id of the bar is ``0``."""
    bar = Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err_console,
        transient=False,
    )
    with bar:
        bar.add_task(description, total=total)
        yield bar
