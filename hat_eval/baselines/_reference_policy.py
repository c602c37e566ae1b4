"""The reference policy: a rule-based agent registered as the Inspect model ``hat/reference``.

It is the embedded default of ``hat-eval run``: it runs offline, in milliseconds, and exercises
every part of a suite. It reads everything from what a model is given, never from the gold: the
skills and the word limit from the rendered system prompt, the tools from their *descriptions*
(names change under HSA), the product on screen from the live-context line, and facts from the
tool results in whatever format the hooks wrap them. Its intent detection is keyword based, so
it misses slang, typos and mixed-language messages some of the time: its scores are real,
not perfect, and they move when the harness changes in ways keyword reading cannot follow.

Under either skill disclosure it chooses the skill whose text best fits the viewer's intent.
Inline, that text is each skill whole, and the answer starts with its ``[skill: id]`` tag.
Progressive, it is each listed skill's id and description (the reply skills only): the policy
finds the skill-loading tool by the name the prompt's skills section gives it (else by the
description that says it loads skills), loads the skill it picked in its first turn, alongside
its first world calls, and answers untagged. Loads do not count against the tool-call limit.

``hat/memorized`` is the same policy frozen to the default harness, the positive control of the
``variant`` suite: it uses the default harness's tool names, skill ids and limits whatever the
prompt says, and takes only the viewer's message, the product on screen and the tool results from
its input -- what a fine-tune that memorized one harness's surface forms does. Under a variant
harness its calls go to default tool names (the runtime answers ``unknown_tool``) and its skill
tags are the default ids. hat-eval ships a default harness in each disclosure form, and the
memorizing fine-tune is taken to have learnt both: it tells them apart by the one thing that
differs at a glance (skills given whole, or listed to load) and plays that default's surface.
Under a progressive variant it therefore loads the default skill id with the default loader
name (``load_skill``): a renamed loader is an ``unknown_tool``, a renamed skill an unknown id,
and either way it loads no skill in force. Under the default harness of each form it is the
reference policy. Which of the two reads the harness is the :data:`Surface` of the model.

Answers commit to one value per fact: one status per SKU, the one spec asked about, one delivery
row; never several values of one thing in the hope that one of them is the right one.

Each turn goes through three steps, one module each: ``_read`` (tools, prompt, viewer, tool
results into a :class:`~hat_eval.baselines._read.Turn`), ``_plan`` (the calls still needed) and
``_compose`` (the answer). The keywords they read by are data: ``baselines/vocab/en.yaml`` and
``zh.yaml``. This module is the Inspect model that runs the steps.
"""

from __future__ import annotations

from typing import Any

from inspect_ai.model import (
    ChatCompletionChoice,
    ChatMessage,
    ChatMessageAssistant,
    GenerateConfig,
    ModelAPI,
    ModelOutput,
    ModelUsage,
)
from inspect_ai.tool import ToolCall, ToolChoice, ToolInfo

from hat_eval.harness import SKILL_LOADER

from ._compose import compose
from ._plan import next_calls, skill_load
from ._read import Surface, calls_first, detect_intents, read_rules, read_turn

MODELS: dict[str, Surface] = {"reference": "prompt", "memorized": "default"}
"""The ``hat/`` model names and the surface each reads."""


def _output(
    model: str, input: list[ChatMessage], answer: str = "", tool_calls: list[ToolCall] | None = None
) -> ModelOutput:
    """The reply ``answer`` (or ``tool_calls``), with token counts estimated from the texts."""
    message = ChatMessageAssistant(content=answer, tool_calls=tool_calls, model=model)
    in_tokens = max(1, len("".join(m.text for m in input)) // 4)
    out_tokens = max(1, len(answer.split()) + 8 * len(tool_calls or []))
    usage = ModelUsage(
        input_tokens=in_tokens, output_tokens=out_tokens, total_tokens=in_tokens + out_tokens
    )
    stop = "tool_calls" if tool_calls else "stop"
    return ModelOutput(
        model=model, choices=[ChatCompletionChoice(message=message, stop_reason=stop)], usage=usage
    )


class ReferencePolicy(ModelAPI):
    """``hat/reference`` and ``hat/memorized``: the rule-based policy (no weights, no network).

    The model name picks the :data:`Surface`: ``reference`` reads the harness it is given,
    ``memorized`` uses the default harness's surface forms whatever it is given.
    """

    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig | None = None,
        **model_args: Any,
    ) -> None:
        if model_name not in MODELS:
            known = ", ".join(f"hat/{m}" for m in MODELS)
            raise ValueError(
                f"model hat/{model_name} is not the reference policy: its models are {known}"
            )
        super().__init__(model_name, base_url, api_key, [], config or GenerateConfig())
        self.surface: Surface = MODELS[model_name]

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        """Answer, or ask for the tool calls the answer still needs."""
        turn = read_turn(input, tools, surface=self.surface)
        intents = detect_intents(turn.message)
        turn.rules = read_rules(turn, intents)
        calls = next_calls(turn, intents)
        tries = sum(len(v) for fn, v in turn.results.items() if fn != SKILL_LOADER)
        # a lookup per intent with a retry each, two more; and one per call a rule adds
        asked = len(calls_first(turn, intents)) + ("returns_with_price" in turn.rules)
        if not (
            calls
            and turn.calls < turn.facts.max_calls
            and tries < 2 * max(1, len(intents)) + 2 + asked
        ):
            calls = []
        batch = skill_load(turn, intents) + calls[: turn.facts.max_calls - turn.calls]
        if batch:
            made = turn.calls + turn.loads
            tool_calls = [
                ToolCall(id=f"call_{made + i}", function=turn.tools[fn], arguments=args)
                for i, (fn, args) in enumerate(batch)
            ]
            return _output(self.model_name, input, tool_calls=tool_calls)
        return _output(self.model_name, input, compose(turn, intents))
