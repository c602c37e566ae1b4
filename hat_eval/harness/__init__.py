"""The harness: system prompt blocks, skills, tools and hooks, loaded from YAML or JSON."""

from ._changelog import Changelog, Requirement, Version, changelog_lines, load_changelog
from ._diff import diff_harness
from ._errors import HarnessError
from ._functions import FUNCTIONS, SKILL_LOADER
from ._hooks import REPLY_TRIGGERS, HookCheck, MessageStructure, RetryPolicy
from ._load import default_harness_path, dump_harness, load_harness
from ._model import (
    Constraint,
    Harness,
    PromptBlock,
    Rule,
    Skill,
    SkillDisclosure,
    SkillType,
    Tool,
)
from ._model_base import FAULT_KINDS, FaultKind
from ._render import render, render_system_prompt, render_tools, skill_body

__all__ = [
    "Changelog",
    "Requirement",
    "Version",
    "changelog_lines",
    "load_changelog",
    "FAULT_KINDS",
    "FUNCTIONS",
    "REPLY_TRIGGERS",
    "SKILL_LOADER",
    "Constraint",
    "FaultKind",
    "Harness",
    "HarnessError",
    "HookCheck",
    "MessageStructure",
    "PromptBlock",
    "RetryPolicy",
    "Rule",
    "Skill",
    "SkillDisclosure",
    "SkillType",
    "Tool",
    "default_harness_path",
    "diff_harness",
    "dump_harness",
    "load_harness",
    "render",
    "render_system_prompt",
    "render_tools",
    "skill_body",
]
