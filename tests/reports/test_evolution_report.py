"""The evolution report's numbers, on answers whose following, regressions and errors are known."""

from __future__ import annotations

import math

import pytest

from hat_eval.reports import evolution_table
from hat_eval.reports._evolution import EditInfo, EvolutionAnswer, evolution_report

NAN = math.nan
EDITS = [EditInfo("v2", "skill_rule", "states_fact"), EditInfo("v3", "constraint", "constraint")]
ORDER = ["v1", "v2", "v3"]


def _a(case: str, version: str, acc: float, r2: float | None, r3: float, error: float):
    values = {"accuracy": acc, "safety": 1.0, "requirement_v3": r3, "error": error}
    if r2 is not None:  # the v2 edit applies to c1 and c2 only
        values["requirement_v2"] = r2
    return EvolutionAnswer(case, version, values)


ANSWERS = [
    _a("c1", "v1", 1, 0, 1, 1), _a("c2", "v1", 1, 0, 0, 1),
    _a("c3", "v1", 1, None, 1, 0), _a("c4", "v1", 1, None, 0, 1),
    _a("c1", "v2", 1, 1, 1, 0), _a("c2", "v2", 1, 1, 0, 1),
    _a("c3", "v2", 0, None, 1, 1), _a("c4", "v2", 1, None, 0, 1),
    _a("c1", "v3", 1, 1, 1, 0), _a("c2", "v3", 1, 0, 1, 1),
    _a("c3", "v3", 1, None, 1, 0), _a("c4", "v3", 1, None, 1, 0),
]  # fmt: skip


def test_following_regressions_and_error_reduction() -> None:
    report = evolution_report(ANSWERS, EDITS, ORDER, model="m", n_boot=200)
    v2, v3 = report.edits
    assert v2.before is not None and v2.at is not None and v2.final is not None
    assert (v2.before.value, v2.at.value, v2.final.value) == (0.0, 1.0, 0.5)
    assert v2.at.n == 2
    # controls of v2 are c3 and c4 (it does not apply to them): c3 was right, then wrong
    assert v2.regressions is not None and v2.regressions.value == 0.5
    # v3 applies to every case: all four are controls, on everything but v3's own check;
    # c2 was right under v2 (v2's rule followed) and breaks v2's rule under v3
    assert v3.regressions is not None and v3.regressions.value == 0.25
    assert v3.before is not None and v3.before.value == 0.5 and v3.at is not None
    assert v3.at.value == 1.0
    assert report.error_first is not None and report.error_first.value == 0.75
    assert report.error_last is not None and report.error_last.value == 0.25
    assert report.error_reduction is not None
    assert report.error_reduction.value == pytest.approx(2 / 3)
    assert report.error_reduction.low <= 2 / 3 <= report.error_reduction.high
    assert report.kinds["skill_rule"].value == 1.0


def test_a_range_reports_what_it_ran() -> None:
    ran = [a for a in ANSWERS if a.version != "v1"]
    report = evolution_report(ran, EDITS, ORDER, n_boot=50)
    assert report.versions == ("v2", "v3")
    v2 = report.edits[0]
    assert v2.before is None and v2.regressions is None  # v1 was not run
    assert report.error_reduction is not None
    assert report.error_reduction.value == pytest.approx((0.75 - 0.25) / 0.75)


def test_undecided_answers_are_left_out_not_counted() -> None:
    answers = [*ANSWERS[:-1], _a("c4", "v3", NAN, None, NAN, NAN)]
    report = evolution_report(answers, EDITS, ORDER, n_boot=50)
    v3 = report.edits[1]
    assert v3.at is not None and v3.at.n == 3  # c4's undecided limit check is not a pass
    assert report.error_reduction is not None and report.error_reduction.n == 3


def test_one_version_has_no_reduction_and_the_table_says_not_run() -> None:
    only = [a for a in ANSWERS if a.version == "v2"]
    report = evolution_report(only, EDITS, ORDER, n_boot=20)
    assert report.error_reduction is None
    table = evolution_table(report)
    assert table.row_count == len(EDITS) + len(report.kinds)
