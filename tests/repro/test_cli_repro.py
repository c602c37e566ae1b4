"""``hat-eval repro``: bad input is one line and exit 2; the smoke budget end to end."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import torch
from typer.testing import CliRunner

from hat_eval.cli import app
from hat_eval.repro._arms import arm_progress
from hat_eval.repro._budget import BUDGETS, ReproError
from hat_eval.repro._claims import CLAIMS, VERDICTS
from hat_eval.repro._probe import measure_splits
from hat_eval.repro._run import RESULTS_FILE, SCHEMA, SCORES_FILE, check_out
from tests._cli import one_error_line

runner = CliRunner()


def _repro(*args: str) -> Any:
    return runner.invoke(app, ["repro", *args])


def test_an_unknown_budget_is_one_line(tmp_path: Path) -> None:
    res = _repro("--budget", "cpu-5m", "--out", str(tmp_path / "o"))
    one_error_line(
        res, "error: ", "--budget 'cpu-5m': unknown budget", "cpu-30m, gpu, full, smoke, smoke-e2e"
    )
    assert not (tmp_path / "o").exists()


def test_zero_seeds_is_one_line(tmp_path: Path) -> None:
    res = _repro("--budget", "cpu-30m", "--out", str(tmp_path), "--seeds", "0")
    one_error_line(res, "error: ", "--seeds (0) must be >= 1")


def test_a_base_that_is_not_a_checkpoint_is_one_line(tmp_path: Path) -> None:
    res = _repro("--budget", "cpu-30m", "--out", str(tmp_path / "o"), "--base", "no/such")
    one_error_line(res, "error: ", "--base no/such: no such folder")
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "config.json").write_text("{}")
    res = _repro("--budget", "gpu", "--out", str(tmp_path / "o"), "--base", str(empty))
    one_error_line(res, "error: ", f"--base {empty}: not a checkpoint folder (a tokenizer missing)")


def _results(folder: Path, **fields: Any) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / RESULTS_FILE
    path.write_text(json.dumps({"schema": SCHEMA, **fields}), encoding="utf-8")
    return path


def test_an_output_folder_with_another_runs_results_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "o"
    _results(out, budget="smoke", seeds=[0])
    res = _repro("--budget", "cpu-30m", "--out", str(out))
    one_error_line(
        res,
        "error: ",
        f"--out {out}: holds another run's results.json (budget smoke, seeds 1)",
        "cpu-30m",
    )
    _results(out, budget="cpu-30m", seeds=[0, 1, 2])
    res = _repro("--budget", "cpu-30m", "--out", str(out))
    one_error_line(
        res, "error: ", "(budget cpu-30m, seeds 3), not this one's (budget cpu-30m, seeds 1)"
    )
    (out / RESULTS_FILE).write_text('{"rows": []}', encoding="utf-8")
    res = _repro("--budget", "cpu-30m", "--out", str(out))
    one_error_line(res, "error: ", "not a hat-eval repro run's")
    (out / RESULTS_FILE).write_text("{not json", encoding="utf-8")
    one_error_line(
        _repro("--budget", "smoke", "--out", str(out)), "error: ", "not a hat-eval repro run's"
    )
    a_file = tmp_path / "file"
    a_file.write_text("x")
    one_error_line(
        _repro("--budget", "smoke", "--out", str(a_file)), "error: ", "a file, expected a folder"
    )


def test_the_same_runs_folder_is_taken_again(tmp_path: Path) -> None:
    _results(tmp_path, budget="cpu-30m", seeds=[0, 1])
    check_out(tmp_path, "cpu-30m", 2)  # a rerun of the same run: no error
    with pytest.raises(ReproError, match="seeds 2\\), not this one's \\(budget cpu-30m, seeds 1"):
        check_out(tmp_path, "cpu-30m", 1)


@pytest.mark.parametrize("budget", ["gpu", "full"], ids=["gpu-budget", "full-budget"])
def test_the_gpu_budgets_without_cuda_are_one_line(
    budget: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    res = _repro("--budget", budget, "--out", str(tmp_path / "o"))
    one_error_line(res, "error: ", f"--budget {budget} needs a CUDA device", "smoke-e2e")
    assert not (tmp_path / "o").exists()


def test_full_over_one_seed_is_one_line(tmp_path: Path) -> None:
    res = _repro("--budget", "full", "--out", str(tmp_path), "--seeds", "1")
    one_error_line(res, "error: ", "--seeds (1) must be >= 2 with --budget full")


def test_end_to_end_options_on_a_token_budget_are_one_line(tmp_path: Path) -> None:
    res = _repro("--budget", "smoke", "--out", str(tmp_path), "--ifeval-data", "x.jsonl")
    one_error_line(res, "error: ", "--ifeval-data x.jsonl: --budget smoke runs no suite")
    res = _repro("--budget", "cpu-30m", "--out", str(tmp_path), "--general-data", "p")
    one_error_line(res, "error: ", "--general-data p: --budget cpu-30m runs no suite")


def test_end_to_end_bad_input_is_one_line_before_anything_runs(
    tmp_path: Path, shared_dir: Path
) -> None:
    out = tmp_path / "o"
    res = _repro("--budget", "smoke-e2e", "--out", str(out), "--base", str(tmp_path / "none"))
    one_error_line(res, "error: ", f"--base {tmp_path / 'none'}: no such folder")
    _results(out, budget="smoke", seeds=[0])
    res = _repro("--budget", "smoke-e2e", "--out", str(out))
    one_error_line(res, "error: ", "holds another run's results.json (budget smoke, seeds 1)")
    fresh = tmp_path / "fresh"
    ifeval = shared_dir / "data" / "ifeval" / "input_data.jsonl"
    general = shared_dir / "data" / "general_instructions"
    res = _repro("--budget", "smoke-e2e", "--out", str(fresh), "--ifeval-data", "no.jsonl")
    one_error_line(res, "error: ", "suite ifeval (--ifeval-data): no.jsonl")
    res = _repro(
        "--budget",
        "smoke-e2e",
        "--out",
        str(fresh),
        "--ifeval-data",
        str(ifeval),
        "--general-data",
        str(general / "none.jsonl"),
    )
    one_error_line(res, "error: ", "(--general-data): ", "none.jsonl")
    assert not fresh.exists()  # nothing was built or trained


def test_progress_reads_an_arms_log(tmp_path: Path) -> None:
    budget = BUDGETS["cpu-30m"]
    log = tmp_path / "fixed.log"
    assert arm_progress(log, budget) == "starting"
    log.write_text(
        "Loading weights: 100%\n{'loss': '7.629', 'grad_norm': '3.5'}\n"
        "{'loss': '6.5', 'epoch': '0.1'}\nsome warning\n",
        encoding="utf-8",
    )
    assert arm_progress(log, budget) == f"step 20/{budget.max_steps} loss 6.500"
    with log.open("a", encoding="utf-8") as f:
        f.write("repro: trained 240 steps in 900 s\nrepro: probe 50/1000\n")
    assert arm_progress(log, budget) == "probe 50/1000"


def _weights(folder: Path) -> dict[str, torch.Tensor]:
    from safetensors.torch import load_file

    return load_file(str(folder / "model.safetensors"))


@pytest.mark.slow
def test_the_smoke_budget_runs_end_to_end(tmp_path: Path) -> None:
    out = tmp_path / "run"
    res = _repro("--budget", "smoke", "--out", str(out))
    assert res.exit_code == 0, res.output
    assert "Teacher-forced probe, smoke" in res.stdout
    assert "not resolved at this budget" in res.stdout
    assert f"{out / RESULTS_FILE} written" in res.stdout
    assert "seed 0: both arms trained and probed" in res.stderr
    data = json.loads((out / RESULTS_FILE).read_text(encoding="utf-8"))
    assert data["schema"] == SCHEMA
    assert (data["budget"], data["seeds"]) == ("smoke", [0])
    assert data["config"]["max_steps"] == BUDGETS["smoke"].max_steps
    assert [(m["measure"], m["split"]) for m in data["measures"]] == measure_splits()
    assert [c["id"] for c in data["claims"]] == [c.id for c in CLAIMS]
    assert {c["verdict"] for c in data["claims"]} <= set(VERDICTS)
    arms = {a["arm"]: a for a in data["arms"]}
    assert set(arms) == {"fixed", "hsa"}
    # the same steps and trajectories a step for both arms, from the same base
    assert arms["fixed"]["steps"] == arms["hsa"]["steps"] == BUDGETS["smoke"].max_steps
    assert data["base"]["built"] and data["base"]["parameters"] > 0
    assert data["probe"]["transcripts"] == 2 * BUDGETS["smoke"].test_cases
    assert set(data["timings"]) >= {"base_s", "seeds", "total_s"}
    assert {"torch", "transformers", "trl"} <= set(data["versions"])
    lines = (out / SCORES_FILE).read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2 * data["probe"]["transcripts"]
    # both arms trained: their weights moved away from the base, and apart
    base = _weights(out / "base")
    fixed, hsa = _weights(out / "seed-0" / "fixed"), _weights(out / "seed-0" / "hsa")
    name = "model.layers.0.mlp.up_proj.weight"
    assert not torch.equal(base[name], fixed[name])
    assert not torch.equal(fixed[name], hsa[name])
    # another budget into the same folder is refused, naming the run it holds
    res = _repro("--budget", "cpu-30m", "--out", str(out))
    one_error_line(res, "error: ", "holds another run's results.json (budget smoke, seeds 1)")
