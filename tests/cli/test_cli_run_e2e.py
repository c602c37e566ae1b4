from __future__ import annotations

import json
import os
import signal
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.model import ChatMessage, ChatMessageUser, GenerateConfig, ModelOutput, modelapi
from inspect_ai.tool import ToolChoice, ToolInfo
from typer.testing import CliRunner

from hat_eval.baselines import ReferencePolicy
from hat_eval.cli import app

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
        if FAIL_ON.get("always") == message:
            raise RuntimeError("backend is down")
        return await super().generate(input, tools, tool_choice, config)


@modelapi(name="flakytest")
def flaky_provider() -> type[FlakyPolicy]:
    return FlakyPolicy


STOP_ON: dict[str, Any] = {}
"""``message`` -> the signal the scripted model sends itself once that sample has started."""


class InterruptedPolicy(ReferencePolicy):
    """The reference policy; on one viewer message it sends the process a signal (Ctrl-C, kill).

    The signal is sent from inside that sample's model call, so the sample has demonstrably
    started; the call then waits for an event nothing sets: only the run being stopped ends
    it. Were the signal lost, the guard fails the sample (and the test) instead of hanging.
    """

    def __init__(self, model_name: str, **kwargs: Any) -> None:
        super().__init__("reference", **kwargs)

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        import anyio

        message = next(m.text for m in input if isinstance(m, ChatMessageUser))
        if len(input) == 2:
            CALLS[message] = CALLS.get(message, 0) + 1
        if STOP_ON.get("message") == message:
            signum = STOP_ON.pop("signal")
            STOP_ON.clear()
            os.kill(os.getpid(), signum)
            with anyio.fail_after(GUARD_S):  # a guard against a hang, not a timing
                await anyio.Event().wait()  # only the stop ends this sample
            raise AssertionError("the run was not stopped by the signal")
        return await super().generate(input, tools, tool_choice, config)


GUARD_S = 120.0
"""How long a sample waits for the stop before it fails the test instead of hanging."""


@modelapi(name="siginttest")
def sigint_provider() -> type[InterruptedPolicy]:
    return InterruptedPolicy


def test_run_prints_summary_writes_logs_and_reruns_nothing(tmp_path: Path) -> None:
    args = ["run", "--suite", "livestream", "--limit", "8", "--log-dir", str(tmp_path)]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    assert "hat-eval results" in res.output and "aggregate" in res.output
    assert "ran: model hat/reference, agent harness, harness default (embedded)" in res.output
    # the checks' own error travels with the numbers they produce
    (instrument,) = [x for x in res.output.splitlines() if x.startswith("checks vs human")]
    assert instrument.startswith("checks vs human labels, livestream: held-out ")
    assert "undecided" in instrument
    logs = sorted(tmp_path.glob("*.eval"))
    assert len(logs) == 1
    from inspect_ai.log import read_eval_log

    # no live score on the progress line: Inspect's throttled value could differ from the table
    assert read_eval_log(str(logs[0]), header_only=True).eval.config.score_display is False
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    assert sorted(tmp_path.glob("*.eval")) == logs  # finished work is not redone


