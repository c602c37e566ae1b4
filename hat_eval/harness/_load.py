"""Read and write harness files (YAML or JSON)."""

from __future__ import annotations

import json
from importlib.resources import files
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from hat_eval._datafile import parse_yaml, yaml_problem

from ._errors import HarnessError, from_validation_error, read_text
from ._model import Harness, SkillDisclosure
from ._skills import resolve_skills

try:  # the C dumper is ~10x faster; fall back to pure Python where libyaml is missing
    from yaml import CSafeDumper as _Dumper
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeDumper as _Dumper  # type: ignore[assignment]

DEFAULT_HARNESS_NAME = "live_commerce.yaml"
PROGRESSIVE_HARNESS_NAME = "live_commerce_progressive.yaml"
"""The default harness with its skills as ``SKILL.md`` files, disclosed progressively."""


def default_harness_path(disclosure: SkillDisclosure = "inline") -> Path:
    """The path of a default live-commerce harness shipped with hat-eval.

    Args:
        disclosure: ``inline`` (skills written in the file, rendered whole into the prompt) or
            ``progressive`` (the same skills as ``skills/<id>/SKILL.md`` files, loaded on
            demand with a skill-loading tool).
    """
    name = DEFAULT_HARNESS_NAME if disclosure == "inline" else PROGRESSIVE_HARNESS_NAME
    return Path(str(files("hat_eval.harness").joinpath(name)))


def parse_harness(
    data: Any, source: str = "<harness>", base_dir: str | Path | None = None
) -> Harness:
    """Validate already-parsed data as a harness; errors name ``source`` and the field path.

    ``skills`` may name ``SKILL.md`` files (see :func:`~hat_eval.harness.resolve_skills`);
    relative paths resolve against ``base_dir`` (the working directory when None).
    """
    if not isinstance(data, dict):
        raise HarnessError(source, "<root>", f"got {type(data).__name__}, expected a mapping")
    if "skills" in data:
        base = Path(base_dir) if base_dir is not None else Path.cwd()
        data = {**data, "skills": resolve_skills(data["skills"], base, source)}
    try:
        return Harness.model_validate(data)
    except ValidationError as err:
        raise from_validation_error(source, err) from None


def load_harness(path: str | Path | None = None) -> Harness:
    """Load and validate a harness file; ``None`` loads the default live-commerce harness.

    Raises:
        HarnessError: the file is missing, is not valid YAML/JSON, or fails validation. Its
            message is one line: ``FILE: field.path: what is wrong, what was expected``.
    """
    path = Path(path) if path is not None else default_harness_path()
    return parse_harness(read_data(path, "a YAML or JSON harness"), str(path), path.parent)


def read_data(path: Path, what: str) -> Any:
    """The parsed content of a YAML file (JSON for a ``.json`` file) of the harness layer.

    Raises:
        HarnessError: the file is missing (``what`` says what was expected), unreadable, or not
            valid YAML/JSON; the field is ``<file>`` or ``<line N>``.
    """
    source = str(path)
    text = read_text(path, what)
    if path.suffix.lower() == ".json":
        try:
            return json.loads(text)
        except json.JSONDecodeError as err:
            raise HarnessError(
                source, f"<line {err.lineno}>", f"invalid JSON ({err.msg}), expected a JSON object"
            ) from None
    try:
        return parse_yaml(text)
    except yaml.YAMLError as err:
        line, problem = yaml_problem(err)
        where = f"<line {line}>" if line is not None else "<yaml>"
        raise HarnessError(source, where, f"invalid YAML ({problem}), expected a mapping") from None


def harness_to_dict(harness: Harness) -> dict[str, Any]:
    """A plain-data view of a harness, in field order, ready for YAML or JSON.

    Skills are written inline (the dump stands alone). ``skill_disclosure: inline``, a
    skill's ``type: reply`` and an empty ``hooks.checks`` are the defaults and left out, so a
    harness that does not use them dumps (and hashes) as it did before they existed.
    """
    data = harness.model_dump(mode="json")
    if data.get("skill_disclosure") == "inline":
        del data["skill_disclosure"]
    if not data["hooks"].get("checks"):
        del data["hooks"]["checks"]
    for skill in data["skills"]:
        if skill.get("type") == "reply":
            del skill["type"]
    return data


def dump_harness(harness: Harness, fmt: str = "yaml") -> str:
    """Serialise a harness; the same harness always gives the same bytes."""
    data = harness_to_dict(harness)
    if fmt == "json":
        return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    if fmt != "yaml":
        raise ValueError(f"format {fmt!r} is unknown, expected 'yaml' or 'json'")
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)
