"""A harness changelog: the versions a business ships, each a harness file, its edit and why.

A live-commerce team edits its harness every week: a new rule in a skill, a tightened limit, a
new skill, a tool description that says when to use the tool, a new hook. A changelog records
that history as files, so every release is bound to a harness and can be evaluated before it
ships (the evolution suite, ``hat-eval run --suite evolution --harness-version vK``)::

    name: live-commerce
    versions:
      - {version: v1, harness: v1.yaml, reason: The default harness.}
      - version: v2
        harness: v2.yaml
        reason: Price answers also give the returns window.
        edit:
          kind: skill_rule
          requires: {check: states_fact, target: return_window, intents: [price]}

The first version is the baseline and has no edit; each later one names the *kind* of its edit
(:data:`EDIT_KINDS`) and, where the edit asks something checkable of answers, what it requires
(:class:`Requirement`: which check, its target, the viewer intents it applies to; none given:
every case). The requirement checks themselves belong to the episode layer
(:mod:`hat_eval.episode`), which owns answers; this module checks what the files alone can:
each version loads as a harness, differs from the one before, differs in the way its kind says,
and names a target its harness has. Every error is a :class:`HarnessError` naming the file and
the field.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, get_args

from pydantic import Field, ValidationError, field_validator

from ._diff import HarnessDiff, diff_harness
from ._errors import HarnessError, from_validation_error
from ._load import load_harness, read_data
from ._model import Harness
from ._model_base import _Frozen, one_of

EditKind = Literal["skill_rule", "constraint", "new_skill", "tool_description", "new_hook"]
"""The functional edits a live-commerce team makes: a rule added to or changed in a skill, a
numeric constraint moved, a skill added, a tool's description changed, a checking hook added."""

EDIT_KINDS: tuple[EditKind, ...] = get_args(EditKind)
"""The edit kinds in their fixed order (reports group edits by them)."""

EDIT_DIFFS: dict[EditKind, frozenset[str]] = {
    "skill_rule": frozenset({"rule_added", "rule_changed", "rule_removed"}),
    "constraint": frozenset({"constraint_changed"}),
    "new_skill": frozenset({"skill_added"}),
    "tool_description": frozenset({"tool_description_changed"}),
    "new_hook": frozenset({"hook_added"}),
}
"""For each edit kind, the :func:`diff_harness` change kinds of which a version of that kind
must contain at least one (it may contain others: a new skill takes an intent from another)."""

RequirementCheck = Literal["states_fact", "no_stock_count", "constraint", "skill", "calls", "hook"]
"""What an edit asks of answers, as a deterministic check can read it: ``states_fact``, the
answer states a fact it did not have to (``target``: a fact name, e.g. ``return_window``);
``no_stock_count``, it gives no exact number of units; ``constraint``, it keeps the numeric
constraint ``target`` at its new value; ``skill``, it chooses skill ``target``; ``calls``, the
agent calls the tool bound to function ``target``; ``hook``, the final reply passes hook
``target``'s check."""

REQUIREMENT_CHECKS: tuple[RequirementCheck, ...] = get_args(RequirementCheck)

_NEEDS_TARGET = frozenset({"states_fact", "constraint", "skill", "calls", "hook"})
_VERSION = r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,31}$"


