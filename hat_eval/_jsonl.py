"""JSON Lines: the one reader (and writer) of every ``.jsonl`` file the project reads.

Answers, the labelled corpus, labels and judge scores, IFEval prompts and responses, load-test
records and prompts, trainer prompts: all are read by :func:`read_jsonl` (or, for text already in
memory, :func:`parse_jsonl`), so every bad line reads the same way, as one line naming the file
and the line::

    answers.jsonl:7: not valid JSON (Expecting ',' delimiter at column 31), expected one JSON
    object per line

A caller with an error type of its own converts :class:`JsonlError` to it
(``raise AnswerFileError(str(err)) from None``), which keeps the message.
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

EXPECTED_LINE = "expected one JSON object per line"
"""The rule every line-level message ends with."""

_JSON_KINDS = {list: "array", str: "string", int: "number", float: "number", bool: "boolean"}


class JsonlError(ValueError):
    """A JSONL file or line that cannot be read.

    ``str()`` is one line, ``FILE:LINE: what is wrong, expected ...`` (``FILE: ...`` when the
    problem is the whole file, e.g. a missing one).

    Attributes:
        path: The file (or the name given for text read from elsewhere).
        line: The 1-based line number, or ``None`` for a problem with the whole file.
        message: What is wrong and what was expected, without the place.
    """

    def __init__(self, path: str | os.PathLike[str], line: int | None, message: str) -> None:
        super().__init__(os.fspath(path), line, message)
        self.path = os.fspath(path)
        self.line = line
        self.message = message

    def __str__(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        return f"{where}: {self.message}"


def read_jsonl(
    path: str | os.PathLike[str],
    *,
    what: str = "records",
    skip_cut_tail: bool = False,
    on_error: Callable[[JsonlError], None] | None = None,
) -> Iterator[tuple[int, dict[str, Any]]]:
    r"""Stream ``(line number, object)`` for every non-blank line of a JSONL file.

    The file is UTF-8, with or without a byte-order mark; lines end with ``\n`` (a ``\r``
    before it is whitespace). Blank lines are skipped but counted, so the numbers are the
    lines an editor shows. The file is read a line at a time, never whole. Lines are split on
    ``\n`` only, so a JSON string holding U+2028 or another Unicode line break stays one line.

    Args:
        path: The file.
        what: What the file holds (``answers``, ``IFEval prompts``), for the message when the
            file is missing or unreadable.
        skip_cut_tail: Skip a last line without its newline, as a writer killed mid-line leaves
            it (a file that other processes append to while it is read).
        on_error: Called with the error of each bad line (not UTF-8, not JSON, not an object),
            which is then skipped and the reading goes on; ``None`` raises it instead.

    Raises:
        JsonlError: The file is missing or unreadable, or (without ``on_error``) a line is not
            UTF-8, not valid JSON, or not a JSON object; raised when iteration reaches it.
    """
    try:
        f = open(path, "rb")  # closed by the with below
    except FileNotFoundError:
        raise JsonlError(path, None, f"no such file, expected a JSONL file of {what}") from None
    except OSError as err:
        raise JsonlError(
            path, None, f"cannot read it ({err.strerror or err}), expected a JSONL file of {what}"
        ) from None
    with f:
        lines = itertools.takewhile(lambda raw: not skip_cut_tail or raw.endswith(b"\n"), f)
        yield from parse_jsonl(lines, path, on_error=on_error)


def _decode(raw: bytes, path: str | os.PathLike[str], number: int) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise JsonlError(
            path,
            number,
            f"not UTF-8 ({err.reason} at byte {err.start + 1} of the line), "
            "expected a UTF-8 JSONL file",
        ) from None


def parse_jsonl(
    lines: Iterable[str | bytes],
    source: str | os.PathLike[str],
    *,
    on_error: Callable[[JsonlError], None] | None = None,
) -> Iterator[tuple[int, dict[str, Any]]]:
    """Like :func:`read_jsonl`, for JSONL text already in memory, one string (or bytes) a line.

    ``source`` names the text in messages (a file name, ``<stdin>``). A byte-order mark at the
    start of the first line is dropped; blank lines are skipped but counted. ``on_error`` as
    for :func:`read_jsonl`.

    Raises:
        JsonlError: (without ``on_error``) A line that is not UTF-8, not valid JSON or not a JSON
            object.
    """
    for number, line in enumerate(lines, start=1):
        try:
            text = _decode(line, source, number) if isinstance(line, bytes) else line
            row = _parse_line(text.removeprefix("\ufeff") if number == 1 else text, source, number)
        except JsonlError as err:
            if on_error is None:
                raise
            on_error(err)
            continue
        if row is not None:
            yield number, row


def _parse_line(text: str, source: str | os.PathLike[str], number: int) -> dict[str, Any] | None:
    """The object on one line; ``None`` for a blank line."""
    if not text.strip():
        return None
    try:
        row = json.loads(text)
    except json.JSONDecodeError as err:
        raise JsonlError(
            source, number, f"not valid JSON ({err.msg} at column {err.colno}), {EXPECTED_LINE}"
        ) from None
    if not isinstance(row, dict):
        kind = "null" if row is None else _JSON_KINDS.get(type(row), type(row).__name__)
        raise JsonlError(source, number, f"a JSON {kind}, not an object, {EXPECTED_LINE}")
    return row


def jsonl_text(rows: Iterable[Mapping[str, Any]]) -> str:
    r"""``rows`` as strict JSONL text: one object a line, UTF-8 as is, ``\n`` ends.

    Strict: a NaN or infinity anywhere raises ``ValueError`` (``allow_nan=False``), since strict
    JSON parsers reject them; write ``None`` (``null``) for an undecided number.
    """
    return "".join(json.dumps(row, ensure_ascii=False, allow_nan=False) + "\n" for row in rows)


def write_jsonl(path: str | os.PathLike[str], rows: Iterable[Mapping[str, Any]]) -> Path:
    r"""Write ``rows`` as JSONL: one object a line, UTF-8 (``ensure_ascii=False``), ``\n`` ends.

    The folder is created when missing; an existing file is replaced. Returns the path.
    """
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", encoding="utf-8", newline="\n") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    return out
