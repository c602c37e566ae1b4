"""The suites' datasets: viewer cases from the world, each under its harness, with gold in force.

Rows are plain JSON (``id``, ``input``, ``metadata``); the same arguments always give the same
bytes, and :func:`dataset_sha256` is what each eval log records. Variant and robustness rows carry
the seed and dimensions of their HSA variant; gold labels are re-targeted through its mapping.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from hat_eval.hsa import DIMENSIONS, derive_seed

from ._context import base_harness, knowledge_base, make_variant

Suite = Literal["livestream", "variant", "robustness"]
SUITES: tuple[Suite, ...] = ("livestream", "variant", "robustness")
Split = Literal["train", "dev", "test"]

DATASET_VERSION = "1"
"""Bump when case generation or gold changes, so logs from different data are not compared."""


@dataclass(frozen=True)
class SuiteSpec:
    """How many cases a suite has on the test split, and the seed they are drawn with."""

    name: Suite
    cases: int
    seed: int
    description: str


SPECS: dict[str, SuiteSpec] = {
    "livestream": SuiteSpec("livestream", 1500, 11, "viewer questions under the default harness"),
    "variant": SuiteSpec(
        "variant", 1500, 23, "viewer questions, each under a held-out HSA variant of the harness"
    ),
    "robustness": SuiteSpec(
        "robustness", 1000, 37, "tool faults crossed with prompt perturbations"
    ),
}

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

FAULT_KINDS = ("timeout", "server_error", "malformed", "partial", "empty", "schema_drift", "slow")
PERTURBATIONS: tuple[tuple[str, ...], ...] = (
    (),
    ("system_prompt",),
    ("tools",),
    ("hooks",),
    ("skill_content",),
    ("system_prompt", "tools"),
)
"""Prompt perturbations the robustness suite crosses with faults (``()``: the default harness)."""


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


def _gold(
    harness_path: str | None, skills: Sequence[str], variant: dict[str, Any] | None
) -> dict[str, Any]:
    """What is in force under the sample's harness: skill ids, constraint values, tool names."""
    if variant is None:
        h = base_harness(harness_path)
        in_force: list[str | None] = list(skills)
    else:
        v = make_variant(
            harness_path, variant["seed"], tuple(variant["dims"]), tuple(variant["protect"])
        )
        h, in_force = v.harness, [v.mapping.skill_id(s) for s in skills]
    return {
        "skill": in_force[0],
        "skills": [s for s in in_force if s is not None],
        "constraints": {name: c.value for name, c in h.constraints().items()},
        "tools": {t.function: t.name for t in h.tools},
    }


def build_rows(
    suite: str,
    *,
    split: Split = "test",
    n: int | None = None,
    harness: str | None = None,
    kb_seed: int = 0,
    seed: int | None = None,
) -> list[dict[str, Any]]:
    """The dataset rows of ``suite`` on ``split`` (``n`` defaults to the suite's size)."""
    from hat_eval.world import generate_cases

    if suite not in SPECS:
        raise ValueError(f"unknown suite {suite!r}, expected one of {', '.join(SPECS)}")
    spec = SPECS[suite]
    count = spec.cases if n is None else n
    kb = knowledge_base(kb_seed)
    pool = count
    if suite == "robustness":  # faults need a tool to hit: draw more, keep cases with calls
        pool = count * 2
    cases = generate_cases(kb, split=split, n=pool, seed=spec.seed if seed is None else seed)
    if suite == "robustness":
        cases = [c for c in cases if any(not e.optional for e in c.expected_calls)][:count]
    rows = []
    for i, case in enumerate(cases):
        data = case.to_dict()
        variant: dict[str, Any] | None = None
        fault: dict[str, Any] | None = None
        dims: tuple[str, ...] = ()
        if suite == "variant":
            vseed, dims = variant_for(i, split)
            variant = {"seed": vseed, "dims": list(dims), "protect": [case.expected_skill]}
        elif suite == "robustness":
            rng = random.Random(derive_seed(spec.seed, i, 0xFA))
            dims = PERTURBATIONS[i % len(PERTURBATIONS)]
            if dims:
                variant = {
                    "seed": rng.getrandbits(63),
                    "dims": list(dims),
                    "protect": [case.expected_skill],
                }
            target = next(e.function for e in case.expected_calls if not e.optional)
            fault = {
                "kind": FAULT_KINDS[i % len(FAULT_KINDS)],
                "function": target,
                "times": 1 if rng.random() < 0.6 else 2,
            }
        rows.append(
            {
                "id": f"{suite}-{case.id}",
                "input": case.message,
                "metadata": {
                    "suite": suite,
                    "intent": case.intent,
                    "style": case.style,
                    "dims": "+".join(dims) if dims else "none",
                    "held_out": bool(dims) and dims in HELD_OUT_DIM_COMBOS,
                    "perturbation": "+".join(dims) if dims else "none",
                    "fault": fault["kind"] if fault else "none",
                    "fault_plan": fault,
                    "variant": variant,
                    "kb_seed": kb_seed,
                    "gold": _gold(harness, case.accepted_skills or (case.expected_skill,), variant),
                    "case": data,
                },
            }
        )
    return rows


def rows_jsonl(rows: Sequence[dict[str, Any]]) -> bytes:
    """Canonical JSONL bytes of a dataset (sorted keys, UTF-8, one row a line)."""
    return b"".join(
        json.dumps(r, ensure_ascii=False, sort_keys=True).encode("utf-8") + b"\n" for r in rows
    )


def dataset_sha256(rows: Sequence[dict[str, Any]]) -> str:
    """The sha256 of :func:`rows_jsonl` of ``rows``."""
    return hashlib.sha256(rows_jsonl(rows)).hexdigest()


def write_dataset(rows: Sequence[dict[str, Any]], path: str | Path) -> str:
    """Write the canonical JSONL to ``path``; returns its sha256."""
    data = rows_jsonl(rows)
    Path(path).write_bytes(data)
    return hashlib.sha256(data).hexdigest()