class Requirement(_Frozen):
    """What an edit requires of the answers to the cases it applies to."""

    check: RequirementCheck
    target: str = ""
    """The fact, constraint, skill id, function id or hook name the check is about."""
    intents: tuple[str, ...] = ()
    """The viewer intents (``hat_eval.world`` names) whose cases the edit applies to; a
    multi-intent case applies when one of its parts does. Empty: every case."""

    @field_validator("check", mode="before")
    @classmethod
    def _known_check(cls, value: Any) -> Any:
        return one_of(value, REQUIREMENT_CHECKS, "check")

    @field_validator("intents")
    @classmethod
    def _intent_names(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for i, name in enumerate(value):
            if not re.fullmatch(r"[a-z][a-z0-9_]*", name):
                raise ValueError(f"{i}|{name!r} is not an intent name, expected e.g. price")
        return value


class Edit(_Frozen):
    """A version's edit: its kind and, when answers can be checked for it, its requirement."""

    kind: EditKind
    requires: Requirement | None = None

    @field_validator("kind", mode="before")
    @classmethod
    def _known_kind(cls, value: Any) -> Any:
        return one_of(value, EDIT_KINDS, "edit kind")


class VersionEntry(_Frozen):
    """One version as the changelog file writes it."""

    version: str = Field(pattern=_VERSION)
    harness: str = Field(min_length=1)
    reason: str = Field(min_length=1)
    edit: Edit | None = None

    @field_validator("reason")
    @classmethod
    def _one_line(cls, value: str) -> str:
        if "\n" in value.strip():
            raise ValueError("is several lines, expected a one-line reason")
        return value.strip()


class ChangelogFile(_Frozen):
    """A changelog file's content (paths not yet resolved)."""

    name: str = Field(min_length=1)
    versions: tuple[VersionEntry, ...] = Field(min_length=1)


@dataclass(frozen=True)
class Version:
    """One version of a changelog, its harness loaded."""

    version: str
    path: Path
    """The version's harness file (absolute)."""
    harness: Harness
    reason: str
    edit: Edit | None
    diff: HarnessDiff
    """What changed from the version before (empty for the first)."""
    index: int
    """0 for the first version."""


@dataclass(frozen=True)
class Changelog:
    """A validated changelog: versions in order, each harness loaded and diffed."""

    name: str
    path: Path
    versions: tuple[Version, ...]

    def ids(self) -> tuple[str, ...]:
        """The version ids, oldest first."""
        return tuple(v.version for v in self.versions)

    def version(self, version_id: str) -> Version:
        """The version ``version_id``; ``HarnessError`` names the versions there are."""
        for v in self.versions:
            if v.version == version_id:
                return v
        raise HarnessError(
            str(self.path),
            "versions",
            f"no version {version_id!r}, expected one of {', '.join(self.ids())}",
        )

    def select(self, spec: str | None) -> tuple[Version, ...]:
        """The versions ``spec`` names: ``vK``, a range ``vA..vB`` (inclusive), or all (None).

        Raises:
            HarnessError: a version the changelog does not have, or a range that runs backwards.
        """
        if spec is None or not spec.strip():
            return self.versions
        first, sep, last = spec.strip().partition("..")
        a = self.version(first.strip())
        b = self.version(last.strip()) if sep else a
        if b.index < a.index:
            raise HarnessError(
                str(self.path),
                "versions",
                f"range {spec!r} runs backwards ({b.version} comes before {a.version}), "
                f"expected {b.version}..{a.version}",
            )
        return self.versions[a.index : b.index + 1]


def load_changelog(path: str | Path) -> Changelog:
    """Read and validate a changelog file and every harness it names.

    Raises:
        HarnessError: one line naming the file (the changelog, or a version's harness) and the
            field: unreadable YAML, an unknown field or edit kind, a duplicated version id, a
            first version with an edit or a later one without, a harness that does not load,
            a version equal to the one before or not changed the way its kind says, or a
            requirement whose target its harness does not have.
    """
    path = Path(path)
    source = str(path)
    data = read_data(path, "a changelog YAML")
    if not isinstance(data, dict):
        raise HarnessError(source, "<root>", "expected a mapping with name and versions")
    try:
        spec = ChangelogFile.model_validate(data)
    except ValidationError as err:
        raise from_validation_error(source, err) from None
    versions: list[Version] = []
    seen: dict[str, int] = {}
    for i, entry in enumerate(spec.versions):
        where = f"versions.{i}"
        if entry.version in seen:
            raise HarnessError(
                source,
                f"{where}.version",
                f"duplicated version {entry.version!r} (first at versions.{seen[entry.version]}), "
                "expected each version once",
            )
        seen[entry.version] = i
        if i == 0 and entry.edit is not None:
            raise HarnessError(
                source, f"{where}.edit", "the first version is the baseline, expected no edit"
            )
        if i > 0 and entry.edit is None:
            raise HarnessError(
                source,
                f"{where}.edit",
                f"missing, expected the edit's kind (one of {', '.join(EDIT_KINDS)})",
            )
        file = (path.parent / entry.harness).resolve()
        harness = load_harness(file)  # a HarnessError names the version's file and field
        diff = diff_harness(versions[-1].harness, harness) if versions else HarnessDiff()
        if versions:
            _check_edit(source, where, entry, diff, versions[-1].version)
            assert entry.edit is not None
            if entry.edit.requires is not None:
                _check_target(source, f"{where}.edit.requires", entry.edit.requires, harness)
        versions.append(Version(entry.version, file, harness, entry.reason, entry.edit, diff, i))
    return Changelog(spec.name, path, tuple(versions))


def _check_edit(
    source: str, where: str, entry: VersionEntry, diff: HarnessDiff, before: str
) -> None:
    assert entry.edit is not None
    if not diff:
        raise HarnessError(
            source,
            f"{where}.harness",
            f"{entry.harness} is the same harness as {before}, expected the version's edit",
        )
    wanted = EDIT_DIFFS[entry.edit.kind]
    if not diff.kinds() & wanted:
        found = ", ".join(sorted(diff.kinds()))
        raise HarnessError(
            source,
            f"{where}.edit.kind",
            f"{entry.edit.kind} but the harness changes are {found}, expected one of "
            f"{', '.join(sorted(wanted))}",
        )


def _check_target(source: str, where: str, req: Requirement, harness: Harness) -> None:
    if req.check not in _NEEDS_TARGET:
        if req.target:
            raise HarnessError(source, f"{where}.target", f"{req.check} takes no target")
        return
    if not req.target:
        raise HarnessError(source, f"{where}.target", f"missing, {req.check} needs one")
    known: list[str] | None = None
    if req.check == "constraint":
        known = sorted(harness.constraints())
    elif req.check == "skill":
        known = [s.id for s in harness.skills]
    elif req.check == "calls":
        known = [t.function for t in harness.tools]
    elif req.check == "hook":
        known = [c.name for c in harness.hooks.checks if c.enabled]
    if known is not None and req.target not in known:
        raise HarnessError(
            source,
            f"{where}.target",
            f"{req.target!r} is not in this version's harness, expected one of "
            f"{', '.join(known) or 'none (add it to the harness)'}",
        )


def changelog_lines(changelog: Changelog) -> list[str]:
    """One line per version: its id, edit kind, what changed and why (``hat-eval harness log``)."""
    out = []
    for v in changelog.versions:
        if v.edit is None:
            out.append(f"{v.version}  baseline  {v.path.name}: {v.reason}")
            continue
        changes = " ".join("; ".join(f"{c.path}: {c.detail}" for c in v.diff.changes).split())
        if len(changes) > 110:
            changes = changes[:109] + "…"
        out.append(f"{v.version}  {v.edit.kind}  {changes}  -- {v.reason}")
    return out
