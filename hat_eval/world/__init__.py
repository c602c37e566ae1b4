"""The live-stream world: product knowledge base, tools, faults and viewer questions with gold.

- ``build_kb(seed)`` -> :class:`KnowledgeBase` (SQLite in memory, 640 products, 8 categories):
  the built-in shop (a data pack in ``hat_eval/world/shop``, :class:`ShopPack`) for seed 0,
  ``generate_pack(seed)`` for another; ``load_kb(folder)`` loads any pack, ``check_pack(folder)``
  lists its problems (``pack_problems(folder)``: each a typed :class:`Problem`, the file,
  line, record, field, what is wrong and what was expected). Products fall in fixed
  train/dev/test splits (``SPLITS``).
- ``call_function(kb, session, function_id, args)`` runs the implementation of a harness
  function id (``IMPLEMENTATIONS``); bad arguments raise :class:`ToolInputError`.
- :class:`FaultPlan` / :class:`FaultInjector` simulate a flaky backend (``FAULT_KINDS``).
- ``generate_cases(kb, split=, n=, seed=)`` -> :class:`Case` list whose gold (facts, forbidden
  claims, expected calls, skill) is computed with the tools; ``reference_answer(case, kb)``.
"""

from ._casefile import INTENT_READ, JUDGE_ONLY, CaseFileError, is_judge_only, read_case_file
from ._cases import (
    ABSOLUTE_FORBIDDEN,
    INTENTS,
    RULE_SOURCE,
    SINGLE_INTENTS,
    Case,
    generate_cases,
    mark_unasked,
    return_window_fact,
    skill_of,
    stock_state_fact,
)
from ._compliance import normalise
from ._coverage import shop_coverage
from ._csv import CSV_TABLES, csv_text, import_csv
from ._drafts import LABEL_CONFIG, draft_gold, label_studio_tasks, read_reviewed
from ._errors import ToolInputError
from ._facts import ExpectedCall, Fact, numbers_in, phrase_spans
from ._faults import FAULT_KINDS, FaultInjector, FaultPlan, ToolFault, drift, render_result
from ._function_registry import PARAMETERS
from ._functions import IMPLEMENTATIONS, call_function, check_arguments, stock_status
from ._kb import (
    KnowledgeBase,
    build_kb,
    builtin_pack,
    generate_pack,
    kb_from_pack,
    load_kb,
    made_to_order_days,
)
from ._oracle import ASKS_COUNT, CJK, reference_answer
from ._pack import (
    PackError,
    ShopPack,
    builtin_pack_dir,
    check_pack,
    pack_problems,
    read_pack,
    write_pack,
)
from ._problems import Problem
from ._session import LiveSession
from ._splits import SPLITS, Split
from ._vocab import place_names, region_places, zh_forms

__all__ = [
    "ASKS_COUNT",
    "CJK",
    "ABSOLUTE_FORBIDDEN",
    "FAULT_KINDS",
    "IMPLEMENTATIONS",
    "INTENTS",
    "PARAMETERS",
    "SINGLE_INTENTS",
    "SPLITS",
    "Case",
    "mark_unasked",
    "ExpectedCall",
    "Fact",
    "FaultInjector",
    "FaultPlan",
    "KnowledgeBase",
    "LiveSession",
    "PackError",
    "Problem",
    "CSV_TABLES",
    "CaseFileError",
    "INTENT_READ",
    "JUDGE_ONLY",
    "LABEL_CONFIG",
    "draft_gold",
    "label_studio_tasks",
    "read_reviewed",
    "is_judge_only",
    "ShopPack",
    "csv_text",
    "import_csv",
    "shop_coverage",
    "Split",
    "ToolFault",
    "ToolInputError",
    "build_kb",
    "made_to_order_days",
    "builtin_pack",
    "builtin_pack_dir",
    "check_pack",
    "pack_problems",
    "generate_pack",
    "kb_from_pack",
    "load_kb",
    "read_case_file",
    "read_pack",
    "write_pack",
    "call_function",
    "check_arguments",
    "drift",
    "generate_cases",
    "normalise",
    "numbers_in",
    "phrase_spans",
    "place_names",
    "reference_answer",
    "region_places",
    "render_result",
    "return_window_fact",
    "skill_of",
    "RULE_SOURCE",
    "stock_state_fact",
    "stock_status",
    "zh_forms",
]
