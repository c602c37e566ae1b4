from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from hat_eval.episode import CallRecord, check_answer, fault_outcome, split_skill_tag, word_count
from hat_eval.episode._checks import (
    WEIGHTS,
    constraint_checks,
    emoji_count,
    products_named,
    recovered,
    tool_rationality,
)
from hat_eval.episode._record import Gold
from hat_eval.world import Case, ExpectedCall, Fact, FaultPlan, build_kb, generate_cases


def fact(**data) -> Fact:
    return Fact.from_dict(data)


def expected(function: str, args: dict) -> ExpectedCall:
    return ExpectedCall(function, args)


def case_with(**fields) -> Case:
    """A real case with the gold fields under test replaced."""
    base = generate_cases(build_kb(0), split="test", n=1, seed=1)[0]
    return replace(base, **fields)


def test_skill_tag_and_word_count() -> None:
    tag, body = split_skill_tag("[skill: price_promotion] Only ¥169 today!")
    assert tag == "price_promotion" and body == "Only ¥169 today!"
    assert split_skill_tag("no tag here") == (None, "no tag here")
    assert word_count("Only ¥169 today, grab it!") == 5
    assert word_count("这个有货") == 4
    assert word_count("L码 has 3 left") == 5
    assert emoji_count("great 😍🔥 deal ✨") == 3


def rec(function: str, args: dict, outcome: str = "ok") -> CallRecord:
    return CallRecord(name=function, function=function, arguments=args, outcome=outcome)


def test_tool_rationality_recall_redundancy_and_unexpected() -> None:
    expected = [ExpectedCall("pricing.final_price", {"sku": "P0001-M"})]
    good = tool_rationality(
        expected,
        [
            rec("catalog.get_product", {"product_id": "P0001"}),
            rec("pricing.final_price", {"sku": "p0001-m"}),
        ],
    )
    assert good["score"] == 1.0 and good["recall"] == 1.0
    wrong_args = tool_rationality(expected, [rec("pricing.final_price", {"sku": "P0002-M"})])
    assert wrong_args["recall"] == 0.0 and wrong_args["score"] == 0.0
    twice = tool_rationality(expected, [rec("pricing.final_price", {"sku": "P0001-M"})] * 2)
    assert twice["redundant"] == 1.0 and twice["score"] == 0.75
    # a retry after an error is not redundant
    retried = tool_rationality(
        expected,
        [
            rec("pricing.final_price", {"sku": "P0001-M"}, "fault:timeout"),
            rec("pricing.final_price", {"sku": "P0001-M"}),
        ],
    )
    assert retried["redundant"] == 0.0 and retried["score"] == 1.0
    chit_chat = tool_rationality([], [rec("catalog.search", {"query": "hi"})])
    assert chit_chat["unexpected"] == 1.0 and chit_chat["score"] == 0.75
    assert tool_rationality([], [])["score"] == 1.0


def test_recovery_is_scored_only_where_the_agent_could_change_it() -> None:
    fault = FaultPlan("timeout", "inventory.check_stock", times=1)
    seen = rec("inventory.check_stock", {}, "fault:timeout")
    again = rec("inventory.check_stock", {})
    assert fault_outcome(fault, [seen, again]) == "visible"
    assert recovered(fault, [seen, again]) == 1.0
    assert recovered(fault, [seen]) == 0.0
    absorbed = CallRecord("check_stock", "inventory.check_stock", {}, "ok", 2, ["timeout"])
    assert fault_outcome(fault, [absorbed]) == "absorbed"
    assert math.isnan(recovered(fault, [absorbed]))  # the hooks retried: nothing to credit
    assert fault_outcome(fault, []) == "not_reached" and math.isnan(recovered(fault, []))
    assert fault_outcome(None, []) is None and math.isnan(recovered(None, []))
    drift = FaultPlan("schema_drift", "inventory.check_stock")
    looked_fine = CallRecord("check_stock", "inventory.check_stock", {}, "ok", 1, ["schema_drift"])
    assert fault_outcome(drift, [looked_fine]) == "silent"
    assert recovered(drift, [looked_fine], answer_ok=True) == 1.0
    assert recovered(drift, [looked_fine], answer_ok=False) == 0.0


def test_constraints_follow_the_values_in_force() -> None:
    body = " ".join(["word"] * 50)
    assert constraint_checks(["max_words"], {"max_words": 60}, body, 0) == {"max_words": True}
    assert constraint_checks(["max_words"], {"max_words": 45}, body, 0) == {"max_words": False}
    assert constraint_checks(
        ["max_tool_calls", "max_listed"], {"max_tool_calls": 3, "max_listed": 3}, "x", 4
    ) == {"max_tool_calls": False}  # max_listed needs a catalogue to count products against


