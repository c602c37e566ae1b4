"""The Agent-as-Judge as HSA-RL's effectiveness reward (``judge_model`` in the RL config)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from hat_eval.episode import AgentRun, Episode, Message, episode_context, oracle_answer
from hat_eval.judge import Calibration
from hat_eval.judge._calibration_map import CalibrationMap
from hat_eval.trainers import TrainError
from hat_eval.trainers._judge_reward import JudgeReward, unit_score
from hat_eval.trainers._rewards import ROLLOUT_KEY, Rewards, Rollout, trl_reward_funcs
from hat_eval.trainers._rl import HSARLConfig
from hat_eval.trainers._rollout import Simulator, train_pool
from tests.judge._helpers import grader, output, ratings_json


@pytest.fixture(scope="module")
def episode() -> Episode:
    base = next(e for e in train_pool(30) if e.case.intent == "price" and e.case.required_calls)
    return Simulator([base]).draw(0)


def _rollout(episode: Episode, final: str) -> Rollout:
    messages = [Message("user", episode.case.message), Message("assistant", final)]
    run = AgentRun(messages=messages, turns=1, answered=True, records=[])
    return Rollout.finish(episode, run)


def _by_answer(scores: dict[str, int]):  # type: ignore[no-untyped-def]
    """A grader rating every dimension by which answer its prompt holds."""

    def reply(input, tools, tool_choice, config):  # type: ignore[no-untyped-def]
        text = "\n".join(str(m.text) for m in input)
        for answer, score in scores.items():
            if answer in text:
                return output(ratings_json(score))
        return output("not json")

    return grader(reply)


@pytest.mark.parametrize(
    ("rating", "reward"), [(1.0, 0.0), (5.0, 1.0), (3.0, 0.5), (4.5, 0.875), (7.0, 1.0)]
)
def test_a_rating_maps_to_a_unit_reward(rating: float, reward: float) -> None:
    assert unit_score(rating) == reward


def test_a_failed_judgement_gives_no_reward() -> None:
    assert unit_score(math.nan) is None


def test_the_judge_rates_each_rollout_of_a_batch(episode: Episode) -> None:
    good = oracle_answer(episode, episode_context(episode))
    bad = "No idea, ask someone else."
    judge = JudgeReward(_by_answer({good: 5, bad: 1}), mode="lookups", concurrency=2)
    rollouts = [_rollout(episode, good), _rollout(episode, bad), _rollout(episode, good)]
    assert judge.many(rollouts) == [1.0, 0.0, 1.0]
    assert judge(rollouts[1]) == 0.0


def test_the_trl_effectiveness_function_reads_the_judge(episode: Episode) -> None:
    good = oracle_answer(episode, episode_context(episode))
    judge = JudgeReward(_by_answer({good: 3}), mode="lookups", retries=0)
    funcs = {f.__name__: f for f in trl_reward_funcs(Rewards(judge=judge))}
    rollouts = [_rollout(episode, good), _rollout(episode, "Something unrelated.")]
    got = funcs["effectiveness"](prompts=None, completions=None, **{ROLLOUT_KEY: rollouts})
    assert got == [0.5, None]  # the second reply is never valid: no verdict, left out


def test_the_calibration_maps_the_rating_before_the_reward(
    episode: Episode, tmp_path: Path
) -> None:
    good = oracle_answer(episode, episode_context(episode))
    path = tmp_path / "calibration.json"
    harsh = CalibrationMap("effectiveness", "thresholds", edges=(4.5,), values=(2.0, 5.0))
    path.write_text(json.dumps(Calibration(maps={"effectiveness": harsh}).to_json()))
    raw = JudgeReward(_by_answer({good: 4}), mode="lookups")
    calibrated = JudgeReward(_by_answer({good: 4}), mode="lookups", calibration=str(path))
    rollout = _rollout(episode, good)
    assert raw(rollout) == 0.75
    assert calibrated(rollout) == 0.25


def test_a_broken_calibration_file_is_a_train_error(tmp_path: Path) -> None:
    path = tmp_path / "calibration.json"
    path.write_text(json.dumps({"version": 99}), encoding="utf-8")
    with pytest.raises(TrainError, match="judge_calibration"):
        JudgeReward(grader([]), calibration=str(path))


def _config(tmp_path: Path, **kwargs: object) -> HSARLConfig:
    return HSARLConfig(output_dir=str(tmp_path / "out"), report_to="none", **kwargs)  # type: ignore[arg-type]


def test_the_rl_config_builds_the_judge_when_it_names_a_model(tmp_path: Path) -> None:
    assert _config(tmp_path).rewards().judge is None
    judge = _config(tmp_path, judge_model="mockllm/model", judge_mode="lookups").rewards().judge
    assert isinstance(judge, JudgeReward)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"judge_model": "mockllm/model", "judge_mode": "vibes"}, "judge_mode 'vibes'"),
        ({"judge_model": "mockllm/model", "judge_calibration": "nope.json"}, "no such file"),
        ({"judge_calibration": "c.json"}, "judge_model is not"),
        ({"judge_model": "mockllm/model", "judge_concurrency": 0}, "judge_concurrency"),
    ],
)
def test_bad_judge_settings_fail_before_training(
    tmp_path: Path, kwargs: dict[str, object], message: str
) -> None:
    with pytest.raises(TrainError, match=message):
        _config(tmp_path, **kwargs)
