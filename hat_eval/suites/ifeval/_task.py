"""The keyword-only builder behind the ``ifeval`` tasks."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

from inspect_ai import Task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageSystem, ChatMessageUser, GenerateConfig
from inspect_ai.solver import generate

from ._checks import validate_examples
from ._data import IFEvalError, IFEvalExample, load_ifeval
from ._scorer import ifeval_scorer

VERSION = "1.0.0"
"""Suite version (``eval.yaml``); bump it when prompts, scoring or generation change."""

DEFAULT_HARNESS = "default"
"""``harness=`` value that selects the embedded live-commerce harness."""

GENERATION = GenerateConfig(temperature=0.0, max_tokens=1280)
"""Greedy decoding and lm-eval's IFEval token budget.

Override with ``hat-eval run --temperature/--max-tokens`` (or Inspect's flags). Inspect's ``hf/``
provider samples by default and cannot take temperature 0: ``hat-eval run`` passes
``do_sample=False`` for it (see ``hat_eval.runner._prepare.generation_model_args``).
"""


def to_sample(example: IFEvalExample, index: int, system_prompt: str | None = None) -> Sample:
    """One Inspect sample: the prompt alone, or after the harness's system prompt."""
    return Sample(
        input=example.prompt
        if system_prompt is None
        else [ChatMessageSystem(content=system_prompt), ChatMessageUser(content=example.prompt)],
        id=example.key if example.key is not None else index + 1,
        metadata=asdict(example),
    )


def build_ifeval(
    *,
    data: str | Path | None = None,
    harness: str | Path | None = None,
    limit: int | None = None,
    revision: str | None = None,
) -> Task:
    """Build the IFEval task.

    Args:
        data: A local ``input_data.jsonl``; ``google/IFEval`` from the Hub when ``None``.
        harness: ``None`` for the bare prompts; a harness file, or ``"default"`` for the
            embedded live-commerce harness, to put its rendered system prompt before each
            prompt (does harness context cost general instruction following?).
        limit: Keep the first ``limit`` prompts.
        revision: Hub revision of ``google/IFEval`` (only without ``data``).

    Raises:
        IFEvalError: The data cannot be read or names an unknown instruction, the harness
            is invalid, or ``limit`` is not positive.
    """
    if limit is not None and limit < 1:
        raise IFEvalError(f"limit ({limit}) must be at least 1, or None for all prompts")
    examples = load_ifeval(data, revision=revision)[:limit]
    validate_examples(examples)
    system_prompt = None
    if harness is not None:
        from hat_eval.harness import HarnessError, load_harness, render

        try:
            h = load_harness(None if str(harness) == DEFAULT_HARNESS else harness)
        except HarnessError as err:
            raise IFEvalError(str(err)) from err
        system_prompt = render(h).system_prompt
    name = "ifeval" if harness is None else "ifeval_harness"
    return Task(
        dataset=MemoryDataset(
            [to_sample(ex, i, system_prompt) for i, ex in enumerate(examples)], name=name
        ),
        solver=generate(),
        scorer=ifeval_scorer(),
        config=GENERATION,
        name=name,
        version=VERSION,
        metadata={"data": str(data) if data else "google/IFEval", "harness": str(harness)},
    )
