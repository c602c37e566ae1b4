"""The evaluation suites (``hat_eval.suites``): Inspect tasks over the episode sets, and IFEval.

Each suite is a folder here (``livestream/``, ``variant/``, ``robustness/``, ``ifeval/``) with
an ``eval.yaml`` and a ``task.py``; a case suite's ``eval.yaml`` also holds the recipe its
episodes are drawn with (:func:`suite_recipe`, :func:`suite_episodes`). Importing the package
loads nothing heavy: the catalogue (:func:`suite_names`, :func:`make_task`, :func:`suite_info`)
needs no Inspect until a task is made, and every other public name is imported on first access
(the agents, samples and scorers bring Inspect). The per-case core the suites run on (episodes,
tool runtime, checks) is :mod:`hat_eval.episode`; the built-in ``hat/`` policies that play them
are :mod:`hat_eval.baselines`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hat_eval._lazy import lazy_getattr

from ._catalog import (
    IFEVAL,
    TaskOptions,
    check_suite,
    disclosure_harness,
    make_task,
    suite_info,
    suite_names,
    suite_task,
)
from ._frozen import write_split_files
from ._recipes import case_suites, suite_episodes, suite_recipe, viewer_messages

if TYPE_CHECKING:
    from ._agent import tool_infos
    from ._samples import episode_of, to_sample
    from ._scorers import part_mean
    from ._task import AGENTS

_LAZY = {
    **dict.fromkeys(("AGENTS",), "._task"),
    **dict.fromkeys(("episode_of", "to_sample"), "._samples"),
    **dict.fromkeys(("part_mean",), "._scorers"),
    **dict.fromkeys(("tool_infos",), "._agent"),
}


__getattr__ = lazy_getattr(__name__, _LAZY)


__all__ = [
    "AGENTS",
    "IFEVAL",
    "TaskOptions",
    "case_suites",
    "check_suite",
    "disclosure_harness",
    "episode_of",
    "make_task",
    "part_mean",
    "suite_episodes",
    "suite_info",
    "suite_names",
    "suite_recipe",
    "suite_task",
    "to_sample",
    "tool_infos",
    "viewer_messages",
    "write_split_files",
]
