"""What every harness model shares: identifiers, the fault kinds, a frozen base and field checks."""

from __future__ import annotations

import string
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict

__all__ = [
    "FAULT_KINDS",
    "FaultKind",
    "IDENTIFIER",
    "one_of",
    "only_placeholders",
    "placeholders",
]


IDENTIFIER = r"^[A-Za-z_][A-Za-z0-9_\-]{0,63}$"
"""Tool names, skill ids, block ids and constraint names: what function-calling APIs accept."""

FaultKind = Literal[
    "timeout", "server_error", "malformed", "partial", "empty", "schema_drift", "slow"
]
"""Every fault a tool call can suffer: the one list of fault kinds in hat-eval.

The harness owns it because it is the lowest layer that names faults (``RetryPolicy.retry_on``);
the world's fault injector and the suites' datasets derive theirs from :data:`FAULT_KINDS`.
"""

FAULT_KINDS: tuple[FaultKind, ...] = get_args(FaultKind)
"""The fault kinds in their fixed order (the order datasets cycle through them)."""

_FORMATTER = string.Formatter()


def placeholders(text: str) -> list[str]:
    """The ``{name}`` placeholders in a block text, in order of appearance."""
    return [field for _, field, _, _ in _FORMATTER.parse(text) if field]


def only_placeholders(value: str, *allowed: str) -> str:
    """``value`` when it is a template using only the ``allowed`` placeholders, else the error."""
    names = [f"{{{name}}}" for name in allowed]
    try:
        used = set(placeholders(value))
    except ValueError as err:
        raise ValueError(f"{err}, expected text with {', '.join(names)}") from None
    if not used <= set(allowed):
        raise ValueError(
            f"placeholders {sorted(used - set(allowed))} are unknown, expected only "
            f"{', '.join(names[:-1])} and {names[-1]}"
        )
    return value


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


def one_of(value: Any, allowed: tuple[str, ...], what: str) -> Any:
    """``value`` when it is one of ``allowed``, else the error that names them.

    A field validator's check of a closed list, before pydantic's own less readable one.
    """
    if value not in allowed:
        raise ValueError(f"unknown {what} {value!r}, expected one of {', '.join(allowed)}")
    return value


def _check_unique(path: str, values: list[str], what: str, field: str | None = None) -> None:
    seen: dict[str, int] = {}
    for i, value in enumerate(values):
        if value in seen:
            where = f"{path}.{i}.{field}" if field else f"{path}.{i}"
            raise ValueError(
                f"{where}|duplicated {what} {value!r} (first at {path}.{seen[value]}), "
                f"expected each {what} once"
            )
        seen[value] = i


def _fmt_number(value: int | float) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
