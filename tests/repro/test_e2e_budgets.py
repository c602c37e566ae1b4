"""The end-to-end budgets and arms: what each asks of the machine and of the trainers."""

from __future__ import annotations

from pathlib import Path

import pytest

from hat_eval.repro._budget import (
    BUDGET_NAMES,
    E2E_BUDGETS,
    E2EBudget,
    ReproError,
    get_budget,
    resolve_seeds,
)
from hat_eval.repro._claims import MIN_PAIRS
from hat_eval.repro._e2e_arms import BASE, E2E_ARM_IDS, E2E_ARMS, stage_config
from hat_eval.repro._e2e_eval import suite_limits


# ids not "gpu": a test with that keyword is skipped without --gpu (tests/conftest.py)
@pytest.mark.parametrize("name", ["gpu", "full"], ids=["gpu-budget", "full-budget"])
def test_the_gpu_budgets_need_cuda(name: str) -> None:
    with pytest.raises(ReproError, match=f"--budget {name} needs a CUDA device"):
        get_budget(name, cuda=False)
    assert isinstance(get_budget(name, cuda=True), E2EBudget)


def test_the_smoke_e2e_budget_runs_on_a_cpu() -> None:
    assert "smoke-e2e" in BUDGET_NAMES
    assert get_budget("smoke-e2e", cuda=False) is E2E_BUDGETS["smoke-e2e"]


def test_seeds_default_per_budget_and_full_needs_several() -> None:
    assert resolve_seeds(get_budget("cpu-30m"), None) == 1
    assert resolve_seeds(E2E_BUDGETS["gpu"], None) == 1
    full = E2E_BUDGETS["full"]
    assert resolve_seeds(full, None) == full.default_seeds >= 2
    with pytest.raises(ReproError, match="--seeds \\(1\\) must be >= 2 with --budget full"):
        resolve_seeds(full, 1)
    with pytest.raises(ReproError, match="--seeds \\(0\\) must be >= 1"):
        resolve_seeds(E2E_BUDGETS["gpu"], 0)


def test_full_is_the_gpu_budget_over_seeds() -> None:
    gpu, full = E2E_BUDGETS["gpu"], E2E_BUDGETS["full"]
    for part in ("base", "sft", "opd", "rl", "eval"):
        assert getattr(gpu, part) == getattr(full, part)


def test_only_the_gpu_budgets_run_enough_cases_for_a_verdict() -> None:
    """A smoke run resolves no claim: its handful of cases is below what a verdict reads."""
    for budget in E2E_BUDGETS.values():
        smallest = min(suite_limits(budget.eval).values())
        assert (smallest >= MIN_PAIRS) == budget.needs_cuda, budget.name


def test_the_arms_are_a_pipeline_from_the_base() -> None:
    ids = [a.id for a in E2E_ARMS]
    assert E2E_ARM_IDS == (BASE, *ids) and len(set(ids)) == len(ids)
    assert len({a.folder for a in E2E_ARMS}) == len(E2E_ARMS)
    for i, arm in enumerate(E2E_ARMS):
        assert "-" not in arm.id  # contrasts subtract with '-'
        assert arm.start in (BASE, *ids[:i])  # trained after the arm it starts from
    stages = {(a.stage, a.fixed_harness) for a in E2E_ARMS}
    assert {("sft", True), ("sft", False), ("opd", False), ("rl", True), ("rl", False)} == stages


@pytest.mark.parametrize(
    "budget", list(E2E_BUDGETS.values()), ids=[f"{n}-budget" for n in E2E_BUDGETS]
)
@pytest.mark.parametrize("pretrained", [False, True])
def test_every_stage_of_every_budget_is_a_config_its_trainer_accepts(
    budget: E2EBudget, pretrained: bool, tmp_path: Path
) -> None:
    """The budgets' sizes pass the trainers' own cross-field checks (built here on a CPU)."""
    for arm in E2E_ARMS:
        config = stage_config(
            arm,
            budget,
            start=tmp_path / arm.start,
            out=tmp_path / arm.folder,
            seed=3,
            pretrained=pretrained,
            general_data="prompts.jsonl",
        )
        size = {"sft": budget.sft, "opd": budget.opd, "rl": budget.rl}[arm.stage]
        assert config.max_steps == size.max_steps
        assert config.seed == 3 and config.model_name_or_path == str(tmp_path / arm.start)
        rate = size.pretrained_learning_rate if pretrained else size.learning_rate
        assert config.learning_rate == rate
        if arm.stage != "opd":
            assert config.fixed_harness is arm.fixed_harness and config.augment_seed == 3
        else:
            assert config.general_data == "prompts.jsonl"


def test_rl_on_the_fixed_harness_draws_no_variant() -> None:
    """The hook the fixed-harness RL arm uses: rollouts under the base harness, faults kept."""
    from hat_eval.trainers._rollout import Simulator, train_pool

    pool = train_pool(2)
    fixed = Simulator(pool, fault_share=1.0, fixed_harness=True)
    hsa = Simulator(pool, fault_share=1.0)
    for k in range(4):
        a, b = fixed.draw(k % 2), hsa.draw(k % 2)
        assert a.harness == pool[k % 2].harness and a.gold == pool[k % 2].gold
        assert b.harness.seed is not None
        assert (a.fault is None) == (b.fault is None)  # the same fault draws either way


def test_results_head_names_the_command_that_reruns_the_run() -> None:
    from hat_eval.repro._run import results_head

    built = results_head(
        "smoke-e2e", {}, 2, base="runs/x/base", base_built=True, parameters=10, started_at="t"
    )
    assert built["command"] == "hat-eval repro --budget smoke-e2e --out DIR --seeds 2"
    assert built["seeds"] == [0, 1] and built["base"]["built"] is True
    given = results_head(
        "gpu",
        {},
        1,
        base="ckpt/",
        base_built=False,
        parameters=None,
        started_at="t",
        options=" --ifeval-data if.jsonl",
    )
    assert given["command"] == (
        "hat-eval repro --budget gpu --out DIR --seeds 1 --base ckpt/ --ifeval-data if.jsonl"
    )
