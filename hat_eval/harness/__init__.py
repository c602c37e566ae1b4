"""The harness: system prompt blocks, skills, tools and hooks, loaded from YAML or JSON."""

from ._diff import Change, HarnessDiff, diff_harness, match_skills
from ._errors import HarnessError
from ._functions import FUNCTIONS, is_known_function
from ._load import (
    default_harness_path,
    dump_harness,
    harness_to_dict,
    load_harness,
    parse_harness,
)
from ._model import (
    FAULT_KINDS,
    Constraint,
    ErrorKind,
    FaultKind,
    Harness,
    Hooks,
    MessageStructure,
    PromptBlock,
    RetryPolicy,
    Rule,
    Skill,
    SystemPrompt,
    Tool,
    placeholders,
)
from ._render import RenderedHarness, render, render_skill, render_system_prompt, render_tools

__all__ = [
    "FAULT_KINDS",
    "FUNCTIONS",
    "Change",
    "Constraint",
    "ErrorKind",
    "FaultKind",
    "Harness",
    "HarnessDiff",
    "HarnessError",
    "Hooks",
    "MessageStructure",
    "PromptBlock",
    "RenderedHarness",
    "RetryPolicy",
    "Rule",
    "Skill",
    "SystemPrompt",
    "Tool",
    "default_harness_path",
    "diff_harness",
    "dump_harness",
    "harness_to_dict",
    "is_known_function",
    "load_harness",
    "match_skills",
    "parse_harness",
    "placeholders",
    "render",
    "render_skill",
    "render_system_prompt",
    "render_tools",
]
