"""The four IFEval accuracies, their standard errors, and the breakdown per instruction."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from hat_eval.stats import ratio_stderr

from ._checks import Verdict

METRICS = (
    "prompt_level_strict_acc",
    "inst_level_strict_acc",
    "prompt_level_loose_acc",
    "inst_level_loose_acc",
)
"""The reference's four numbers, named as lm-eval's IFEval task names them."""


@dataclass(frozen=True)
class TypeAccuracy:
    """Accuracy for one instruction id (``punctuation:no_comma``) or category (``punctuation``)."""

    total: int
    strict: int
    loose: int

    @property
    def strict_acc(self) -> float:
        """Share followed strictly."""
        return self.strict / self.total if self.total else 0.0

    @property
    def loose_acc(self) -> float:
        """Share followed loosely."""
        return self.loose / self.total if self.total else 0.0


@dataclass(frozen=True)
class IFEvalReport:
    """Accuracies over a set of scored prompts.

    Attributes:
        prompts: Prompts scored.
        instructions: Instructions scored (sum over prompts).
        metrics: The four accuracies, keyed by :data:`METRICS`.
        stderr: Their standard errors (:func:`ratio_stderr`), same keys.
        by_instruction: Per instruction id.
        by_category: Per category (the id's part before ``:``).
    """

    prompts: int
    instructions: int
    metrics: dict[str, float]
    stderr: dict[str, float]
    by_instruction: dict[str, TypeAccuracy] = field(default_factory=dict)
    by_category: dict[str, TypeAccuracy] = field(default_factory=dict)


def tally(followed: Iterable[tuple[str, bool, bool]]) -> dict[str, TypeAccuracy]:
    """``(name, strict, loose)`` per instruction -> each name's accuracy, names sorted."""
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for name, strict, loose in followed:
        c = counts[name]
        c[0] += 1
        c[1] += bool(strict)
        c[2] += bool(loose)
    return {k: TypeAccuracy(*counts[k]) for k in sorted(counts)}


def _breakdown(verdicts: Sequence[Verdict], key: int | None) -> dict[str, TypeAccuracy]:
    return tally(
        (iid if key is None else iid.split(":")[0], s, lo)
        for v in verdicts
        for iid, s, lo in zip(v.example.instruction_id_list, v.strict, v.loose, strict=True)
    )


def summarize(verdicts: Iterable[Verdict]) -> IFEvalReport:
    """The reference's report: prompt- and instruction-level accuracy, strict and loose.

    Prompt-level: the share of prompts whose every instruction is followed. Instruction-level:
    followed instructions over all instructions (a micro-average, not a mean of per-prompt
    shares). No prompts give zeros.
    """
    vs = list(verdicts)
    n = [float(len(v.strict)) for v in vs]
    ones = [1.0] * len(vs)
    columns = {
        "prompt_level_strict_acc": ([float(v.all_strict) for v in vs], ones),
        "inst_level_strict_acc": ([float(sum(v.strict)) for v in vs], n),
        "prompt_level_loose_acc": ([float(v.all_loose) for v in vs], ones),
        "inst_level_loose_acc": ([float(sum(v.loose)) for v in vs], n),
    }
    metrics = {k: (sum(y) / sum(t) if sum(t) else 0.0) for k, (y, t) in columns.items()}
    stderr = {k: ratio_stderr(y, t) for k, (y, t) in columns.items()}
    return IFEvalReport(
        prompts=len(vs),
        instructions=int(sum(n)),
        metrics=metrics,
        stderr=stderr,
        by_instruction=_breakdown(vs, None),
        by_category=_breakdown(vs, 0),
    )
