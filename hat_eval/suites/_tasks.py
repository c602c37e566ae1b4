"""The factory behind the case suites' registered tasks (each suite's ``task.py`` calls it).

One factory makes all three, so their arguments cannot drift apart; each suite's folder names
its scorer, and its ``eval.yaml`` its title and description.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable
from typing import Any

from inspect_ai import Task, task
from inspect_ai.scorer import Scorer

from ._catalog import suite_meta
from ._task import CaseTaskSpec

POSITIONAL = inspect.Parameter.POSITIONAL_OR_KEYWORD


def case_suite_task(suite: str, scorer: Callable[[], Scorer]) -> Callable[..., Task]:
    """The registered ``@task`` of case suite ``suite``, scored by ``scorer``."""

    def entry(*args: Any, **kwargs: Any) -> Task:
        return CaseTaskSpec(suite, *args, **kwargs).task(scorer())

    # the task's parameters are the spec's fields (Inspect reads them off the signature)
    entry.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [
            inspect.Parameter(f.name, POSITIONAL, default=f.default, annotation=f.type)
            for f in dataclasses.fields(CaseTaskSpec)
            if f.name != "suite"
        ],
        return_annotation=Task,
    )
    meta = suite_meta(suite)
    entry.__name__ = entry.__qualname__ = suite
    # the arguments' documentation is the spec's (its attributes after ``suite``)
    args = (CaseTaskSpec.__doc__ or "").split("Attributes:")[1].split("\n", 2)[2]
    entry.__doc__ = f"{meta.title}: {meta.description}.\n\n    Args:\n{args}"
    return task(name=suite)(entry)
