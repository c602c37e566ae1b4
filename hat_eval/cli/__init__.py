"""The ``hat-eval`` command line (typer). Each command group lives in its own module."""

from ._app import app, main

__all__ = ["app", "main"]
