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
    HF_DATASET,
    NUM_PROMPTS,
    IFEvalError,
    IFEvalExample,
    load_ifeval,
    suite_entry,
)
from ._punkt import ensure_punkt
from ._report import METRICS, IFEvalReport, TypeAccuracy, summarize
from ._responses import read_responses, score_responses, write_results

if TYPE_CHECKING:
    from ._scorer import ifeval_scorer
    from ._task import DEFAULT_HARNESS, build_ifeval, ifeval_task
    from .task import ifeval, ifeval_harness

_LAZY = {
    "ifeval": ".task",
    "ifeval_harness": ".task",
    "ifeval_task": "._task",
    "DEFAULT_HARNESS": "._task",
    "build_ifeval": "._task",
    "ifeval_scorer": "._scorer",
}


__getattr__ = lazy_getattr(__name__, _LAZY)


__all__ = [
    "DEFAULT_HARNESS",
    "HF_DATASET",
    "METRICS",
    "NUM_PROMPTS",
    "IFEvalError",
    "IFEvalExample",
    "IFEvalReport",
    "TypeAccuracy",
    "Verdict",
    "build_ifeval",
    "check_response",
    "ensure_punkt",
    "ifeval",
    "ifeval_harness",
    "ifeval_scorer",
    "ifeval_task",
    "instruction_ids",
    "load_ifeval",
    "loose_variants",
    "ratio_stderr",
    "read_responses",
    "score_responses",
    "suite_entry",
    "summarize",
    "validate_examples",
    "write_results",
]
