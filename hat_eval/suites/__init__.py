"""The evaluation suites (``hat_eval.suites``): Inspect tasks over the episode sets, and IFEval.

Each suite is a folder here (``livestream/``, ``variant/``, ``robustness/``, ``ifeval/``) with
an ``eval.yaml`` and a ``task.py``. Importing the package loads nothing heavy: the catalogue
(:func:`suite_names`, :func:`make_task`, :func:`suite_info`) needs no Inspect until a task is
made, and every other public name is imported on first access (the tasks, agents, scorers,
reference policy and oracle bring Inspect). The per-case core the suites run on (episodes, tool
runtime, checks) is :mod:`hat_eval.episode`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hat_eval._lazy import lazy_getattr

from ._catalog import (
    IFEVAL,
    RunOptions,
    SuiteInfo,
    SuiteMeta,
    check_suite,
    make_task,
    suite_info,
    suite_meta,
    suite_names,
    suite_task,
    task_function,
)

if TYPE_CHECKING:
    from ._agent import harness_agent, react_baseline
    from ._models import HAT_MODELS
    from ._oracle import OraclePolicy
    from ._reference_policy import ReferencePolicy
    from ._samples import episode_of, to_sample
    from ._scorers import livestream_scorer, robustness_scorer, suite_metrics, variant_scorer
    from ._task import AGENTS, Agent, build_case_task

_LAZY = {
    "harness_agent": "._agent",
    "react_baseline": "._agent",
    "HAT_MODELS": "._models",
    "OraclePolicy": "._oracle",
    "ReferencePolicy": "._reference_policy",
    "episode_of": "._samples",
    "to_sample": "._samples",
    "livestream_scorer": "._scorers",
    "robustness_scorer": "._scorers",
    "suite_metrics": "._scorers",
    "variant_scorer": "._scorers",
    "AGENTS": "._task",
    "Agent": "._task",
    "build_case_task": "._task",
}


__getattr__ = lazy_getattr(__name__, _LAZY)


__all__ = [
    "AGENTS",
    "IFEVAL",
    "Agent",
    "HAT_MODELS",
    "OraclePolicy",
    "ReferencePolicy",
    "RunOptions",
    "SuiteInfo",
    "SuiteMeta",
    "build_case_task",
    "check_suite",
    "episode_of",
    "harness_agent",
    "livestream_scorer",
    "make_task",
    "react_baseline",
    "robustness_scorer",
    "suite_info",
    "suite_meta",
    "suite_names",
    "suite_metrics",
    "suite_task",
    "to_sample",
    "task_function",
    "variant_scorer",
]
