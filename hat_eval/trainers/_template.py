"""Chat templates a trained checkpoint is written with, so Inspect's ``hf/`` provider can run it.

TRL's bundled Qwen3 template (``trl.chat_template_utils.qwen3_chat_template``, the one the tiny
base and Qwen3 checkpoints carry) expects an earlier tool call as
``{"function": {"name": ..., "arguments": ...}}`` and tools as ``{"type": "function",
"function": {...}}``. Inspect's ``hf/`` provider hands the template its own shapes: a tool call
``{"function": "<name>", "arguments": {...}}`` and a tool ``{"name", "description",
"parameters"}``. With the first, the template does ``set tool_call = tool_call.function`` and
renders the call with an empty name and no arguments on every later turn; with the second, the
tools block looks unlike the one the model was trained on.

:func:`accept_inspect_shapes` rewrites those two places of TRL's template text (the inference
template and its training twin alike) so both shapes render exactly as the OpenAI shape does;
input in the OpenAI shape renders byte for byte as before. The rewrite is made from TRL's text at
run time and fails loudly if that text changes.
"""

from __future__ import annotations

_CALL_OLD = """{%- if tool_call.function %}
                    {%- set tool_call = tool_call.function %}
                {%- endif %}"""
_CALL_NEW = """{%- if tool_call.function is mapping %}
                    {%- set tool_call = tool_call.function %}
                {%- elif tool_call.function is string %}
                    {%- set tool_call = {
                        "name": tool_call.function, "arguments": tool_call.arguments} %}
                {%- endif %}"""
_TOOL_OLD = """        {{- tool | tojson }}"""
_TOOL_NEW = """        {%- if tool.function is defined %}
            {{- tool | tojson }}
        {%- else %}
            {{- {"type": "function", "function": tool} | tojson }}
        {%- endif %}"""


def accept_inspect_shapes(template: str) -> str:
    """``template`` (TRL's Qwen3 inference or training template) accepting Inspect's shapes.

    Raises:
        ValueError: ``template`` does not contain the two passages rewritten (not TRL's Qwen3
            template, or TRL changed it).
    """
    if _CALL_OLD not in template or _TOOL_OLD not in template:
        raise ValueError(
            "the chat template is not TRL's Qwen3 template (its tool-call or tools passage was "
            "not found), expected trl.chat_template_utils.qwen3_chat_template or its training twin"
        )
    return template.replace(_CALL_OLD, _CALL_NEW).replace(_TOOL_OLD, _TOOL_NEW)


def qwen3_templates(template: str | None) -> tuple[str, str] | None:
    """(training, inference) templates for a tokenizer whose template is ``template``.

    For TRL's Qwen3 template, or one this module already rewrote: the training twin (with the
    ``{% generation %}`` markers ``assistant_only_loss`` needs) and the inference template, both
    accepting Inspect's shapes. For any other template None: TRL's own handling applies.
    """
    from trl.chat_template_utils import qwen3_chat_template, qwen3_training_chat_template

    known = {qwen3_chat_template, accept_inspect_shapes(qwen3_chat_template)}
    known |= {qwen3_training_chat_template, accept_inspect_shapes(qwen3_training_chat_template)}
    if template not in known:
        return None
    return (
        accept_inspect_shapes(qwen3_training_chat_template),
        accept_inspect_shapes(qwen3_chat_template),
    )
