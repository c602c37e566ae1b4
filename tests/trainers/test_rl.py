"""HSA-RL: the config's checks, and a few GRPO steps in the simulator on a tiny model."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
import torch

from hat_eval.trainers import TrainError
from hat_eval.trainers._common import RUN_FILE
from hat_eval.trainers._judge_reward import JudgeReward
from hat_eval.trainers._rewards import COMPONENTS, DEFAULT_WEIGHTS, trl_reward_funcs
from hat_eval.trainers._rl import HSARLConfig, train_rl
from tests.judge._helpers import FENCED, grader, output, ratings_json


def _config(tmp_path: Path, **kwargs: Any) -> HSARLConfig:
    return HSARLConfig(output_dir=str(tmp_path / "out"), **kwargs)


@pytest.mark.parametrize(
    ("field", "value", "match"),
    [
        ("weight_accuracy", -1.0, r"weight_accuracy \(-1.0\) must be >= 0"),
        ("weight_overlong", -0.5, r"weight_overlong \(-0.5\) must be >= 0"),
        ("fault_share", 1.5, r"fault_share \(1.5\) must be within \[0, 1\]"),
        ("fault_share", -0.1, r"fault_share \(-0.1\) must be within \[0, 1\]"),
        ("max_turns", 0, r"max_turns \(0\) must be at least 1"),
        ("train_cases", 0, r"train_cases \(0\) must be at least 1"),
        ("think_budget", -1, r"think_budget \(-1\) must be >= 0"),
        ("reward_weights", [1.0, 1.0], r"reward_weights \(\[1.0, 1.0\]\) is derived from"),
        ("max_completion_length", 0, r"max_completion_length \(0\) must be a positive"),
    ],
)
def test_bad_values_raise_one_line_errors(
    tmp_path: Path, field: str, value: object, match: str
) -> None:
    with pytest.raises(TrainError, match=match) as err:
        _config(tmp_path, **{field: value})
    assert "\n" not in str(err.value)


def test_use_vllm_without_vllm_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import hat_eval._device as device

    monkeypatch.setattr(device, "vllm_installed", lambda: False)
    with pytest.raises(TrainError, match=r"use_vllm is set but vllm is not installed"):
        _config(tmp_path, use_vllm=True)


def test_reward_weights_follow_the_weight_fields(tmp_path: Path) -> None:
    config = _config(tmp_path, weight_accuracy=2.0, weight_overlong=0.0)
    expected = [
        2.0 if n == "accuracy" else 0.0 if n == "overlong" else DEFAULT_WEIGHTS[n]
        for n in COMPONENTS
    ]
    assert config.reward_weights == expected
    rewards = config.rewards()
    assert [rewards.weight(n) for n in COMPONENTS] == expected
    assert [f.__name__ for f in trl_reward_funcs(rewards)] == list(COMPONENTS)
    again = _config(tmp_path, weight_accuracy=2.0, weight_overlong=0.0, reward_weights=expected)
    assert again.reward_weights == expected  # a saved config's own weights load back
    assert config.use_cpu == (not torch.cuda.is_available())
    assert all(f.metadata.get("help") for f in _new_fields())


def _new_fields() -> list:
    from dataclasses import fields

    from trl import GRPOConfig

    inherited = {f.name for f in fields(GRPOConfig)}
    return [f for f in fields(HSARLConfig) if f.name not in inherited]


def test_an_empty_train_pool_stops_before_training(
    tmp_path: Path, tiny_base: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import hat_eval.trainers._rl as rl

    def no_trainer(*args: object, **kwargs: object) -> None:
        raise AssertionError("the trainer must not be built for an empty pool")

    monkeypatch.setattr(rl, "train_pool", lambda n, **kw: [])
    monkeypatch.setattr(rl, "GRPOTrainer", no_trainer)
    config = _config(tmp_path, model_name_or_path=str(tiny_base))
    with pytest.raises(TrainError, match=r"train_cases \(64\) gave no live-stream cases"):
        train_rl(config)


def _hash_grader() -> Any:
    """A scripted judge whose ratings depend on the answer's text: distinct answers, distinct
    rewards.

    A random tiny model fails every check alike, so the checks alone give a group no spread and
    GRPO no gradient; the Agent-as-Judge reward (with this grader) spreads it, run inside
    TRL's reward call as in a configured run.
    """

    def reply(input: Any, tools: Any, tool_choice: Any, config: Any) -> Any:
        answers = FENCED.findall("\n".join(str(m.text) for m in input))
        digest = hashlib.sha256((answers[-1] if answers else "").encode()).digest()
        return output(ratings_json(1 + digest[0] % 5))

    return grader(reply)


@pytest.mark.slow
# TRL's unwrap_model_for_generation reads the deprecated `is_gradient_checkpointing` (theirs)
@pytest.mark.filterwarnings("ignore:`is_gradient_checkpointing` is deprecated:FutureWarning")
def test_a_few_grpo_steps_change_the_model_and_log_every_reward(
    tmp_path: Path, tiny_base: Path
) -> None:
    from transformers import AutoModelForCausalLM

    config = _config(
        tmp_path,
        model_name_or_path=str(tiny_base),
        train_cases=4,
        num_generations=2,
        per_device_train_batch_size=2,
        max_completion_length=24,
        max_steps=3,
        max_turns=2,
        learning_rate=5e-3,
        fault_share=0.5,
        logging_steps=1,
        save_strategy="no",
        seed=3,
    )
    result = train_rl(config, judge=JudgeReward(_hash_grader(), mode="lookups"))
    assert result.stage == "rl" and result.global_step == 3
    assert result.info["rollouts"] == 3 * 2 and result.info["train_cases"] == 4
    for name in COMPONENTS:
        assert f"rewards/{name}/mean" in result.metrics
    assert result.metrics["rewards/effectiveness/std"] > 0  # the judge spread the group
    before = AutoModelForCausalLM.from_pretrained(str(tiny_base)).state_dict()
    after = AutoModelForCausalLM.from_pretrained(str(result.output_dir)).state_dict()
    changed = [k for k in before if not torch.equal(before[k], after[k])]
    assert changed
    record = json.loads((result.output_dir / RUN_FILE).read_text(encoding="utf-8"))
    assert record["stage"] == "rl" and record["config"]["reward_weights"] == config.reward_weights
    assert record["config"]["fault_share"] == 0.5
    # written with the template hat-eval run's hf provider renders earlier tool calls with
    from transformers import AutoTokenizer

    from hat_eval.trainers._template import qwen3_templates

    written = AutoTokenizer.from_pretrained(str(result.output_dir)).chat_template
    base_template = AutoTokenizer.from_pretrained(str(tiny_base)).chat_template
    assert written == qwen3_templates(base_template)[1] != base_template
