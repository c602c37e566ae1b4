"""Helpers every command shares: one-line errors (exit 2), outputs, progress bars, extras."""

from __future__ import annotations

import dataclasses
import inspect
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn, TypeVar, get_type_hints

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from hat_eval import _outputs

BAD_INPUT = 2
"""Exit code for bad input (a file, a field, an option): the convention of typer and argparse."""
FAILED = 1
"""Exit code for work that failed (a sample, a gate, an output that could not be written)."""
R = TypeVar("R")
OptionsT = TypeVar("OptionsT")

console = Console(width=None if sys.stdout.isatty() else 160)
err_console = Console(stderr=True, soft_wrap=True, highlight=False)


def options_command(
    options: type[OptionsT], run: Callable[[OptionsT], None]
) -> Callable[..., None]:
    """A typer command whose options are the fields of the dataclass ``options``.

    Each field's ``Annotated`` typer option and default is the command's, in order, and the
    dataclass's docstring its help: the options are written once, in the record ``run`` gets.
    """
    hints = get_type_hints(options, include_extras=True)

    def command(**params: Any) -> None:
        run(options(**params))

    kind, empty = inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.empty
    command.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [
            inspect.Parameter(f.name, kind, annotation=hints[f.name], default=default)
            for f in dataclasses.fields(options)  # type: ignore[arg-type]
            for default in [empty if f.default is dataclasses.MISSING else f.default]
        ]
    )
    command.__doc__ = options.__doc__
    return command


def fail(message: str, code: int = BAD_INPUT) -> NoReturn:
    """Print one error line to stderr and exit with ``code``."""
    err_console.print(f"error: {message}", markup=False)
    raise typer.Exit(code)


def warn(message: str) -> None:
    """Print one ``warning:`` line to stderr; the command goes on."""
    err_console.print(f"warning: {message}", markup=False)


def read_log(path: Path) -> Any:
    """The Inspect eval log at ``path``; exit 2 in one line when there is none or it is not one."""
    from inspect_ai.log import read_eval_log

    if not path.is_file():
        fail(f"{path}: no such log; expected an Inspect .eval or .json log file")
    try:
        return read_eval_log(str(path))
    except Exception as err:  # Inspect raises several kinds for a file that is not a log
        fail(f"{path}: not an Inspect eval log ({type(err).__name__}: {err})")


def input_file(help: str) -> Any:
    """A typer option naming a file to read: typer refuses a missing path or a folder (exit 2)."""
    return typer.Option(exists=True, dir_okay=False, help=help)


def need_extra(area: str) -> None:
    """Exit 2 in one line unless the optional extra ``area`` needs is installed.

    The line names the missing packages and the install command (:data:`hat_eval._extras.EXTRAS`).
    """
    from hat_eval._extras import missing_extra

    message = missing_extra(area)
    if message is not None:
        fail(message)


def extra_help(area: str) -> str:
    """The sentence a command's ``--help`` ends with: which extra it needs, how to install it."""
    from rich.markup import escape

    from hat_eval._extras import EXTRAS

    extra = EXTRAS[area]
    return f"Needs the {extra.name} extra: {escape(extra.install)}."


def _or_exit(code: int, write: Callable[[], R]) -> R:
    """``write()``, or its :class:`~hat_eval._outputs.OutputError` as one line and exit ``code``."""
    try:
        return write()
    except _outputs.OutputError as err:
        fail(str(err), code=code)


def output_dir(
    path: Path,
    option: str = "--out",
    inputs: Iterable[tuple[str, Path | str]] = (),
    *,
    create: bool = False,
) -> Path:
    """``path`` checked as an output folder before any work, or one line and exit 2.

    A missing folder is not created yet (a command that stops on bad input leaves nothing);
    the save functions create it. ``create``: made now, for a command that writes into it
    without them. See :func:`hat_eval._outputs.check_output_dir`; ``inputs`` are the files
    the command reads.
    """
    return _or_exit(
        BAD_INPUT,
        lambda: _outputs.check_output_dir(path, option=option, inputs=inputs, create=create),
    )


def output_file(
    path: Path, option: str = "--out", inputs: Iterable[tuple[str, Path | str]] = ()
) -> Path:
    """``path`` checked as an output file before any work (see :func:`output_dir`), or exit 2."""
    return _or_exit(
        BAD_INPUT,
        lambda: _outputs.check_output_file(path, option=option, inputs=inputs, create=False),
    )


def save(path: Path, text: str, option: str = "--out") -> Path:
    """Write ``text`` to ``path`` atomically once the work is done.

    If it cannot be written, the text is kept in a fallback file, and one line names both and
    exits 1 (:func:`hat_eval._outputs.save_text`).
    """
    return _or_exit(FAILED, lambda: _outputs.save_text(path, text, option=option))


def save_by(path: Path, write: Callable[[Path], object], option: str = "--out") -> Path:
    """:func:`save` for a file that ``write(p)`` writes (:func:`hat_eval._outputs.save_with`)."""
    return _or_exit(FAILED, lambda: _outputs.save_with(path, write, option=option))


def save_all(folder: Path, files: Mapping[str, str | bytes], option: str = "--out") -> list[Path]:
    """Write ``files`` (name -> text or bytes) into ``folder``; a fallback folder and exit 1 if not.

    See :func:`hat_eval._outputs.save_files`.
    """
    return _or_exit(FAILED, lambda: _outputs.save_files(folder, files, option=option))


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
