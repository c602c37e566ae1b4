"""How a config field carries its option: help, bounds, default, flag, and its JSON reading."""

from __future__ import annotations

import types
import typing
from collections.abc import Callable
from dataclasses import MISSING, field, fields, is_dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "ConfigError",
    "coerce",
    "option_default",
    "option_flag",
    "option_help",
    "option_min",
    "option_secret",
]


class ConfigError(ValueError):
    """An option value that breaks a rule; the message gives the value, the rule and the fix."""


def _opt(
    default: Any = MISSING,
    help: str = "",  # noqa: A002 - the metadata key TRL and argparse use
    *,
    min: float | None = None,  # noqa: A002 - an int for int fields
    locust: bool = False,
    secret: bool = False,
    default_factory: Callable[[], Any] | None = None,
) -> Any:
    """A dataclass field with its help text, lower bound and where it appears.

    Args:
        default: The default value (none: required).
        help: One line for ``--help``, the Locust web UI and the docs.
        min: The smallest allowed value, checked in ``__post_init__`` and by the CLI.
        locust: The Locust processes use it, so a manual Locust run takes it as an option.
        secret: Never written into ``config.json`` (see :data:`API_KEY_ENV`).
        default_factory: For mutable defaults.
    """
    meta = {"help": help, "min": min, "locust": locust, "secret": secret}
    if default_factory is not None:
        return field(default_factory=default_factory, metadata=meta)
    return field(default=default, metadata=meta)


def _check_bounds(obj: Any) -> None:
    for f in fields(obj):
        low, value = f.metadata.get("min"), getattr(obj, f.name)
        if low is not None and isinstance(value, int | float) and not value >= low:
            raise ConfigError(f"{f.name} ({value:g}) must be at least {low:g}")


def _field(cls: type, name: str) -> Any:
    for f in fields(cls):
        if f.name == name:
            return f
    raise KeyError(f"{cls.__name__} has no field {name!r}")


def option_help(cls: type, name: str) -> str:
    """The help text of field ``name`` of config class ``cls``."""
    return str(_field(cls, name).metadata["help"])


def option_min(cls: type, name: str) -> Any:
    """The lower bound of field ``name``, an ``int`` or ``float`` (``None``: unbounded)."""
    return _field(cls, name).metadata.get("min")


def option_secret(cls: type, name: str) -> bool:
    """Whether field ``name`` is a secret, never written into ``config.json``."""
    return bool(_field(cls, name).metadata.get("secret"))


def option_default(cls: type, name: str) -> Any:
    """The default of field ``name``.

    Raises:
        KeyError: The field is required (it has no default).
    """
    f = _field(cls, name)
    if f.default is not MISSING:
        return f.default
    if f.default_factory is not MISSING:
        return f.default_factory()
    raise KeyError(f"{cls.__name__}.{name} is required; it has no default")


def option_flag(name: str) -> str:
    """The command-line flag of a field: ``stall_timeout_s`` -> ``--stall-timeout``.

    A trailing ``_s`` (the unit, seconds) is dropped: the help text names the unit.
    """
    stem = name[:-2] if name.endswith("_s") else name
    return "--" + stem.replace("_", "-")


def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _base(tp: Any) -> Any:
    """``X | None`` -> ``X``."""
    if isinstance(tp, types.UnionType) or typing.get_origin(tp) is typing.Union:
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if len(args) == 1:
            return args[0]
    return tp


def coerce(tp: Any, value: Any, name: str) -> Any:
    """``value`` (from JSON or a Locust form field) as type ``tp``.

    Raises:
        ConfigError: The value cannot be read as ``tp``.
    """
    if value is None:
        return None
    base = _base(tp)
    try:
        if base is bool:
            if isinstance(value, str) and value.lower() in ("true", "false"):
                return value.lower() == "true"
            if isinstance(value, bool):
                return value
            raise ValueError(value)
        if base is int:
            if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
                raise ValueError(value)
            return int(value)
        if base is float:
            if isinstance(value, bool):
                raise ValueError(value)
            return float(value)
        if base is str:
            if not isinstance(value, str):
                raise ValueError(value)
            return value
        if base is Path:
            if not isinstance(value, str | Path):
                raise ValueError(value)
            return Path(value)
    except (TypeError, ValueError):
        raise ConfigError(
            f"{name} ({value!r}) is not a {getattr(base, '__name__', base)}"
        ) from None
    if typing.get_origin(base) is tuple:
        (item, _dots) = typing.get_args(base)
        if not isinstance(value, list | tuple):
            raise ConfigError(f"{name} ({value!r}) must be a list")
        return tuple(coerce(item, v, f"{name}[{i}]") for i, v in enumerate(value))
    if typing.get_origin(base) is dict:
        if not isinstance(value, dict):
            raise ConfigError(f"{name} ({value!r}) must be an object")
        return dict(value)
    if is_dataclass(base) and isinstance(base, type):
        if not isinstance(value, dict):
            raise ConfigError(f"{name} must be an object, got {value!r}")
        return _from_json(base, value, f"{name}.")
    raise TypeError(f"no JSON reading for {name}: {tp}")  # a field type this module lacks


def _to_json(obj: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in fields(obj):
        if f.metadata.get("secret"):
            continue
        value = getattr(obj, f.name)
        if is_dataclass(value) and not isinstance(value, type):
            value = _to_json(value)
        elif isinstance(value, Path):
            value = str(value)
        elif isinstance(value, tuple):
            value = list(value)
        out[f.name] = value
    return out


def _from_json(cls: type, data: dict[str, Any], prefix: str) -> Any:
    hints = _hints(cls)
    names = {f.name for f in fields(cls)}
    unknown = sorted(set(data) - names)
    if unknown:
        raise ConfigError(
            f"unknown field {prefix}{unknown[0]}; the fields are {', '.join(sorted(names))}"
        )
    kwargs = {k: coerce(hints[k], v, prefix + k) for k, v in data.items()}
    missing = [
        f.name
        for f in fields(cls)
        if f.name not in kwargs and f.default is MISSING and f.default_factory is MISSING
    ]
    if missing:
        raise ConfigError(f"missing field {prefix}{missing[0]}")
    return cls(**kwargs)
