"""Typed models of a harness: system prompt blocks, skills, tools and hooks.

A harness is a file the business edits (YAML or JSON), so its models are pydantic: every field is
validated on load and a bad value names its path. Models are frozen and use tuples, so a transform
can share unchanged parts between a harness and its variants without copying them.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from ._functions import SKILL_LOADER, is_known_function
from ._hooks import Hooks
from ._model_base import (
    IDENTIFIER,
    _check_unique,
    _fmt_number,
    _Frozen,
    placeholders,
)


class Constraint(_Frozen):
    """A numeric constraint a prompt block states, e.g. the most words an answer may have.

    ``min`` and ``max`` bound the values augmentation may move it to; the text of its block
    references it as ``{name}``.
    """

    name: str = Field(pattern=IDENTIFIER)
    value: int | float
    min: int | float
    max: int | float
    unit: str | None = None

    @model_validator(mode="after")
    def _in_range(self) -> Constraint:
        if self.min > self.max:
            raise ValueError(f"min|{self.min} is above max {self.max}, expected min <= max")
        if not self.min <= self.value <= self.max:
            raise ValueError(
                f"value|{self.value} is outside the allowed range, "
                f"expected {self.min} <= value <= {self.max}"
            )
        return self

    @property
    def is_integer(self) -> bool:
        """Whether the constraint takes whole numbers only (all of value, min, max are ints)."""
        return all(isinstance(v, int) for v in (self.value, self.min, self.max))


class PromptBlock(_Frozen):
    """One ordered block of the system prompt."""

    id: str = Field(pattern=IDENTIFIER)
    text: str = Field(min_length=1)
    constraints: tuple[Constraint, ...] = ()
    movable: bool = True
    """Whether augmentation may move the block (a persona block usually stays first)."""

    @model_validator(mode="after")
    def _placeholders_match(self) -> PromptBlock:
        names = [c.name for c in self.constraints]
        try:
            used = placeholders(self.text)
        except ValueError as err:
            raise ValueError(
                f"text|{err}, expected plain text with {{constraint}} placeholders"
            ) from None
        for name in used:
            if name not in names:
                raise ValueError(
                    f"text|placeholder {{{name}}} names no constraint of this block, "
                    f"expected one of {names or 'none (add it under constraints)'}"
                )
        for i, name in enumerate(names):
            if name not in used:
                raise ValueError(
                    f"constraints.{i}.name|constraint {name!r} is not referenced by the text, "
                    f"expected {{{name}}} in the block text"
                )
        return self

    def render(self) -> str:
        """The text with every constraint placeholder replaced by its value."""
        if not self.constraints:
            return self.text
        return self.text.format_map({c.name: _fmt_number(c.value) for c in self.constraints})


class SystemPrompt(_Frozen):
    """The ordered instruction blocks of the system prompt."""

    blocks: tuple[PromptBlock, ...] = Field(min_length=1)


class Rule(_Frozen):
    """One rule of a skill. ``essential`` rules are never masked by augmentation."""

    id: str = Field(pattern=IDENTIFIER)
    text: str = Field(min_length=1)
    essential: bool = False


SkillType = Literal["reply", "strategy"]
"""What a skill is for: ``reply`` skills shape the answer to a viewer (the agent selects one);
``strategy`` skills are optional guidance it may load besides."""

SkillDisclosure = Literal["inline", "progressive"]
"""How skills reach the model: ``inline``, every skill rendered whole into the system prompt and
the choice given by a ``[skill: id]`` tag; ``progressive``, the prompt lists each skill's id and
description and the model loads a skill's rules with the skill-loading tool."""


