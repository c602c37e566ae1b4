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
from typing import Any

from hat_eval.harness import Harness, load_harness
from hat_eval.hsa import AugmentationPolicy, Mapping, Variant


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


PACKED = ("case", "gold")
"""Metadata fields a sample carries as JSON text rather than nested dicts.

Inspect copies, diffs and serialises sample metadata several times per sample; one string
instead of a tree of dicts and lists keeps that cheap (the suites' per-sample overhead would
otherwise be dominated by it). The dataset files keep them as plain JSON objects.
"""


def pack(metadata: dict[str, Any]) -> dict[str, Any]:
    """Dataset-row metadata as a sample carries it (:data:`PACKED` fields as JSON text)."""
    return {k: json.dumps(v, ensure_ascii=False) if k in PACKED else v for k, v in metadata.items()}


def unpacked(metadata: dict[str, Any], key: str) -> Any:
    """A :data:`PACKED` field of sample metadata, as data (accepts unpacked rows too)."""
    value = metadata[key]
    return json.loads(value) if isinstance(value, str) else value


def sample_context(metadata: dict[str, Any], harness_path: str | None = None) -> SampleContext:
    """Rebuild a sample's harness, knowledge base, live session and fault plan."""
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
    case = unpacked(metadata, "case")
    return SampleContext(
        harness=harness,
        mapping=mapping,
        kb=knowledge_base(int(metadata.get("kb_seed", 0))),
        session=LiveSession.from_dict(case["session"]),
        fault=metadata.get("fault_plan"),
    )
