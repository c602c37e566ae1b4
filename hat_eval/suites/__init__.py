"""The evaluation suites (``hat_eval.suites``): Inspect tasks over the episode sets, and IFEval.

Importing the package loads nothing heavy: the catalogue (:data:`SUITE_NAMES`,
:func:`make_task`, :func:`suite_info`) needs no Inspect, and every other public name is imported
on first access (the tasks, agents, scorers and reference policy bring Inspect). The per-case
core the suites run on (episodes, tool runtime, checks) is :mod:`hat_eval.episode`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hat_eval._lazy import lazy_getattr

from ._catalog import IFEVAL, SUITE_NAMES, RunOptions, SuiteInfo, check_suite, make_task, suite_info

if TYPE_CHECKING:
    from ._agent import harness_agent, react_baseline
    from ._reference_policy import ReferencePolicy
    from ._samples import episode_of, to_sample
    from ._scorers import livestream_scorer, robustness_scorer, suite_metrics, variant_scorer
    from ._task import AGENTS, Agent, suite_task
    from ._tasks import livestream, robustness, variant

_LAZY = {
    "harness_agent": "._agent",
    "react_baseline": "._agent",
    "ReferencePolicy": "._reference_policy",
    "episode_of": "._samples",
    "to_sample": "._samples",
    "livestream_scorer": "._scorers",
    "robustness_scorer": "._scorers",
    "suite_metrics": "._scorers",
    "variant_scorer": "._scorers",
    "AGENTS": "._task",
    "Agent": "._task",
    "suite_task": "._task",
    "livestream": "._tasks",
    "robustness": "._tasks",
    "variant": "._tasks",
}


__getattr__ = lazy_getattr(__name__, _LAZY)


__all__ = [
    "AGENTS",
    "IFEVAL",
    "SUITE_NAMES",
    "Agent",
    "ReferencePolicy",
    "RunOptions",
    "SuiteInfo",
    "check_suite",
    "episode_of",
    "harness_agent",
    "livestream",
    "livestream_scorer",
    "make_task",
    "react_baseline",
    "robustness",
    "robustness_scorer",
    "suite_info",
    "suite_metrics",
    "suite_task",
    "to_sample",
    "variant",
    "variant_scorer",
]
