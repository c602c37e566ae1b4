"""One part's verdict."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Verdict:
    """One part's verdict: a value in [0, 1], or None when the checks cannot decide."""

    value: float | None
    reason: str = ""
    missing: bool = False
    """The answer does not state the fact at all (no mention of its value): an optional fact
    may be left out, and an honest decline may stand in for it when the data never came."""
