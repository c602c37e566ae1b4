"""Hooks that check: each rejects what it should and nothing else, in the one agent loop."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import pytest

from hat_eval.episode import (
    TRACE_KEY,
    CallRecord,
    EpisodeContext,
    HookFault,
    Message,
    ToolCall,
    hook_fault_values,
    hook_records_in,
    knowledge_base,
    run_agent,
)
from hat_eval.episode._hooks import HOOK_KEY, HookRecord
from hat_eval.harness import Harness, default_harness_path, dump_harness, load_harness
from hat_eval.harness._load import harness_to_dict, parse_harness
from hat_eval.hsa import TRANSFORMS
from hat_eval.world import Case, generate_cases
from tests.episode._helpers import context, scripted

PROGRESSIVE = str(default_harness_path("progressive"))
MSG = "REJECTED[{hook}] {reason} ({left} left)"


def with_checks(harness: Harness, *checks: dict[str, Any]) -> Harness:
    data = harness_to_dict(harness)
    data["hooks"]["checks"] = [{"message": MSG, **c} for c in checks]
    return parse_harness(data)


@pytest.fixture(scope="module")
def case() -> Case:
    cases = generate_cases(knowledge_base(0), split="test", n=60, seed=11)
    return next(c for c in cases if c.expected_skill == "price_promotion")


def calls(*pairs: tuple[str, dict[str, Any]]) -> Message:
    return Message(
        "assistant",
        "",
        tool_calls=tuple(ToolCall(f"c{i}", n, a) for i, (n, a) in enumerate(pairs)),
    )


def say(text: str) -> Message:
    return Message("assistant", text)


def tool_name(harness: Harness, function: str) -> str:
    tool = harness.tool_for(function)
    assert tool is not None
    return tool.name


# -- the harness -------------------------------------------------------------------------------


def test_the_default_harnesses_ship_without_checks() -> None:
    for path in (None, PROGRESSIVE):
        h = load_harness(path)
        assert h.hooks.checks == ()
        assert "checks" not in harness_to_dict(h)["hooks"]  # dumps and hashes as before


def test_checks_round_trip_and_name_defaults_to_the_trigger() -> None:
    h = with_checks(load_harness(), {"trigger": "reply_format", "budget": 1, "role": "system"})
    (check,) = h.hooks.checks
    assert (check.name, check.budget, check.role, check.enabled) == (
        "reply_format",
        1,
        "system",
        True,
    )
    assert parse_harness(harness_to_dict(h)) == h
    assert "checks:" in dump_harness(h)


# -- tool_arguments ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def args_harness() -> Harness:
    return with_checks(load_harness(), {"trigger": "tool_arguments", "budget": 10})


def bad_arguments(case: Case) -> list[tuple[str, dict[str, Any], str]]:
    kb = knowledge_base(0)
    pid = case.session.product_on_screen
    other = next(p["id"] for p in kb.products() if p["id"] != pid)
    other_sku = kb.skus(other)[0]["sku"]
    return [
        ("inventory.check_stock", {}, "missing required argument 'product_id'"),
        ("inventory.check_stock", {"product_id": pid, "colour": "red"}, "unknown argument"),
        ("pricing.final_price", {"sku": kb.skus(pid)[0]["sku"], "quantity": "two"}, "integer"),
        ("catalog.get_product", {"product_id": "P9999"}, "'P9999' is unknown"),
        ("pricing.final_price", {"sku": f"{pid}-ZZ-NOPE"}, "is unknown"),
        ("inventory.check_stock", {"product_id": pid, "sku": other_sku}, "belongs to product"),
    ]


def good_arguments(case: Case) -> list[tuple[str, dict[str, Any]]]:
    kb = knowledge_base(0)
    pid = case.session.product_on_screen
    sku = kb.skus(pid)[0]["sku"]
    return [
        ("inventory.check_stock", {"product_id": pid}),
        ("inventory.check_stock", {"product_id": pid, "sku": sku}),
        ("pricing.final_price", {"sku": sku, "quantity": 2}),
        ("catalog.search", {"query": "cream"}),
        ("live.session_context", {}),
    ]


@pytest.mark.parametrize("renamed", [False, True], ids=["base", "tools_renamed"])
def test_tool_arguments_rejects_bad_calls_only(
    args_harness: Harness, case: Case, renamed: bool
) -> None:
    h = TRANSFORMS["tools"](args_harness, seed=3, strength=1.0)[0] if renamed else args_harness
    if renamed:
        assert h.tools[0].name != args_harness.tools[0].name
    bad = bad_arguments(case)
    good = good_arguments(case)
    turn = calls(
        *[(tool_name(h, f), a) for f, a, _ in bad], *[(tool_name(h, f), a) for f, a in good]
    )
    generate, seen = scripted([turn, say("Done.")])
    run = run_agent(context(h, case), [Message("user", case.message)], generate, seed=1)
    tool_messages = [m for m in seen[1] if m.role == "tool"]
    assert len(tool_messages) == len(bad) + len(good)
    for m, (_, _, why) in zip(tool_messages, bad, strict=False):
        assert m.content.startswith("REJECTED[tool_arguments]") and why in m.content, m.content
        assert CallRecord.from_dict(m.metadata[TRACE_KEY]).outcome == "rejected"  # type: ignore[index]
    for m in tool_messages[len(bad) :]:
        record = CallRecord.from_dict(m.metadata[TRACE_KEY])  # type: ignore[index]
        assert record.outcome == "ok" and not m.content.startswith("REJECTED"), m.content
    verdicts = [r.verdict for r in run.hooks]
    assert verdicts == ["reject"] * len(bad) + ["pass"] * len(good)
    assert [r.call_id for r in run.hooks] == [c.id for c in turn.tool_calls]
    assert all(r.step == 1 for r in run.hooks)
    assert hook_records_in(run.messages) == run.hooks
    # the world never ran a rejected call: one record per call, the rejected ones unexecuted
    assert [r.outcome for r in run.records][: len(bad)] == ["rejected"] * len(bad)


def test_an_unknown_tool_is_left_to_the_runtime(args_harness: Harness, case: Case) -> None:
    generate, seen = scripted([calls(("teleport", {})), say("Done.")])
    run = run_agent(context(args_harness, case), [Message("user", "x")], generate, seed=1)
    assert run.records[0].outcome == "unknown_tool"
    assert [r.verdict for r in run.hooks] == ["pass"]


def test_the_budget_spent_lets_the_call_through(case: Case) -> None:
    h = with_checks(load_harness(), {"trigger": "tool_arguments", "budget": 1})
    stock = tool_name(h, "inventory.check_stock")
    bad = calls((stock, {"product_id": "P9999"}))
    generate, seen = scripted([bad, bad, say("Sorry, I could not find it.")])
    run = run_agent(context(h, case), [Message("user", "x")], generate, seed=1)
    assert [r.verdict for r in run.hooks] == ["reject", "let_through"]
    assert run.hooks[0].message == (f"REJECTED[tool_arguments] {run.hooks[0].reason} (0 left)")
    assert run.hooks[1].message == "" and "P9999" in run.hooks[1].reason
    assert [r.outcome for r in run.records] == ["rejected", "input_error"]  # the world ran it
    assert run.answered and run.turns == 3


def test_a_disabled_check_or_budget_0_never_rejects(case: Case) -> None:
    for check in ({"enabled": False}, {"budget": 0}):
        h = with_checks(load_harness(), {"trigger": "tool_arguments", **check})
        stock = tool_name(h, "inventory.check_stock")
        generate, _ = scripted([calls((stock, {"product_id": "P9999"})), say("Sorry.")])
        run = run_agent(context(h, case), [Message("user", "x")], generate, seed=1)
        assert run.records[0].outcome == "input_error"
        assert [r.verdict for r in run.hooks] == ([] if "enabled" in check else ["let_through"])


# -- reply hooks -------------------------------------------------------------------------------


def test_reply_format_rejects_a_long_reply_and_the_agent_sees_why(case: Case) -> None:
    h = with_checks(load_harness(), {"trigger": "reply_format", "role": "system"})
    limit = h.constraint_value("max_words")
    long = say(" ".join(["word"] * int(limit + 5)))
    short = say("[skill: price_promotion] It is on offer today.")
    generate, seen = scripted([long, short])
    run = run_agent(context(h, case), [Message("user", case.message)], generate, seed=1)
    rejection = seen[1][-1]
    assert seen[1][-2] is long and rejection.role == "system"
    assert rejection.content == (
        f"REJECTED[reply_format] {int(limit + 5)} words, at most {limit:g} allowed (1 left)"
    )
    assert run.answered and run.answer is not None and run.answer.content == short.content
    assert [(r.verdict, r.step) for r in run.hooks] == [("reject", 1), ("pass", 2)]
    assert hook_records_in(run.messages) == run.hooks
    assert HookRecord.from_dict(rejection.metadata[HOOK_KEY][0]) == run.hooks[0]  # type: ignore[index]
    assert run.answer.metadata == {HOOK_KEY: [run.hooks[1].to_dict()]}


def test_reply_format_counts_emoji_and_ignores_tag_and_thinking(case: Case) -> None:
    h = with_checks(load_harness(), {"trigger": "reply_format"})
    emoji = int(h.constraint_value("max_emojis"))
    many = say("Great pick " + "🔥" * (emoji + 1))
    fine = say("<think>" + "long thought " * 80 + "</think>[skill: x] Great pick " + "🔥" * emoji)
    generate, _ = scripted([many, fine])
    run = run_agent(context(h, case), [Message("user", "x")], generate, seed=1)
    assert [r.verdict for r in run.hooks] == ["reject", "pass"]
    assert f"{emoji + 1} emoji" in run.hooks[0].reason


def test_reply_format_follows_a_moved_constraint(case: Case) -> None:
    base = with_checks(load_harness(), {"trigger": "reply_format"})
    h, mapping = TRANSFORMS["system_prompt"](base, seed=0, strength=1.0)
    limit = mapping.constraint_value("max_words", base.constraint_value("max_words"))
    assert limit != base.constraint_value("max_words")
    at, over = say(" ".join(["w"] * int(limit))), say(" ".join(["w"] * int(limit + 1)))
    for reply, verdict in ((at, "pass"), (over, "reject")):
        generate, _ = scripted([reply, at])
        run = run_agent(context(h, case), [Message("user", "x")], generate, seed=1)
        assert run.hooks[0].verdict == verdict


def test_factual_risk_rejects_a_forbidden_claim_only(case: Case) -> None:
    h = with_checks(load_harness(), {"trigger": "factual_risk"})
    ok = [
        "It is ¥169 today, a lovely everyday pick.",
        "I can't say it cures any disease, sorry.",
        "Best before the date on the pack.",
    ]
    for text in ok:
        generate, _ = scripted([say(text)])
        run = run_agent(context(h, case), [Message("user", "x")], generate, seed=1)
        assert [r.verdict for r in run.hooks] == ["pass"], text
    risky = say("It cures gum disease, trust me.")
    generate, seen = scripted([risky, say(ok[0])])
    run = run_agent(context(h, case), [Message("user", "x")], generate, seed=1)
    assert [r.verdict for r in run.hooks] == ["reject", "pass"]
    assert "MED-GENERAL" in run.hooks[0].reason and seen[1][-1].role == "user"
    assert seen[1][-1].content.startswith("REJECTED[factual_risk] claim 'cures gum disease'")


def test_the_last_turn_lets_a_reply_through(case: Case) -> None:
    h = with_checks(load_harness(), {"trigger": "factual_risk"})
    generate, _ = scripted([say("It cures gum disease.")])
    run = run_agent(context(h, case), [Message("user", "x")], generate, seed=1, max_turns=1)
    assert run.answered and [r.verdict for r in run.hooks] == ["let_through"]


def test_a_spent_reply_budget_lets_the_reply_through(case: Case) -> None:
    h = with_checks(load_harness(), {"trigger": "factual_risk", "budget": 2})
    risky = say("It cures gum disease.")
    generate, seen = scripted([risky, risky, risky])
    run = run_agent(context(h, case), [Message("user", "x")], generate, seed=1)
    assert [r.verdict for r in run.hooks] == ["reject", "reject", "let_through"]
    assert all(r.message.endswith(f"({n} left)") for r, n in zip(run.hooks, (1, 0), strict=False))
    assert run.answered and run.turns == 3 and run.answer is not None
    assert run.answer.content == risky.content


def test_several_reply_hooks_send_one_message(case: Case) -> None:
    h = with_checks(
        load_harness(), {"trigger": "reply_format"}, {"trigger": "factual_risk", "name": "risk"}
    )
    bad = say("It cures gum disease " + "🔥" * 9)
    generate, seen = scripted([bad, say("Lovely pick.")])
    run = run_agent(context(h, case), [Message("user", "x")], generate, seed=1)
    assert run.answered and run.turns == 2
    rejection = seen[1][-1]
    assert "REJECTED[reply_format]" in rejection.content and "REJECTED[risk]" in rejection.content
    assert [(r.hook, r.verdict) for r in hook_records_in([rejection])] == [
        ("reply_format", "reject"),
        ("risk", "reject"),
    ]


# -- skill_load (progressive disclosure) -------------------------------------------------------


def load(skill_id: str, tool: str = "load_skill") -> Message:
    return calls((tool, {"skill_id": skill_id}))


@pytest.fixture(scope="module")
def progressive() -> Harness:
    return with_checks(load_harness(PROGRESSIVE), {"trigger": "skill_load"})


def test_a_reply_without_a_reply_skill_is_rejected_then_accepted(
    progressive: Harness, case: Case
) -> None:
    answer = say("It is ¥169 today.")
    generate, seen = scripted([answer, load("price_promotion"), answer])
    run = run_agent(context(progressive, case), [Message("user", "x")], generate, seed=1)
    assert seen[1][-1].content.startswith("REJECTED[skill_load] no reply skill is loaded")
    assert "load_skill" in seen[1][-1].content
    assert [(r.verdict, r.step) for r in run.hooks] == [("reject", 1), ("pass", 3)]
    assert run.answered and run.turns == 3


def test_skill_load_follows_renamed_skills_and_loader(progressive: Harness, case: Case) -> None:
    h, mapping = TRANSFORMS["skill_ids"](progressive, seed=1, strength=1.0)
    h, tools = TRANSFORMS["tools"](h, seed=2, strength=1.0)
    loader = tools.tool_name("load_skill")
    new_id = mapping.skill_id("price_promotion")
    assert new_id not in (None, "price_promotion") and loader != "load_skill"
    assert new_id is not None
    answer = say("It is ¥169 today.")
    # the old id and the old loader name load nothing: rejected; the names in force pass
    for turns, verdicts in (
        ([load("price_promotion", loader), answer, answer], ["reject", "let_through"]),
        ([load(new_id, "load_skill"), answer, answer], ["reject", "let_through"]),
        ([load(new_id, loader), answer], ["pass"]),
    ):
        generate, _ = scripted(turns)
        run = run_agent(context(h, case), [Message("user", "x")], generate, seed=1, max_turns=3)
        assert [r.verdict for r in run.hooks] == verdicts, turns[0]


def test_skill_load_on_an_inline_harness_is_refused() -> None:
    data = harness_to_dict(load_harness())
    data["hooks"]["checks"] = [{"trigger": "skill_load"}]
    with pytest.raises(ValueError, match=r"hooks\.checks\.0\.trigger: skill_load needs"):
        parse_harness(data, "h.yaml")


# -- HSA ---------------------------------------------------------------------------------------


def test_hsa_hooks_varies_declared_checks_and_only_them(case: Case) -> None:
    base = load_harness()
    declared = with_checks(base, {"trigger": "tool_arguments"}, {"trigger": "factual_risk"})
    changed = set()
    for seed in range(30):
        plain, m_plain = TRANSFORMS["hooks"](base, seed=seed, strength=0.8)
        v, m = TRANSFORMS["hooks"](declared, seed=seed, strength=0.8)
        # checks are drawn last: retry and messages vary exactly as without checks
        assert (v.hooks.retry, v.hooks.messages) == (plain.hooks.retry, plain.hooks.messages)
        assert {k: x for k, x in m.hooks.items() if not k.startswith("checks.")} == m_plain.hooks
        assert plain.hooks.checks == ()
        parse_harness(harness_to_dict(v))  # every variant validates
        assert v == TRANSFORMS["hooks"](declared, seed=seed, strength=0.8)[0]  # deterministic
        for k in m.hooks:
            if k.startswith("checks."):
                changed.add(k.rsplit(".", 1)[1])
    assert changed == {"message", "budget", "enabled", "role"}


def test_hook_summary_counts_rejections_and_recovery() -> None:
    from hat_eval.episode import hook_summary

    def rec(hook: str, verdict: str) -> HookRecord:
        return HookRecord(hook, hook, 1, verdict)  # type: ignore[arg-type]

    assert hook_summary([]) == {}
    passed = hook_summary([rec("a", "pass")])
    assert passed["hook_rejections_a"] == 0.0 and math.isnan(passed["hook_recovered"])
    assert hook_summary([rec("a", "reject"), rec("b", "pass"), rec("a", "pass")]) == {
        "hook_rejections_a": 1.0,
        "hook_rejections_b": 0.0,
        "hook_recovered": 1.0,
    }
    assert hook_summary([rec("a", "reject"), rec("a", "let_through")])["hook_recovered"] == 0.0
    assert hook_summary([rec("a", "reject"), rec("a", "reject")])["hook_recovered"] == 0.0


# -- a hook's misfire as a fault (robustness) ----------------------------------------------------


def _faulted(case: Case, fault: HookFault) -> EpisodeContext:
    return replace(context(load_harness(), case), hook_fault=fault)


def test_a_hook_fault_rejects_a_good_reply_then_lets_the_next_through(case: Case) -> None:
    good = say("[skill: price_promotion] It is on offer today.")
    generate, seen = scripted([good, good])
    ctx = _faulted(case, HookFault("factual_risk", times=1))
    run = run_agent(ctx, [Message("user", case.message)], generate, seed=1)
    assert seen[1][-1].role == "user" and "Rejected by factual_risk" in seen[1][-1].content
    assert run.answered and [(r.hook, r.verdict) for r in run.hooks] == [
        ("factual_risk", "reject"),
        ("factual_risk", "pass"),
    ]
    values = hook_fault_values(ctx.hook_fault, run.hooks, answer_ok=True)  # type: ignore[arg-type]
    assert values["recovery"] == 1.0 and values["fault_visible"] == 1.0
    assert hook_fault_values(ctx.hook_fault, run.hooks, answer_ok=False)["recovery"] == 0.0  # type: ignore[arg-type]


def test_a_hook_fault_of_two_rejects_twice_and_never_on_the_last_turn(case: Case) -> None:
    good = say("It is on offer today.")
    generate, _ = scripted([good, good, good])
    ctx = _faulted(case, HookFault("reply_format", times=2))
    run = run_agent(ctx, [Message("user", "x")], generate, seed=1)
    assert [r.verdict for r in run.hooks] == ["reject", "reject", "pass"]
    generate, _ = scripted([good])
    run = run_agent(ctx, [Message("user", "x")], generate, seed=1, max_turns=1)
    assert run.answered and run.hooks == []  # the last turn: nothing to reject, not reached
    values = hook_fault_values(HookFault("reply_format", 2), run.hooks, answer_ok=True)
    assert values["fault_not_reached"] == 1.0 and math.isnan(values["recovery"])


def test_an_agent_that_never_answers_again_has_not_recovered(case: Case) -> None:
    good = say("It is on offer today.")
    lookup = calls(("get_live_session", {}))
    generate, _ = scripted([good, lookup, lookup])
    ctx = _faulted(case, HookFault())
    run = run_agent(ctx, [Message("user", "x")], generate, seed=1, max_turns=3)
    assert not run.answered
    assert hook_fault_values(HookFault(), run.hooks, answer_ok=True)["recovery"] == 0.0


def test_a_hook_fault_names_a_reply_trigger() -> None:
    with pytest.raises(ValueError, match="hook fault trigger 'tool_arguments' is unknown"):
        HookFault("tool_arguments")
    assert HookFault.from_dict(HookFault("reply_format", 2).to_dict()) == HookFault(
        "reply_format", 2
    )