def test_model_args_and_generation_settings_reach_the_eval(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    args = ["run", "--suite", "livestream", "--limit", "1", "--log-dir", "logs", "--agent", "react"]
    extra = ["-M", "flavour=plain", "--model-arg", "retries=3", "--temperature", "0.5"]
    res = runner.invoke(app, [*args, *extra, "--max-tokens", "64", "--seed", "7"])
    assert res.exit_code == 0, res.output
    assert "agent react" in res.output
    tmp_path = tmp_path / "logs"
    assert f"logs: {tmp_path.resolve()}/" in res.output  # absolute, whatever was given
    from inspect_ai.log import list_eval_logs, read_eval_log

    (info,) = list_eval_logs(str(tmp_path))
    log = read_eval_log(info.name, header_only=True)
    assert log.eval.model_args == {"flavour": "plain", "retries": 3}
    config = log.plan.config
    assert (config.temperature, config.max_tokens, config.seed) == (0.5, 64, 7)


def test_interrupted_run_resumes_without_redoing_finished_samples(tmp_path: Path) -> None:
    from hat_eval.suites._recipes import suite_rows

    messages = [r["input"] for r in suite_rows("livestream", n=10)]
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


@pytest.mark.usefixtures("default_sigint")
@pytest.mark.parametrize(
    ("signum", "code", "what"),
    [(signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "stopped by SIGTERM")],
)
def test_a_stopped_run_exits_non_zero_says_what_remains_and_the_rerun_resumes(
    tmp_path: Path, signum: int, code: int, what: str
) -> None:
    from inspect_ai.log import list_eval_logs, read_eval_log

    from hat_eval.suites._recipes import suite_rows

    messages = [r["input"] for r in suite_rows("livestream", n=10)]
    STOP_ON.update(message=messages[6], signal=signum)
    CALLS.clear()
    log_dir = tmp_path / "my logs"
    args = ["run", "--suite", "livestream", "--limit", "10", "--model", "siginttest/x"]
    args += ["--log-dir", str(log_dir), "--max-connections", "1", "-M", "note=a b"]
    res = runner.invoke(app, args)
    assert res.exit_code == code, res.output
    line = _last_error_line(res)
    assert f"error: {what}: 6 of 10 samples finished, 4 remain" in line
    resume = (
        "hat-eval run --suite livestream --model siginttest/x --limit 10 "
        f"--log-dir '{log_dir}' --max-connections 1 --model-arg 'note=a b'"
    )
    assert line.endswith(f"resume with: {resume}")
    # one summary: the table's count is the last line's; the cancelled sample is no error
    row = next(ln for ln in res.stdout.splitlines() if ln.startswith("│ livestream"))
    assert [c.strip() for c in row.split("│")[1:4]] == ["livestream", "cancelled", "6"]
    assert [ln for ln in res.stderr.splitlines() if ln.strip()] == [line]
    assert "Cancelled" not in res.output and "Completed all tasks" not in res.output
    assert f"`inspect view --log-dir '{log_dir.resolve()}'`" in res.stdout
    (info,) = list_eval_logs(str(log_dir))
    assert read_eval_log(info.name, header_only=True).status == "cancelled"  # not "started"
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    assert all(CALLS[m] == 1 for m in messages[:6]), CALLS  # finished samples are not redone
    assert all(CALLS[m] >= 1 for m in messages[6:]), CALLS


def test_a_sample_failing_for_good_exits_non_zero_with_counts(tmp_path: Path) -> None:
    from hat_eval.suites._recipes import suite_rows

    messages = [r["input"] for r in suite_rows("livestream", n=4)]
    FAIL_ON["always"] = messages[2]
    try:
        res = runner.invoke(
            app,
            ["run", "--suite", "livestream", "--limit", "4", "--model", "flakytest/x"]
            + ["--log-dir", str(tmp_path)],
        )
    finally:
        FAIL_ON.clear()
    assert res.exit_code == 1, res.output
    line = _last_error_line(res)
    assert "3 of 4 samples finished, 1 remain" in line and "resume with: hat-eval run" in line
    # one line for the kind of error, naming the log that holds its traceback; no traceback
    (log,) = tmp_path.glob("*.eval")
    kinds = [ln for ln in res.output.splitlines() if "backend is down" in ln]
    assert kinds == [
        f"1 sample of livestream failed: RuntimeError: backend is down (traceback in {log})"
    ]
    for out in (res.stdout, res.stderr):
        assert "Traceback" not in out and 'File "' not in out and "raise " not in out


def _last_error_line(res) -> str:  # type: ignore[no-untyped-def]
    lines = [ln for ln in res.stderr.splitlines() if ln.startswith("error: ")]
    assert len(lines) == 1, res.stderr
    return lines[0]


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
        "evolution": 2800,  # 400 cases under each of 7 harness versions
    }
    assert sum(v["cases"] for v in suites.values()) >= 4500
    assert all(len(v["sha256"]) == 64 for v in suites.values())
    plain = runner.invoke(app, ["suites"])
    assert plain.exit_code == 0 and "7,341 cases in all" in plain.stdout


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


@pytest.mark.slow
def test_ifeval_on_a_local_checkpoint_decodes_greedily(
    tmp_path: Path, tiny_checkpoint: Path, shared_dir: Path
) -> None:
    """IFEval asks for temperature 0; Inspect's hf provider samples unless told otherwise."""
    from inspect_ai.log import list_eval_logs, read_eval_log

    data = shared_dir / "data" / "ifeval" / "input_data.jsonl"
    args = ["run", "--suite", "ifeval", "--model", str(tiny_checkpoint), "--ifeval-data"]
    res = runner.invoke(
        app, [*args, str(data), "--limit", "2", "--max-tokens", "8", "--log-dir", str(tmp_path)]
    )
    assert res.exit_code == 0, res.output
    (info,) = list_eval_logs(str(tmp_path))
    log = read_eval_log(info.name)
    assert log.status == "success" and len(log.samples or []) == 2
    assert log.eval.model_args == {"do_sample": False}
    assert f"ran: model hf/{tiny_checkpoint.resolve()}, ifeval on bare prompts" in res.output
    assert log.plan.config.temperature == 0.0 and log.plan.config.max_tokens == 8


def test_run_variant_under_progressive_disclosure(tmp_path: Path) -> None:
    args = ["run", "--suite", "variant", "--disclosure", "progressive", "--limit", "5"]
    res = runner.invoke(app, [*args, "--log-dir", str(tmp_path)])
    assert res.exit_code == 0, res.output
    assert "harness default progressive (embedded)" in res.output
    from inspect_ai.log import read_eval_log

    from hat_eval.episode import records_in
    from hat_eval.episode._runtime import skill_loads
    from hat_eval.harness import default_harness_path

    (log_file,) = tmp_path.glob("*.eval")
    log = read_eval_log(str(log_file))
    assert log.eval.metadata is not None
    assert log.eval.metadata["disclosure"] == "progressive"
    assert log.eval.metadata["harness"] == str(default_harness_path("progressive"))
    assert len(log.samples or []) == 5
    for sample in log.samples or []:
        assert skill_loads(records_in(sample.messages)), sample.id  # the skill was loaded
        assert sample.metadata["harness"]["path"] == str(default_harness_path("progressive"))
