"""The live-stream world: product knowledge base, tools, faults and viewer questions with gold.

- ``build_kb(seed)`` -> :class:`KnowledgeBase` (SQLite in memory, 640 products, 8 categories):
  the built-in shop (a data pack in ``hat_eval/world/shop``, :class:`ShopPack`) for seed 0,
  ``generate_pack(seed)`` for another; ``load_kb(folder)`` loads any pack, ``check_pack(folder)``
  lists its problems (``pack_problems(folder)``: each a typed :class:`Problem`, the file,
  line, record, field, what is wrong and what was expected). ``split_products(kb, split)``
  gives the fixed train/dev/test product ids.
- ``call_function(kb, session, function_id, args)`` runs the implementation of a harness
  function id (``IMPLEMENTATIONS``); bad arguments raise :class:`ToolInputError`.
- ``inject_fault(kind, result, rng)`` / :class:`FaultPlan` / :class:`FaultInjector` simulate a
  flaky backend (``FAULT_KINDS``).
- ``generate_cases(kb, split=, n=, seed=)`` -> :class:`Case` list whose gold (facts, forbidden
  claims, expected calls, skill) is computed with the tools; ``reference_answer(case, kb)``.
"""

from ._casefile import (
    INTENT_READ,
    JUDGE_ONLY,
    CaseFileError,
    is_judge_only,
    judge_only_fields,
    read_case_file,
)
from ._cases import (
    ABSOLUTE_FORBIDDEN,
    INTENT_WEIGHTS,
    INTENTS,
    SINGLE_INTENTS,
    SKILL_OF,
    STYLE_WEIGHTS,
    STYLES,
    Case,
    generate_cases,
    mark_unasked,
    return_window_fact,
    skill_of,
    stock_state_fact,
)
from ._compliance import find_violations, negated, normalise
from ._coverage import ShopCoverage, generator_problems, shop_coverage
from ._csv import CSV_TABLES, csv_columns, csv_text, import_csv
from ._drafts import LABEL_CONFIG, draft_gold, label_studio_tasks, read_reviewed
from ._errors import ToolInputError
from ._facts import (
    FACT_KINDS,
    ExpectedCall,
    Fact,
    fact_mentioned,
    forbidden_matches,
    numbers_in,
    phrase_in,
    phrase_spans,
    price_aliases,
    price_pattern,
    resolve_path,
)
from ._faults import (
    DRIFT_RENAMES,
    FAULT_KINDS,
    RAISING_KINDS,
    FaultInjector,
    FaultPlan,
    FaultText,
    ToolFault,
    drift,
    inject_fault,
    render_result,
)
from ._function_registry import (
    PARAMETERS,
)
from ._functions import (
    IMPLEMENTATIONS,
    call_function,
    check_arguments,
    stock_status,
)
from ._kb import KnowledgeBase, build_kb, builtin_pack, generate_pack, kb_from_pack, load_kb, money
from ._oracle import CJK, reference_answer
from ._pack import (
    PackError,
    ShopPack,
    builtin_pack_dir,
    check_pack,
    pack_problems,
    read_pack,
    write_pack,
)
from ._pricing import active_promotions
from ._problems import Problem
from ._session import Deal, LiveSession
from ._splits import SPLITS, Split, split_of, split_products
from ._vocab import CATEGORIES, zh_forms

__all__ = [
    "CJK",
    "ABSOLUTE_FORBIDDEN",
    "CATEGORIES",
    "DRIFT_RENAMES",
    "FACT_KINDS",
    "FAULT_KINDS",
    "IMPLEMENTATIONS",
    "INTENTS",
    "INTENT_WEIGHTS",
    "PARAMETERS",
    "RAISING_KINDS",
    "SINGLE_INTENTS",
    "SKILL_OF",
    "SPLITS",
    "STYLES",
    "STYLE_WEIGHTS",
    "Case",
    "mark_unasked",
    "Deal",
    "ExpectedCall",
    "Fact",
    "FaultInjector",
    "FaultPlan",
    "FaultText",
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
    "judge_only_fields",
    "ShopCoverage",
    "ShopPack",
    "csv_columns",
    "csv_text",
    "generator_problems",
    "import_csv",
    "shop_coverage",
    "Split",
    "ToolFault",
    "ToolInputError",
    "active_promotions",
    "build_kb",
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
    "fact_mentioned",
    "find_violations",
    "forbidden_matches",
    "generate_cases",
    "inject_fault",
    "money",
    "negated",
    "normalise",
    "numbers_in",
    "phrase_in",
    "phrase_spans",
    "price_aliases",
    "price_pattern",
    "reference_answer",
    "render_result",
    "resolve_path",
    "split_of",
    "split_products",
    "stock_status",
    "return_window_fact",
    "skill_of",
    "stock_state_fact",
    "zh_forms",
]
