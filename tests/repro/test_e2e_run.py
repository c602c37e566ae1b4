"""``hat-eval repro --budget smoke-e2e``: the whole end-to-end pipeline on a CPU, tiny."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch
from typer.testing import CliRunner

from hat_eval.cli import app
from hat_eval.repro._budget import E2E_BUDGETS
from hat_eval.repro._claims import CLAIMS, MIN_PAIRS, UNRESOLVED
from hat_eval.repro._contrast import E2E_MEASURES
from hat_eval.repro._e2e_arms import BASE, E2E_ARM_IDS, E2E_ARMS, arm_folder
from hat_eval.repro._e2e_eval import E2E_SUITES, suite_limits
from hat_eval.repro._run import RESULTS_FILE, SCHEMA
from tests._cli import one_error_line

runner = CliRunner()
BUDGET = E2E_BUDGETS["smoke-e2e"]


def _weights(folder: Path) -> dict[str, torch.Tensor]:
    from safetensors.torch import load_file

    return load_file(str(folder / "model.safetensors"))


def test_the_smoke_e2e_budget_trains_every_arm_and_runs_every_suite(
    tmp_path: Path, shared_dir: Path
) -> None:
    out = tmp_path / "run"
    data = shared_dir / "data"
    res = runner.invoke(
        app,
        [
            "repro",
            "--budget",
            "smoke-e2e",
            "--out",
            str(out),
            "--ifeval-data",
            str(data / "ifeval" / "input_data.jsonl"),
            "--general-data",
            str(data / "general_instructions"),
        ],
    )
    assert res.exit_code == 0, res.output
    assert "End to end, smoke-e2e" in res.stdout
    assert f"{out / RESULTS_FILE} written" in res.stdout
    # progress lines reach the terminal while the trainers' and Inspect's output goes to logs
    for arm in E2E_ARMS:
        assert f"seed 0: training {arm.id} ({arm.stage}" in res.stderr
    total = len(E2E_ARM_IDS) * len(E2E_SUITES)
    assert f"seed 0: {total} suite runs finished" in res.stderr
    assert "'loss'" not in res.stderr

    d = json.loads((out / RESULTS_FILE).read_text(encoding="utf-8"))
    assert (d["schema"], d["budget"], d["seeds"]) == (SCHEMA, "smoke-e2e", [0])
    assert d["base"]["built"] and d["base"]["parameters"] > 0
    assert [a["arm"] for a in d["arms"]] == [a.id for a in E2E_ARMS]

    # every arm trained by its stage, from the arm it descends from, the budget's steps
    stages = {s["arm"]: s for s in d["stages"]}
    assert list(stages) == [a.id for a in E2E_ARMS]
    for arm in E2E_ARMS:
        s = stages[arm.id]
        assert s["stage"] == arm.stage
        size = {"sft": BUDGET.sft, "opd": BUDGET.opd, "rl": BUDGET.rl}[arm.stage]
        assert s["steps"] == size.max_steps
        start = out / "base" if arm.start == BASE else out / "seed-0" / arm_folder(arm.start)
        assert s["start"] == str(start)
        if arm.stage != "opd":
            assert s["info"]["fixed_harness"] is arm.fixed_harness
    seed = out / "seed-0"
    base = _weights(out / "base")
    fixed, hsa = _weights(seed / "fixed_sft"), _weights(seed / "hsa_sft")
    name = "model.layers.0.mlp.up_proj.weight"
    assert not torch.equal(base[name], fixed[name]) and not torch.equal(fixed[name], hsa[name])
    assert not torch.equal(hsa[name], _weights(seed / "hsa_sft_opd")[name])  # OPD trained

    # every model ran every suite once, on the budget's cases, through Inspect logs
    from hat_eval.reports import read_logs

    models = {m["model"]: m["arm"] for m in d["evaluation"]["models"]}
    assert sorted(models.values()) == sorted(E2E_ARM_IDS)
    logs = read_logs([seed / "logs"])
    assert {(models[s.candidate.model], s.suite) for s in logs} == {
        (arm, suite) for arm in E2E_ARM_IDS for suite in E2E_SUITES
    }
    limits = suite_limits(BUDGET.eval)
    assert d["evaluation"]["limits"] == limits
    for s in logs:
        # an evolution case is answered under every version of its changelog
        per_case = (
            len(s.log.eval.metadata["changelog"]["versions"]) if s.suite == "evolution" else 1
        )
        assert len(s.answers) == limits[s.suite] * per_case, s.suite

    # the comparison is hat-eval report's, the base its baseline
    md = Path(d["report"]["markdown"]).read_text(encoding="utf-8")
    assert f"## Compared with hf/{(out / 'base').resolve()}" in md
    assert Path(d["report"]["html"]).is_file()
    columns = {(c["arm"], c["column"]) for c in d["table"]}
    for arm in E2E_ARM_IDS:
        for column in ("livestream", "variant", "evolution", "ifeval_prompt_level_strict"):
            assert (arm, column) in columns

    # each end-to-end claim's contrast measured on every case the models share
    e2e = [c for c in CLAIMS if c.measure in E2E_MEASURES]
    measured = {(m["measure"], m["contrast"]): m for m in d["measures"]}
    assert set(measured) == {(c.measure, c.contrast) for c in e2e}
    for (measure, _), m in measured.items():
        assert m["n"] == limits[E2E_MEASURES[measure].suite]
        assert m["low"] <= m["diff"] <= m["high"]
    # a handful of cases resolves nothing, and nothing unmeasured is asserted
    claims = {c["id"]: c for c in d["claims"]}
    assert list(claims) == [c.id for c in CLAIMS]
    for c in CLAIMS:
        got = claims[c.id]
        assert got["verdict"] == UNRESOLVED
        if c.measure in E2E_MEASURES:
            assert f"fewer than the {MIN_PAIRS}" in got["reason"]
            assert got["evidence"]["n"] == measured[(c.measure, c.contrast)]["n"]
        else:
            assert "needs --budget cpu-30m" in got["reason"] and "evidence" not in got
    assert set(d["timings"]) >= {"base_s", "seeds", "report_s", "total_s"}

    # another budget into the same folder is refused, naming the run it holds
    res = runner.invoke(app, ["repro", "--budget", "smoke", "--out", str(out)])
    one_error_line(res, "error: ", "holds another run's results.json (budget smoke-e2e, seeds 1)")


def test_progress_lines_come_while_long_work_runs() -> None:
    import time

    from hat_eval.repro._e2e import heartbeat

    lines: list[str] = []
    t0 = time.monotonic()
    with heartbeat(lines.append, "seed 0 hsa_sft", lambda: "step 3/400", 0.05, t0):
        time.sleep(0.3)
    assert lines and all(ln.endswith("seed 0 hsa_sft: step 3/400") for ln in lines)
    assert lines[0].startswith("  [ 0:00] ")
    count = len(lines)
    time.sleep(0.15)
    assert len(lines) == count  # it stops with the work


def test_the_error_pairs_give_the_evolution_reports_error_reduction() -> None:
    """What an error-reduction contrast reads is the report's own reduction, case by case."""
    from hat_eval.reports import error_pairs, error_reduction
    from hat_eval.reports._evolution import EvolutionAnswer, evolution_report

    order = ["v1", "v2", "v3"]
    answers = []
    for i, (first, last) in enumerate([(1, 0), (1, 1), (1, 0), (0, 0), (0, 1)]):
        answers.append(EvolutionAnswer(f"c{i}", "v1", {"error": float(first)}))
        answers.append(EvolutionAnswer(f"c{i}", "v3", {"error": float(last)}))
    answers.append(EvolutionAnswer("c9", "v1", {"error": 1.0}))  # no answer under v3: no pair
    pairs = error_pairs(answers, order)
    assert sorted(pairs) == ["c0", "c1", "c2", "c3", "c4"]
    # errors 3 of 5 under v1, 2 of 5 under v3: a third of them gone
    assert error_reduction(list(pairs.values())) == pytest.approx(1 / 3)
    report = evolution_report(answers, [], order, n_boot=100)
    assert report.error_reduction is not None
    assert report.error_reduction.value == pytest.approx(1 / 3)
    assert error_pairs(answers[:1], order) == {}  # one version run: nothing to reduce
