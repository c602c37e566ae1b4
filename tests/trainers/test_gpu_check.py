"""bench/gpu_check.py rehearsed on the CPU (--dry-run): every step runs and the summary is whole."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import torch

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "bench" / "gpu_check.py"


@pytest.mark.slow
def test_the_dry_run_passes_every_step_and_writes_one_summary(tmp_path: Path) -> None:
    out = tmp_path / "summary" / "gpu_check.json"
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), "--dry-run", "--minutes", "4", "--out", str(out)]
        + ["--work", str(tmp_path / "work")],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    summary = json.loads(out.read_text(encoding="utf-8"))
    assert json.loads(proc.stdout) == summary  # printed as written
    assert summary["ok"] is True and summary["elapsed_s"] < summary["budget_s"]
    steps = {s["name"]: s for s in summary["steps"]}
    assert list(steps) == ["build", "run", "sft_fixed", "sft_hsa", "rl", "opd"]
    assert all(s["status"] == "ok" and s["rc"] == 0 for s in steps.values())
    assert summary["device"]["parameters"] > 0 and summary["device"]["cuda"] is False
    run = steps["run"]["result"]
    assert run["status"] == "success" and run["samples"] == run["of"] == 2
    for stage in ("sft_fixed", "sft_hsa", "rl", "opd"):
        result = steps[stage]["result"]
        assert result["global_step"] == 1 and result["use_cpu"] is True
        assert result["seconds_per_step"] > 0
    assert summary["sft_hsa_over_fixed_seconds_per_step"] > 0
    assert summary["gpu_sampler"]["source"] == "none"  # no GPU sampled on the CPU


def test_the_wheel_list_is_what_torch_does_not_bring() -> None:
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), "--wheels"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    names = {line.split("==")[0].lower().replace("_", "-") for line in proc.stdout.split()}
    assert {"inspect-ai", "transformers", "trl", "datasets", "accelerate", "peft"} <= names
    assert not names & {"torch", "sympy", "jinja2", "filelock"}  # torch's own
    assert not names & {"matplotlib", "scikit-learn", "krippendorff", "if-verifiable"}


@pytest.mark.skipif(torch.cuda.is_available(), reason="the machine has a GPU")
def test_without_a_gpu_it_says_so_in_one_line(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), "--out", str(tmp_path / "s.json")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0
    assert "no CUDA device" in proc.stderr and "--dry-run" in proc.stderr
    assert not (tmp_path / "s.json").exists()
