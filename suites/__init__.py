"""The evaluation suites (``hat_eval.suites``) and the default harness under ``harnesses/``.

Importing the package loads nothing heavy: every public name but ``viewer_messages`` is
imported on first access (the tasks, agents, scorers and reference policy bring Inspect).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hat_eval._lazy import lazy_getattr

from ._messages import viewer_messages

if TYPE_CHECKING:
    from ._agent import harness_agent, react_baseline
    from ._checks import WEIGHTS, score_answer
    from ._dataset import (
        HELD_OUT_DIM_COMBOS,
        SPECS,
        SUITES,
        TRAIN_DIM_COMBOS,
        build_rows,
        dataset_sha256,
        variant_for,
        write_dataset,
    )
    from ._reference import ReferencePolicy
    from ._runtime import CallRecord, ToolRuntime
    from ._scorers import livestream_scorer, robustness_scorer, variant_scorer
    from ._task import suite_task
    from .livestream import livestream
    from .robustness import robustness
    from .variant import variant

_LAZY = {
    **dict.fromkeys(("WEIGHTS", "score_answer"), "._checks"),
    **dict.fromkeys(
        (
            "HELD_OUT_DIM_COMBOS",
            "SPECS",
            "SUITES",
            "TRAIN_DIM_COMBOS",
            "build_rows",
            "dataset_sha256",
            "variant_for",
            "write_dataset",
        ),
        "._dataset",
    ),
    **dict.fromkeys(("CallRecord", "ToolRuntime"), "._runtime"),
    "harness_agent": "._agent",
    "react_baseline": "._agent",
    "ReferencePolicy": "._reference",
    "livestream_scorer": "._scorers",
    "robustness_scorer": "._scorers",
    "variant_scorer": "._scorers",
    "suite_task": "._task",
    "livestream": ".livestream",
    "robustness": ".robustness",
    "variant": ".variant",
}


__getattr__ = lazy_getattr(__name__, _LAZY)


__all__ = [
    "HELD_OUT_DIM_COMBOS",
    "SPECS",
    "SUITES",
    "TRAIN_DIM_COMBOS",
    "WEIGHTS",
    "CallRecord",
    "ReferencePolicy",
    "ToolRuntime",
    "build_rows",
    "dataset_sha256",
    "harness_agent",
    "livestream",
    "livestream_scorer",
    "react_baseline",
    "robustness",
    "robustness_scorer",
    "score_answer",
    "suite_task",
    "variant",
    "variant_for",
    "variant_scorer",
    "viewer_messages",
    "write_dataset",
]
