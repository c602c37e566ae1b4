"""Outputs a command writes: checked before the work starts, written atomically, never lost.

Every ``--out`` / ``--log-dir`` goes through this module:

- :func:`check_output_file` and :func:`check_output_dir` run *before* any work. They resolve the
  path, create missing parent folders (or, with ``create=False``, check that they could be
  created, so that bad input found later leaves nothing behind), and raise
  :class:`OutputError` (one line: the option, the path, what is wrong, what to do) when the
  path is a folder where a file is expected (or the reverse), cannot be written, or is one of
  the command's inputs.
- :func:`write_text_atomic` writes through a temporary file beside the target and renames it,
  so a reader never sees half a file and a failure leaves the old file as it was.
- :func:`save_text` is what a command calls once the work is done: it writes atomically and, if
  the target still cannot be written (the disk filled up meanwhile), writes the same text to a
  fallback file in the system's temporary folder and raises :class:`OutputError` naming both, so
  finished work is never lost. :func:`save_files` does the same for the several files a command
  writes into one folder (a report's page and plots): all of them go to a fallback folder.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import NoReturn

__all__ = [
    "OutputError",
    "check_output_dir",
    "check_output_file",
    "save_files",
    "save_text",
    "save_with",
    "write_bytes_atomic",
    "write_text_atomic",
]

PathLike = str | os.PathLike[str]


class OutputError(ValueError):
    """An output that cannot be written; ``str()`` is one line naming the option and the path."""


def _same(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve() or (a.exists() and b.exists() and a.samefile(b))
    except OSError:
        return False


def _refuse_inputs(path: Path, option: str, inputs: Iterable[tuple[str, PathLike]]) -> None:
    for name, given in inputs:
        if _same(path, Path(given)):
            raise OutputError(
                f"{option} {path}: the same file as {name}, which this command reads; "
                f"choose another {option} so the input is not overwritten"
            )


def _existing_parent(folder: Path, option: str, path: Path) -> Path | None:
    """The nearest of ``folder`` and its parents that exists, refused unless it is a folder."""
    parent = next((p for p in (folder, *folder.parents) if p.exists()), None)
    if parent is not None and not parent.is_dir():
        raise OutputError(
            f"{option} {path}: {parent} is a file, expected a folder; choose another {option}"
        )
    return parent


def _ready(folder: Path, option: str, path: Path, create: bool) -> None:
    """``folder`` created and writable; missing without ``create``: only checked creatable."""
    parent = _existing_parent(folder, option, path)
    if not create and not folder.is_dir():
        if parent is not None and parent != folder:
            _probe_writable(parent, option, path, creating=folder)
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise OutputError(
            f"{option} {path}: cannot create the folder {folder} ({err.strerror or err}); "
            f"choose a writable {option}"
        ) from None
    _probe_writable(folder, option, path)


def _probe_writable(folder: Path, option: str, path: Path, creating: Path | None = None) -> None:
    try:
        fd, probe = tempfile.mkstemp(prefix=".hat-eval-probe-", dir=folder)
    except OSError as err:
        what = f"create the folder {creating}" if creating is not None else f"write in {folder}"
        raise OutputError(
            f"{option} {path}: cannot {what} ({err.strerror or err}); choose a writable {option}"
        ) from None
    os.close(fd)
    os.unlink(probe)


def check_output_file(
    path: PathLike,
    *,
    option: str = "--out",
    inputs: Iterable[tuple[str, PathLike]] = (),
    create: bool = True,
) -> Path:
    """The resolved output file ``path``, its folder created, or :class:`OutputError`.

    Args:
        path: Where the command will write one file.
        option: The option's name, for the message.
        inputs: ``(name, path)`` of the files the command reads; the output may not be one.
        create: Create a missing folder now; if False, only check that it could be created
            (the nearest existing folder above it is writable), so a command that then stops
            on bad input leaves nothing behind; the save functions create it.

    Refused: a folder; a file whose folder cannot be created or written; one of ``inputs``.
    """
    out = Path(path).expanduser()
    if out.is_dir():
        raise OutputError(f"{option} {out}: a folder, expected a file path; name a file in it")
    _refuse_inputs(out, option, inputs)
    folder = out.parent if str(out.parent) else Path(".")
    _ready(folder, option, out, create)
    if out.exists() and not os.access(out, os.W_OK):
        raise OutputError(f"{option} {out}: exists and is read-only; choose another {option}")
    return out.resolve()


def check_output_dir(
    path: PathLike,
    *,
    option: str = "--out",
    inputs: Iterable[tuple[str, PathLike]] = (),
    create: bool = True,
) -> Path:
    """The resolved output folder ``path``, created if missing, or :class:`OutputError`.

    Refused: a file; a folder that cannot be created or written; one of ``inputs``. With
    ``create=False`` a missing folder is only checked (see :func:`check_output_file`).
    """
    out = Path(path).expanduser()
    _refuse_inputs(out, option, inputs)
    if out.exists() and not out.is_dir():
        raise OutputError(f"{option} {out}: a file, expected a folder; choose another {option}")
    _ready(out, option, out, create)
    return out.resolve()


def write_text_atomic(path: PathLike, text: str, *, encoding: str = "utf-8") -> Path:
    """Write ``text`` to ``path`` through a temporary file beside it, renamed into place.

    The file gets the mode ``path`` had, or, for a new file, the one ``open(path, "w")`` gives
    (``0o666`` less the umask), not the temporary file's private ``0o600``.
    Raises ``OSError`` when it cannot; the temporary file is removed and ``path`` is unchanged.
    """
    return _write_atomic(path, text, encoding)


def write_bytes_atomic(path: PathLike, data: bytes) -> Path:
    """:func:`write_text_atomic` for bytes (an image)."""
    return _write_atomic(path, data)


def _umask() -> int:
    """The process's umask, read without changing it (Linux); else the usual ``0o022``."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    return 0o022


