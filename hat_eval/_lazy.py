"""Lazy re-exports: a package names its heavy public objects without importing them."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_getattr(package: str, table: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` that imports ``table[name]`` (relative to ``package``) on use.

    Lets ``hat_eval.suites`` list its Inspect tasks in ``__all__`` while ``import
    hat_eval.suites`` stays free of Inspect (no import-time side effects, fast CLI start).
    """

    def __getattr__(name: str) -> Any:
        if name in table:
            return getattr(importlib.import_module(table[name], package), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__
