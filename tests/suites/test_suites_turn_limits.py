"""The case suites' per-turn token cap and their size: what a local model on a CPU runs."""

from __future__ import annotations

import math
from pathlib import Path

from hat_eval.episode import hook_summary
from hat_eval.episode._hooks import HookRecord
from hat_eval.harness import default_harness_path, dump_harness, load_harness
from hat_eval.harness._load import harness_to_dict, parse_harness
from hat_eval.suites import TaskOptions, make_task, suite_info
from hat_eval.suites._task import (
    DEFAULT_TURN_TOKENS,
    TOKENS_PER_WORD,
    TURN_OVERHEAD_TOKENS,
    turn_token_cap,
)


def test_the_cap_comes_from_the_harness_answer_limit(tmp_path: Path) -> None:
    default = load_harness(default_harness_path())
    most = default.constraints()["max_words"].max
    assert turn_token_cap([None]) == most * TOKENS_PER_WORD + TURN_OVERHEAD_TOKENS == 264
    data = harness_to_dict(default)
    for block in data["system_prompt"]["blocks"]:
        for c in block.get("constraints") or []:
            if c["name"] == "max_words":
                c["max"] = 200
    wider = tmp_path / "wider.yaml"
    wider.write_text(dump_harness(parse_harness(data)), encoding="utf-8")
    assert turn_token_cap([None, str(wider)]) == 200 * TOKENS_PER_WORD + TURN_OVERHEAD_TOKENS
    assert turn_token_cap([]) == DEFAULT_TURN_TOKENS


def test_a_suite_task_caps_tokens_per_turn() -> None:
    task = make_task("livestream", TaskOptions(limit=2))
    assert task.config.max_tokens == turn_token_cap([None])


def test_a_limit_above_the_suite_size_runs_the_pinned_suite() -> None:
    task = make_task("livestream", TaskOptions(limit=99_999_999))  # seconds, not minutes of memory
    info = suite_info("livestream")
    assert len(task.dataset) == info.cases == 1500
    assert task.metadata is not None and task.metadata["dataset_sha256"] == info.sha256


def test_recovered_needs_an_answer_that_does_its_task() -> None:
    records = [HookRecord("reply_format", "reply_format", 1, "reject")]
    records.append(HookRecord("reply_format", "reply_format", 2, "pass"))
    assert hook_summary(records)["hook_recovered"] == 1.0
    assert hook_summary(records, answer_ok=False)["hook_recovered"] == 0.0
    assert math.isnan(hook_summary(records[1:], answer_ok=False)["hook_recovered"])
