"""Pairwise judging with position swap, ties on disagreement and majority over k samples."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from _helpers import DIMS as RUBRIC
from _helpers import FENCED, grader, output, preferences_json, run_async
from inspect_ai import eval
from inspect_ai.model import ChatMessage, GenerateConfig, Model, ModelOutput

import hat_eval._registry  # noqa: F401  (registers hat/reference)
from hat_eval.episode import Episode
from hat_eval.judge import (
    analyze_study,
    draw_study,
    judge_logs,
    key_json,
    pair_samples,
    pairwise_judge,
    read_judge,
    read_key,
    read_labels,
    write_pairwise,
)
from hat_eval.judge._grader import JUDGE_SEED
from hat_eval.judge._pairwise import OVERALL, PairVerdict, position_consistency, reconcile
from hat_eval.judge._study import Vote
from hat_eval.suites import suite_task

DIMS = [OVERALL, *RUBRIC]
GOOD = "[skill: price] It is 188.91 yuan with today's deal."
BAD = "[skill: price] It is 250 yuan."


def shown(prompt: str) -> tuple[str, str]:
    first, second = FENCED.findall(prompt)
    return first, second


def pairwise_grader(
    pick: Callable[[str, str, str, GenerateConfig], str], log: list[str] | None = None
) -> Model:
    """A scripted grader: ``pick(dimension, first, second, config)`` gives "1", "2" or "tie"."""

    def reply(input: list[ChatMessage], _: Any, __: Any, config: GenerateConfig) -> ModelOutput:
        first, second = shown(input[0].text)
        if log is not None:
            log.append(first)
        return output(preferences_json(lambda d: pick(d, first, second, config), DIMS))

    return grader(reply)


def prefers(text: str) -> Callable[[str, str, str, GenerateConfig], str]:
    """Prefers the answer containing ``text``, wherever it is shown."""

    def pick(_: str, first: str, second: str, __: GenerateConfig) -> str:
        if (text in first) == (text in second):
            return "tie"
        return "1" if text in first else "2"

    return pick


def always_first(*_: Any) -> str:
    return "1"


def compare(judge: Any, episode: Episode, a: str = GOOD, b: str = BAD) -> PairVerdict:
    result = run_async(judge(episode, a, b))
    assert isinstance(result, PairVerdict)
    return result


def test_both_orders_are_shown(episode: Episode) -> None:
    firsts: list[str] = []
    judge = pairwise_judge(model=pairwise_grader(prefers("188.91"), firsts), mode="lookups")
    result = compare(judge, episode)
    assert firsts == [GOOD, BAD]  # A first, then B first
    assert result.costs.calls == 2 and result.costs.total_tokens > 0
    assert result.orders == [{"AB": dict.fromkeys(DIMS, "A"), "BA": dict.fromkeys(DIMS, "A")}]


def test_a_consistent_grader_keeps_its_verdict_across_the_swap(episode: Episode) -> None:
    judge = pairwise_judge(model=pairwise_grader(prefers("188.91")), mode="lookups")
    a_wins = compare(judge, episode)
    b_wins = compare(judge, episode, BAD, GOOD)
    assert a_wins.verdicts == dict.fromkeys(DIMS, "A")
    assert b_wins.verdicts == dict.fromkeys(DIMS, "B")
    assert a_wins.position_inconsistent == 0 and a_wins.comparisons == len(DIMS)
    assert position_consistency([a_wins, b_wins]) == 1.0


def test_a_position_biased_grader_gets_ties_and_low_consistency(episode: Episode) -> None:
    judge = pairwise_judge(model=pairwise_grader(always_first), mode="lookups")
    result = compare(judge, episode)
    assert result.orders[0]["AB"] == dict.fromkeys(DIMS, "A")
    assert result.orders[0]["BA"] == dict.fromkeys(DIMS, "B")
    assert result.verdicts == dict.fromkeys(DIMS, "tie")  # disagreement is a tie
    assert result.position_inconsistent == len(DIMS) == result.comparisons
    assert position_consistency([result]) == 0.0


def test_bias_on_one_dimension_is_counted_on_that_dimension(episode: Episode) -> None:
    fair = prefers("188.91")

    def pick(d: str, first: str, second: str, config: GenerateConfig) -> str:
        return "1" if d == "effectiveness" else fair(d, first, second, config)

    result = compare(pairwise_judge(model=pairwise_grader(pick), mode="lookups"), episode)
    assert result.verdicts["effectiveness"] == "tie"
    assert {d: v for d, v in result.verdicts.items() if d != "effectiveness"} == dict.fromkeys(
        [d for d in DIMS if d != "effectiveness"], "A"
    )
    assert result.position_inconsistent == 1
    assert position_consistency([result]) == pytest.approx(1 - 1 / len(DIMS))


def by_seed(winners: dict[int, str]) -> Callable[[str, str, str, GenerateConfig], str]:
    """Prefers GOOD ("A") or BAD ("B") by the sample's seed, consistently across orders."""

    def pick(_: str, first: str, second: str, config: GenerateConfig) -> str:
        assert config.seed is not None
        wanted = GOOD if winners[config.seed - JUDGE_SEED] == "A" else BAD
        return "1" if first == wanted else "2"

    return pick


