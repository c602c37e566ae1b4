"""The Inspect scorer and metrics of the IFEval suite."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from inspect_ai.scorer import (
    Metric,
    SampleScore,
    Score,
    Scorer,
    Target,
    metric,
    scorer,
)
from inspect_ai.solver import TaskState

from hat_eval.stats import ratio_stderr

from ._checks import check_response
from ._data import IFEvalExample
from ._report import METRICS, tally

# Per-sample value keys: the four per-prompt results and the instruction count that weights
# the instruction-level shares back into a micro-average.
_LEVELS = {m: (m.removesuffix("_acc"), m.startswith("inst_")) for m in METRICS}


def example_from_metadata(metadata: dict[str, Any]) -> IFEvalExample:
    """Rebuild the :class:`IFEvalExample` a sample was made from."""
    return IFEvalExample(
        key=metadata.get("key"),
        prompt=metadata["prompt"],
        instruction_id_list=tuple(metadata["instruction_id_list"]),
        kwargs=tuple(metadata["kwargs"]),
        where=str(metadata.get("where", "")),
    )


def _columns(
    scores: Sequence[SampleScore], value_key: str, weighted: bool
) -> tuple[list[float], list[float]]:
    followed, totals = [], []
    for s in scores:
        v = s.score.value
        assert isinstance(v, dict)
        n = float(v["num_instructions"]) if weighted else 1.0
        followed.append(float(v[value_key]) * n)
        totals.append(n)
    return followed, totals


@metric
def ifeval_accuracy() -> Metric:
    """Prompt- and instruction-level accuracy, strict and loose (the reference's four).

    Prompt-level: the mean over prompts of "every instruction followed". Instruction-level:
    followed instructions over all instructions, a micro-average (each prompt's share is
    weighted by its instruction count), as the reference computes it.
    """

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        out = {}
        for name, (key, weighted) in _LEVELS.items():
            y, n = _columns(scores, key, weighted)
            out[name] = sum(y) / sum(n) if sum(n) else 0.0
        return out

    return compute


@metric
def ifeval_stderr() -> Metric:
    """Standard errors of the four accuracies, prompts as clusters (``ratio_stderr``)."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        return {
            f"{name}_stderr": ratio_stderr(*_columns(scores, key, weighted))
            for name, (key, weighted) in _LEVELS.items()
        }

    return compute


@metric
def ifeval_by_instruction() -> Metric:
    """Accuracy per instruction id, strict and loose: ``strict/punctuation:no_comma``, ..."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        followed: list[tuple[str, bool, bool]] = []
        for s in scores:
            md = s.score.metadata or {}
            followed += zip(
                md.get("instruction_id_list", []),
                md.get("follow_instruction_list_strict", []),
                md.get("follow_instruction_list_loose", []),
                strict=True,
            )
        out: dict[str, float] = {}
        for iid, acc in tally(followed).items():
            out[f"strict/{iid}"] = acc.strict_acc
            out[f"loose/{iid}"] = acc.loose_acc
        return out

    return compute


@scorer(metrics=[ifeval_accuracy(), ifeval_stderr(), ifeval_by_instruction()])
def ifeval_scorer() -> Scorer:
    """Score the completion against the sample's verifiable instructions, strict and loose.

    The value holds the per-prompt results (``prompt_level_*``: 1.0 when every instruction
    is followed; ``inst_level_*``: the share followed) and ``num_instructions``; metadata
    holds the per-instruction lists, as the reference's result lines do.
    """

    async def score(state: TaskState, target: Target) -> Score:
        example = example_from_metadata(state.metadata)
        v = check_response(example, state.output.completion)
        n = len(v.strict)
        return Score(
            value={
                "prompt_level_strict": float(v.all_strict),
                "inst_level_strict": sum(v.strict) / n if n else 0.0,
                "prompt_level_loose": float(v.all_loose),
                "inst_level_loose": sum(v.loose) / n if n else 0.0,
                "num_instructions": n,
            },
            answer=state.output.completion,
            explanation=", ".join(
                f"{iid}: strict={s} loose={lo}"
                for iid, s, lo in zip(example.instruction_id_list, v.strict, v.loose, strict=True)
            ),
            metadata={
                "instruction_id_list": list(example.instruction_id_list),
                "follow_instruction_list_strict": list(v.strict),
                "follow_instruction_list_loose": list(v.loose),
            },
        )

    return score
