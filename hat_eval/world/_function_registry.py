"""The one table of tool implementations and the argument checks derived from the harness schemas.

:func:`implementation` registers a function id's implementation (an id must be one of
``hat_eval.harness.FUNCTIONS``); :data:`PARAMETERS` reads each function's parameters from the
default harness on first use; :func:`_check_args` checks a call's arguments against them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from hat_eval._cache import LazyMapping
from hat_eval.harness import FUNCTIONS, Harness, load_harness

from ._errors import ToolInputError
from ._kb import KnowledgeBase
from ._session import LiveSession

Result = dict[str, Any] | list[dict[str, Any]]

Implementation = Callable[[KnowledgeBase, LiveSession, dict[str, Any]], Result]


@dataclass(frozen=True)
class _Entry:
    run: Implementation
    maximum: dict[str, int] = field(default_factory=dict)


_REGISTRY: dict[str, _Entry] = {}
"""Function id -> its implementation, in registration (= source) order: the one table."""


def implementation(
    function_id: str, *, maximum: Mapping[str, int] | None = None
) -> Callable[[Implementation], Implementation]:
    """Register the decorated function as the implementation of ``function_id``.

    Args:
        function_id: an id of ``hat_eval.harness.FUNCTIONS``.
        maximum: argument -> the largest value the implementation accepts, where it is stricter
            than the default harness's schema for that argument (which states no maximum or a
            larger one). The schema still owns the argument's type, minimum and the rest.

    Raises:
        ValueError: an unknown or already registered function id.
    """
    if function_id not in FUNCTIONS:
        raise ValueError(
            f"function {function_id!r} is unknown, expected one of {', '.join(FUNCTIONS)} "
            "(add it to hat_eval.harness.FUNCTIONS first)"
        )

    def register(run: Implementation) -> Implementation:
        if function_id in _REGISTRY:
            raise ValueError(
                f"function {function_id!r} already has an implementation "
                f"({_REGISTRY[function_id].run.__name__}), expected one per function id"
            )
        _REGISTRY[function_id] = _Entry(run, dict(maximum or {}))
        return run

    return register


@dataclass(frozen=True)
class _Param:
    type: str  # "string" | "integer" | "string_array"
    required: bool = False
    enum: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None


def _param(where: str, schema: Any, required: bool, cap: int | None) -> _Param:
    kind = schema.get("type") if isinstance(schema, dict) else None
    if kind == "string" and cap is None:
        return _Param("string", required, enum=tuple(schema.get("enum", ())))
    if kind == "integer":
        top = schema.get("maximum")
        if cap is not None:
            top = cap if top is None else min(top, cap)
        return _Param("integer", required, minimum=schema.get("minimum"), maximum=top)
    if (
        kind == "array"
        and isinstance(schema.get("items"), dict)
        and schema["items"].get("type") == "string"
        and cap is None
    ):
        return _Param("string_array", required)
    if cap is not None:
        raise ValueError(
            f"{where}: maximum={cap} is set by the implementation, expected an integer"
        )
    raise ValueError(
        f"{where}: JSON schema {schema!r} is not supported by the argument checker, expected "
        "type string (optionally with enum), integer (optionally with minimum/maximum) or an "
        "array of strings"
    )


def parameters_of(harness: Harness) -> dict[str, dict[str, _Param]]:
    """Each implemented function's argument specs, read from the tool ``harness`` binds to it.

    Properties keep the schema's order (error messages list them in it). An implementation's
    ``maximum=`` tightens the schema's bound.

    Raises:
        ValueError: ``harness`` binds no tool to an implemented function, a property's schema
            is not one the checker supports, or a ``maximum=`` names no integer property.
    """
    out: dict[str, dict[str, _Param]] = {}
    for function_id, entry in _REGISTRY.items():
        tool = harness.tool_for(function_id)
        if tool is None:
            raise ValueError(
                f"harness {harness.name!r} binds no tool to function {function_id!r}, so its "
                f"parameters are unknown; expected a tool with `function: {function_id}`"
            )
        props: dict[str, Any] = tool.parameters.get("properties", {})
        missing = sorted(set(entry.maximum) - set(props))
        if missing:
            raise ValueError(
                f"tool {tool.name!r} ({function_id}) has no parameter(s) {', '.join(missing)} "
                f"that the implementation caps, expected one of: {', '.join(props) or 'none'}"
            )
        required = set(tool.parameters.get("required", []))
        out[function_id] = {
            name: _param(
                f"tool {tool.name!r} ({function_id}) parameter {name!r}",
                schema,
                name in required,
                entry.maximum.get(name),
            )
            for name, schema in props.items()
        }
    return out


@functools.cache
def _default_parameters() -> dict[str, dict[str, _Param]]:
    return parameters_of(load_harness(None))


PARAMETERS: Mapping[str, Mapping[str, _Param]] = LazyMapping(_default_parameters)
"""Function id -> argument name -> spec: the default harness's tool schemas (derived, lazily)."""


def _check_args(function_id: str, args: Any) -> dict[str, Any]:
    if not isinstance(args, dict):
        raise ToolInputError(
            f"arguments are a {type(args).__name__}, expected a JSON object of named arguments"
        )
    spec = PARAMETERS[function_id]
    unknown = sorted(set(args) - set(spec))
    if unknown:
        names = ", ".join(spec) or "none"
        raise ToolInputError(f"unknown argument(s) {', '.join(unknown)}, expected only: {names}")
    for name, p in spec.items():
        if name not in args or args[name] is None:
            if p.required:
                raise ToolInputError(f"missing required argument {name!r} ({p.type})")
            continue
        value = args[name]
        if p.type == "string":
            if not isinstance(value, str) or not value.strip():
                raise ToolInputError(
                    f"{name} is {value!r} ({type(value).__name__}), expected a non-empty string"
                )
            if p.enum and value not in p.enum:
                raise ToolInputError(
                    f"{name} {value!r} is not allowed, expected one of {', '.join(p.enum)}"
                )
        elif p.type == "integer":
            if isinstance(value, float) and value.is_integer():
                value = int(value)
                args = {**args, name: value}
            if isinstance(value, bool) or not isinstance(value, int):
                raise ToolInputError(
                    f"{name} is {value!r} ({type(value).__name__}), expected an integer"
                )
            if (p.minimum is not None and value < p.minimum) or (
                p.maximum is not None and value > p.maximum
            ):
                raise ToolInputError(
                    f"{name} {value} is out of range, expected {p.minimum} to {p.maximum}"
                )
        elif p.type == "string_array" and (
            not isinstance(value, list) or not all(isinstance(v, str) for v in value)
        ):
            raise ToolInputError(
                f'{name} is {value!r}, expected a list of strings such as ["LIVE20"]'
            )
    return args
