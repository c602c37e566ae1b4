"""The typed reader of one answer line, the input of ``hat-eval score``.

A line is ``{"id", "answer", "tool_calls": [...], "metadata": {...}}``. Each tool call is the
record the suites' own logs hold for it (:class:`~hat_eval.episode.CallRecord`: the tool,
its arguments, the outcome, the faults met, the attempts, the simulated backoff, the type of a
skill loaded) plus, when given, the ``result`` the agent got back; it may be written in the
project's shape (``name`` or ``function``, ``arguments`` as an object; an Inspect
``ToolCall`` dumped as it is reads so too) or in OpenAI's (``{"type": "function", "function":
{"name", "arguments": "<JSON text>"}}``, as an assistant message's ``tool_calls`` list holds
them), and all read the same.

Every problem is one line, ``FILE:LINE: field <path>: what was wrong, expected ...``:
:func:`parse_answer_line` raises :class:`AnswerFileError` with it.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    JsonValue,
    Tag,
    ValidationError,
    field_validator,
    model_validator,
)

from hat_eval._fields import describe, field_problem
from hat_eval.harness import FaultKind, SkillType

from ._runtime import CALL_OUTCOMES


class AnswerFileError(ValueError):
    """An answers line that cannot be scored; the message names the file, line and field."""


def _kind(value: Any) -> str:
    """The JSON kind of ``value`` (the union tag a discriminator picks): object, text or other."""
    if isinstance(value, dict):
        return "_object"
    return "_text" if isinstance(value, str) else "_other"


_BY_KIND = Discriminator(_kind, custom_error_type="kind", custom_error_message="wrong kind")


def _arguments(value: Any) -> dict[str, Any]:
    """Arguments as an object: a JSON object, or JSON text of one (OpenAI's form)."""
    if value is None:
        return {}
    if isinstance(value, dict):
        return value
    if not value.strip():
        return {}  # some OpenAI-compatible servers send "" for a call without arguments
    try:
        parsed = json.loads(value)
    except ValueError:
        parsed = value
    if not isinstance(parsed, dict):
        raise ValueError(
            f"got {describe(value)}, which is not a JSON object; expected a JSON "
            'object or its JSON text (\'{"product_id": "p1"}\')'
        )
    return parsed


_ARGUMENTS = (
    "the call's arguments: a JSON object, or its JSON text as OpenAI sends it "
    '(\'{"product_id": "p1"}\')'
)


Arguments = Annotated[
    Annotated[dict[str, JsonValue], Tag("_object")] | Annotated[str, Tag("_text")],
    _BY_KIND,
    AfterValidator(_arguments),
]
"""A call's arguments, given as an object or JSON text, read as an object (one error path
whatever is wrong)."""


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    what: ClassVar[str] = "as documented"
    """What one such object is, for a message about a list item that is not one."""


class OpenAIFunction(_Strict):
    """OpenAI's ``function`` of a tool call: the tool's name and its arguments."""

    name: str = Field(min_length=1, description="the tool's name (text)")
    arguments: Arguments | None = Field(None, description=_ARGUMENTS)


FunctionGiven = Annotated[
    Annotated[str, Tag("_text")] | Annotated[OpenAIFunction, Tag("_object")], _BY_KIND
]
"""A call's ``function``: a function id or tool name, or OpenAI's ``{name, arguments}``."""


class ToolCallLine(_Strict):
    """One tool call of an answer line: the call record a suite's log holds, and its result.

    Only the tool (``name`` or ``function``) is required; the rest defaults as for a call that
    went through at the first attempt (``outcome`` ``ok``, ``attempts`` 1, no fault).
    """

    what: ClassVar[str] = (
        "a tool call {name or function, arguments, outcome, ...} or OpenAI's "
        '{"type": "function", "function": {"name", "arguments"}}'
    )

    name: str | None = Field(
        None, min_length=1, description="the tool's name under the case's harness (text)"
    )
    function: FunctionGiven | None = Field(
        None,
        description="a function id or tool name (text), or OpenAI's {name, arguments} object",
    )
    arguments: Arguments | None = Field(None, description=_ARGUMENTS)
    outcome: str = Field("ok", description=f"one of {', '.join(CALL_OUTCOMES)}")
    attempts: int = Field(1, ge=1, description="how many times the call was tried (1 or more)")
    faults: list[FaultKind] = Field(
        default_factory=list, description="the fault kinds met on the way, a list of fault kinds"
    )
    backoff_s: float = Field(
        0.0, ge=0.0, allow_inf_nan=False, description="seconds waited between retries (>= 0)"
    )
    skill_type: SkillType | None = Field(
        None, description="the type of the skill a skill load loaded (reply or strategy)"
    )
    result: JsonValue = Field(
        None, description="what the call returned: its text, or the JSON value (any)"
    )
    id: str | None = Field(None, description="the call's id (text; OpenAI's call_...)")
    type: Literal["function"] | None = Field(None, description='"function" (OpenAI\'s)')
    index: int | None = Field(None, description="the call's index (a number)")
    parse_error: str | None = Field(None, description="Inspect's parse error (text; not used)")
    view: JsonValue = Field(None, description="Inspect's view of the call (not used)")

    @field_validator("outcome")
    @classmethod
    def _outcome(cls, value: str) -> str:
        if value not in CALL_OUTCOMES:
            raise ValueError(f"got {describe(value)}, expected one of {', '.join(CALL_OUTCOMES)}")
        return value

    @model_validator(mode="after")
    def _consistent(self) -> ToolCallLine:
        if isinstance(self.function, OpenAIFunction):
            if self.arguments is not None:
                raise ValueError(
                    "arguments|given twice, here and in function.arguments; expected them once"
                )
            if self.name is not None and self.name != self.function.name:
                raise ValueError(
                    f"name|{self.name!r} but function.name is {self.function.name!r}; "
                    "expected one tool name"
                )
        elif not (self.name or self.function):
            raise ValueError(
                "name|missing, expected the tool's 'name' or 'function' (OpenAI's "
                '{"function": {"name", "arguments"}} works too)'
            )
        if len(self.faults) > self.attempts:
            raise ValueError(
                f"faults|{len(self.faults)} faults in {self.attempts} attempts; expected at "
                f"most one fault per attempt (attempts >= {len(self.faults)})"
            )
        return self

    @property
    def tool(self) -> str:
        """The tool as the agent named it (a tool name, or a function id)."""
        if isinstance(self.function, OpenAIFunction):
            return self.function.name
        return self.name or self.function or ""

    @property
    def function_id(self) -> str | None:
        """The text ``function`` (a function id or a tool name), if given as text."""
        return self.function if isinstance(self.function, str) else None

    @property
    def args(self) -> dict[str, Any]:
        """The arguments as an object (``{}`` when none were given)."""
        function = self.function
        given = function.arguments if isinstance(function, OpenAIFunction) else self.arguments
        return dict(_arguments(given))


class AnswerLine(_Strict):
    """One line of an answers file."""

    id: str = Field(
        min_length=1,
        description="a case id (text), as `hat-eval suites cases NAME --jsonl` lists them",
    )
    answer: str | None = Field(description="the answer's text (a string; null for none)")
    tool_calls: list[ToolCallLine] | None = Field(
        None,
        description="a list of tool calls, each " + ToolCallLine.what.removeprefix("a tool call "),
    )
    metadata: dict[str, JsonValue] | None = Field(
        None, description="an object of your own (kept out of scoring)"
    )


def parse_answer_line(row: Any, where: str) -> AnswerLine:
    """``row`` (one parsed JSON line) as an :class:`AnswerLine`.

    Raises:
        AnswerFileError: ``WHERE: field <path>: what was wrong, expected ...``.
    """
    try:
        return AnswerLine.model_validate(row)
    except ValidationError as err:
        raise AnswerFileError(f"{where}: {field_problem(err, AnswerLine)}") from None
