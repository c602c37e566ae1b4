"""One error type for everything wrong with a harness file."""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError

from hat_eval._fields import key_part


class HarnessError(ValueError):
    """A harness file is unreadable or invalid.

    ``str(err)`` is the one line the CLI prints: ``FILE: field.path: what is wrong, what was
    expected``.
    """

    def __init__(self, source: str, field: str, message: str) -> None:
        self.source = source
        self.field = field
        self.message = message
        super().__init__(f"{source}: {field}: {message}")


def read_text(path: Path, what: str) -> str:
    """The UTF-8 text of a file of the harness layer; missing or unreadable: ``<file>`` error."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise HarnessError(str(path), "<file>", f"no such file, expected {what}") from None
    except (OSError, UnicodeDecodeError) as err:
        raise HarnessError(
            str(path), "<file>", f"cannot read ({err}), expected a UTF-8 text file"
        ) from None


def from_validation_error(source: str, err: ValidationError) -> HarnessError:
    """The first problem of a pydantic ``ValidationError`` as a ``HarnessError``."""
    first = err.errors(include_url=False)[0]
    message = str(first["msg"])
    for prefix in ("Value error, ", "Assertion failed, "):
        if message.startswith(prefix):
            message = message[len(prefix) :]
    loc = list(first["loc"])
    # Our model validators raise with a dotted path of their own: "tools.3.name|message".
    if "|" in message:
        sub, message = message.split("|", 1)
        loc = [*loc, *sub.split(".")] if sub else loc
    elif first["type"] == "missing":
        message = "field required, expected it to be present"
    elif first["type"] == "extra_forbidden":
        message = "unknown field, expected only the fields the harness schema defines"
    elif "input" in first and first["type"] not in ("value_error", "assertion_error"):
        message = f"{message} (got {first['input']!r})"
    return HarnessError(source, ".".join(key_part(part) for part in loc) or "<root>", message)
