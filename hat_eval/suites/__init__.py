"""The evaluation suites (``hat_eval.suites``): Inspect tasks over the episode sets, and IFEval.

Each suite is a folder here (``livestream/``, ``variant/``, ``robustness/``, ``ifeval/``) with
an ``eval.yaml`` and a ``task.py``; a case suite's ``eval.yaml`` also holds the recipe its
episodes are drawn with (:func:`suite_recipe`, :func:`suite_episodes`). Importing the package
loads nothing heavy: the catalogue (:func:`suite_names`, :func:`make_task`, :func:`suite_info`)
needs no Inspect until a task is made, and every other public name is imported on first access
(the tasks, agents and scorers bring Inspect). The per-case core the suites run on (episodes,
tool runtime, checks) is :mod:`hat_eval.episode`; the built-in ``hat/`` policies that play them
are :mod:`hat_eval.baselines`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hat_eval._lazy import lazy_getattr

from ._catalog import (
    IFEVAL,
    SuiteInfo,
    SuiteMeta,
    TaskOptions,
    check_suite,
    disclosure_harness,
    make_task,
    suite_info,
    suite_meta,
    suite_names,
    suite_task,
    task_function,
)
from ._frozen import (
    FROZEN_SPLITS,
    REGENERATE,
    SplitFile,
    SplitFileError,
    frozen_episodes,
    generated_split,
    split_files,
    write_split_files,
)
from ._recipes import (
    RECIPE_KEY,
    SuiteFileError,
    case_suites,
    read_recipe_file,
    suite_episodes,
    suite_recipe,
    suite_rows,
    viewer_messages,
)

if TYPE_CHECKING:
    from ._agent import harness_agent, react_baseline, tool_infos
    from ._samples import episode_of, to_sample
    from ._scorers import (
        evolution_scorer,
        livestream_scorer,
        part_mean,
        robustness_scorer,
        suite_metrics,
        variant_scorer,
    )
    from ._task import AGENTS, Agent, build_case_task, turn_token_cap

_LAZY = {
    "harness_agent": "._agent",
    "react_baseline": "._agent",
    "tool_infos": "._agent",
    "episode_of": "._samples",
    "to_sample": "._samples",
    "evolution_scorer": "._scorers",
    "livestream_scorer": "._scorers",
    "part_mean": "._scorers",
    "robustness_scorer": "._scorers",
    "suite_metrics": "._scorers",
    "variant_scorer": "._scorers",
    "AGENTS": "._task",
    "Agent": "._task",
    "build_case_task": "._task",
    "turn_token_cap": "._task",
}


__getattr__ = lazy_getattr(__name__, _LAZY)


__all__ = [
    "AGENTS",
    "IFEVAL",
    "RECIPE_KEY",
    "Agent",
    "TaskOptions",
    "SuiteFileError",
    "FROZEN_SPLITS",
    "REGENERATE",
    "SplitFile",
    "SplitFileError",
    "SuiteInfo",
    "SuiteMeta",
    "build_case_task",
    "case_suites",
    "check_suite",
    "disclosure_harness",
    "episode_of",
    "evolution_scorer",
    "frozen_episodes",
    "generated_split",
    "harness_agent",
    "livestream_scorer",
    "make_task",
    "part_mean",
    "react_baseline",
    "read_recipe_file",
    "robustness_scorer",
    "split_files",
    "suite_episodes",
    "suite_info",
    "suite_meta",
    "suite_names",
    "suite_recipe",
    "suite_rows",
    "suite_metrics",
    "suite_task",
    "to_sample",
    "task_function",
    "tool_infos",
    "turn_token_cap",
    "variant_scorer",
    "viewer_messages",
    "write_split_files",
]
