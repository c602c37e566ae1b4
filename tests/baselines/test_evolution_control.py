"""The evolution suite's positive control: ``hat/memorized`` ignores the harness edits, the
reference policy (which reads the harness) follows most of them.

Only large gaps are asserted, never exact scores, so the test holds while the checks evolve.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from inspect_ai import eval as inspect_eval

import hat_eval._registry  # noqa: F401  (registers the hat/ models)
from hat_eval.reports import log_evolution_report
from hat_eval.reports._evolution import EvolutionReport
from hat_eval.suites import suite_task

N = 40


@cache
def _report(model: str, log_dir: str) -> EvolutionReport:
    [log] = inspect_eval(suite_task("evolution", n=N), model=model, log_dir=log_dir, display="none")
    assert log.status == "success"
    return log_evolution_report(log, n_boot=200)


def _scoped_following(report: EvolutionReport) -> float:
    """Mean following where each edit lands, over the edits that change some answers' gold."""
    rates = [
        row.at.value
        for row in report.edits
        if row.at is not None and row.edit.kind in ("skill_rule", "new_skill", "tool_description")
    ]
    return sum(rates) / len(rates)


def test_memorized_follows_far_fewer_edits_than_the_reference(tmp_path: Path) -> None:
    reference = _report("hat/reference", str(tmp_path / "ref"))
    memorized = _report("hat/memorized", str(tmp_path / "mem"))
    assert reference.versions == memorized.versions == tuple(f"v{i}" for i in range(1, 8))
    assert _scoped_following(reference) >= 0.6
    assert _scoped_following(memorized) <= 0.2
    for ref_row, mem_row in zip(reference.edits, memorized.edits, strict=True):
        assert ref_row.before is not None and mem_row.before is not None
        # before any edit lands the two are one policy: the same answers
        if ref_row.edit.edit == "v2":
            assert ref_row.before.value == mem_row.before.value
    assert reference.error_reduction is not None and memorized.error_reduction is not None
    assert reference.error_reduction.value >= memorized.error_reduction.value + 0.1
    assert abs(memorized.error_reduction.value) <= 0.05  # ignoring edits fixes nothing
