"""The per-case core (``hat_eval.episode``): what one sample is, how it runs and how it is checked.

An :class:`Episode` is a viewer case, the harness in force for it (a ``HarnessRef``: the base
file by path and hash, plus an HSA variant's seed and dimensions), its fault plan and its
knowledge-base seed, with the ``Gold`` that harness puts in force. :func:`build_episodes`
draws the episode set a :class:`Recipe` describes (each suite's recipe is in its ``eval.yaml``,
read by :mod:`hat_eval.suites`; this package names no suite); :class:`ToolRuntime` runs
an agent's tool calls against the world through the harness's hooks; :func:`check_answer` checks
an answer. The suites, judge, trainers, load harness and reports import this package; it imports
none of them, and nothing here needs Inspect.
"""

from ._agent import (
    AgentRun,
    Execute,
    Message,
    ModelCall,
    ToolCall,
    agent_steps,
    run_agent,
    run_agent_async,
    stable_seed,
    system_message,
)
from ._checks import (
    FAULT_OUTCOMES,
    PARTS,
    AnswerCheck,
    check_answer,
    combine,
    fault_outcome,
    split_skill_tag,
    split_think,
    word_count,
)
from ._context import (
    EpisodeContext,
    base_harness,
    episode_context,
    episode_kb,
    harness_ref,
    harness_sha256,
    knowledge_base,
)
from ._corpus import (
    LABELLED_PARTS,
    CorpusEntry,
    CorpusError,
    agreement,
    answer_agreement,
    check_entry,
    read_corpus,
    verdict,
)
from ._dataset import (
    DATASET_VERSION,
    build_episodes,
    build_rows,
    dataset_sha256,
    gold_for,
    rows_jsonl,
    variant_for,
)
from ._evolution import check_changelog, check_requirement
from ._external import (
    AnswerFileError,
    ExternalAnswer,
    answer_records,
    case_line,
    read_answer_file,
    score_answers,
)
from ._hooks import (
    HOOK_RECOVERED,
    HOOK_REJECTIONS,
    hook_fault_values,
    hook_records_in,
    hook_summary,
)
from ._messages import openai_message
from ._oracle import oracle_answer, oracle_calls
from ._recipe import FaultRecipe, Recipe, RecipeError
from ._record import Episode, HookFault
from ._runtime import TRACE_KEY, CallRecord, ToolRuntime, records_in

__all__ = [
    "HookFault",
    "hook_fault_values",
    "check_changelog",
    "check_requirement",
    "AgentRun",
    "Execute",
    "Message",
    "ModelCall",
    "ToolCall",
    "agent_steps",
    "run_agent",
    "run_agent_async",
    "stable_seed",
    "system_message",
    "FAULT_OUTCOMES",
    "hook_records_in",
    "hook_summary",
    "HOOK_RECOVERED",
    "HOOK_REJECTIONS",
    "fault_outcome",
    "AnswerFileError",
    "ExternalAnswer",
    "case_line",
    "read_answer_file",
    "score_answers",
    "LABELLED_PARTS",
    "PARTS",
    "AnswerCheck",
    "CorpusEntry",
    "CorpusError",
    "agreement",
    "answer_agreement",
    "answer_records",
    "check_answer",
    "combine",
    "check_entry",
    "read_corpus",
    "verdict",
    "DATASET_VERSION",
    "TRACE_KEY",
    "CallRecord",
    "Episode",
    "FaultRecipe",
    "EpisodeContext",
    "Recipe",
    "RecipeError",
    "ToolRuntime",
    "base_harness",
    "build_episodes",
    "build_rows",
    "dataset_sha256",
    "episode_context",
    "gold_for",
    "harness_ref",
    "harness_sha256",
    "episode_kb",
    "knowledge_base",
    "records_in",
    "rows_jsonl",
    "split_skill_tag",
    "split_think",
    "variant_for",
    "openai_message",
    "oracle_answer",
    "oracle_calls",
    "word_count",
]
