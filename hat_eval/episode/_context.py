"""What an episode runs under: its harness (the default, or an HSA variant), world and fault.

Variants are not stored: an episode carries the variant's seed and dimensions and the harness is
rebuilt from them (augmentation is deterministic and takes well under 1 ms), so datasets stay
small and a variant can always be reproduced from its log.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from hat_eval.harness import Harness, dump_harness, load_harness
from hat_eval.hsa import AugmentationPolicy, Mapping, Variant
from hat_eval.world import FaultPlan, KnowledgeBase, LiveSession

from ._record import Episode, HarnessMismatchError, HarnessRef, HookFault


@lru_cache(maxsize=8)
def base_harness(path: str | None = None) -> Harness:
    """The base harness of a run (the default live-commerce harness when ``path`` is None)."""
    return load_harness(Path(path) if path else None)


@lru_cache(maxsize=8)
def harness_sha256(path: str | None = None) -> str:
    """sha256 of the base harness at ``path`` as :func:`dump_harness` writes it."""
    return hashlib.sha256(dump_harness(base_harness(path)).encode("utf-8")).hexdigest()


def harness_ref(path: str | None = None) -> HarnessRef:
    """A reference to the base harness at ``path`` (no variant)."""
    return HarnessRef(path=path, sha256=harness_sha256(path))


@lru_cache(maxsize=4096)
def make_variant(
    harness_path: str | None, seed: int, dims: tuple[str, ...], protect: tuple[str, ...]
) -> Variant:
    """The HSA variant an episode names (cached: a run shares few distinct variants).

    Its policy applies exactly ``dims``, each at the default strength.
    """
    policy = AugmentationPolicy(
        dims=dims, default_probability=1.0, min_dims=len(dims), protect_skills=frozenset(protect)
    )
    return policy.augment(base_harness(harness_path), seed)


def resolve_harness(ref: HarnessRef) -> tuple[Harness, Mapping]:
    """The harness ``ref`` names and the mapping from the base harness to it.

    Raises:
        HarnessMismatchError: the base file's content is not the one the reference was made
            with (edited since the dataset was built, or another file given).
    """
    actual = harness_sha256(ref.path)
    if actual != ref.sha256:
        raise HarnessMismatchError(
            f"harness {ref.path or 'default'}: sha256 {actual[:12]}... but the sample was built "
            f"with {ref.sha256[:12]}...; the file changed since the dataset was made: run with "
            "the harness file the samples were built from, or rebuild the samples"
        )
    if ref.seed is None:
        return base_harness(ref.path), Mapping()
    v = make_variant(ref.path, ref.seed, ref.dims, ref.protect)
    return v.harness, v.mapping


def knowledge_base(seed: int, shop: str | None = None) -> KnowledgeBase:
    """The world's knowledge base: the shop folder ``shop``, else ``seed``'s (built once).

    ``knowledge_base(0)`` and ``knowledge_base(0, None)`` are the same object.

    Raises:
        PackError: ``shop`` does not validate (one line per problem).
    """
    return _knowledge_base(seed, shop)


@lru_cache(maxsize=4)
def _knowledge_base(seed: int, shop: str | None) -> KnowledgeBase:
    from hat_eval.world import build_kb, load_kb

    return load_kb(shop) if shop is not None else build_kb(seed)


def episode_kb(episode: Episode) -> KnowledgeBase:
    """The knowledge base an episode was generated from and runs against (its shop or seed).

    The one place an episode's world is chosen: the harness's tools, the checks, the oracle,
    the reference policy and the judge's tools all read it through here.
    """
    return knowledge_base(episode.kb_seed, episode.shop)


@dataclass(frozen=True)
class EpisodeContext:
    """The live objects an episode's agent and checks need: harness, world, session and fault."""

    harness: Harness
    mapping: Mapping
    kb: KnowledgeBase
    session: LiveSession
    fault: FaultPlan | None
    hook_fault: HookFault | None = None


def episode_context(episode: Episode) -> EpisodeContext:
    """Rebuild an episode's harness, knowledge base, live session and fault plan."""
    harness, mapping = resolve_harness(episode.harness)
    return EpisodeContext(
        harness=harness,
        mapping=mapping,
        kb=episode_kb(episode),
        session=episode.case.session,
        fault=episode.fault,
        hook_fault=episode.hook_fault,
    )
