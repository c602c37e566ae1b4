"""The Agent-as-Judge's answer cache and its cost counters (calls, tokens, seconds)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import asdict, astuple, dataclass
from pathlib import Path
from typing import Any

from hat_eval._outputs import write_text_atomic

from ._judge_prompt import JudgeMode
from ._rubric import Rubric
from ._tools import DEFAULT_TOOL_TURNS, Conversation

CACHE_FILE = "judge_cache.json"
"""The cache's file name under ``cache_dir``."""


def cache_key(
    rubric: Rubric,
    answer: str,
    case_id: str,
    message: str,
    grader: str,
    k: int,
    mode: JudgeMode = "lookups",
    max_tool_turns: int = DEFAULT_TOOL_TURNS,
) -> str:
    """sha256 of the rubric, the answer, the case (id and message), the grader's name and k.

    In ``agent`` mode the mode and the tool turns are hashed too (``lookups`` keys are those
    of the first version, so its caches stay valid).
    """
    data: list[Any] = [rubric.canonical(), answer, case_id, message, grader, k]
    if mode != "lookups":
        data += [mode, max_tool_turns]
    return hashlib.sha256(json.dumps(data, ensure_ascii=False).encode("utf-8")).hexdigest()


class JudgeCache:
    """Judge results by :func:`cache_key`, in one JSON file (``<dir>/judge_cache.json``)."""

    def __init__(self, directory: str | Path) -> None:
        """Open (or start) the cache in ``directory``."""
        self.path = Path(directory) / CACHE_FILE
        self._data: dict[str, Any] = {}
        if self.path.exists():
            try:
                self._data = json.loads(self.path.read_text(encoding="utf-8"))
            except ValueError:
                raise ValueError(
                    f"judge cache {self.path}: not valid JSON; delete it to start a new cache"
                ) from None

    def get(self, key: str) -> dict[str, Any] | None:
        """The stored result for ``key`` (None: not cached)."""
        entry = self._data.get(key)
        return entry if isinstance(entry, dict) else None

    def put(self, key: str, entry: dict[str, Any]) -> None:
        """Store ``entry`` and write the file (atomically)."""
        self._data[key] = entry
        self.path.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomic(self.path, json.dumps(self._data, ensure_ascii=False, indent=0))


@dataclass(frozen=True)
class JudgeCosts:
    """What judging cost: generate calls, the grader's tool calls, tokens and wall time."""

    calls: int = 0
    tool_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    total_tokens: int = 0
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """Plain data for a score's metadata."""
        return asdict(self)

    @classmethod
    def of(cls, conversations: Sequence[Conversation[Any]], seconds: float) -> JudgeCosts:
        """The summed costs of ``conversations`` that took ``seconds`` of wall time."""

        def tokens(name: str) -> int:
            return sum(c.tokens.get(name, 0) for c in conversations)

        return cls(
            calls=sum(c.calls for c in conversations),
            tool_calls=sum(len(c.tool_calls) for c in conversations),
            input_tokens=tokens("input_tokens"),
            output_tokens=tokens("output_tokens"),
            total_tokens=tokens("total_tokens"),
            seconds=seconds,
        )

    def __add__(self, other: JudgeCosts) -> JudgeCosts:
        """The costs of both."""
        return JudgeCosts(*(a + b for a, b in zip(astuple(self), astuple(other), strict=True)))
