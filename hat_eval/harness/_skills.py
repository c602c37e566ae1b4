"""Skills as documents: ``SKILL.md`` files, YAML front matter then the rules as the body.

The Agent Skills convention (``skills/<name>/SKILL.md``) with the fields a harness skill has::

    ---
    id: price_promotion            # or only `name:` (then it is the id too)
    name: Price and Promotion
    description: Works out what a viewer will actually pay.
    type: reply                    # reply (the default) or strategy
    triggers: [price, how much]
    intents: [price]               # optional: viewer intents it answers (never shown)
    essential: [r1, r2]            # optional: rules augmentation may never mask
    ---
    - Always compute the final price with the pricing tool.
    - Only combine coupons that the pricing tool says can stack.

Each top-level list item (``-``, ``*``, ``1.``) or paragraph of the body is one rule, with the
id ``r1``, ``r2``, ... in order; indented lines continue the item above; ``#`` headings are
ignored. A harness names skill files under ``skills:``: a folder (every ``*/SKILL.md`` below
it, by folder name), or a list whose items are inline skills, ``SKILL.md`` paths or skill
folders, relative to the harness file.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from hat_eval._datafile import parse_yaml, yaml_problem

from ._errors import HarnessError, from_validation_error, read_text
from ._model import Skill

SKILL_FILE = "SKILL.md"
"""The name of a skill document inside its folder."""

_IGNORED = frozenset({"license", "compatibility", "metadata", "allowed-tools"})
"""Agent Skills front-matter fields a harness has no use for (accepted and left out)."""

_ITEM = re.compile(r"^ {0,3}(?:[-*+]|\d{1,3}[.)])\s+(.*)$")


def parse_skill_text(text: str, source: str = "<SKILL.md>") -> Skill:
    """Validate the text of one ``SKILL.md``; errors name ``source`` and the field.

    Raises:
        HarnessError: no front matter, front matter that is not a mapping, no rules in the
            body, or a field that does not validate (an unknown ``type``, say).
    """
    lines = text.lstrip("\ufeff").splitlines()
    if not lines or lines[0].strip() != "---":
        raise HarnessError(
            source,
            "<front matter>",
            "no YAML front matter, expected the file to start with a '---' line, then id or "
            "name, description and type, a closing '---' line and the rules",
        )
    try:
        end = next(i for i, line in enumerate(lines[1:], start=1) if line.strip() == "---")
    except StopIteration:
        raise HarnessError(
            source, "<front matter>", "the front matter is not closed, expected a '---' line"
        ) from None
    try:
        meta = parse_yaml("\n".join(lines[1:end]))
    except yaml.YAMLError as err:
        problem = yaml_problem(err)[1]
        raise HarnessError(
            source, "<front matter>", f"invalid YAML ({problem}), expected a mapping"
        ) from None
    if not isinstance(meta, dict):
        raise HarnessError(
            source,
            "<front matter>",
            f"got {type(meta).__name__}, expected a mapping with id or name, description, type",
        )
    data = {k: v for k, v in meta.items() if k not in _IGNORED}
    if "id" not in data and "name" not in data:
        raise HarnessError(source, "id", "field required, expected id (or name) in front matter")
    data.setdefault("id", data.get("name"))
    data.setdefault("name", data["id"])
    essential = data.pop("essential", [])
    rules = body_rules(lines[end + 1 :])
    if not rules:
        raise HarnessError(source, "<body>", "no rules, expected a list of rules after '---'")
    if not isinstance(essential, list) or not all(isinstance(e, str) for e in essential):
        raise HarnessError(source, "essential", "expected a list of rule ids such as [r1, r3]")
    ids = [f"r{i + 1}" for i in range(len(rules))]
    for rid in essential:
        if rid not in ids:
            raise HarnessError(
                source, "essential", f"{rid!r} names no rule, expected some of {ids}"
            )
    data["rules"] = [
        {"id": rid, "text": text, "essential": rid in essential}
        for rid, text in zip(ids, rules, strict=True)
    ]
    try:
        return Skill.model_validate(data)
    except ValidationError as err:
        raise from_validation_error(source, err) from None


def body_rules(lines: Iterable[str]) -> list[str]:
    """The rules of a skill body: its top-level list items and paragraphs, in order.

    A line continues the rule above when it follows it directly, or when it is indented under
    a list item (blank lines between); ``#`` headings end a rule and are left out.
    """
    rules: list[str] = []
    joined = False  # the next plain line continues the last rule
    in_item = False  # the last rule is a list item (an indented line continues it)
    for line in lines:
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            joined = False
            in_item = in_item and not stripped
            continue
        item = _ITEM.match(line)
        if item:
            rules.append(item.group(1).strip())
            joined = in_item = True
        elif joined or (in_item and line[:2] == "  "):
            rules[-1] = f"{rules[-1]} {stripped}"
            joined = True
        else:
            rules.append(stripped)
            joined, in_item = True, False
    return rules


def read_skill_file(path: str | Path) -> Skill:
    """Load one ``SKILL.md`` (or the ``SKILL.md`` of a skill folder).

    Raises:
        HarnessError: the file is missing or unreadable, or :func:`parse_skill_text` fails.
    """
    path = Path(path)
    if path.is_dir():
        path = path / SKILL_FILE
    text = read_text(path, f"a {SKILL_FILE} skill document")
    return parse_skill_text(text, str(path))


def resolve_skills(value: Any, base_dir: Path, source: str) -> Any:
    """The ``skills`` of a harness file with every file reference replaced by its skill.

    ``value`` is a folder (a string: every ``*/SKILL.md`` below it, by folder name) or a list
    whose items are inline skills (mappings, left as they are), ``SKILL.md`` paths or skill
    folders. Relative paths resolve against ``base_dir``. Anything else is left for the
    harness validator to reject.
    """
    if isinstance(value, str):
        folder = _resolve(base_dir, value)
        files = sorted(folder.glob(f"*/{SKILL_FILE}")) if folder.is_dir() else []
        if not files:
            raise HarnessError(
                source,
                "skills",
                f"{value!r} is not a folder of skills ({folder}), expected a folder holding "
                f"<skill>/{SKILL_FILE} files, or a list of skills",
            )
        return [read_skill_file(f).model_dump(mode="json") for f in files]
    if isinstance(value, list):
        out = []
        for i, item in enumerate(value):
            if not isinstance(item, str):
                out.append(item)
                continue
            path = _resolve(base_dir, item)
            if not (path / SKILL_FILE if path.is_dir() else path).is_file():
                raise HarnessError(
                    source,
                    f"skills.{i}",
                    f"no skill file at {item!r} ({path}), expected a {SKILL_FILE} file or a "
                    "folder holding one",
                )
            out.append(read_skill_file(path).model_dump(mode="json"))
        return out
    return value


def _resolve(base_dir: Path, name: str) -> Path:
    path = Path(name)
    return path if path.is_absolute() else base_dir / path
