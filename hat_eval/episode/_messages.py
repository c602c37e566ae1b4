"""Messages at the edge: transcripts in the OpenAI chat form.

:func:`openai_message` is how a transcript leaves the episode layer for an OpenAI-compatible
server (the load harness) or a chat template (the trainers' trajectories and rollouts).
"""

from __future__ import annotations

import json
from typing import Any

from ._agent import Message


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
