"""Judge-only cases: a team's logged message with no gold, scored by the checks and the judge.

A case of a cases file with no gold facts (:func:`~hat_eval.world.is_judge_only`) keeps what
the checks prove without gold: the category's safety rules, the harness's constraints, the skill
of the intent its words read, and an accuracy failure they can show (a claim the shop does not
support, an invented commitment). The rest is the Agent-as-Judge's, with the shop as its
evidence: accuracy is left undecided for it unless the checks failed it, and tools, which
without the gold's calls nothing can check, do not apply (nor the skill, when the intent was
read from the message rather than given). The score's metadata says
``judge_only: true`` and, per part, ``decided_by``: ``"judge"`` or ``"checks"``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from inspect_ai.solver import TaskState

from hat_eval.episode import PARTS, combine
from hat_eval.suites import episode_of
from hat_eval.world import Case, is_judge_only

JUDGE_ONLY_REASON = "a judge-only case (no gold facts): the judge decides accuracy"
NO_GOLD_PARTS = ("tools",)
"""The parts the checks cannot score without gold and the judge does not rate: not applied."""


def judge_only_sample(state: TaskState) -> Case | None:
    """A running suite sample's case when it is a judge-only case, else None."""
    case = episode_of(state.sample_id, state.metadata, state.target.text).case
    return case if is_judge_only(case) else None


def open_for_judge(
    values: Mapping[str, float], undecided: Mapping[str, str], *, intent_read: bool = False
) -> tuple[dict[str, float], dict[str, str]]:
    """A judge-only sample's numbers: accuracy left to the judge unless the checks failed it.

    The parts of :data:`NO_GOLD_PARTS` become NaN (not applied), and the skill too when the
    case's intent was read from its words (``intent_read``: its ``details`` hold
    :data:`~hat_eval.world.INTENT_READ`), not given; the aggregate is
    recomputed: NaN while a part is undecided, an evasive answer's decided 0 kept.
    """
    out = dict(values)
    still = dict(undecided)
    if out.get("accuracy") != 0.0:
        out["accuracy"] = math.nan
        still["accuracy"] = JUDGE_ONLY_REASON
        out["undecided_accuracy"] = 1.0
    for part in (*NO_GOLD_PARTS, *(("skill",) if intent_read else ())):
        out[part] = math.nan
        still.pop(part, None)
        out[f"undecided_{part}"] = 0.0
    if out.get("aggregate") != 0.0:
        out["aggregate"] = math.nan if still else combine({p: out[p] for p in PARTS})
    out["undecided_aggregate"] = float(math.isnan(out["aggregate"]))
    out["undecided"] = len([p for p in still if p in PARTS]) / len(PARTS)
    return out, still


def decided_by(
    values: Mapping[str, float], undecided: Mapping[str, str], judged: Mapping[str, float]
) -> dict[str, str]:
    """Part -> ``"judge"`` or ``"checks"``, for each part decided (a number, not undecided)."""
    return {
        p: "judge" if p in judged else "checks"
        for p in PARTS
        if p not in undecided and not math.isnan(values.get(p, math.nan))
    }
