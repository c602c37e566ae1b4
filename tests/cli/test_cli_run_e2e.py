from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.model import ChatMessage, ChatMessageUser, GenerateConfig, ModelOutput, modelapi
from inspect_ai.tool import ToolChoice, ToolInfo
from typer.testing import CliRunner

from hat_eval.cli import app
from hat_eval.suites import ReferencePolicy

runner = CliRunner()
CALLS: dict[str, int] = {}
FAIL_ON: dict[str, str] = {}


class FlakyPolicy(ReferencePolicy):
    """The reference policy, failing once on one viewer message: a run that breaks midway."""

    def __init__(self, model_name: str, **kwargs: Any) -> None:
        super().__init__("reference", **kwargs)

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        message = next(m.text for m in input if isinstance(m, ChatMessageUser))
        if len(input) == 2:  # the first model call of a sample
            CALLS[message] = CALLS.get(message, 0) + 1
        if FAIL_ON.get("message") == message:
            FAIL_ON.clear()
            raise RuntimeError("backend went away")
        return await super().generate(input, tools, tool_choice, config)


@modelapi(name="flakytest")
def flaky_provider() -> type[FlakyPolicy]:
    return FlakyPolicy


def test_run_prints_summary_writes_logs_and_reruns_nothing(tmp_path: Path) -> None:
    args = ["run", "--suite", "livestream", "--limit", "8", "--log-dir", str(tmp_path)]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    assert "hat-eval results" in res.output and "aggregate" in res.output
    logs = sorted(tmp_path.glob("*.eval"))
    assert len(logs) == 1
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    assert sorted(tmp_path.glob("*.eval")) == logs  # finished work is not redone


def test_interrupted_run_resumes_without_redoing_finished_samples(tmp_path: Path) -> None:
    from hat_eval.episode import build_rows

    messages = [r["input"] for r in build_rows("livestream", n=10)]
    FAIL_ON["message"] = messages[6]
    CALLS.clear()
    res = runner.invoke(
        app,
        [
            "run",
            "--suite",
            "livestream",
            "--limit",
            "10",
            "--model",
            "flakytest/x",
            "--log-dir",
            str(tmp_path),
            "--max-connections",
            "1",
        ],
    )
    assert res.exit_code == 0, res.output
    assert "success" in res.output
    # every sample was started once, except the one that failed, which ran again
    assert CALLS[messages[6]] == 2
    assert all(CALLS[m] == 1 for m in messages if m != messages[6]), CALLS


def test_suites_json_lists_counts_and_hashes(shared_dir: Path) -> None:
    data = shared_dir / "data" / "ifeval" / "input_data.jsonl"
    res = runner.invoke(app, ["suites", "--json", "--ifeval-data", str(data)])
    assert res.exit_code == 0, res.output
    suites = {s["name"]: s for s in json.loads(res.stdout)}
    assert {k: v["cases"] for k, v in suites.items()} == {
        "livestream": 1500,
        "variant": 1500,
        "robustness": 1000,
        "ifeval": 541,
    }
    assert sum(v["cases"] for v in suites.values()) >= 4500
    assert all(len(v["sha256"]) == 64 for v in suites.values())
    plain = runner.invoke(app, ["suites"])
    assert plain.exit_code == 0 and "4,541 cases in all" in plain.stdout


@pytest.mark.slow
def test_run_a_local_checkpoint_through_inspect_hf(tmp_path: Path, tiny_checkpoint: Path) -> None:
    from inspect_ai.log import list_eval_logs, read_eval_log

    def aggregate(model: list[str], log_dir: Path) -> float:
        args = ["run", "--suite", "livestream", "--limit", "4", "--log-dir", str(log_dir)]
        res = runner.invoke(app, args + model)
        assert res.exit_code == 0, res.output
        (info,) = list_eval_logs(str(log_dir))
        log = read_eval_log(info.name)
        assert log.status == "success" and len(log.samples) == 4
        if model:
            assert log.eval.model == f"hf/{tiny_checkpoint.resolve()}"
        return float(log.results.scores[0].metrics["aggregate"].value)

    tiny = aggregate(["--model", str(tiny_checkpoint), "--max-tokens", "8"], tmp_path / "tiny")
    reference = aggregate([], tmp_path / "reference")
    # an untrained 2-layer model answers gibberish: it scores, below the reference policy
    assert 0 <= tiny < reference
