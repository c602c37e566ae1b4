"""What a model sees of a harness: the exact system prompt and the tool schemas."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ._model import Harness, Skill


@dataclass(frozen=True)
class RenderedHarness:
    """The system prompt text and the OpenAI-style tool schemas of one harness."""

    system_prompt: str
    tools: list[dict[str, Any]]


def render_skill(skill: Skill) -> str:
    """One skill as the system prompt lists it."""
    lines = [f"### Skill `{skill.id}`: {skill.name}", skill.description]
    if skill.triggers:
        lines.append("Use when: " + "; ".join(skill.triggers))
    lines.append("Rules:")
    lines.extend(f"{i}. {rule.text}" for i, rule in enumerate(skill.rules, start=1))
    return "\n".join(lines)


def render_system_prompt(harness: Harness) -> str:
    """Blocks in order with constraint values filled in, then the skills catalogue."""
    parts = [block.render() for block in harness.system_prompt.blocks]
    skills = "\n\n".join(render_skill(s) for s in harness.skills)
    parts.append("## Skills\n\n" + skills)
    return "\n\n".join(parts)


def render_tools(harness: Harness) -> list[dict[str, Any]]:
    """The tool schemas in harness order."""
    return [tool.function_schema() for tool in harness.tools]


def render(harness: Harness) -> RenderedHarness:
    """Render the system prompt and tool schemas of ``harness``."""
    return RenderedHarness(render_system_prompt(harness), render_tools(harness))
