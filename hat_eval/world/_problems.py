"""One problem of a file a user writes (a shop, a cases file, a CSV table): a typed record.

Every reader of those files reports a :class:`Problem` (file, line, record, field, what is
wrong, what was expected); ``str()`` is the one line the commands print::

    shop/skus.jsonl:3 (S-1): product_id: 'P9' is not a product, expected the id of a record
    in products.jsonl
"""

from __future__ import annotations

from dataclasses import dataclass

from hat_eval._jsonl import JsonlError


@dataclass(frozen=True)
class Problem:
    """Where a file is wrong, what is wrong there and what was expected.

    ``str()``: ``FILE[:LINE][ (RECORD)]: [FIELD: ]WHAT, expected EXPECTED[GIVEN]``; without
    ``what`` the rule comes first (``price: expected a valid number (got 'x')``), without
    ``expected`` the line ends with ``what``.

    Attributes:
        file: The file (as the reader was given it, or inside the folder it was given).
        what: What is wrong (may be empty when ``given`` says it).
        expected: What was expected (the rule and, where there is one, the fix).
        line: The 1-based line (a CSV file's row), or None for the whole file.
        record: The record's key (``P0042``, ``row 7``), or None.
        field: The field, dotted for a nested one (``session.product_on_screen``), or None.
        given: The value given, shown after the rule (`` (got 'x')``), or empty.
    """

    file: str
    what: str
    expected: str = ""
    line: int | None = None
    record: str | None = None
    field: str | None = None
    given: str = ""

    @property
    def where(self) -> str:
        """``FILE[:LINE][ (RECORD)]``."""
        line = f":{self.line}" if self.line is not None else ""
        record = f" ({self.record})" if self.record is not None else ""
        return f"{self.file}{line}{record}"

    def __str__(self) -> str:
        rule = f"expected {self.expected}" if self.expected else ""
        body = ", ".join(x for x in (self.what, rule) if x)
        field = f"{self.field}: " if self.field is not None else ""
        return f"{self.where}: {field}{body}{self.given}"


def split_rule(message: str) -> tuple[str, str]:
    """``"WHAT, expected RULE"`` as ``(WHAT, RULE)``; ``(message, "")`` without a rule."""
    what, sep, rule = message.partition(", expected ")
    if sep:
        return what, rule
    if message.startswith("expected "):
        return "", message.removeprefix("expected ")
    return message, ""


def jsonl_problem(err: JsonlError) -> Problem:
    """A :class:`~hat_eval._jsonl.JsonlError` (a bad line or file) as a :class:`Problem`."""
    what, expected = split_rule(err.message)
    return Problem(err.path, what, expected, line=err.line)
