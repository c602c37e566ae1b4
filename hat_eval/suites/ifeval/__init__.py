"""IFEval (``hat_eval.suites.ifeval``): the reference's 541 prompts, checkers and four metrics.

Scoring needs no Inspect (``load_ifeval``, ``check_response``, ``score_responses``,
``summarize``); the tasks (``ifeval``, ``ifeval_harness``, ``ifeval_task``) and the scorer
load Inspect on first access.
"""

from __future__ import annotations

from ._checks import instruction_ids
from ._data import IFEvalError, load_ifeval
from ._report import summarize
from ._responses import (
    score_responses,
    write_results,
)

__all__ = [
    "IFEvalError",
    "instruction_ids",
    "load_ifeval",
    "score_responses",
    "summarize",
    "write_results",
]
