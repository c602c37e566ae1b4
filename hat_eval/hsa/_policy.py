"""Which dimensions an augmentation applies, how often and how strongly; batches of variants."""

from __future__ import annotations

import random
from collections.abc import Iterator
from collections.abc import Mapping as MappingABC
from dataclasses import dataclass, field
from types import MappingProxyType

from hat_eval.harness import Harness

from ._mapping import Mapping
from ._transforms import DIMENSIONS, TRANSFORMS

_MASK64 = (1 << 64) - 1


def derive_seed(seed: int, *parts: int) -> int:
    """A well-mixed 63-bit seed from ``seed`` and indices (splitmix64 steps)."""
    x = seed & _MASK64
    for p in (*parts, 0):
        x = (x + 0x9E3779B97F4A7C15 + (p & _MASK64)) & _MASK64
        x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK64
        x ^= x >> 31
    return x >> 1


@dataclass(frozen=True)
class Variant:
    """One augmented harness, the mapping from the original, and the seed that made it."""

    harness: Harness
    mapping: Mapping
    seed: int
    index: int = 0


@dataclass(frozen=True)
class AugmentationPolicy:
    """Which HSA dimensions apply to a variant, with which probability and strength.

    Each dimension in ``dims`` is applied with its ``probability`` (default
    ``default_probability``) at its ``strength`` (default ``default_strength``); at least
    ``min_dims`` of them are applied to every variant. ``protect_skills`` are never masked.
    """

    dims: tuple[str, ...] = DIMENSIONS
    default_probability: float = 0.7
    default_strength: float = 0.5
    probability: MappingABC[str, float] = field(default_factory=dict)
    strength: MappingABC[str, float] = field(default_factory=dict)
    min_dims: int = 1
    protect_skills: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        unknown = [d for d in self.dims if d not in TRANSFORMS]
        if unknown or not self.dims:
            raise ValueError(
                f"dims {list(self.dims)} has unknown or no dimensions {unknown}, expected a "
                f"non-empty subset of {list(DIMENSIONS)}"
            )
        if len(set(self.dims)) != len(self.dims):
            raise ValueError(f"dims {list(self.dims)} repeats a dimension, expected each once")
        for label, table, default in (
            ("probability", self.probability, self.default_probability),
            ("strength", self.strength, self.default_strength),
        ):
            for dim, value in {**{d: default for d in self.dims}, **table}.items():
                if dim not in self.dims:
                    raise ValueError(
                        f"{label} is given for {dim!r}, which is not in dims "
                        f"{list(self.dims)}; add it to dims or drop it"
                    )
                if not 0.0 <= value <= 1.0:
                    raise ValueError(
                        f"{label}[{dim!r}] = {value} is outside [0, 1], "
                        "expected a value between 0 and 1"
                    )
        if not 0 <= self.min_dims <= len(self.dims):
            raise ValueError(
                f"min_dims ({self.min_dims}) must be between 0 and the number of "
                f"dims ({len(self.dims)})"
            )
        # Order dims canonically so a policy is the same whatever order they were given in.
        object.__setattr__(self, "dims", tuple(d for d in DIMENSIONS if d in self.dims))
        object.__setattr__(self, "probability", MappingProxyType(dict(self.probability)))
        object.__setattr__(self, "strength", MappingProxyType(dict(self.strength)))
        object.__setattr__(self, "protect_skills", frozenset(self.protect_skills))

    def _plan(self, rng: random.Random) -> tuple[str, ...]:
        r = rng.random
        chosen = [d for d in self.dims if r() < self.probability.get(d, self.default_probability)]
        missing = [d for d in self.dims if d not in chosen]
        while len(chosen) < self.min_dims:
            chosen.append(missing.pop(int(r() * len(missing))))
        return tuple(d for d in DIMENSIONS if d in chosen)

    def augment(
        self, harness: Harness, seed: int, *, index: int = 0, protect: frozenset[str] = frozenset()
    ) -> Variant:
        """One variant of ``harness``; the same seed gives the same variant.

        One ``random.Random(seed)`` picks the dimensions and drives every transform in turn.
        """
        rng = random.Random(seed)
        mapping = Mapping()
        out = harness
        keep = self.protect_skills | protect
        for dim in self._plan(rng):
            out, step = TRANSFORMS[dim].fn(
                out,
                rng,
                self.strength.get(dim, self.default_strength),
                frozenset(mapping.skill_id(k) or k for k in keep) if keep else keep,
            )
            mapping = mapping.then(step)
        return Variant(out, mapping, seed, index)

    def variants(self, harness: Harness, n: int, seed: int) -> Iterator[Variant]:
        """``n`` variants; variant ``i`` depends only on ``(seed, i)``, not on ``n``."""
        if n < 0:
            raise ValueError(f"n ({n}) must be >= 0")
        for i in range(n):
            yield self.augment(harness, derive_seed(seed, i), index=i)
