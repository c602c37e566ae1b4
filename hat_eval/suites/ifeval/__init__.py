"""IFEval (``hat_eval.suites.ifeval``): the reference's 541 prompts, checkers and four metrics.

Scoring needs no Inspect (``load_ifeval``, ``check_response``, ``score_responses``,
``summarize``); the tasks (``ifeval``, ``ifeval_harness``, ``ifeval_task``) and the scorer
load Inspect on first access.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hat_eval._lazy import lazy_getattr
from hat_eval.stats import ratio_stderr

from ._checks import Verdict, check_response, instruction_ids, loose_variants, validate_examples
from ._data import (
    NUM_PROMPTS,
    IFEvalError,
    IFEvalExample,
    load_ifeval,
    suite_entry,
)
from ._punkt import ensure_punkt
from ._report import (
    METRICS,
    summarize,
)
from ._responses import (
    score_responses,
    write_results,
)

if TYPE_CHECKING:
    from ._task import (
        build_ifeval,
        ifeval_task,
    )
    from .task import ifeval, ifeval_harness

_LAZY = {
    "ifeval": ".task",
    "ifeval_harness": ".task",
    "ifeval_task": "._task",
    "build_ifeval": "._task",
}


__getattr__ = lazy_getattr(__name__, _LAZY)


__all__ = [
    "METRICS",
    "NUM_PROMPTS",
    "IFEvalError",
    "IFEvalExample",
    "Verdict",
    "build_ifeval",
    "check_response",
    "ensure_punkt",
    "ifeval",
    "ifeval_harness",
    "ifeval_task",
    "instruction_ids",
    "load_ifeval",
    "loose_variants",
    "ratio_stderr",
    "score_responses",
    "suite_entry",
    "summarize",
    "validate_examples",
    "write_results",
]
