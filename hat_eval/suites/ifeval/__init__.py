"""IFEval (``hat_eval.suites.ifeval``): the reference's 541 prompts, checkers and four metrics.

Scoring needs no Inspect (:func:`load_ifeval`, :func:`score_responses`, :func:`summarize`,
:func:`write_results`), and this package loads none. The tasks ``ifeval`` and ``ifeval_harness``
live in ``task.py`` (Inspect finds them through ``hat_eval._registry``; ``hat-eval run`` through
the suite catalogue) and load Inspect.
"""

from __future__ import annotations

from ._checks import instruction_ids
from ._data import IFEvalError, load_ifeval
from ._report import summarize
from ._responses import score_responses, write_results

__all__ = [
    "IFEvalError",
    "instruction_ids",
    "load_ifeval",
    "score_responses",
    "summarize",
    "write_results",
]