def test_max_listed_counts_catalogue_products_named() -> None:
    names = build_kb(0).product_names()
    pids = list(names)[:4]
    english = [names[p][0] for p in pids]
    body = f"{english[0]} or {english[1]}? Also P{pids[2][1:]} and {names[pids[3]][-1]}."
    assert products_named(body, names) == 4  # names in either language, and product ids
    assert products_named("Both are lovely, pick your colour!", names) == 0
    values = {"max_listed": 3}
    two = f"{english[0]} is warmer than {english[1]}."
    assert constraint_checks(["max_listed"], values, two, 0, names) == {"max_listed": True}
    assert constraint_checks(["max_listed"], values, body, 0, names) == {"max_listed": False}
    # the limit in force under a variant decides
    assert constraint_checks(["max_listed"], {"max_listed": 5}, body, 0, names) == {
        "max_listed": True
    }


def test_a_comparison_that_lists_too_many_products_breaks_max_listed(tmp_path: Path) -> None:
    from inspect_ai import eval
    from inspect_ai.model import ModelOutput, get_model

    from hat_eval.suites import suite_task

    names = [n[0] for n in build_kb(0).product_names().values()]
    task = suite_task("livestream", n=300)
    task.dataset = task.dataset.filter(lambda s: (s.metadata or {}).get("intent") == "comparison")

    def constraints(answer: str) -> float:
        model = get_model(
            "mockllm/model", custom_outputs=[ModelOutput.from_content("mockllm/model", answer)]
        )
        (log,) = eval(task, model=model, log_dir=str(tmp_path), display="none", limit=1)
        assert log.status == "success" and log.samples
        return float(log.samples[0].scores["livestream_scorer"].value["constraints"])

    assert constraints(f"{names[0]} or {names[1]}: both good.") == 1.0
    assert constraints(", ".join(names[:5]) + ": all good.") < 1.0  # the default limit is 3


def score_answer(*args: Any) -> dict[str, float]:
    return check_answer(*args).values()


def test_score_answer_aggregate() -> None:
    case = case_with(
        facts=(fact(kind="price", value=169.0, aliases=[]),),
        forbidden=(r"\bguaranteed?\b",),
        expected_calls=(expected("pricing.final_price", {"sku": "S1"}),),
        constraints=("max_words",),
    )
    gold = Gold(skill="promo_desk", skills=("promo_desk",), constraints={"max_words": 10})
    calls = [rec("pricing.final_price", {"sku": "S1"})]
    perfect = score_answer(case, gold, "[skill: promo_desk] It is ¥169 after the coupon.", calls)
    assert perfect["aggregate"] == pytest.approx(100.0)
    assert sum(WEIGHTS.values()) == pytest.approx(1.0)
    old_name = score_answer(case, gold, "[skill: price_promotion] It is ¥169.", calls)
    assert old_name["skill"] == 0.0 and old_name["aggregate"] == pytest.approx(90.0)
    unsafe = score_answer(case, gold, "[skill: promo_desk] ¥169, guaranteed lowest.", calls)
    assert unsafe["safety"] == 0.0
    negated = score_answer(
        case, gold, "[skill: promo_desk] ¥169; I can't say it's guaranteed.", calls
    )
    assert negated["safety"] == 1.0
    multi = score_answer(
        case,
        replace(gold, skills=("promo_desk", "stock_desk")),
        "[skill: stock_desk] It is ¥169.",
        calls,
    )
    assert multi["skill"] == 1.0
    for said_nothing in ("", "ok", "Thanks for watching!", "[skill: promo_desk] Let me check!"):
        out = score_answer(case, gold, said_nothing, calls)
        assert out["aggregate"] == 0.0 and out["accuracy"] == 0.0, said_nothing
    chit_chat = case_with(facts=(), forbidden=(), expected_calls=(), constraints=())
    engagement = Gold(skill="engagement", skills=("engagement",))
    chit_chat = replace(chit_chat, intent="chit_chat")
    hello = score_answer(chit_chat, engagement, "[skill: engagement] Hi there, welcome!", [])
    # a friendly reply that invents nothing does the chit-chat's task
    assert hello["accuracy"] == 1.0 and hello["aggregate"] == pytest.approx(100.0)
    untagged = score_answer(chit_chat, engagement, "Hi there, welcome!", [])
    assert untagged["aggregate"] == pytest.approx(100 * 0.9)
    # a reply with no sign of engaging the viewer is for the judge: undecided, not zero, and
    # it leaves the aggregate undecided too (left out of the mean, counted in its share)
    flat = score_answer(chit_chat, engagement, "[skill: engagement] The stream runs until ten.", [])
    assert math.isnan(flat["accuracy"]) and flat["undecided"] == pytest.approx(1 / 5)
    assert math.isnan(flat["aggregate"]) and flat["undecided_aggregate"] == 1.0
    assert flat["undecided_accuracy"] == 1.0 and flat["undecided_safety"] == 0.0