def test_majority_over_k_samples(episode: Episode) -> None:
    grader = pairwise_grader(by_seed({0: "A", 1: "B", 2: "A"}))
    three = compare(pairwise_judge(model=grader, k=3, mode="lookups"), episode)
    assert [s[OVERALL] for s in three.samples] == ["A", "B", "A"]
    assert three.verdicts == dict.fromkeys(DIMS, "A")
    assert three.costs.calls == 6 and three.position_inconsistent == 0
    two = compare(pairwise_judge(model=grader, k=2, mode="lookups"), episode)
    assert two.verdicts == dict.fromkeys(DIMS, "tie")  # one each: no majority
    grader_b = pairwise_grader(by_seed({0: "B", 1: "B", 2: "A"}))
    assert compare(pairwise_judge(model=grader_b, k=3, mode="lookups"), episode).verdicts == (
        dict.fromkeys(DIMS, "B")
    )


def test_reconcile() -> None:
    assert reconcile("A", "A") == ("A", True)
    assert reconcile("tie", "tie") == ("tie", True)
    assert reconcile("A", "B") == ("tie", False)
    assert reconcile("B", "tie") == ("tie", False)


def test_malformed_replies_are_retried_then_the_pair_fails(episode: Episode) -> None:
    texts = ["not json", '{"preferences": {"preference": {"winner": "3"}}}']
    result = compare(pairwise_judge(model=grader(texts), retries=1, mode="lookups"), episode)
    assert result.verdicts == {} and result.samples == [] and result.comparisons == 0
    assert result.error is not None and "order AB" in result.error
    assert "preferences.preference.winner" in result.error
    assert position_consistency([result]) is None
    assert result.costs.calls == 2  # BA is not asked once AB failed


def test_agent_mode_pairs_can_use_the_tools(episode: Episode) -> None:
    turns: list[int] = []

    def reply(input: list[ChatMessage], tools: Any, choice: Any, _: Any) -> ModelOutput:
        turns.append(len(input))
        if len(input) == 1:
            return ModelOutput.for_tool_call("mockllm/model", "get_live_session", {})
        first, second = shown(input[0].text)
        return output(preferences_json("1" if "188.91" in first else "2", DIMS))

    result = compare(pairwise_judge(model=grader(reply)), episode)
    assert result.verdicts[OVERALL] == "A"
    assert result.costs.tool_calls == 2 and result.costs.calls == 4


def test_bad_dimension_names_the_choices() -> None:
    with pytest.raises(ValueError, match="'clarity'.*pick from \\['preference'"):
        pairwise_judge(dimensions=["clarity"])


def test_verdicts_feed_study_analyze_and_judge_agreement(tmp_path: Path) -> None:
    (log_a,) = eval(
        suite_task("livestream", n=3), model="hat/reference", log_dir=str(tmp_path), display="none"
    )
    (log_b,) = eval(
        suite_task("livestream", n=3), model="mockllm/model", log_dir=str(tmp_path), display="none"
    )
    assert log_a.status == log_b.status == "success"
    judge = pairwise_judge(model=pairwise_grader(prefers("[skill:")), mode="lookups")
    results = run_async(judge_logs(log_a, log_b, judge))
    items = pair_samples(log_a, log_b)
    assert [r.item_id for r in results] == [i.item_id for i in items]
    assert all(r.verdicts[OVERALL] == "A" for r in results)

    study = write_pairwise(tmp_path / "judge.jsonl", results)
    every = write_pairwise(tmp_path / "judge_all.csv", results, dimensions=None)
    assert read_judge(study) == {i.item_id: "A" for i in items}
    labels = read_labels(every)
    assert len(labels) == len(items) * len(DIMS)
    assert {lb.dimension for lb in labels} == set(DIMS) and {lb.rating for lb in labels} == {"A"}

    placed = draw_study(items, n=len(items), seed=1)
    (tmp_path / "key.json").write_text(json.dumps(key_json(placed, {"seed": 1})))
    key = read_key(tmp_path / "key.json")
    votes = [Vote(p.item.item_id, p.a_side, "ann1", "test") for p in placed]  # humans prefer A
    report = analyze_study(votes, key, read_judge(study))
    assert report.judge is not None
    assert report.judge["n_items"] == len(items)
    assert report.judge["agreement_with_human_majority"] == 1.0
    with pytest.raises(ValueError, match="not .jsonl or .csv"):
        write_pairwise(tmp_path / "judge.txt", results)
