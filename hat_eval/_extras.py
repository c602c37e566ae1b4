"""The optional extras: which area of ``hat_eval`` needs which, and how to tell it is installed.

``pip install hat-eval`` installs the core package (suites, judge, harness, world, reports, the
``run``/``score``/``report`` commands). Three areas need an extra of ``pyproject.toml``'s
``[project.optional-dependencies]``; :data:`EXTRAS` is the one table of them:

- ``hat_eval.trainers`` (``hat-eval train``): ``train`` (TRL, datasets, accelerate, PEFT);
- ``hat_eval.loadtest`` (``hat-eval loadtest``): ``load`` (Locust);
- ``hat_eval.repro`` (``hat-eval repro``): ``repro``, which is ``hat-eval[train]`` (it trains).

Each area imports without its extra (the heavy packages load inside functions), so ``hat-eval
--help`` lists every command; each command checks its extra first (:func:`missing_extra`) and
says in one line what to install. ``bench/code_size.py`` counts the core package without these
areas.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["EXTRAS", "Extra", "missing_extra"]


@dataclass(frozen=True)
class Extra:
    """One optional extra and the area of ``hat_eval`` that needs it."""

    name: str
    """The extra in ``pyproject.toml``: ``pip install 'hat-eval[name]'``."""
    area: str
    """The subpackage ``hat_eval/<area>`` that needs it."""
    command: str
    """The area's command line."""
    imports: tuple[str, ...]
    """Import names the extra installs; all of them importable means it is installed."""

    @property
    def install(self) -> str:
        """The command that installs the extra."""
        return f"pip install 'hat-eval[{self.name}]'"


_TRAIN_IMPORTS = ("trl", "datasets", "accelerate", "peft")

EXTRAS: Mapping[str, Extra] = {
    extra.area: extra
    for extra in (
        Extra("train", "trainers", "hat-eval train", _TRAIN_IMPORTS),
        Extra("load", "loadtest", "hat-eval loadtest", ("locust",)),
        Extra("repro", "repro", "hat-eval repro", _TRAIN_IMPORTS),
    )
}
"""Area of ``hat_eval`` -> the extra it needs."""


def missing_extra(area: str) -> str | None:
    """One line naming what ``area``'s extra lacks and the install command; ``None`` if complete.

    Args:
        area: A key of :data:`EXTRAS` (``"trainers"``, ``"loadtest"``, ``"repro"``).
    """
    extra = EXTRAS[area]
    missing = [name for name in extra.imports if importlib.util.find_spec(name) is None]
    if not missing:
        return None
    return (
        f"{extra.command} needs the {extra.name} extra ({', '.join(missing)} not installed): "
        f"{extra.install}"
    )
