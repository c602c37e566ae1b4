"""The judge caps each grader turn at what its reply format needs; the grader's config wins."""

from __future__ import annotations

from inspect_ai.model import GenerateConfig, get_model

from hat_eval.judge._grader import (
    CLAIM_TOKENS,
    JUSTIFICATION_TOKENS,
    MAX_CLAIMS,
    REPLY_OVERHEAD_TOKENS,
    generate_config,
    judge_max_tokens,
)


def test_the_cap_follows_the_reply_format() -> None:
    assert judge_max_tokens(5, claims=False) == REPLY_OVERHEAD_TOKENS + 5 * JUSTIFICATION_TOKENS
    assert judge_max_tokens(5, claims=True) == 544 + MAX_CLAIMS * CLAIM_TOKENS == 1120


def test_the_grader_config_and_the_judge_config_override_the_cap() -> None:
    grader = get_model("mockllm/model")
    assert generate_config(grader, None, 0, 1120).max_tokens == 1120
    assert generate_config(grader, GenerateConfig(max_tokens=64), 0, 1120).max_tokens == 64
    capped = get_model("mockllm/model", config=GenerateConfig(max_tokens=32))
    assert generate_config(capped, None, 0, 1120).max_tokens == 32
    assert generate_config(grader, None, 2).max_tokens is None  # no cap asked
