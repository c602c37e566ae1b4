from __future__ import annotations

from hat_eval.harness import diff_harness
from hat_eval.harness._load import harness_to_dict, parse_harness


def test_identical_harnesses_have_no_diff(default_harness) -> None:
    assert not diff_harness(default_harness, default_harness)


def test_diff_finds_renames_rule_edits_moves_and_constraints(default_harness) -> None:
    d = harness_to_dict(default_harness)
    d["tools"][0]["name"] = "find_items"
    d["skills"][1]["id"] = "coupon_desk"
    d["skills"][1]["rules"][0]["text"] = "Compute the price with the tool."
    d["skills"][1]["rules"].reverse()
    blocks = d["system_prompt"]["blocks"]
    blocks[1], blocks[2] = blocks[2], blocks[1]
    blocks[2]["constraints"][0]["value"] = 45
    d["hooks"]["retry"]["max_retries"] = 0
    diff = diff_harness(default_harness, parse_harness(d))
    kinds = diff.kinds()
    assert {
        "tool_renamed",
        "skill_renamed",
        "rule_changed",
        "rules_reordered",
        "block_moved",
        "constraint_changed",
        "hook_changed",
    } <= kinds
    (renamed,) = [c for c in diff.changes if c.kind == "tool_renamed"]
    assert "'search_products' -> 'find_items'" in renamed.detail
    assert "catalog.search" in renamed.detail
    (skill,) = [c for c in diff.changes if c.kind == "skill_renamed"]
    assert "'price_promotion' -> 'coupon_desk'" in skill.detail
    (cons,) = [c for c in diff.changes if c.kind == "constraint_changed"]
    assert cons.path.endswith("max_words") and "value 60 -> 45" in cons.detail


def test_removed_and_added_tools_are_reported(default_harness) -> None:
    d = harness_to_dict(default_harness)
    d["tools"] = d["tools"][:-1]
    diff = diff_harness(default_harness, parse_harness(d))
    assert [c.kind for c in diff.changes] == ["tool_removed"]
    diff_back = diff_harness(parse_harness(d), default_harness)
    assert [c.kind for c in diff_back.changes] == ["tool_added"]


def test_diff_reports_checking_hooks_added_removed_changed(default_harness) -> None:
    d = harness_to_dict(default_harness)
    d["hooks"]["checks"] = [{"trigger": "tool_arguments"}, {"trigger": "reply_format"}]
    a = parse_harness(d)
    d["hooks"]["checks"] = [
        {"trigger": "tool_arguments", "budget": 1},
        {"trigger": "factual_risk"},
    ]
    b = parse_harness(d)
    diff = diff_harness(a, b)
    assert [(c.kind, c.path) for c in diff.changes] == [
        ("hook_removed", "hooks.checks.reply_format"),
        ("hook_added", "hooks.checks.factual_risk"),
        ("hook_changed", "hooks.checks.tool_arguments.budget"),
    ]
    assert not diff_harness(default_harness, parse_harness(harness_to_dict(default_harness)))