def _mode_for(out: Path) -> int:
    """The mode ``out`` keeps (if it exists) or a plain ``open(out, "w")`` would give it."""
    try:
        return stat.S_IMODE(out.stat().st_mode)
    except OSError:
        return 0o666 & ~_umask()


def _replace_atomically(out: Path, fill: Callable[[int, str], object]) -> Path:
    """Create a temporary file beside ``out``, let ``fill(fd, name)`` write it, rename it.

    On any failure the temporary file is removed and ``out`` is left as it was.
    """
    fd, tmp = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent or ".")
    try:
        fill(fd, tmp)
        os.replace(tmp, out)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return out


def _write_atomic(path: PathLike, data: str | bytes, encoding: str = "utf-8") -> Path:
    """Text (encoded, newlines kept as given) or bytes into ``path`` atomically."""
    out = Path(path)

    def fill(fd: int, _name: str) -> None:
        os.fchmod(fd, _mode_for(out))
        with os.fdopen(fd, "wb") as f:
            f.write(data if isinstance(data, bytes) else str.encode(data, encoding))
            f.flush()
            os.fsync(f.fileno())

    return _replace_atomically(out, fill)


def _kept_elsewhere(option: str, target: object, reason: str, keep: Callable[[], str]) -> NoReturn:
    """Raise :class:`OutputError`: ``target`` failed for ``reason``; ``keep()`` saved a copy.

    ``keep`` writes the fallback copy and returns where it is; if it fails too, the message
    says that instead.
    """
    try:
        fallback = keep()
    except OSError as err:
        raise OutputError(
            f"{option} {target}: could not be written ({reason}), nor a fallback copy "
            f"({err.strerror or err}); free some space and rerun"
        ) from None
    raise OutputError(
        f"{option} {target}: could not be written ({reason}); the results were saved to "
        f"{fallback} instead"
    )


def save_text(path: PathLike, text: str, *, option: str = "--out") -> Path:
    """Write ``text`` to ``path`` atomically; on failure keep it in a fallback file and say where.

    Returns the path written. If ``path`` cannot be written, the text goes to a new file in the
    system's temporary folder and :class:`OutputError` names the failure and that file; if even
    that fails, the message says so.
    """
    try:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        return write_text_atomic(path, text)
    except OSError as err:
        reason = err.strerror or str(err)
    name = Path(Path(path).name or "output")

    def keep() -> str:
        fd, fallback = tempfile.mkstemp(prefix=f"hat-eval-{name.stem}-", suffix=name.suffix)
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        return fallback

    _kept_elsewhere(option, path, reason, keep)


def save_files(
    folder: PathLike, files: Mapping[str, str | bytes], *, option: str = "--out"
) -> list[Path]:
    """Write each of ``files`` (name -> text or bytes) into ``folder``, each atomically.

    Returns the paths written, in the order given. If any cannot be written, all of them are
    written to a new folder in the system's temporary folder and :class:`OutputError` names the
    failure and that folder (or says that the fallback failed too).
    """
    target = Path(folder)
    try:
        target.mkdir(parents=True, exist_ok=True)
        return [_write_atomic(target / name, data) for name, data in files.items()]
    except OSError as err:
        reason = f"{err.strerror or err}" + (f": {err.filename}" if err.filename else "")

    def keep() -> str:
        fallback = Path(tempfile.mkdtemp(prefix=f"hat-eval-{target.name or 'out'}-"))
        for name, data in files.items():
            _write_atomic(fallback / name, data)
        return f"{fallback}/"

    _kept_elsewhere(option, target, reason, keep)


def save_with(path: PathLike, write: Callable[[Path], object], *, option: str = "--out") -> Path:
    """:func:`save_text` for a file another function writes: ``write(p)`` writes the file ``p``.

    ``write`` writes a temporary file beside ``path``, renamed into place; if that fails, it
    writes a new file in the system's temporary folder and :class:`OutputError` names it.
    """
    out = Path(path)

    def fill(fd: int, name: str) -> None:
        os.close(fd)
        write(Path(name))

    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        return _replace_atomically(out, fill)
    except OSError as err:
        reason = err.strerror or str(err)

    def keep() -> str:
        fd, fallback = tempfile.mkstemp(prefix=f"hat-eval-{out.stem}-", suffix=out.suffix)
        os.close(fd)
        write(Path(fallback))
        return fallback

    _kept_elsewhere(option, path, reason, keep)
