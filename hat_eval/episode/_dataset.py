"""Episode sets: viewer cases from the world, each under its harness and fault, with gold in force.

:func:`build_episodes` draws the set a :class:`~hat_eval.episode.Recipe` describes (each suite's
comes from its ``eval.yaml``; this module names no suite) as typed :class:`Episode` records; their
rows are plain JSON (``id``, ``input``, ``metadata``), the same arguments always give the same
bytes, and :func:`dataset_sha256` is what each eval log records. Episodes under an HSA variant
carry its seed and dimensions; gold labels are re-targeted through its mapping. The suites
evaluate the test split; the trainers draw the train split from the same code.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from hat_eval.hsa import DIMENSIONS, derive_seed
from hat_eval.world import Case, FaultPlan, KnowledgeBase, Split

from ._context import base_harness, harness_ref, knowledge_base, make_variant
from ._recipe import Recipe
from ._record import HOOK_FAULT, Episode, Gold, HarnessRef, HookFault

DATASET_VERSION = "6"
"""Bump when case generation or gold changes, so logs from different data are not compared.

6: the hand-off's required call carries a ``reason`` (free: any non-empty one matches).

4: robustness adds the ``hook_rejection`` fault (a hook misfires on a good reply); evolution.
3: gold facts the viewer did not ask for are optional; fees of regions shipping free over a
threshold."""

TRAIN_VARIANT_SEED = 0x5EED_7A1
"""Seed stream of the variants the trainers draw (HSA-SFT, HSA-RL)."""
EVAL_VARIANT_SEED = 0xE7A1_0FF
"""Seed stream of the evaluation variants: held out from training."""

TRAIN_DIM_COMBOS: tuple[tuple[str, ...], ...] = tuple(
    c for k in (1, 2) for c in itertools.combinations(DIMENSIONS, k)
)
"""Dimension sets the training split uses: one or two dimensions at a time."""
HELD_OUT_DIM_COMBOS: tuple[tuple[str, ...], ...] = tuple(
    c for k in (3, 4, 5) for c in itertools.combinations(DIMENSIONS, k)
)
"""Dimension sets only evaluation uses: three or more dimensions combined."""


def variant_for(index: int, split: Split) -> tuple[int, tuple[str, ...]]:
    """The (seed, dimensions) of the variant case ``index`` of ``split`` runs under.

    Training draws from :data:`TRAIN_DIM_COMBOS` on the training seed stream; dev and test draw
    half their cases from combinations training never uses, all on the held-out seed stream.
    """
    if split == "train":
        rng = random.Random(derive_seed(TRAIN_VARIANT_SEED, index))
        return rng.getrandbits(63), TRAIN_DIM_COMBOS[int(rng.random() * len(TRAIN_DIM_COMBOS))]
    rng = random.Random(derive_seed(EVAL_VARIANT_SEED, index, 1 if split == "dev" else 2))
    pool = HELD_OUT_DIM_COMBOS if index % 2 == 0 else TRAIN_DIM_COMBOS
    return rng.getrandbits(63), pool[int(rng.random() * len(pool))]


def gold_for(case: Case, ref: HarnessRef) -> Gold:
    """What is in force for ``case`` under the harness ``ref`` names: skills, limits, tools."""
    skills = case.accepted_skills or (case.expected_skill,)
    if ref.seed is None:
        h = base_harness(ref.path)
        in_force: list[str | None] = list(skills)
    else:
        v = make_variant(ref.path, ref.seed, ref.dims, ref.protect)
        h, in_force = v.harness, [v.mapping.skill_id(s) for s in skills]
    return Gold.in_force(h, in_force)


def _episode(
    recipe: Recipe,
    i: int,
    case: Case,
    base: HarnessRef,
    split: Split,
    kb_seed: int,
    shop: str | None = None,
) -> Episode:
    """Episode ``i`` of ``recipe``: its case under its harness variant, perturbation or fault."""
    ref = base
    fault: FaultPlan | None = None
    hook_fault: HookFault | None = None
    dims: tuple[str, ...] = ()
    if recipe.variants:
        vseed, dims = variant_for(i, split)
        ref = replace(base, seed=vseed, dims=dims, protect=(case.expected_skill,))
    elif recipe.perturbations or recipe.faults:
        rng = random.Random(derive_seed(recipe.seed, i, 0xFA))
        if recipe.perturbations:
            dims = recipe.perturbations[i % len(recipe.perturbations)]
        if dims:
            ref = replace(base, seed=rng.getrandbits(63), dims=dims, protect=(case.expected_skill,))
        if recipe.faults:
            kinds = recipe.faults.kinds
            kind, times = kinds[i % len(kinds)], recipe.faults.draw_times(rng.random())
            if kind == HOOK_FAULT:
                hook_fault = HookFault(times=times)
            else:
                fault = FaultPlan(kind, case.required_calls[0].function, times=times)
    label = "+".join(dims) if dims else "none"
    return Episode(
        id=f"{recipe.name}-{case.id}",
        suite=recipe.name,
        case=case,
        harness=ref,
        fault=fault,
        kb_seed=kb_seed,
        gold=gold_for(case, ref),
        labels={
            "dims": label,
            "held_out": bool(dims) and dims in HELD_OUT_DIM_COMBOS,
            "perturbation": label,
            "fault": fault.kind if fault else hook_fault.kind if hook_fault else "none",
        },
        hook_fault=hook_fault,
        shop=shop,
    )


def build_episodes(
    recipe: Recipe,
    *,
    split: Split = "test",
    n: int | None = None,
    harness: str | None = None,
    kb_seed: int = 0,
    seed: int | None = None,
    versions: str | None = None,
    changelog: str | None = None,
    shop: str | None = None,
    cases: Sequence[Case] | None = None,
) -> list[Episode]:
    """The episodes ``recipe`` draws on ``split`` (``n`` defaults to the recipe's size).

    A suite's episodes: :func:`hat_eval.suites.suite_episodes` (the suite's ``eval.yaml`` read
    into its :class:`Recipe`).

    Args:
        recipe: how the episode set is drawn.
        split: the product split the cases come from.
        n: number of episodes.
        harness: the base harness file (the default live-commerce harness if None).
        kb_seed: seed of the knowledge base.
        seed: case seed (the recipe's if None); variants and faults keep the recipe's seed.
        versions: a recipe with a changelog: the versions to run (``vK`` or ``vA..vB``; all
            if None).
        changelog: a recipe with a changelog: another changelog file to run instead.
        shop: a shop folder (data pack) to draw the cases from and run against, instead of
            the knowledge base of ``kb_seed`` (the same generators, intents, styles and seeds).
        cases: the cases to run (a team's own, :func:`hat_eval.world.read_case_file`) instead
            of generated ones; the recipe's variants and faults are drawn for them as usual.

    Raises:
        HarnessError: the changelog or a version's harness is invalid, or ``versions`` names a
            version it does not have.
    """
    if not isinstance(recipe, Recipe):
        raise TypeError(
            f"build_episodes takes a Recipe, got {recipe!r}; for a suite's episodes call "
            "hat_eval.suites.suite_episodes(name, ...)"
        )
    count = recipe.cases if n is None else n
    case_seed = recipe.seed if seed is None else seed

    def draw(kb: KnowledgeBase) -> Sequence[Case]:
        """A pool of ``count * recipe.pool`` cases: the first of ``cases``, or generated."""
        from hat_eval.world import generate_cases

        pool = count * recipe.pool
        if cases is None:
            drawn = generate_cases(kb, split=split, n=pool, seed=case_seed)
        else:
            drawn = list(cases)[:pool]
        if recipe.require_calls:  # faults need a tool to hit: keep cases with calls
            drawn = [c for c in drawn if c.required_calls][:count]
        return drawn

    if recipe.changelog is not None:
        from hat_eval.harness import load_changelog

        from ._evolution import evolution_episodes

        if harness is not None:
            raise ValueError(
                f"episode set {recipe.name!r} runs the harness versions of a changelog, not "
                f"--harness {harness}: give the changelog instead"
            )
        log = load_changelog(changelog or recipe.changelog)
        return evolution_episodes(recipe, log, draw, versions=versions, kb_seed=kb_seed, shop=shop)
    if versions is not None or changelog is not None:
        raise ValueError(
            f"episode set {recipe.name!r} has no changelog: versions and changelog apply only "
            "to a recipe with one (the evolution suite)"
        )
    kb = knowledge_base(kb_seed, shop)
    base = harness_ref(harness)
    return [
        _episode(recipe, i, case, base, split, kb_seed, shop) for i, case in enumerate(draw(kb))
    ]


def build_rows(recipe: Recipe, **kwargs: Any) -> list[dict[str, Any]]:
    """The dataset rows of :func:`build_episodes` (same arguments), as plain JSON."""
    return [e.to_row() for e in build_episodes(recipe, **kwargs)]


def rows_jsonl(rows: Sequence[dict[str, Any]]) -> bytes:
    """Canonical JSONL bytes of a dataset (sorted keys, UTF-8, one row a line)."""
    return b"".join(
        json.dumps(r, ensure_ascii=False, sort_keys=True).encode("utf-8") + b"\n" for r in rows
    )


def dataset_sha256(rows: Sequence[dict[str, Any]]) -> str:
    """The sha256 of :func:`rows_jsonl` of ``rows``."""
    return hashlib.sha256(rows_jsonl(rows)).hexdigest()
