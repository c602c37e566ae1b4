"""Running a coroutine to completion from plain code, on a fresh event loop."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

R = TypeVar("R")


def run_blocking(coro: Coroutine[Any, Any, R]) -> R:
    """Run ``coro`` on a new event loop and close the loop.

    Not ``asyncio.run``: once an Inspect ``eval`` has run in the process, ``nest_asyncio2`` has
    replaced it with a version that leaves its loop open.
    """
    loop = asyncio.new_event_loop()
    try:
        return loop.run_until_complete(coro)
    finally:
        loop.close()
