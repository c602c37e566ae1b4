"""The judge end to end on a real (tiny, local) checkpoint as the grader, through Inspect's hf/."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

pytest.importorskip("trl", reason="the tiny checkpoint carries TRL's Qwen3 chat template")


@pytest.mark.slow
def test_a_grader_that_cannot_answer_in_json_is_recorded_not_scored(tmp_path: Path) -> None:
    """A random 2-layer model writes noise: every sample is a recorded failure, none a score."""
    from inspect_ai import eval as inspect_eval
    from inspect_ai import score
    from inspect_ai.model import GenerateConfig, get_model

    from hat_eval.judge import agent_judge
    from hat_eval.suites import suite_task
    from hat_eval.trainers import build_tiny_model

    ckpt = build_tiny_model(tmp_path / "grader")
    (log,) = inspect_eval(
        suite_task("livestream", n=2), model="hat/reference", log_dir=str(tmp_path), display="none"
    )
    assert log.status == "success"
    grader = get_model(f"hf/{ckpt}", do_sample=False, device="cpu")
    judged = score(
        log,
        agent_judge(model=grader, mode="lookups", retries=1, config=GenerateConfig(max_tokens=12)),
    )
    assert judged.samples is not None and len(judged.samples) == 2
    for sample in judged.samples:
        assert sample.scores is not None
        s = sample.scores["agent_judge"]
        assert isinstance(s.value, dict)
        assert all(math.isnan(v) for v in s.value.values()), s.value  # no default score
        meta = (s.metadata or {})["judge"]
        assert meta["calls"] == 2  # the first reply and one retry, both malformed
        assert meta["output_tokens"] > 0
        assert (s.metadata or {}).get("judge_error")
