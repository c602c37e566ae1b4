"""Messages at the edge: viewer questions alone, and transcripts in the OpenAI chat form.

The load harness (``hat-eval loadtest``) sends :func:`viewer_messages` by default: the same viewer
questions the suites score, around the system prompt and tools it renders from the harness under
test. :func:`openai_message` is how a transcript leaves the episode layer for an OpenAI-compatible
server (the load harness) or a chat template (the trainers' trajectories and rollouts).
"""

from __future__ import annotations

import json
from typing import Any

from ._agent import Message


def viewer_messages(n: int, suite: str = "livestream", split: str = "test") -> list[str]:
    """The first ``n`` viewer messages of ``suite`` on ``split``, in dataset order.

    Deterministic: the same arguments always give the same list. When ``n`` is larger than the
    suite (e.g. 1500 livestream test cases), the messages repeat from the start.

    Args:
        n: How many messages; at least 1.
        suite: ``livestream``, ``variant`` or ``robustness`` (only the user turn is taken, not
            the variant harness or fault a row runs under).
        split: ``train``, ``dev`` or ``test``.

    Raises:
        ValueError: ``n`` is below 1, or the suite or split is unknown.
    """
    from ._dataset import SPECS, build_episodes

    if n < 1:
        raise ValueError(f"n ({n}) must be at least 1")
    if suite not in SPECS:
        raise ValueError(f"unknown suite {suite!r}, expected one of {', '.join(SPECS)}")
    episodes = build_episodes(suite, split=split, n=min(n, SPECS[suite].cases))  # type: ignore[arg-type]
    messages = [e.case.message for e in episodes]
    if not messages:
        raise ValueError(f"suite {suite!r} has no cases on split {split!r}")
    return [messages[i % len(messages)] for i in range(n)]


def openai_message(m: Message) -> dict[str, Any]:
    """One plain episode message in the OpenAI chat-completions form."""
    if m.role == "tool":
        return {"role": "tool", "tool_call_id": m.tool_call_id, "content": m.content}
    if m.role == "assistant" and m.tool_calls:
        return {
            "role": "assistant",
            "content": m.content or None,
            "tool_calls": [
                {
                    "id": c.id,
                    "type": "function",
                    "function": {"name": c.function, "arguments": json.dumps(c.arguments)},
                }
                for c in m.tool_calls
            ],
        }
    return {"role": m.role, "content": m.content}
