"""What a model sees of a harness: the exact system prompt and the tool schemas."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ._model import Harness, Skill


@dataclass(frozen=True)
class RenderedHarness:
    """The system prompt text and the OpenAI-style tool schemas of one harness."""

    system_prompt: str
    tools: list[dict[str, Any]]
    skills: dict[str, str] = field(default_factory=dict)
    """Under progressive disclosure: skill id -> what loading it returns (empty under inline)."""


def skill_body(skill: Skill) -> str:
    """One skill whole, as the inline prompt lists it and as loading it returns it."""
    lines = [f"### Skill `{skill.id}`: {skill.name}", skill.description]
    if skill.triggers:
        lines.append("Use when: " + "; ".join(skill.triggers))
    lines.append("Rules:")
    lines.extend(f"{i}. {rule.text}" for i, rule in enumerate(skill.rules, start=1))
    return "\n".join(lines)


def render_skill_index(harness: Harness) -> str:
    """The skills section of a progressive prompt.

    How to load a skill, then each skill's id, type and description (the rules come with
    loading).
    """
    loader = harness.skill_loader()
    assert loader is not None, "a progressive harness has a skill loader (validated)"
    lines = [
        f"Each skill's rules are loaded with the tool `{loader.name}`; load the skill that fits "
        "before you reply.",
        "",
    ]
    lines.extend(f"- `{s.id}` ({s.type}): {s.description}" for s in harness.skills)
    return "\n".join(lines)


def render_system_prompt(harness: Harness) -> str:
    """Blocks in order with constraint values filled in, then the skills catalogue.

    Under inline disclosure the catalogue holds every skill whole; under progressive
    disclosure only each skill's id, type and description (:func:`render_skill_index`).
    """
    parts = [block.render() for block in harness.system_prompt.blocks]
    if harness.skill_disclosure == "progressive":
        skills = render_skill_index(harness)
    else:
        skills = "\n\n".join(skill_body(s) for s in harness.skills)
    parts.append("## Skills\n\n" + skills)
    return "\n\n".join(parts)


def render_tools(harness: Harness) -> list[dict[str, Any]]:
    """The tool schemas in harness order."""
    return [tool.function_schema() for tool in harness.tools]


def render(harness: Harness) -> RenderedHarness:
    """Render the system prompt and tool schemas of ``harness`` (and loadable skill bodies)."""
    bodies = (
        {s.id: skill_body(s) for s in harness.skills}
        if harness.skill_disclosure == "progressive"
        else {}
    )
    return RenderedHarness(render_system_prompt(harness), render_tools(harness), bodies)
