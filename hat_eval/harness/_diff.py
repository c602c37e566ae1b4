"""What changed between two harnesses: renames, rule edits, moved blocks, constraint values.

Tools are matched by the function they bind (so a rename is a rename, not a removal plus an
addition), blocks and constraints by id and name, skills by id and, failing that, by the overlap
of their words (a renamed skill keeps most of its rules).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ._model import Harness, Skill


@dataclass(frozen=True)
class Change:
    """One difference: its kind, where it is, and a short human description."""

    kind: str
    path: str
    detail: str


@dataclass
class HarnessDiff:
    """The changes that turn harness ``a`` into harness ``b``."""

    changes: list[Change] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.changes)

    def kinds(self) -> set[str]:
        """The distinct kinds of change."""
        return {c.kind for c in self.changes}

    def to_dict(self) -> list[dict[str, Any]]:
        """Plain data, for ``--json``."""
        return [{"kind": c.kind, "path": c.path, "detail": c.detail} for c in self.changes]

    def add(self, kind: str, path: str, detail: str) -> None:
        """Record one change."""
        self.changes.append(Change(kind, path, detail))


def diff_harness(a: Harness, b: Harness) -> HarnessDiff:
    """Compare two harnesses; an empty diff means they are the same."""
    d = HarnessDiff()
    _diff_blocks(a, b, d)
    if a.skill_disclosure != b.skill_disclosure:
        d.add(
            "skill_disclosure_changed",
            "skill_disclosure",
            f"{a.skill_disclosure!r} -> {b.skill_disclosure!r}",
        )
    _diff_skills(a, b, d)
    _diff_tools(a, b, d)
    for section in ("retry", "messages"):
        old, new = (getattr(h.hooks, section).model_dump(mode="json") for h in (a, b))
        _hook_fields(old, new, f"hooks.{section}", d)
    # checking hooks added, removed or changed (matched by name)
    old = {c.name: c.model_dump(mode="json") for c in a.hooks.checks}
    new = {c.name: c.model_dump(mode="json") for c in b.hooks.checks}
    for name in [n for n in old if n not in new]:
        d.add("hook_removed", f"hooks.checks.{name}", f"hook {name!r} removed")
    for name in [n for n in new if n not in old]:
        d.add("hook_added", f"hooks.checks.{name}", f"hook {name!r} ({new[name]['trigger']}) added")
    for name in [n for n in old if n in new]:
        _hook_fields(old[name], new[name], f"hooks.checks.{name}", d)
    return d


def _hook_fields(old: dict[str, Any], new: dict[str, Any], path: str, d: HarnessDiff) -> None:
    """A ``hook_changed`` for each field of a hook section or checking hook that differs."""
    for key in old:
        if old[key] != new[key]:
            d.add("hook_changed", f"{path}.{key}", f"{old[key]!r} -> {new[key]!r}")


def _diff_blocks(a: Harness, b: Harness, d: HarnessDiff) -> None:
    old = {blk.id: (i, blk) for i, blk in enumerate(a.system_prompt.blocks)}
    new = {blk.id: (i, blk) for i, blk in enumerate(b.system_prompt.blocks)}
    for bid in [k for k in old if k not in new]:
        d.add("block_removed", f"system_prompt.{bid}", f"block {bid!r} removed")
    for bid in [k for k in new if k not in old]:
        d.add("block_added", f"system_prompt.{bid}", f"block {bid!r} added at {new[bid][0]}")
    common_old = [bid for bid in old if bid in new]
    common_new = [bid for bid in new if bid in old]
    if common_old != common_new:
        for bid in common_new:
            if old[bid][0] != new[bid][0]:
                d.add(
                    "block_moved",
                    f"system_prompt.{bid}",
                    f"position {old[bid][0]} -> {new[bid][0]}",
                )
    for bid in common_new:
        ob, nb = old[bid][1], new[bid][1]
        if ob.text != nb.text:
            d.add("block_text_changed", f"system_prompt.{bid}.text", "text changed")
        oc = {c.name: c for c in ob.constraints}
        nc = {c.name: c for c in nb.constraints}
        for name in sorted(oc.keys() | nc.keys()):
            path = f"system_prompt.{bid}.constraints.{name}"
            if name not in nc:
                d.add("constraint_removed", path, f"{name} removed")
            elif name not in oc:
                d.add("constraint_added", path, f"{name} = {nc[name].value} added")
            elif oc[name] != nc[name]:
                o, n = oc[name], nc[name]
                bits = [
                    f"{attr} {getattr(o, attr)} -> {getattr(n, attr)}"
                    for attr in ("value", "min", "max")
                    if getattr(o, attr) != getattr(n, attr)
                ]
                d.add("constraint_changed", path, ", ".join(bits) or "unit changed")


_WORD = re.compile(r"[a-z0-9]+")


def _words(skill: Skill) -> set[str]:
    text = " ".join(
        [skill.id, skill.name, skill.description, *(r.text for r in skill.rules), *skill.triggers]
    )
    return set(_WORD.findall(text.lower()))


def _jaccard(x: set[str], y: set[str]) -> float:
    return len(x & y) / len(x | y) if x | y else 1.0


def match_skills(
    a: Iterable[Skill], b: Iterable[Skill], threshold: float = 0.25
) -> tuple[list[tuple[Skill, Skill, float]], list[Skill], list[Skill]]:
    """Pair skills of ``a`` with skills of ``b``: same id first, then by word overlap.

    Returns the pairs (with their similarity, 1.0 for an id match), the unmatched skills of ``a``
    and the unmatched skills of ``b``.
    """
    left, right = list(a), list(b)
    pairs: list[tuple[Skill, Skill, float]] = []
    by_id = {s.id: s for s in right}
    for s in list(left):
        if s.id in by_id:
            pairs.append((s, by_id[s.id], 1.0))
            left.remove(s)
            right.remove(by_id[s.id])
    scored = sorted(
        (
            (_jaccard(_words(x), _words(y)), i, j)
            for i, x in enumerate(left)
            for j, y in enumerate(right)
        ),
        reverse=True,
    )
    used_l: set[int] = set()
    used_r: set[int] = set()
    for score, i, j in scored:
        if score < threshold or i in used_l or j in used_r:
            continue
        pairs.append((left[i], right[j], score))
        used_l.add(i)
        used_r.add(j)
    return (
        pairs,
        [s for i, s in enumerate(left) if i not in used_l],
        [s for j, s in enumerate(right) if j not in used_r],
    )


def _diff_skills(a: Harness, b: Harness, d: HarnessDiff) -> None:
    pairs, removed, added = match_skills(a.skills, b.skills)
    for s in removed:
        d.add("skill_removed", f"skills.{s.id}", f"skill {s.id!r} removed (or masked)")
    for s in added:
        d.add("skill_added", f"skills.{s.id}", f"skill {s.id!r} added")
    for old, new, score in pairs:
        path = f"skills.{old.id}"
        if old.id != new.id:
            how = "" if score == 1.0 else f" (matched by content, similarity {score:.2f})"
            d.add("skill_renamed", path, f"{old.id!r} -> {new.id!r}{how}")
        if old.name != new.name:
            d.add("skill_display_name_changed", path + ".name", f"{old.name!r} -> {new.name!r}")
        if old.description != new.description:
            d.add("skill_description_changed", path + ".description", "description rewritten")
        if old.triggers != new.triggers:
            d.add("skill_triggers_changed", path + ".triggers", "trigger hints changed")
        if old.type != new.type:
            d.add("skill_type_changed", path + ".type", f"{old.type!r} -> {new.type!r}")
        orules = {r.id: r for r in old.rules}
        nrules = {r.id: r for r in new.rules}
        for rid in [k for k in orules if k not in nrules]:
            d.add("rule_removed", f"{path}.rules.{rid}", f"rule {rid} removed (or masked)")
        for rid in [k for k in nrules if k not in orules]:
            d.add("rule_added", f"{path}.rules.{rid}", f"rule {rid} added")
        for rid in [k for k in orules if k in nrules]:
            if orules[rid].text != nrules[rid].text:
                d.add("rule_changed", f"{path}.rules.{rid}", "rule text changed")
        order_old = [r.id for r in old.rules if r.id in nrules]
        order_new = [r.id for r in new.rules if r.id in orules]
        if order_old != order_new:
            d.add("rules_reordered", f"{path}.rules", f"{order_old} -> {order_new}")


def _diff_tools(a: Harness, b: Harness, d: HarnessDiff) -> None:
    old = {t.function: t for t in a.tools}
    new = {t.function: t for t in b.tools}
    for fn in sorted(old.keys() - new.keys()):
        d.add("tool_removed", f"tools.{old[fn].name}", f"tool {old[fn].name!r} ({fn}) removed")
    for fn in sorted(new.keys() - old.keys()):
        d.add("tool_added", f"tools.{new[fn].name}", f"tool {new[fn].name!r} ({fn}) added")
    for fn in [t.function for t in a.tools if t.function in new]:
        o, n = old[fn], new[fn]
        path = f"tools.{o.name}"
        if o.name != n.name:
            d.add("tool_renamed", path, f"{o.name!r} -> {n.name!r} (function {fn})")
        if o.description != n.description:
            d.add("tool_description_changed", path + ".description", "description rewritten")
        if o.parameters != n.parameters:
            d.add("tool_parameters_changed", path + ".parameters", "JSON schema changed")
