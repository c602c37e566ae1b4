"""The five Harness State Augmentation dimensions, each a registered, seeded, pure transform.

``TRANSFORMS[name](harness, seed=..., strength=...)`` returns ``(variant, mapping)``. The input is
never modified (harness models are frozen); the same seed always gives the same variant.
``strength`` in [0, 1] is the share of elements a transform touches.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from hat_eval.harness import (
    REPLY_TRIGGERS,
    SKILL_LOADER,
    Constraint,
    Harness,
    HookCheck,
    PromptBlock,
    Rule,
    Skill,
    Tool,
)

from ._banks import banks
from ._mapping import Mapping, RuleEdit
from ._rewrite import new_display_name, new_identifier, pick, rewrite_text, rule_paraphrases

TransformFn = Callable[[Harness, random.Random, float, frozenset[str]], tuple[Harness, Mapping]]


@dataclass(frozen=True)
class Transform:
    """One augmentation dimension (``hat_eval.hsa`` says what each changes)."""

    name: str
    fn: TransformFn

    def __call__(
        self,
        harness: Harness,
        *,
        seed: int,
        strength: float = 0.5,
        protect: frozenset[str] = frozenset(),
    ) -> tuple[Harness, Mapping]:
        """Apply the transform with its own ``random.Random(seed)`` (see the module docstring).

        ``protect``: skill ids that must not be masked (the skill a case needs, say).
        """
        if not 0.0 <= strength <= 1.0:
            raise ValueError(f"strength {strength} is outside [0, 1], expected 0 <= strength <= 1")
        return self.fn(harness, random.Random(seed), strength, protect)


TRANSFORMS: dict[str, Transform] = {}
"""Registered transforms by name, in dimension order."""


def transform(name: str) -> Callable[[TransformFn], TransformFn]:
    """Register ``fn`` as the transform ``name``; registration order is dimension order."""

    def register(fn: TransformFn) -> TransformFn:
        if name in TRANSFORMS:
            raise ValueError(f"transform {name!r} is already registered")
        TRANSFORMS[name] = Transform(name, fn)
        return fn

    return register


def _upd(model: Any, **changes: Any) -> Any:
    """A copy of a frozen model with fields changed, without re-validation.

    Transforms keep every value valid by construction (tests re-validate every variant), and
    this is ~10x cheaper than ``model_copy(update=...)``, which deep-copies private state.
    """
    new = _new(type(model))
    _set(new, "__dict__", {**model.__dict__, **changes})
    _set(new, "__pydantic_fields_set__", model.__pydantic_fields_set__)
    _set(new, "__pydantic_extra__", None)
    _set(new, "__pydantic_private__", None)
    return new


_new = object.__new__
_set = object.__setattr__


@transform("skill_ids")
def _skill_ids(
    h: Harness, rng: random.Random, strength: float, protect: frozenset[str]
) -> tuple[Harness, Mapping]:
    r = rng.random
    taken = {s.id for s in h.skills}
    maskable = [s.id for s in h.skills if s.id not in protect]
    n_mask = min(int(r() * (strength * len(h.skills) / 3 + 1)), len(maskable), len(h.skills) - 1)
    masked = set(rng.sample(maskable, n_mask)) if n_mask > 0 else set()
    ids: dict[str, str | None] = {s.id: None for s in h.skills if s.id in masked}
    names: dict[str, str] = {}
    descriptions: list[str] = []
    skills: list[Skill] = []
    for s in h.skills:
        if s.id in masked:
            continue
        changes: dict[str, Any] = {}
        if r() < strength:
            changes["id"] = ids[s.id] = new_identifier(
                s.id, r, banks().skill_prefixes, banks().skill_suffixes, taken
            )
            taken.add(changes["id"])
        if r() < strength:
            changes["name"] = names[s.id] = new_display_name(s.name, r)
        if r() < strength:
            changes["description"] = rewrite_text(
                s.description, r, strength, banks().skill_frames, banks().skill_tails
            )
            descriptions.append(s.id)
        skills.append(_upd(s, **changes) if changes else s)
    if strength > 0 and not (ids or names or descriptions):  # always change something
        i = int(r() * len(skills))
        new_id = new_identifier(
            skills[i].id, r, banks().skill_prefixes, banks().skill_suffixes, taken
        )
        ids[skills[i].id] = new_id
        skills[i] = _upd(skills[i], id=new_id)
    mapping = Mapping(
        dims=("skill_ids",), skills=ids, skill_names=names, skill_descriptions=tuple(descriptions)
    )
    return _upd(h, skills=tuple(skills)), mapping


@lru_cache(maxsize=16384)
def _paraphrased_rules(rule: Rule, strength: float) -> tuple[Rule, ...]:
    """Copies of ``rule`` with each text of its paraphrase bank (cached: rules are frozen)."""
    return tuple(_upd(rule, text=text) for text in rule_paraphrases(rule.text, strength))


@transform("skill_content")
def _skill_content(
    h: Harness, rng: random.Random, strength: float, protect: frozenset[str]
) -> tuple[Harness, Mapping]:
    r = rng.random
    mask_p = strength * 0.25
    edits: dict[str, RuleEdit] = {}
    skills: list[Skill] = []
    for s in h.skills:
        rules = []
        paraphrased = []
        masked = []
        left = len(s.rules)
        for rule in s.rules:
            if left > 1 and not rule.essential and r() < mask_p:
                masked.append(rule.id)
                left -= 1
                continue
            if r() < strength:
                bank = _paraphrased_rules(rule, strength)
                rule = bank[int(r() * len(bank))]
                paraphrased.append(rule.id)
            rules.append(rule)
        order = None
        if len(rules) > 1 and r() < strength:
            before = [x.id for x in rules]
            rng.shuffle(rules)
            after = [x.id for x in rules]
            if after != before:
                order = tuple(after)
        if paraphrased or masked or order:
            edits[s.id] = RuleEdit(
                order=order, masked=tuple(masked), paraphrased=tuple(paraphrased)
            )
            skills.append(_upd(s, rules=tuple(rules)))
        else:
            skills.append(s)
    return _upd(h, skills=tuple(skills)), Mapping(dims=("skill_content",), rules=edits)


def _vary_tool(
    t: Tool,
    draw: Callable[[], float],
    strength: float,
    taken: set[str],
    renames: dict[str, str],
    described: list[str],
) -> Tool:
    """One tool renamed and/or re-described, each with probability ``strength`` from ``draw``.

    The new name joins ``taken`` and ``renames``; a rewritten description's tool joins
    ``described``. Returns the tool unchanged when neither was drawn.
    """
    changes: dict[str, Any] = {}
    if draw() < strength:
        changes["name"] = renames[t.name] = new_identifier(
            t.name, draw, banks().name_prefixes, banks().name_suffixes, taken
        )
        taken.add(changes["name"])
    if draw() < strength:
        changes["description"] = rewrite_text(
            t.description, draw, strength, banks().tool_frames, banks().tool_tails
        )
        described.append(t.name)
    return _upd(t, **changes) if changes else t


@transform("tools")
def _tools(
    h: Harness, rng: random.Random, strength: float, protect: frozenset[str]
) -> tuple[Harness, Mapping]:
    r = rng.random
    taken = {t.name for t in h.tools}
    renames: dict[str, str] = {}
    described: list[str] = []
    tools = list(h.tools)
    # The skill loader of a progressive harness draws from a stream of its own, seeded from the
    # main stream's state without advancing it: the other tools, and every transform after
    # this one, draw exactly what they draw for the same harness with inline skills, so the
    # two forms' variants stay paired.
    own = random.Random(repr(rng.getstate()[1][:8])).random
    world = [i for i, t in enumerate(tools) if t.function != SKILL_LOADER]
    for i in world:
        tools[i] = _vary_tool(tools[i], r, strength, taken, renames, described)
    if strength > 0 and not (renames or described):
        i = world[int(r() * len(world))]
        renames[tools[i].name] = new_identifier(
            tools[i].name, r, banks().name_prefixes, banks().name_suffixes, taken
        )
        taken.add(renames[tools[i].name])
        tools[i] = _upd(tools[i], name=renames[tools[i].name])
    for i, t in enumerate(tools):
        if t.function == SKILL_LOADER:
            tools[i] = _vary_tool(t, own, strength, taken, renames, described)
    mapping = Mapping(dims=("tools",), tools=renames, tool_descriptions=tuple(described))
    return _upd(h, tools=tuple(tools)), mapping


def _move(c: Constraint, r: Callable[[], float]) -> int | float:
    if c.is_integer:
        lo, hi = int(c.min), int(c.max)
        if hi == lo:
            return c.value
        v = lo + int(r() * (hi - lo))  # one of the hi - lo values other than the current one
        return v + 1 if v >= c.value else v
    return round(c.min + r() * (c.max - c.min), 2)


@transform("system_prompt")
def _system_prompt(
    h: Harness, rng: random.Random, strength: float, protect: frozenset[str]
) -> tuple[Harness, Mapping]:
    r = rng.random
    blocks: list[PromptBlock] = list(h.system_prompt.blocks)
    order = None
    movable = [i for i, b in enumerate(blocks) if b.movable]
    if len(movable) > 1 and r() < strength:
        picked = [blocks[i] for i in movable]
        rng.shuffle(picked)
        if [b.id for b in picked] != [blocks[i].id for i in movable]:
            for i, b in zip(movable, picked, strict=True):
                blocks[i] = b
            order = tuple(b.id for b in blocks)
    moved: dict[str, tuple[int | float, int | float]] = {}
    for i, b in enumerate(blocks):
        cons = list(b.constraints)
        for j, c in enumerate(cons):
            if r() < strength:
                value = _move(c, r)
                if value != c.value:
                    moved[c.name] = (c.value, value)
                    cons[j] = _upd(c, value=value)
        if any(c.name in moved for c in b.constraints):
            blocks[i] = _upd(b, constraints=tuple(cons))
    prompt = _upd(h.system_prompt, blocks=tuple(blocks))
    return _upd(h, system_prompt=prompt), Mapping(
        dims=("system_prompt",), block_order=order, constraints=moved
    )


_RETRY_CHOICES: dict[str, tuple[Any, ...]] = {
    "max_retries": (0, 1, 2, 3),
    "backoff_s": (0.0, 0.1, 0.25, 0.5, 1.0),
    "backoff_multiplier": (1.0, 1.5, 2.0, 3.0),
    "retry_on": (
        ("timeout",),
        ("timeout", "server_error"),
        ("server_error",),
        ("timeout", "server_error", "malformed"),
        ("timeout", "server_error", "empty"),
    ),
}


def _message_choices() -> dict[str, tuple[Any, ...]]:
    return {
        "tool_result_role": ("tool", "user"),
        "result_format": ("json", "text", "xml"),
        "result_prefix": banks().result_prefixes,
        "error_template": banks().error_templates,
    }


@transform("hooks")
def _hooks(
    h: Harness, rng: random.Random, strength: float, protect: frozenset[str]
) -> tuple[Harness, Mapping]:
    r = rng.random
    changed: dict[str, tuple[Any, Any]] = {}

    def vary(model: Any, choices: dict[str, tuple[Any, ...]], prefix: str) -> Any:
        """``model`` with each field of ``choices`` moved, with chance ``strength``."""
        changes = {}
        for field, options in choices.items():
            if r() < strength:
                old = getattr(model, field)
                new = pick(r, [o for o in options if o != old] or [old])
                if new != old:
                    changes[field] = new
                    changed[f"{prefix}.{field}"] = (old, new)
        return _upd(model, **changes) if changes else model

    sections = {
        section: vary(getattr(h.hooks, section), choices, section)
        for section, choices in (("retry", _RETRY_CHOICES), ("messages", _message_choices()))
    }
    # each checking hook's message, budget, role and whether it is on; a harness without
    # checks draws nothing here, so its variants stay as they were
    checks = tuple(vary(c, _check_choices(c), f"checks.{c.name}") for c in h.hooks.checks)
    if checks != h.hooks.checks:
        sections["checks"] = checks
    return _upd(h, hooks=_upd(h.hooks, **sections)), Mapping(dims=("hooks",), hooks=changed)


def _check_choices(check: HookCheck) -> dict[str, tuple[Any, ...]]:
    choices = {"message": banks().hook_messages, "budget": (1, 2, 3), "enabled": (True, False)}
    if check.trigger in REPLY_TRIGGERS:  # a call's rejection is its tool message, whatever the role
        choices["role"] = ("user", "system")
    return choices


DIMENSIONS: tuple[str, ...] = tuple(TRANSFORMS)
"""The transform names in dimension order: skill_ids, skill_content, tools, system_prompt, hooks."""
