"""Episodes as Inspect samples, and back: the one place the suites pack and unpack them.

A sample's case and gold travel as its ``target`` (one JSON text), the rest of the episode
(labels, variant, fault plan, knowledge-base seed, base harness reference) as its metadata.
Inspect copies, diffs and summarises sample metadata several times per sample (and shortens every
string in it for the log summary); a target is only copied. Keeping the ~2 KB of case and gold out
of the metadata is most of what keeps a suite's per-sample overhead near a bare task's. The
solver and the scorer both read the episode back with :func:`episode_of`, so they cannot
disagree about the harness in force.
"""

from __future__ import annotations

import json
from typing import Any

from inspect_ai.dataset import Sample
from inspect_ai.scorer import Target

from hat_eval.episode import Episode

GOLD_FIELDS = ("case", "gold")
"""Episode fields a sample carries in its ``target`` (as one JSON text), not its metadata."""
HARNESS_KEY = "harness"
"""The metadata key holding the base harness reference (``{"path", "sha256"}``)."""


def to_sample(episode: Episode) -> Sample:
    """The Inspect sample of an episode: case and gold as ``target``, the rest as metadata."""
    gold = {"case": episode.case.to_dict(), "gold": episode.gold.to_dict()}
    return Sample(
        id=episode.id,
        input=episode.case.message,
        target=json.dumps(gold, ensure_ascii=False, separators=(",", ":")),
        metadata={**episode.metadata(), HARNESS_KEY: episode.harness.base_dict()},
    )


def sample_gold(target: Target | str) -> dict[str, Any]:
    """``{"case": ..., "gold": ...}`` from a sample's target (as :func:`to_sample` wrote it)."""
    text = target if isinstance(target, str) else target.text
    try:
        gold = json.loads(text)
    except ValueError:
        gold = None
    if not isinstance(gold, dict) or any(k not in gold for k in GOLD_FIELDS):
        raise ValueError(
            f"sample target {text[:60]!r}: expected the JSON object with 'case' and 'gold' "
            "that hat-eval's suites write; score these samples with the suite that made them"
        )
    return gold


def episode_of(sample_id: str | int, metadata: dict[str, Any], target: Target | str) -> Episode:
    """The episode a sample (or a task state) carries."""
    if HARNESS_KEY not in metadata:
        raise ValueError(
            f"sample {sample_id}: metadata has no {HARNESS_KEY!r} reference; expected a sample "
            "made by hat-eval's suites (hat_eval.suites.to_sample)"
        )
    gold = sample_gold(target)
    return Episode.from_parts(
        str(sample_id), metadata, gold["case"], gold["gold"], metadata[HARNESS_KEY]
    )
