"""The per-case core (``hat_eval.episode``): what one sample is, how it runs and how it is checked.

An :class:`Episode` is a viewer case, the harness in force for it (:class:`HarnessRef`: the base
file by path and hash, plus an HSA variant's seed and dimensions), its fault plan and its
knowledge-base seed, with the :class:`Gold` that harness puts in force. :func:`build_episodes`
makes the episode sets the suites evaluate and the trainers draw from; :class:`ToolRuntime` runs
an agent's tool calls against the world through the harness's hooks; :func:`score_answer` checks
an answer. The suites, judge, trainers, load harness and reports import this package; it imports
none of them, and nothing here needs Inspect.
"""

from ._checks import (
    FAULT_OUTCOMES,
    GATED,
    HARMLESS_LOOKUPS,
    PARTS,
    WEIGHTS,
    AnswerCheck,
    check_answer,
    constraint_checks,
    emoji_count,
    fault_outcome,
    products_named,
    recovered,
    score_answer,
    split_skill_tag,
    tool_rationality,
    word_count,
)
from ._claims import COMPLIANCE_INTENTS, Verdict, evasive, prepare
from ._context import (
    EpisodeContext,
    base_harness,
    episode_context,
    harness_ref,
    harness_sha256,
    knowledge_base,
    make_variant,
    resolve_harness,
)
from ._corpus import (
    LABELLED_PARTS,
    Agreement,
    CorpusEntry,
    CorpusError,
    agreement,
    check_entry,
    read_corpus,
    verdict,
)
from ._dataset import (
    DATASET_VERSION,
    HELD_OUT_DIM_COMBOS,
    PERTURBATIONS,
    SPECS,
    SUITES,
    TRAIN_DIM_COMBOS,
    Suite,
    SuiteSpec,
    build_episodes,
    build_rows,
    dataset_sha256,
    gold_for,
    rows_jsonl,
    variant_for,
    write_dataset,
)
from ._external import AnswerFileError, ExternalAnswer, case_line, read_answers, score_answers
from ._messages import viewer_messages
from ._record import Episode, Gold, HarnessMismatchError, HarnessRef
from ._runtime import TRACE_KEY, CallRecord, ToolRuntime, records_in

__all__ = [
    "FAULT_OUTCOMES",
    "fault_outcome",
    "AnswerFileError",
    "ExternalAnswer",
    "case_line",
    "read_answers",
    "score_answers",
    "COMPLIANCE_INTENTS",
    "GATED",
    "LABELLED_PARTS",
    "PARTS",
    "Agreement",
    "AnswerCheck",
    "CorpusEntry",
    "CorpusError",
    "Verdict",
    "agreement",
    "check_answer",
    "check_entry",
    "evasive",
    "prepare",
    "read_corpus",
    "verdict",
    "DATASET_VERSION",
    "HARMLESS_LOOKUPS",
    "HELD_OUT_DIM_COMBOS",
    "PERTURBATIONS",
    "SPECS",
    "SUITES",
    "TRACE_KEY",
    "TRAIN_DIM_COMBOS",
    "WEIGHTS",
    "CallRecord",
    "Episode",
    "EpisodeContext",
    "Gold",
    "HarnessMismatchError",
    "HarnessRef",
    "Suite",
    "SuiteSpec",
    "ToolRuntime",
    "base_harness",
    "build_episodes",
    "build_rows",
    "constraint_checks",
    "dataset_sha256",
    "emoji_count",
    "episode_context",
    "gold_for",
    "harness_ref",
    "harness_sha256",
    "knowledge_base",
    "make_variant",
    "products_named",
    "records_in",
    "recovered",
    "resolve_harness",
    "rows_jsonl",
    "score_answer",
    "split_skill_tag",
    "tool_rationality",
    "variant_for",
    "viewer_messages",
    "word_count",
    "write_dataset",
]
