"""The ``hat-eval`` command line (typer). Each command group lives in its own module.

The commands of an optional extra's area live in that area (``hat_eval/loadtest/_cli.py``,
``hat_eval/trainers/_cli.py``, ``hat_eval/repro/_cli.py``; see :mod:`hat_eval._extras`) and use
the helpers of :mod:`hat_eval.cli._common`; ``app`` loads on first use, so those modules can
import the helpers without a cycle through the app that registers them.
"""

from typing import TYPE_CHECKING

from hat_eval._lazy import lazy_getattr

if TYPE_CHECKING:
    from ._app import app, main

__getattr__ = lazy_getattr(__name__, {"app": "._app", "main": "._app"})

__all__ = ["app", "main"]