class Skill(_Frozen):
    """A named bundle of rules the agent applies when its triggers match.

    Written inline in the harness file or as a ``SKILL.md`` document (front matter, then the
    rules as the body: see :func:`hat_eval.harness.parse_skill_file`).
    """

    id: str = Field(pattern=IDENTIFIER)
    name: str = Field(min_length=1)
    description: str = Field(min_length=1)
    rules: tuple[Rule, ...] = Field(min_length=1)
    triggers: tuple[str, ...] = ()
    type: SkillType = "reply"
    intents: tuple[str, ...] = ()
    """Viewer intents this skill answers (``hat_eval.world`` intent names, e.g. ``price``); the
    world labels its cases' gold skill from the default harness's. Not part of the prompt."""

    @field_validator("intents")
    @classmethod
    def _intent_names(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for i, name in enumerate(value):
            if not re.fullmatch(r"[a-z][a-z0-9_]*", name):
                raise ValueError(
                    f"{i}|intent {name!r} is not an intent name, expected lower_snake_case "
                    "such as price or stock_size"
                )
            if name in value[:i]:
                raise ValueError(
                    f"{i}|duplicated intent {name!r} (first at {value.index(name)}), "
                    "expected each intent once"
                )
        return value

    @field_validator("rules", mode="before")
    @classmethod
    def _rules_from_strings(cls, value: Any) -> Any:
        """Accept plain strings in a file: rule ``i`` gets the id ``r{i+1}``."""
        if isinstance(value, list | tuple):
            return [
                {"id": f"r{i + 1}", "text": r} if isinstance(r, str) else r
                for i, r in enumerate(value)
            ]
        return value

    @model_validator(mode="after")
    def _unique_rule_ids(self) -> Skill:
        _check_unique("rules", [r.id for r in self.rules], "rule id")
        return self


SCHEMA_KEYWORDS = frozenset(
    {
        "type", "description", "enum", "const", "default", "examples", "title", "format",
        "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
        "minLength", "maxLength", "pattern", "items", "minItems", "maxItems", "uniqueItems",
        "properties", "required", "additionalProperties", "anyOf", "oneOf", "allOf", "nullable",
    }
)  # fmt: skip
"""JSON Schema keywords a tool parameter's schema may use (others are a typo or a YAML slip)."""


class Tool(_Frozen):
    """A tool's surface as the model sees it, bound to an implementation by function id."""

    name: str = Field(pattern=IDENTIFIER)
    description: str = Field(min_length=1)
    parameters: dict[str, Any]
    function: str

    @field_validator("function")
    @classmethod
    def _known_function(cls, value: str) -> str:
        if not is_known_function(value):
            from ._functions import BUILTIN_FUNCTIONS, FUNCTIONS

            known = sorted([*FUNCTIONS, *BUILTIN_FUNCTIONS])
            raise ValueError(f"unknown function id {value!r}, expected one of {', '.join(known)}")
        return value

    @field_validator("parameters")
    @classmethod
    def _object_schema(cls, value: dict[str, Any]) -> dict[str, Any]:
        if value.get("type") != "object":
            raise ValueError(f"type|JSON schema type is {value.get('type')!r}, expected 'object'")
        props = value.get("properties", {})
        if not isinstance(props, dict):
            raise ValueError("properties|not a mapping, expected {name: schema}")
        for name, schema in props.items():
            unknown = sorted(set(schema) - SCHEMA_KEYWORDS) if isinstance(schema, dict) else []
            if unknown:
                raise ValueError(
                    f"properties.{name}|unknown JSON schema keyword {unknown[0]!r} (a description "
                    "with ': ' or ', ' inside {...} needs quotes), expected keywords such as "
                    "type, description, enum, minimum, maximum, items"
                )
        required = value.get("required", [])
        if not isinstance(required, list) or not all(isinstance(n, str) for n in required):
            raise ValueError(
                f"required|got {required!r}, expected a list of parameter names (text)"
            )
        for name in required:
            if name not in props:
                raise ValueError(
                    f"required|{name!r} is required but not under properties, "
                    f"expected one of {sorted(props)}"
                )
        return value

    def function_schema(self) -> dict[str, Any]:
        """The OpenAI-style function schema a model is given."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.parameters,
            },
        }


class Harness(_Frozen):
    """Everything around the model weights: system prompt, skills, tools and hooks."""

    name: str = Field(min_length=1)
    version: str = "1"
    description: str = ""
    system_prompt: SystemPrompt
    skills: tuple[Skill, ...] = Field(min_length=1)
    skill_disclosure: SkillDisclosure = "inline"
    tools: tuple[Tool, ...] = Field(min_length=1)
    hooks: Hooks = Hooks()

    @model_validator(mode="after")
    def _cross_checks(self) -> Harness:
        _check_unique("tools", [t.name for t in self.tools], "tool name", "name")
        _check_unique("tools", [t.function for t in self.tools], "function", "function")
        self._check_skill_loader()
        _check_unique("hooks.checks", [c.name for c in self.hooks.checks], "hook name", "name")
        for i, check in enumerate(self.hooks.checks):
            if check.trigger == "skill_load" and self.skill_disclosure != "progressive":
                raise ValueError(
                    f"hooks.checks.{i}.trigger|skill_load needs skill_disclosure: progressive "
                    "(under inline disclosure no skill is loaded), expected another trigger or "
                    "a progressive harness"
                )
        _check_unique("skills", [s.id for s in self.skills], "skill id", "id")
        _check_unique(
            "system_prompt.blocks", [b.id for b in self.system_prompt.blocks], "block id", "id"
        )
        names = [
            (i, j, c.name)
            for i, b in enumerate(self.system_prompt.blocks)
            for j, c in enumerate(b.constraints)
        ]
        seen: dict[str, int] = {}
        for i, j, name in names:
            if name in seen:
                raise ValueError(
                    f"system_prompt.blocks.{i}.constraints.{j}.name|constraint {name!r} is "
                    f"also defined in block {seen[name]}, expected each constraint name once"
                )
            seen[name] = i
        return self

    def _check_skill_loader(self) -> None:
        """A progressive harness binds one tool to the skill loader; an inline one binds none."""
        at = [i for i, t in enumerate(self.tools) if t.function == SKILL_LOADER]
        if self.skill_disclosure == "inline":
            if at:
                raise ValueError(
                    f"tools.{at[0]}.function|{SKILL_LOADER} is the skill loader, which only a "
                    "harness with skill_disclosure: progressive offers; set skill_disclosure: "
                    "progressive or remove the tool"
                )
            return
        if not at:
            raise ValueError(
                f"tools|skill_disclosure is progressive but no tool is bound to {SKILL_LOADER}, "
                f"expected a tool with `function: {SKILL_LOADER}` and one string parameter "
                "(the skill id)"
            )
        params = self.tools[at[0]].parameters
        props = params.get("properties") or {}
        name = next(iter(props), None)
        if (
            len(props) != 1
            or not isinstance(props[name], dict)
            or props[name].get("type") != "string"
            or "enum" in props[name]
            or list(params.get("required", [])) != [name]
        ):
            raise ValueError(
                f"tools.{at[0]}.parameters|the skill loader takes {len(props)} parameter(s) "
                f"{sorted(props)}, expected exactly one required string parameter without an "
                "enum (the skill id; skill ids may be renamed)"
            )

    # -- lookups -------------------------------------------------------------------------------
    def skill_loader(self) -> Tool | None:
        """The skill-loading tool of a progressive harness (None under inline disclosure)."""
        return self.tool_for(SKILL_LOADER)

    def tool(self, name: str) -> Tool:
        """The tool called ``name``; ``KeyError`` names the tools there are."""
        for t in self.tools:
            if t.name == name:
                return t
        raise KeyError(f"no tool {name!r}; tools: {[t.name for t in self.tools]}")

    def tool_for(self, function: str) -> Tool | None:
        """The tool bound to ``function``, or None when no tool binds it."""
        for t in self.tools:
            if t.function == function:
                return t
        return None

    def skill(self, skill_id: str) -> Skill:
        """The skill with id ``skill_id``; ``KeyError`` names the skills there are."""
        for s in self.skills:
            if s.id == skill_id:
                return s
        raise KeyError(f"no skill {skill_id!r}; skills: {[s.id for s in self.skills]}")

    def constraints(self) -> dict[str, Constraint]:
        """Every numeric constraint of the system prompt, by name."""
        return {c.name: c for b in self.system_prompt.blocks for c in b.constraints}

    def constraint_value(self, name: str) -> int | float:
        """The value in force of constraint ``name``."""
        try:
            return self.constraints()[name].value
        except KeyError:
            raise KeyError(
                f"no constraint {name!r}; constraints: {sorted(self.constraints())}"
            ) from None
