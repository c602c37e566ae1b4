"""The prompts a load test sends: the harness's system prompt and tools around viewer messages.

The system prompt and tools are exactly what :func:`hat_eval.harness.render` gives the model under
test. Viewer messages come, in this order of preference, from a ``--prompts`` JSON Lines file
(each line ``{"message": "..."}`` or a full OpenAI ``{"messages": [...]}``), from a
:data:`MessagesSource` (a callable ``n -> n viewer messages``, e.g. :func:`builtin_questions`), or
by default from the livestream suite's test cases (:func:`hat_eval.suites.viewer_messages`), the
viewer questions the suites score. A sweep builds its prompt set once and writes it beside its
``config.json`` (:func:`write_prompt_set`); every Locust process reads it back
(:func:`read_prompt_set`) instead of building it again.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hat_eval._jsonl import JsonlError, read_jsonl
from hat_eval._outputs import write_text_atomic

from ._viewer_questions import VIEWER_QUESTIONS

if TYPE_CHECKING:
    from ._config import SweepConfig

MessagesSource = Callable[[int], list[str]]
"""Given ``n``, returns ``n`` viewer messages (the user turn of each prompt)."""


class PromptError(ValueError):
    """A prompts file or messages source that cannot be used; the message names the place."""


@dataclass(frozen=True)
class Prompt:
    """One request's OpenAI ``messages`` and ``tools``."""

    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]]


@dataclass(frozen=True)
class PromptSet:
    """Prompts sent in turn; indexing wraps around."""

    prompts: tuple[Prompt, ...]

    def __post_init__(self) -> None:
        if not self.prompts:
            raise PromptError("a prompt set needs at least one prompt, got none")

    def __len__(self) -> int:
        return len(self.prompts)

    def __getitem__(self, i: int) -> Prompt:
        return self.prompts[i % len(self.prompts)]


def default_messages(n: int) -> list[str]:
    """The first ``n`` viewer messages of the livestream suite's test split.

    The default messages source (:func:`hat_eval.suites.viewer_messages`); for the built-in
    questions instead, pass :func:`builtin_questions` as the source.
    """
    from hat_eval.suites import viewer_messages

    return viewer_messages(n)


def builtin_questions(n: int) -> list[str]:
    """``n`` built-in viewer questions, cycling through :data:`VIEWER_QUESTIONS`."""
    return [VIEWER_QUESTIONS[i % len(VIEWER_QUESTIONS)] for i in range(n)]


def read_prompts_file(path: Path) -> list[str | list[dict[str, Any]]]:
    """Read a prompts file: each non-blank line a ``message`` string or a ``messages`` list.

    Raises:
        PromptError: The file is missing, a line is not JSON, or has neither field.
    """
    out: list[str | list[dict[str, Any]]] = []
    try:
        for no, obj in read_jsonl(path, what='prompts ({"message": ...} or {"messages": [...]})'):
            msg = obj.get("message")
            msgs = obj.get("messages")
            if isinstance(msg, str) and msg.strip():
                out.append(msg)
            elif (
                isinstance(msgs, list)
                and msgs
                and all(isinstance(m, dict) and isinstance(m.get("role"), str) for m in msgs)
            ):
                out.append(msgs)
            else:
                raise PromptError(
                    f"{path}:{no}: needs a non-empty string 'message' or a list "
                    "'messages' of {role, content} objects"
                )
    except JsonlError as err:
        raise PromptError(str(err)) from None
    if not out:
        raise PromptError(f"{path}: no prompts in the file")
    return out


def resolve_messages_source(spec: str) -> MessagesSource:
    """Import ``module:function`` and return it as a messages source.

    Raises:
        PromptError: The spec is malformed, or the module or attribute cannot be found.
    """
    module, sep, name = spec.partition(":")
    if not sep or not module or not name:
        raise PromptError(f"messages source {spec!r} must be 'package.module:function'")
    try:
        fn = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as err:
        raise PromptError(f"messages source {spec!r} cannot be loaded: {err}") from None
    if not callable(fn):
        raise PromptError(f"messages source {spec!r} is not callable")
    return fn


def build_prompts(
    harness: Path | None = None,
    *,
    prompts_file: Path | None = None,
    messages_source: MessagesSource | None = None,
    n: int = 64,
) -> PromptSet:
    """Build the prompt set of a run.

    Args:
        harness: Harness file; the default harness when ``None``.
        prompts_file: A JSON Lines prompts file; wins over ``messages_source``.
        messages_source: Called with ``n`` for viewer messages when there is no prompts file;
            :func:`default_messages` (the livestream suite's messages) when ``None``.
        n: How many viewer messages to ask the source for.

    Raises:
        PromptError: A bad prompts file or source output.
        hat_eval.harness.HarnessError: A bad harness file.
    """
    from hat_eval.harness import load_harness, render

    rendered = render(load_harness(harness))
    system = {"role": "system", "content": rendered.system_prompt}
    entries: Sequence[str | list[dict[str, Any]]]
    if prompts_file is not None:
        entries = read_prompts_file(prompts_file)
    elif messages_source is not None:
        entries = messages_source(n)
        if not entries or not all(isinstance(m, str) for m in entries):
            raise PromptError("the messages source must return a non-empty list of strings")
    else:
        entries = default_messages(n)
    prompts = []
    for entry in entries:
        if isinstance(entry, str):
            messages = [system, {"role": "user", "content": entry}]
        elif entry[0].get("role") == "system":
            messages = list(entry)
        else:
            messages = [system, *entry]
        prompts.append(Prompt(messages, rendered.tools))
    return PromptSet(tuple(prompts))


PROMPT_OPTIONS = ("harness", "prompts", "messages_source", "n_prompts")
"""The :class:`~hat_eval.loadtest.SweepConfig` fields :func:`prompts_for` builds prompts from."""


def prompts_for(cfg: SweepConfig) -> PromptSet:
    """Build the prompt set a sweep's config asks for (its harness, prompts file or source).

    Raises:
        PromptError: A bad prompts file, messages source or source output.
        hat_eval.harness.HarnessError: A bad harness file.
    """
    source = resolve_messages_source(cfg.messages_source) if cfg.messages_source else None
    return build_prompts(
        cfg.harness, prompts_file=cfg.prompts, messages_source=source, n=cfg.n_prompts
    )


def write_prompt_set(path: Path, prompts: PromptSet) -> None:
    """Write built prompts as JSON Lines, one ``{"messages": [...], "tools": [...]}`` a line."""
    rows = ({"messages": p.messages, "tools": p.tools} for p in prompts.prompts)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomic(path, "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows))


def read_prompt_set(path: Path) -> PromptSet:
    """Read prompts written by :func:`write_prompt_set`, exactly as they were built.

    Raises:
        PromptError: The file is missing, or a line is not such an object.
    """
    prompts = []
    try:
        for no, obj in read_jsonl(path, what="built prompts (written by hat-eval loadtest)"):
            if not (isinstance(obj.get("messages"), list) and isinstance(obj.get("tools"), list)):
                raise PromptError(
                    f'{path}:{no}: expected {{"messages": [...], "tools": [...]}} as written by '
                    "hat-eval loadtest"
                )
            prompts.append(Prompt(obj["messages"], obj["tools"]))
    except JsonlError as err:
        raise PromptError(str(err)) from None
    if not prompts:
        raise PromptError(f"{path}: no prompts in the file")
    return PromptSet(tuple(prompts))
