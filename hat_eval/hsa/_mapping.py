"""The record of what one augmentation changed, so gold labels can follow it.

Keys are always names of the *original* harness; values are what the variant calls them. A
variant made by several transforms has the composition of their mappings (``a.then(b)``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from itertools import chain
from typing import Any

Number = int | float


@dataclass(frozen=True)
class RuleEdit:
    """What happened to the rules of one skill (rule ids survive paraphrase and reorder)."""

    order: tuple[str, ...] | None = None
    """Rule ids in their new order, when the rules were reordered."""
    masked: tuple[str, ...] = ()
    """Rule ids removed from the variant."""
    paraphrased: tuple[str, ...] = ()
    """Rule ids whose text was rewritten."""

    def then(self, later: RuleEdit) -> RuleEdit:
        """This edit followed by ``later``."""
        return RuleEdit(
            order=later.order if later.order is not None else self.order,
            masked=union(self.masked, later.masked),
            paraphrased=union(self.paraphrased, later.paraphrased),
        )


@dataclass(frozen=True)
class Mapping:
    """Every rename, mask, reorder and constraint change of one variant."""

    dims: tuple[str, ...] = ()
    tools: dict[str, str] = field(default_factory=dict)
    """Original tool name -> variant tool name (renamed tools only)."""
    tool_descriptions: tuple[str, ...] = ()
    """Original names of the tools whose description was rewritten."""
    skills: dict[str, str | None] = field(default_factory=dict)
    """Original skill id -> variant skill id, ``None`` when the skill was masked."""
    skill_names: dict[str, str] = field(default_factory=dict)
    """Original skill id -> new display name."""
    skill_descriptions: tuple[str, ...] = ()
    """Original ids of the skills whose description was rewritten."""
    rules: dict[str, RuleEdit] = field(default_factory=dict)
    """Original skill id -> what happened to its rules."""
    block_order: tuple[str, ...] | None = None
    """Block ids in their new order, when blocks moved."""
    constraints: dict[str, tuple[Number, Number]] = field(default_factory=dict)
    """Constraint name -> (original value, variant value), for moved constraints."""
    hooks: dict[str, tuple[Any, Any]] = field(default_factory=dict)
    """Dotted hook field (``retry.max_retries``) -> (original value, variant value)."""

    # -- re-targeting gold labels ----------------------------------------------------------------
    def tool_name(self, original: str) -> str:
        """The variant's name for the tool originally called ``original``."""
        return self.tools.get(original, original)

    def skill_id(self, original: str) -> str | None:
        """The variant's id for skill ``original``, or None when the variant masked it."""
        return self.skills.get(original, original)

    def constraint_value(self, name: str, original: Number) -> Number:
        """The value constraint ``name`` has in the variant (``original`` when it did not move)."""
        change = self.constraints.get(name)
        return change[1] if change is not None else original

    # -- composition ------------------------------------------------------------------------------
    def then(self, later: Mapping) -> Mapping:
        """The mapping of applying this change, then ``later`` (whose keys are our values)."""
        if not self.dims:
            return later
        changes: dict[str, Any] = {"dims": union(self.dims, later.dims)}
        if later.tools:
            changes["tools"] = _chain(self.tools, later.tools)
        if later.tool_descriptions:
            back = {v: k for k, v in self.tools.items()}
            changes["tool_descriptions"] = union(
                self.tool_descriptions, (back.get(n, n) for n in later.tool_descriptions)
            )
        if later.skills:
            skills = dict(self.skills)
            for mid, new in later.skills.items():
                skills[_original(self.skills, mid)] = new
            changes["skills"] = {k: v for k, v in skills.items() if v != k}
        if later.skill_names:
            changes["skill_names"] = {
                **self.skill_names,
                **{_original(self.skills, k): v for k, v in later.skill_names.items()},
            }
        if later.skill_descriptions:
            changes["skill_descriptions"] = union(
                self.skill_descriptions,
                (_original(self.skills, s) for s in later.skill_descriptions),
            )
        if later.rules:
            rules = dict(self.rules)
            for mid, edit in later.rules.items():
                orig = _original(self.skills, mid)
                rules[orig] = rules[orig].then(edit) if orig in rules else edit
            changes["rules"] = rules
        if later.block_order is not None:
            changes["block_order"] = later.block_order
        if later.constraints:
            changes["constraints"] = _moved_again(self.constraints, later.constraints)
        if later.hooks:
            changes["hooks"] = _moved_again(self.hooks, later.hooks)
        return Mapping(**{**self.__dict__, **changes})

    # -- serialisation ----------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data: the fields in order, tuples as lists."""
        data: dict[str, Any] = json.loads(json.dumps(asdict(self)))
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Mapping:
        """Inverse of :meth:`to_dict`: JSON lists read back as tuples."""
        fields = {k: _tuple(v) for k, v in data.items() if k in cls.__dataclass_fields__}
        for name in ("constraints", "hooks"):  # name -> (original value, variant value)
            fields[name] = {k: (_tuple(v[0]), _tuple(v[1])) for k, v in data.get(name, {}).items()}
        fields["rules"] = {
            k: RuleEdit(**{f: _tuple(v) for f, v in edit.items()})
            for k, edit in data.get("rules", {}).items()
        }
        return cls(**fields)


def union(first: Iterable[str], later: Iterable[str]) -> tuple[str, ...]:
    """``first`` then the names of ``later`` it lacks, in order, each once."""
    return tuple(dict.fromkeys(chain(first, later)))


def _chain(first: dict[str, str], second: dict[str, str]) -> dict[str, str]:
    out = {k: second.get(v, v) for k, v in first.items()}
    renamed = set(first.values())
    out.update((k, v) for k, v in second.items() if k not in renamed)
    return {k: v for k, v in out.items() if k != v}


def _original(renames: dict[str, str | None], current: str) -> str:
    return next((orig for orig, new in renames.items() if new == current), current)


def _moved_again(first: dict[str, tuple[Any, Any]], later: dict[str, tuple[Any, Any]]) -> Any:
    """``first``'s changes followed by ``later``'s: each value keeps its first original."""
    return {**first, **{k: (first.get(k, (old,))[0], new) for k, (old, new) in later.items()}}


def _tuple(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value
