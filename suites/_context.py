"""What a sample runs under: its harness (the default, or an HSA variant), world and fault.

Variants are not stored in the dataset: a sample carries the variant's seed and dimensions and
the harness is rebuilt from them (augmentation is deterministic and takes well under 1 ms), so
datasets stay small and a variant can always be reproduced from its log.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hat_eval.harness import Harness, load_harness
from hat_eval.hsa import AugmentationPolicy, Mapping, Variant

if TYPE_CHECKING:  # Inspect loads only where samples are made or scored
    from inspect_ai.dataset import Sample
    from inspect_ai.scorer import Target


@lru_cache(maxsize=8)
def base_harness(path: str | None = None) -> Harness:
    """The harness a suite runs on (the default live-commerce harness when ``path`` is None)."""
    return load_harness(Path(path) if path else None)


def variant_policy(dims: tuple[str, ...], protect: tuple[str, ...] = ()) -> AugmentationPolicy:
    """The policy of a suite variant: exactly ``dims``, each applied, at the default strength."""
    return AugmentationPolicy(
        dims=dims, default_probability=1.0, min_dims=len(dims), protect_skills=frozenset(protect)
    )


@lru_cache(maxsize=4096)
def make_variant(
    harness_path: str | None, seed: int, dims: tuple[str, ...], protect: tuple[str, ...]
) -> Variant:
    """The HSA variant a sample names (cached: samples share few distinct variants per run)."""
    return variant_policy(dims, protect).augment(base_harness(harness_path), seed)


@dataclass(frozen=True)
class SampleContext:
    """Everything one sample's agent and scorers need from its metadata."""

    harness: Harness
    mapping: Mapping
    kb: Any
    session: Any
    fault: dict[str, Any] | None


@lru_cache(maxsize=4)
def knowledge_base(seed: int) -> Any:
    """The world's knowledge base for ``seed`` (built once per process)."""
    from hat_eval.world import build_kb

    return build_kb(seed)


GOLD_FIELDS = ("case", "gold")
"""Row metadata fields a sample carries in its ``target`` (as one JSON text), not its metadata.

The case and its gold are what the scorers check against, so they are the sample's target.
Inspect copies, diffs and summarises sample metadata several times per sample (and shortens
every string in it for the log summary); a target is only copied. Keeping these ~2 KB out of
the metadata is most of what keeps a suite's per-sample overhead near a bare task's. The
dataset files keep them in ``metadata`` as plain JSON objects.
"""


def to_sample(row: dict[str, Any]) -> Sample:
    """The Inspect sample of a dataset row: case and gold as ``target``, the rest as metadata."""
    from inspect_ai.dataset import Sample

    md = row["metadata"]
    gold = {k: md[k] for k in GOLD_FIELDS}
    return Sample(
        id=row["id"],
        input=row["input"],
        target=json.dumps(gold, ensure_ascii=False, separators=(",", ":")),
        metadata={k: v for k, v in md.items() if k not in GOLD_FIELDS},
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


def sample_context(
    metadata: dict[str, Any], case: dict[str, Any], harness_path: str | None = None
) -> SampleContext:
    """Rebuild a sample's harness, knowledge base, live session and fault plan.

    ``case`` is the sample's case (``sample_gold(target)["case"]``).
    """
    from hat_eval.world import LiveSession

    variant = metadata.get("variant") or {}
    if variant.get("seed") is not None:
        v = make_variant(
            harness_path,
            int(variant["seed"]),
            tuple(variant["dims"]),
            tuple(variant.get("protect", ())),
        )
        harness, mapping = v.harness, v.mapping
    else:
        harness, mapping = base_harness(harness_path), Mapping()
    return SampleContext(
        harness=harness,
        mapping=mapping,
        kb=knowledge_base(int(metadata.get("kb_seed", 0))),
        session=LiveSession.from_dict(case["session"]),
        fault=metadata.get("fault_plan"),
    )
