"""The harness: system prompt blocks, skills, tools and hooks, loaded from YAML or JSON."""

from ._changelog import (
    EDIT_KINDS,
    REQUIREMENT_CHECKS,
    Changelog,
    Edit,
    Requirement,
    Version,
    changelog_lines,
    load_changelog,
)
from ._diff import (
    diff_harness,
)
from ._errors import HarnessError
from ._functions import (
    FUNCTIONS,
    SKILL_LOADER,
)
from ._hooks import (
    REPLY_TRIGGERS,
    HookCheck,
    Hooks,
    MessageStructure,
    RetryPolicy,
)
from ._load import (
    default_harness_path,
    dump_harness,
    harness_to_dict,
    load_harness,
    parse_harness,
)
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
from ._model_base import (
    FAULT_KINDS,
    FaultKind,
    placeholders,
)
from ._render import (
    render,
    render_skill,
    render_system_prompt,
    render_tools,
    skill_body,
)
from ._skills import (
    parse_skill_text,
    read_skill_file,
    skill_file_text,
)

__all__ = [
    "EDIT_KINDS",
    "REQUIREMENT_CHECKS",
    "Changelog",
    "Edit",
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
    "Hooks",
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
    "harness_to_dict",
    "load_harness",
    "parse_harness",
    "parse_skill_text",
    "placeholders",
    "read_skill_file",
    "render",
    "render_skill",
    "render_system_prompt",
    "render_tools",
    "skill_body",
    "skill_file_text",
]
