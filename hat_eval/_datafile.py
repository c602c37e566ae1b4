"""The one reader of the package's YAML content files: parse, validate, fail in one line.

Word lists, message templates and keyword tables are YAML package data (``world/templates/``,
``hsa/banks/``, ``baselines/vocab/``); each kind has a pydantic model of its files and a cached
accessor that calls :func:`load_model` on first use. Nothing is read at import time.

A file that does not fit its model raises :class:`DataFileError`, whose message is one line:
the file, the key path inside it, what was wrong and what was expected, e.g.
``.../templates/en.yaml: price[3]: unknown slot {prise}; expected one of a, attr, b, ...``.
The command line prints that line and exits with status 2.
"""

from __future__ import annotations

from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ConfigDict, ValidationError

from hat_eval._fields import key_part

try:  # the C loader is ~10x faster; fall back to pure Python where libyaml is missing
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

M = TypeVar("M", bound=BaseModel)

DataPath = Path | Traversable
"""A data file: a path, or a package resource (``importlib.resources.files(...)``)."""


class DataFileError(ValueError):
    """A package data file that does not fit its schema (one line: file, key path, problem).

    Attributes:
        file: The file, as given to the loader.
        key: The key path inside it (``price[3]``, ``compliance.medical``); ``""`` for the
            whole file.
    """

    def __init__(self, file: DataPath | str, key: str, problem: str) -> None:
        self.file = str(file)
        self.key = key
        where = f"{self.file}: {key}" if key else self.file
        super().__init__(f"{where}: {problem}")


class DataModel(BaseModel):
    """Base of the data files' models: no unknown keys, no type coercion, immutable."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


def key_path(loc: tuple[int | str, ...]) -> str:
    """``("compliance", "medical", 3)`` -> ``compliance.medical[3]``."""
    out = ""
    for part in loc:
        out += (
            f"[{part}]"
            if isinstance(part, int)
            else (f".{key_part(part)}" if out else key_part(part))
        )
    return out


class _UniqueKeys(_Loader):
    """The safe loader, refusing a key said twice in one mapping.

    YAML keeps the last silently, so the first entry's forms would be lost without a word.
    """

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        first: dict[Any, int] = {}
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if not isinstance(key, str):
                continue
            if key in first:
                raise yaml.constructor.ConstructorError(
                    None,
                    None,
                    f"duplicate key {key!r} (first at line {first[key]}); merge the two entries",
                    key_node.start_mark,
                )
            first[key] = key_node.start_mark.line + 1
        return super().construct_mapping(node, deep=deep)


def parse_yaml(text: str) -> Any:
    """``text`` parsed with PyYAML's safe loader (its C build where there is one).

    A key said twice in one mapping is an error.
    """
    return yaml.load(text, Loader=_UniqueKeys)  # noqa: S506 - a safe loader


def yaml_problem(err: yaml.YAMLError) -> tuple[int | None, str]:
    """Where a YAML syntax error is (its 1-based line, None when PyYAML gives none) and what."""
    mark = getattr(err, "problem_mark", None)
    problem = getattr(err, "problem", None) or str(err).splitlines()[0]
    return (mark.line + 1 if mark is not None else None), problem


def read_yaml(path: DataPath) -> Any:
    """The parsed YAML of ``path``; a syntax error or a missing file is one line."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise DataFileError(path, "", f"cannot be read ({err.strerror or err})") from None
    try:
        return parse_yaml(text)
    except yaml.YAMLError as err:
        line, problem = yaml_problem(err)
        where = f"line {line}" if line is not None else ""
        raise DataFileError(path, where, f"is not valid YAML ({problem}); fix the syntax") from None


def load_model(path: DataPath, model: type[M]) -> M:
    """Read ``path`` and validate it as ``model``; the first problem is one line.

    Raises:
        DataFileError: The file is missing, is not YAML, or does not fit ``model`` (a missing
            key, an unknown key, an empty list, a wrong type, a failed check).
    """
    data = read_yaml(path)
    try:
        return model.model_validate(data)
    except ValidationError as err:
        first = err.errors(include_url=False)[0]
        more = len(err.errors()) - 1
        problem = first["msg"].removeprefix("Value error, ")
        if first["type"] == "missing":
            problem = "missing; add this key"
        elif first["type"] == "extra_forbidden":
            known = ", ".join(model.model_fields) if len(first["loc"]) == 1 else ""
            problem = "unknown key" + (f"; expected one of {known}" if known else "")
        elif first["type"] == "too_short" and not first["input"]:
            problem = "empty; expected at least one entry"
        elif first["type"] == "string_too_short":
            problem = "empty; expected some text"
        elif first["type"] not in ("value_error", "assertion_error"):
            got = repr(first["input"])
            problem = f"{problem}, got {got if len(got) <= 60 else got[:57] + '...'}"
        if more:
            problem += f" (and {more} more problem{'s' if more > 1 else ''})"
        raise DataFileError(path, key_path(tuple(first["loc"])), problem) from None
