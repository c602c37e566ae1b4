"""The evaluation suites (``hat_eval.suites``) and the default harness under ``harnesses/``.

Datasets, checks and the tool runtime import without Inspect; the tasks, the agents, the
scorers and the reference policy load Inspect on first access.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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
from ._messages import viewer_messages
from ._runtime import CallRecord, ToolRuntime

if TYPE_CHECKING:
    from ._agent import harness_agent, react_baseline
    from ._reference import ReferencePolicy
    from ._scorers import livestream_scorer, robustness_scorer, variant_scorer
    from ._task import suite_task
    from .livestream import livestream
    from .robustness import robustness
    from .variant import variant

_LAZY = {
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


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
