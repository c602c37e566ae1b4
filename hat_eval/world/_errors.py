"""Errors a tool call raises when its arguments are wrong."""

from __future__ import annotations


class ToolInputError(ValueError):
    """A tool was called with bad arguments.

    The message is shown to the agent as the tool's error: it names the argument, what was wrong
    and what was expected, e.g. ``product_id 'P9999' is unknown, expected an id such as 'P0042'
    (search the catalogue first)``.
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
