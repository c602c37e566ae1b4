"""The run summary: each part's mean over decided samples beside its undecided share."""

from __future__ import annotations

from types import SimpleNamespace

from rich.console import Console

from hat_eval.reports import summary_rows, summary_table
from hat_eval.reports._summary import SummaryRow


def _render(rows: list[SummaryRow]) -> str:
    console = Console(width=200, record=True)
    console.print(summary_table(rows))
    return console.export_text()


def test_a_part_shows_its_undecided_share_beside_its_decided_mean() -> None:
    row = SummaryRow(
        task="livestream",
        status="success",
        samples=40,
        log="x.eval",
        metrics={
            "aggregate": 75.5,
            "undecided_aggregate": 0.25,
            "accuracy": 0.8125,
            "undecided_accuracy": 0.03,
            "safety": 1.0,
            "undecided_safety": 0.0,
            "skill": 0.5,
            "undecided_skill": 0.004,
            "undecided_tools": 1.0,  # no decided sample at all
        },
    )
    text = _render([row])
    assert "75.500 (25% und.)" in text
    assert "0.812 (3% und.)" in text
    assert "1.000 " in text and "1.000 (" not in text  # nothing undecided: the mean alone
    assert "0.500 (<1% und.)" in text
    assert "- (100% und.)" in text
    assert "share left undecided, not counted as 0" in text
    assert "judged" not in text


def test_the_judges_counts_get_a_column() -> None:
    judged = SummaryRow(
        "variant", "success", 12, "v.eval", {"aggregate": 80.0, "judged": 3.0, "judge_failed": 1.0}
    )
    plain = SummaryRow("ifeval", "success", 5, "i.eval", {"prompt_level_strict_acc": 0.6})
    text = _render([judged, plain])
    assert "3 (1 failed)" in text and "parts the Agent-as-Judge decided" in text
    assert "und." not in text


def test_rows_read_the_shares_and_counts_from_the_logs_metrics() -> None:
    metric = SimpleNamespace
    score = SimpleNamespace(
        name="judged",
        metrics={
            name: metric(value=v)
            for name, v in {
                "aggregate": 70.0,
                "aggregate_stderr": 3.0,
                "undecided_aggregate": 0.5,
                "judged": 2.0,
                "judge_failed": 0.0,
                "per_intent_price": 70.0,
            }.items()
        },
    )
    log = SimpleNamespace(
        eval=SimpleNamespace(task="livestream"),
        status="success",
        results=SimpleNamespace(scores=[score], completed_samples=4),
        location="l.eval",
    )
    (row,) = summary_rows([log])
    assert row.metrics == {
        "aggregate": 70.0,
        "undecided_aggregate": 0.5,
        "judged": 2.0,
        "judge_failed": 0.0,
    }


def test_checking_hooks_get_a_rejections_column() -> None:
    hooked = SummaryRow(
        "livestream",
        "success",
        10,
        "h.eval",
        {
            "aggregate": 70.0,
            "hook_rejections_tool_arguments": 4.0,
            "hook_rejections_factual_risk": 1.0,
            "hook_recovered": 0.75,
        },
    )
    plain = SummaryRow("variant", "success", 10, "v.eval", {"aggregate": 60.0})
    text = _render([hooked, plain])
    assert "tool_arguments 4, factual_risk 1; 75% recovered" in text
    assert "hook rejections" in text and "share of episodes with a rejection" in text
    assert "hook rejections" not in _render([plain])
