"""One line for a typed record that does not fit: ``field <path>: got ..., expected ...``.

Every reader of a file users write (answer lines, label rows) validates it with a pydantic model
and turns the first problem into this line, so all of them read alike. A field's ``expected``
is its ``Field(description=...)``; a model's ``what`` ClassVar says what one item of a list of
it is. Union members picked by a ``Discriminator`` are tagged with names that start with ``_``,
which are left out of the path.
"""

from __future__ import annotations

import json
import math
from typing import Any, get_args

from pydantic import BaseModel, ValidationError

__all__ = ["describe", "field_problem", "key_part"]


def key_part(part: int | str) -> str:
    """One part of a key path as an error line shows it (a control character escaped, quoted)."""
    text = str(part)
    return text if text.isprintable() else repr(text)


def field_problem(err: ValidationError, model: type[BaseModel]) -> str:
    """The first problem of ``err`` as ``field <path>: what was wrong, expected ...``."""
    first = err.errors(include_url=False)[0]
    loc = [p for p in first["loc"] if not str(p).startswith("_")]
    message = str(first["msg"]).removeprefix("Value error, ")
    kind = first["type"]
    if "|" in message:  # a model validator naming its own field: "name|what, expected ..."
        sub, message = message.split("|", 1)
        loc = [*loc, sub]
    where = ".".join(key_part(p) for p in loc) or "<line>"
    if kind == "value_error":
        return f"field {where}: {message}"
    expected = _expected(model, loc)
    if kind == "missing":
        return f"field {where}: missing, expected {expected}"
    if kind == "extra_forbidden":
        fields = ", ".join(_model_at(model, loc[:-1]).model_fields)
        return f"field {where}: unknown field, expected only {fields}"
    got = describe(first.get("input"))
    return f"field {where}: got {got}, expected {expected}"


def _model_at(model: type[BaseModel], loc: list[Any]) -> type[BaseModel]:
    """The model that holds the field at the end of ``loc``."""
    current = model
    for part in loc:
        if not isinstance(part, str) or part not in current.model_fields:
            continue
        nested = _models_in(current.model_fields[part].annotation)
        if nested:
            current = nested[0]
    return current


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [m for arg in get_args(annotation) for m in _models_in(arg)]


def _expected(model: type[BaseModel], loc: list[Any]) -> str:
    """What the field at ``loc`` expects, from its description."""
    names = [p for p in loc if isinstance(p, str)]
    if not names:
        return f"an object, {getattr(model, 'what', 'as documented')}"
    holder = _model_at(model, loc[: max(i for i, p in enumerate(loc) if isinstance(p, str))])
    field = holder.model_fields.get(names[-1])
    if field is None or not field.description:
        return "a value of the documented shape"
    if isinstance(loc[-1], int) and len(get_args(field.annotation)) == 1:
        choices = get_args(get_args(field.annotation)[0])  # list[Literal[...]]: one of them
        if choices and all(isinstance(c, str) for c in choices):
            return "one of " + ", ".join(choices)
    items = _models_in(field.annotation)
    if isinstance(loc[-1], int) and items:
        return f"an object, {getattr(items[0], 'what', 'as documented')}"
    return field.description


def describe(value: Any) -> str:
    """``value`` as a user reads it: its JSON kind and a short form."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"the boolean {json.dumps(value)}"
    if isinstance(value, int | float):
        text = "NaN" if isinstance(value, float) and math.isnan(value) else repr(value)
        return f"the number {text}"
    if isinstance(value, str):
        return f"the text {value if len(value) <= 40 else value[:40] + '...'!r}"
    kind = "an object" if isinstance(value, dict) else "a list"
    try:
        text = json.dumps(value, ensure_ascii=False)
    except ValueError:
        text = repr(value)
    return f"{kind} {text[:40] + '...' if len(text) > 40 else text}"
