"""Optional rewriting of descriptions through any Inspect model (for users who have one).

The offline banks are the default; a model gives more natural rewrites. A rewrite that loses or
adds a number, or comes back empty, is rejected and the original text is kept, so a weak model
cannot change what a tool or skill does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ._mapping import union
from ._policy import Variant

if TYPE_CHECKING:
    from inspect_ai.model import Model

_PROMPT = (
    "Rewrite the following {kind} description for an AI shopping assistant. Keep its meaning, "
    "every number and every name exactly; change the wording. Reply with the rewritten "
    "description only, on one line.\n\n{text}"
)
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


@dataclass
class ModelRewriter:
    """Rewrites one description through an Inspect model (``"openai/gpt-4o-mini"``, ...)."""

    model: str | Model
    temperature: float = 0.7
    seed: int | None = 0

    async def __call__(self, text: str, kind: str) -> str | None:
        """The rewritten text, or None when the model's answer was rejected."""
        from inspect_ai.model import GenerateConfig, get_model

        model = get_model(self.model) if isinstance(self.model, str) else self.model
        out = await model.generate(
            _PROMPT.format(kind=kind, text=text),
            config=GenerateConfig(temperature=self.temperature, seed=self.seed),
        )
        new = " ".join(out.completion.split()).strip().strip('"')
        if not new or new == text or sorted(_NUMBER.findall(new)) != sorted(_NUMBER.findall(text)):
            return None
        return new


async def rewrite_with_model(
    variant: Variant, model: str | Model | ModelRewriter, *, tools: bool = True, skills: bool = True
) -> Variant:
    """Rewrite the tool and/or skill descriptions of a variant with a model.

    The mapping records each description that changed, under the original name or id.
    """
    rewriter = model if isinstance(model, ModelRewriter) else ModelRewriter(model)
    h = variant.harness
    m = variant.mapping

    async def rewrite(items: tuple[Any, ...], kind: str, key: str, renames: Any, on: bool) -> Any:
        back = {v: k for k, v in renames.items() if v is not None}
        new, done = [], []
        for item in items:
            text = await rewriter(item.description, kind) if on else None
            new.append(item.model_copy(update={"description": text}) if text else item)
            if text:
                done.append(back.get(getattr(item, key), getattr(item, key)))
        return tuple(new), done

    new_tools, tool_done = await rewrite(h.tools, "tool", "name", m.tools, tools)
    new_skills, skill_done = await rewrite(h.skills, "skill", "id", m.skills, skills)
    mapping = replace(
        m,
        tool_descriptions=union(m.tool_descriptions, tool_done),
        skill_descriptions=union(m.skill_descriptions, skill_done),
    )
    harness = h.model_copy(update={"tools": new_tools, "skills": new_skills})
    return Variant(harness, mapping, variant.seed, variant.index)
