"""``hat-eval run`` with a local model: suite sizes, connections, templates, progress lines."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import torch
from typer.testing import CliRunner

from hat_eval._checkpoint import (
    CheckpointError,
    check_tools_template,
    tools_chat_template,
    write_tools_template,
)
from hat_eval._device import default_connections
from hat_eval.cli import app
from hat_eval.runner._progress import Progress, Retry, duration, every_s_from_env
from hat_eval.runner._session import limit_notes
from tests._cli import one_error_line

runner = CliRunner()


@pytest.fixture
def captured(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """``eval_set`` replaced by a recorder: the tasks and options a run would start."""
    import inspect_ai

    seen: dict[str, Any] = {}

    def record(tasks: list[Any], **kwargs: Any) -> tuple[bool, list[Any]]:
        seen.update(kwargs, tasks=tasks)
        return True, []

    monkeypatch.setattr(inspect_ai, "eval_set", record)
    return seen


def run(tmp_path: Path, *args: str):  # type: ignore[no-untyped-def]
    logs = tmp_path / "logs"
    return runner.invoke(app, ["run", "--suite", "livestream", "--log-dir", str(logs), *args])


def test_a_limit_above_the_suite_runs_the_whole_suite_and_says_so(
    tmp_path: Path, captured: dict[str, Any]
) -> None:
    res = run(tmp_path, "--limit", "1600")
    assert (
        "livestream has 1,500 cases: --limit 1600 runs all of them (the suite's pinned dataset)"
        in res.stdout
    )
    (task,) = captured["tasks"]
    assert len(task.dataset) == 1500
    assert captured["max_connections"] == 16  # the in-process reference policy


def test_limit_notes_say_when_the_dataset_is_not_the_pinned_one() -> None:
    assert limit_notes(["livestream"], None, None) == []
    assert limit_notes(["livestream"], 1500, 11) == []  # the suite as pinned
    (subset,) = limit_notes(["livestream"], 20, None)
    assert subset == (
        "livestream: --limit 20 runs 20 of its 1,500 cases, a subset whose dataset hash is not "
        "the suite's pinned one"
    )
    (other,) = limit_notes(["robustness"], None, 5)
    assert "--seed 5 draws other cases than the suite's (seed 37)" in other
    assert limit_notes(["ifeval"], 99_999_999, None) == []  # Inspect's limit caps IFEval


def test_connections_default_to_what_the_model_handles(
    tmp_path: Path,
    tiny_checkpoint: Path,
    captured: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert default_connections("hf/ckpt") == 1
    assert default_connections("openai-api/local/qwen") == 16
    run(tmp_path, "--limit", "1", "--model", str(tiny_checkpoint))
    assert captured["max_connections"] == 1
    assert captured["attempt_timeout"] is None  # no server: nothing to time out
    run(tmp_path, "--limit", "1", "--model", str(tiny_checkpoint), "--max-connections", "3")
    assert captured["max_connections"] == 3
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    assert default_connections("hf/ckpt") == 8


def content_only(src: Path, dest: Path) -> Path:
    """A copy of checkpoint ``src`` whose template renders message contents only."""
    shutil.copytree(src, dest)
    (dest / "chat_template.jinja").unlink(missing_ok=True)
    config = dest / "tokenizer_config.json"
    data = json.loads(config.read_text(encoding="utf-8"))
    data["chat_template"] = (
        "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n"
        "{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
    )
    config.write_text(json.dumps(data), encoding="utf-8")
    return dest


def test_a_template_without_tools_stops_the_run_before_it_starts(
    tmp_path: Path, tiny_checkpoint: Path
) -> None:
    ckpt = content_only(tiny_checkpoint, tmp_path / "ckpt")
    line = one_error_line(run(tmp_path, "--limit", "1", "--model", str(ckpt)))
    assert line == (
        f"error: {ckpt}: its chat template cannot run the suites: it does not render tools, "
        "tool calls (the suites give the model tools, its tool calls and their results); give "
        "the tokenizer a template that renders them: `python scripts/gguf_checkpoint.py "
        f"--template-only {ckpt}` writes a ChatML template with tools to "
        f"{ckpt}/chat_template.jinja"
    )
    assert not (tmp_path / "logs").exists()
    write_tools_template(ckpt)  # the fix the line names
    check_tools_template(ckpt)
    assert (ckpt / "chat_template.jinja").read_text(encoding="utf-8") == tools_chat_template()
    assert "chat_template" not in json.loads((ckpt / "tokenizer_config.json").read_text())


def test_a_template_that_raises_on_tools_is_named(tmp_path: Path, tiny_checkpoint: Path) -> None:
    ckpt = content_only(tiny_checkpoint, tmp_path / "ckpt")
    write_tools_template(ckpt, "{% if tools %}{{ raise_exception('no tools here') }}{% endif %}")
    with pytest.raises(CheckpointError, match="it raises TemplateError on a conversation with"):
        check_tools_template(ckpt)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_progress_lines_estimate_the_time_left() -> None:
    lines: list[str] = []
    clock = Clock()
    p = Progress(20, 4, every_s=30, write=lines.append, max_retries=2, clock=clock)
    clock.now = 30
    p.heartbeat()
    assert lines[-1] == (
        "progress: 4 of 20 samples (20%); none finished yet after 30 s (the first is still running)"
    )
    clock.now = 40
    p.sample_done()  # 10 s after the last line: counted, not written
    assert len(lines) == 1
    clock.now = 80
    p.sample_done()
    assert lines[-1] == "progress: 6 of 20 samples (30%), 40.0 s/sample, about 9 min 20 s left"
    p.retry(Retry("local/tiny", 1, 3.0, "AttemptTimeoutError"))
    p.retry(Retry("local/tiny", 1, 3.0, "AttemptTimeoutError"))  # the same kind: counted only
    assert lines[-1] == (
        "retrying: a call to local/tiny failed (AttemptTimeoutError); try 2 of 3 in 3 s (later "
        "retries of this error are counted in the progress lines)"
    )
    p.sample_done(failed=True)
    clock.now = 200
    p.heartbeat()
    assert lines[-1] == (
        "progress: 6 of 20 samples (30%), 1 failed (named when the run ends), 66.7 s/sample, "
        "about 15 min 33 s left; 2 model calls retried"
    )
    assert duration(7300) == "2 h 01 min"


def test_the_last_sample_always_gets_a_line() -> None:
    lines: list[str] = []
    p = Progress(1, every_s=3600, write=lines.append, clock=Clock())
    p.sample_done()
    assert lines == ["progress: 1 of 1 samples (100%), 0.0 s/sample, about 0 s left"]


def test_the_progress_interval_variable_is_checked(tmp_path: Path) -> None:
    assert every_s_from_env({"HAT_EVAL_PROGRESS_S": "5"}) == 5.0
    assert every_s_from_env({}) == 30.0
    with pytest.raises(ValueError, match="HAT_EVAL_PROGRESS_S='-1' is not a number of seconds"):
        every_s_from_env({"HAT_EVAL_PROGRESS_S": "-1"})


def test_a_run_shows_progress_when_output_is_not_a_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HAT_EVAL_PROGRESS_S", "0")
    res = run(tmp_path, "--limit", "2")
    assert res.exit_code == 0, res.output
    assert "progress: 1 of 2 samples (50%), " in res.stdout
    assert "progress: 2 of 2 samples (100%), " in res.stdout and "about 0 s left" in res.stdout
    res = run(tmp_path, "--limit", "2")  # resumed: nothing left to run, no line
    assert res.exit_code == 0 and "progress:" not in res.stdout
    monkeypatch.setenv("HAT_EVAL_PROGRESS_S", "soon")
    line = one_error_line(run(tmp_path, "--limit", "3"))
    assert "HAT_EVAL_PROGRESS_S='soon' is not a number of seconds at least 0" in line
