"""Recipes: how an episode set is drawn, as one typed record the episode layer takes as input.

A :class:`Recipe` says how many viewer cases an episode set has and the seed they are drawn with,
and what each case runs under: the default harness, a held-out HSA variant
(:func:`~hat_eval.episode.variant_for`), or a prompt perturbation crossed with a tool fault
(:class:`FaultRecipe`). The episode layer knows no suite: each suite writes its recipe in its
``eval.yaml`` and the suites layer reads it into a :class:`Recipe`
(:func:`hat_eval.suites.suite_recipe`). A change to a recipe changes the data: bump
:data:`~hat_eval.episode.DATASET_VERSION` with it.
"""

from __future__ import annotations

import bisect
import itertools
import math
from dataclasses import dataclass, field

from hat_eval.hsa import DIMENSIONS
from hat_eval.world import FAULT_KINDS

from ._record import HOOK_FAULT

RECIPE_FAULTS: tuple[str, ...] = (*FAULT_KINDS, HOOK_FAULT)
"""What a recipe's faults can be: every tool fault kind, and a checking hook's misfire."""


class RecipeError(ValueError):
    """A recipe field holds a value no episode set can be drawn with.

    ``field`` is the field's dotted path inside the recipe (``faults.kinds.1``), so a reader of a
    recipe file can name the file and the field; ``str(err)`` is ``field: message``.
    """

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")


@dataclass(frozen=True)
class FaultRecipe:
    """The fault each case runs under: case ``i`` gets ``kinds[i % len(kinds)]``.

    A tool fault (:data:`FAULT_KINDS`) hits the case's first required call; ``hook_rejection``
    (:data:`~hat_eval.episode._record.HOOK_FAULT`) makes a checking hook reject the agent's reply
    however good it is. How many calls fail (or replies are rejected) is drawn per case from
    ``times``, on the case's own seed stream.
    """

    kinds: tuple[str, ...] = field(
        default=FAULT_KINDS,
        metadata={
            "help": "fault kinds, cycled by case index (default: every FAULT_KINDS; "
            "hook_rejection: a hook rejects the reply)"
        },
    )
    times: tuple[tuple[int, float], ...] = field(
        default=((1, 1.0),),
        metadata={"help": "(failing calls, probability) pairs; probabilities sum to 1"},
    )

    def __post_init__(self) -> None:
        if not self.kinds:
            raise RecipeError("faults.kinds", "is empty, expected at least one fault kind")
        for i, kind in enumerate(self.kinds):
            if kind not in RECIPE_FAULTS:
                raise RecipeError(
                    f"faults.kinds.{i}",
                    f"{kind!r} is not a fault kind, expected one of {', '.join(RECIPE_FAULTS)}",
                )
        if not self.times:
            raise RecipeError("faults.times", "is empty, expected e.g. {1: 0.6, 2: 0.4}")
        for times, p in self.times:
            if times < 1:
                raise RecipeError(f"faults.times.{times}", "failing calls must be at least 1")
            if not 0 < p <= 1:
                raise RecipeError(f"faults.times.{times}", f"probability {p} must be in (0, 1]")
        total = sum(p for _, p in self.times)
        if not math.isclose(total, 1.0):
            raise RecipeError("faults.times", f"probabilities sum to {total:g}, expected 1")

    def draw_times(self, u: float) -> int:
        """How many calls fail for a case whose uniform draw is ``u`` (in ``[0, 1)``)."""
        cumulative = itertools.accumulate(p for _, p in self.times)
        i = bisect.bisect_right(list(cumulative), u)
        return self.times[min(i, len(self.times) - 1)][0]


@dataclass(frozen=True)
class Recipe:
    """How an episode set is drawn (each suite's comes from its ``eval.yaml``).

    Cases are drawn from the world's generator with ``seed``: ``cases`` of them, or, with
    ``require_calls``, ``cases * pool`` of which the first ``cases`` that require a tool call are
    kept. Each case then runs under the default harness, unless ``variants`` (the held-out HSA
    variant :func:`~hat_eval.episode.variant_for` assigns to its index) or ``perturbations``
    (case ``i`` takes ``perturbations[i % len]``, ``()`` being the default harness, as a variant
    seeded from ``seed`` and ``i``) says otherwise; ``faults`` adds a tool fault to each case.
    With a ``changelog`` (a harness changelog file), each case runs under each of its versions
    instead (:func:`~hat_eval.episode._evolution.evolution_episodes`).
    """

    name: str = field(metadata={"help": "the episode set: sample ids are '<name>-<case id>'"})
    cases: int = field(metadata={"help": "episodes in the set (the default n)"})
    seed: int = field(metadata={"help": "seed of the case draw and of each case's variant/fault"})
    variants: bool = field(
        default=False, metadata={"help": "each case under its held-out HSA variant"}
    )
    perturbations: tuple[tuple[str, ...], ...] = field(
        default=(), metadata={"help": "HSA dimension sets, cycled by case index"}
    )
    faults: FaultRecipe | None = field(
        default=None, metadata={"help": "a tool fault per case (needs require_calls)"}
    )
    pool: int = field(
        default=1, metadata={"help": "draw cases * pool cases to keep `cases` with a call"}
    )
    require_calls: bool = field(
        default=False, metadata={"help": "keep only cases that require a tool call"}
    )
    changelog: str | None = field(
        default=None,
        metadata={"help": "a harness changelog: each case runs under each of its versions"},
    )

    def __post_init__(self) -> None:
        if not self.name:
            raise RecipeError("name", "is empty, expected the episode set's name")
        if self.cases < 1:
            raise RecipeError("cases", f"{self.cases} must be at least 1")
        if self.pool < 1:
            raise RecipeError("pool", f"{self.pool} must be at least 1")
        if self.pool > 1 and not self.require_calls:
            raise RecipeError(
                "pool", f"{self.pool} draws extra cases only to filter them: set require_calls"
            )
        if self.variants and self.perturbations:
            raise RecipeError(
                "perturbations", "cannot be combined with variants: choose one harness draw"
            )
        for i, dims in enumerate(self.perturbations):
            for dim in dims:
                if dim not in DIMENSIONS:
                    raise RecipeError(
                        f"perturbations.{i}",
                        f"{dim!r} is not an HSA dimension, expected one of {', '.join(DIMENSIONS)}",
                    )
        if self.changelog is not None and (
            self.variants or self.perturbations or self.faults or self.require_calls
        ):
            raise RecipeError(
                "changelog",
                "runs each case under each version of the changelog: it cannot be combined "
                "with variants, perturbations, faults or require_calls",
            )
        if self.faults is not None and not self.require_calls:
            raise RecipeError("faults", "a fault needs a tool call to hit: set require_calls: true")
