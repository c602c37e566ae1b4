from __future__ import annotations

import os
import subprocess
import sys

import pytest

from hat_eval.episode import dataset_sha256, rows_jsonl
from hat_eval.episode._context import make_variant
from hat_eval.episode._dataset import HELD_OUT_DIM_COMBOS, TRAIN_DIM_COMBOS
from hat_eval.suites import case_suites
from hat_eval.suites._recipes import suite_rows
from hat_eval.world import FAULT_KINDS


@pytest.fixture(scope="module")
def full() -> dict[str, list[dict]]:
    return {name: suite_rows(name) for name in case_suites()}


def test_suite_sizes(full) -> None:
    assert {k: len(v) for k, v in full.items()} == {
        "livestream": 1500,
        "variant": 1500,
        "robustness": 1000,
        "evolution": 2800,  # 400 cases under each of 7 harness versions
    }


def test_same_arguments_same_bytes(full) -> None:
    assert rows_jsonl(suite_rows("variant")) == rows_jsonl(full["variant"])
    assert dataset_sha256(suite_rows("livestream", seed=5, n=50)) != dataset_sha256(
        full["livestream"][:50]
    )


def test_hash_does_not_depend_on_pythonhashseed(full) -> None:
    code = (
        "from hat_eval.episode import dataset_sha256;"
        "from hat_eval.suites._recipes import suite_rows;"
        "print(dataset_sha256(suite_rows('robustness', n=60)))"
    )
    hashes = {
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        ).stdout.strip()
        for seed in ("1", "999")
    }
    assert hashes == {dataset_sha256(full["robustness"][:60])}


def test_splits_have_disjoint_products() -> None:
    def products(split: str) -> set[str]:
        rows = suite_rows("livestream", split=split, n=300)
        return {p for r in rows for p in r["metadata"]["case"]["product_ids"]}

    train, dev, test = products("train"), products("dev"), products("test")
    assert train and dev and test
    assert not train & test and not train & dev and not dev & test


def test_variant_dims_held_out_from_training(full) -> None:
    train = suite_rows("variant", split="train", n=200)
    train_dims = {tuple(r["metadata"]["variant"]["dims"]) for r in train}
    assert train_dims <= set(TRAIN_DIM_COMBOS)
    test_dims = [tuple(r["metadata"]["variant"]["dims"]) for r in full["variant"]]
    held = [d for d in test_dims if d in HELD_OUT_DIM_COMBOS]
    assert len(held) >= 700 and not set(held) & train_dims
    train_seeds = {r["metadata"]["variant"]["seed"] for r in train}
    assert not train_seeds & {r["metadata"]["variant"]["seed"] for r in full["variant"]}


def test_gold_is_retargeted_to_the_variant(full) -> None:
    renamed = 0
    for row in full["variant"][:300]:
        md = row["metadata"]
        v = make_variant(
            None,
            md["variant"]["seed"],
            tuple(md["variant"]["dims"]),
            tuple(md["variant"]["protect"]),
        )
        expected = md["case"]["expected_skill"]
        assert md["gold"]["skill"] == v.mapping.skill_id(expected)
        v.harness.skill(md["gold"]["skill"])  # the gold skill exists in the variant
        assert md["gold"]["constraints"] == {n: c.value for n, c in v.harness.constraints().items()}
        assert md["gold"]["tools"] == {t.function: t.name for t in v.harness.tools}
        renamed += md["gold"]["skill"] != expected
    assert renamed > 50


def test_robustness_crosses_every_fault_with_perturbations(full) -> None:
    rows = full["robustness"]
    assert {r["metadata"]["fault"] for r in rows} == {*FAULT_KINDS, "hook_rejection"}
    assert len({r["metadata"]["perturbation"] for r in rows}) >= 5
    for r in rows:
        plan = r["metadata"]["fault_plan"]
        if r["metadata"]["fault"] == "hook_rejection":  # a hook misfires, no tool fails
            assert plan is None and r["metadata"]["hook_fault"]["times"] in (1, 2)
            continue
        required = {
            c["function"] for c in r["metadata"]["case"]["expected_calls"] if not c["optional"]
        }
        assert plan["function"] in required and plan["times"] in (1, 2)
