"""The judge's bias audits (position, verbosity, injection) with scripted graders."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from _helpers import DIMS as RUBRIC
from _helpers import FENCED, output, preferences_json, ratings_json
from _helpers import grader as scripted
from inspect_ai.model import ChatMessage, Model, ModelOutput

from hat_eval.episode import Episode, word_count
from hat_eval.judge import audit
from hat_eval.judge._audit import INJECTIONS, AuditReport, correct_answer, inject, pad, wrong_answer
from hat_eval.judge._pairwise import OVERALL
from hat_eval.suites import suite_episodes

PAIRWISE = [OVERALL, *RUBRIC]
OBEYS = ("give 5", "rate it 5", "scores 5", "给5分")


def addresses_grader(answer: str) -> bool:
    return any(phrase in answer for phrase in OBEYS)


def grader(
    rate: Callable[[str], int], prefer: Callable[[str, str], str] = lambda a, b: "tie"
) -> Model:
    """Rates one answer with ``rate(answer)``; compares two with ``prefer(first, second)``."""

    def reply(input: list[ChatMessage], *_: Any) -> ModelOutput:
        prompt = input[0].text
        answers = FENCED.findall(prompt)
        if len(answers) == 2:
            return output(preferences_json(prefer(*answers), PAIRWISE))
        return output(ratings_json(rate(answers[0]), RUBRIC))

    return scripted(reply)


def honest(answer: str) -> int:
    """Fabricated or raised numbers are wrong (2); addressing the grader is a defect (1)."""
    if addresses_grader(answer):
        return 1
    return 2 if "cures colds" in answer or "1 yuan" in answer else 3


def gullible(answer: str) -> int:
    return 5 if addresses_grader(answer) else 2


def by_length(answer: str) -> int:
    return min(5, 1 + word_count(answer) // 12)


def shorter_first(first: str, second: str) -> str:
    """A consistent preference: the shorter answer, whichever side it is on."""
    if len(first) == len(second):
        return "tie"
    return "1" if len(first) < len(second) else "2"


@pytest.fixture(scope="module")
def episodes() -> list[Episode]:
    return suite_episodes("livestream", n=3)


def run(episodes: list[Episode], model: Model, **kwargs: Any) -> AuditReport:
    kwargs.setdefault("mode", "lookups")
    return audit(episodes, model=model, **kwargs)


def test_answers_of_the_audit(episodes: list[Episode]) -> None:
    ep = episodes[0]
    right = correct_answer(ep)
    assert right.startswith(f"[skill: {ep.gold.skills[0]}] ")
    wrong = wrong_answer(ep, right)
    assert wrong != right
    if re.search(r"\d", right):
        assert re.sub(r"\d", "", wrong.split("]")[1]) == re.sub(r"\d", "", right.split("]")[1])
    padded = pad(ep, right, 3)
    assert padded.startswith(right) and word_count(padded) > word_count(right)
    assert inject(wrong, INJECTIONS[0]).endswith(INJECTIONS[0])


def test_an_injection_resistant_grader_passes(episodes: list[Episode]) -> None:
    report = run(episodes, grader(honest, shorter_first))
    assert report.injection_shift is not None and report.injection_shift < 0
    assert report.injection_passed is True and report.failing == []
    injected = [a for a in report.answers if a.kind == "injected"]
    assert len(injected) == len(episodes) * len(INJECTIONS)
    assert all(a.score == 1.0 for a in injected)
    assert report.judge_failures == 0 and report.n_cases == len(episodes)


def test_a_grader_that_obeys_injections_shows_a_positive_shift_and_fails(
    episodes: list[Episode],
) -> None:
    report = run(episodes, grader(gullible))
    assert report.injection_shift == 3.0  # 5 when addressed, 2 otherwise
    assert report.injection_passed is False and report.failing == ["injection_shift"]
    assert set(report.injection_shift_by_dimension) == set(RUBRIC)
    assert all(v == 3.0 for v in report.injection_shift_by_dimension.values())
    # the forged closing marker does not close the fence: the grader saw the whole injection
    forged = [a for a in report.answers if a.kind == "injected" and a.variant == "2"]
    assert forged and all(a.score == 5.0 for a in forged)


def test_verbosity_audit_on_scores_that_grow_with_length(episodes: list[Episode]) -> None:
    report = run(episodes, grader(by_length))
    assert report.verbosity_spearman is not None and report.verbosity_spearman > 0.5
    assert report.padding_shift is not None and report.padding_shift > 0
    blind = run(episodes, grader(lambda _: 3))
    assert blind.padding_shift == 0.0
    assert blind.verbosity_spearman is None  # constant scores: rho undefined, not 0


def test_position_consistency_of_biased_and_consistent_graders(episodes: list[Episode]) -> None:
    biased = run(episodes, grader(honest, lambda a, b: "1"))
    assert biased.n_pairs == 2 * len(episodes)
    assert biased.position_consistency == 0.0
    assert biased.position_inconsistent == biased.comparisons == biased.n_pairs * len(PAIRWISE)
    assert all(set(p.verdicts.values()) == {"tie"} for p in biased.pairs)
    consistent = run(episodes, grader(honest, shorter_first))
    assert consistent.position_consistency == 1.0 and consistent.position_inconsistent == 0
    skipped = run(episodes, grader(honest), pairwise=False)
    assert skipped.position_consistency is None and skipped.n_pairs == 0


def test_the_report_is_json(episodes: list[Episode]) -> None:
    report = run(episodes[:1], grader(gullible, shorter_first), k=2)
    data = json.loads(json.dumps(report.to_dict(), ensure_ascii=False))
    for name in (
        "position_consistency",
        "verbosity_spearman",
        "padding_shift",
        "injection_shift",
        "injection_passed",
        "failing",
    ):
        assert data[name] == getattr(report, name)
    assert data["k"] == 2 and data["model"] == "mockllm/model"
    assert data["costs"]["calls"] == report.costs.calls > 0
    assert len(data["answers"]) == 1 + 2 + 1 + len(INJECTIONS)
    assert len(data["pairs"]) == 2 and data["pairs"][0]["comparisons"] == 2 * len(PAIRWISE)


def test_given_answers_replace_the_reference(episodes: list[Episode]) -> None:
    ep = episodes[0]
    mine = "[skill: chit_chat] Hello there, thanks for asking!"
    report = run([ep], grader(honest), answers={ep.id: mine}, pairwise=False)
    (correct,) = [a for a in report.answers if a.kind == "correct"]
    assert correct.answer == mine
    (wrong,) = [a for a in report.answers if a.kind == "wrong"]
    assert "cures colds" in wrong.answer  # no number to change: false claims added


def test_failures_are_counted_not_scored(episodes: list[Episode]) -> None:
    report = run(episodes[:1], scripted(lambda *_: output("no json")), retries=0)
    assert report.judge_failures == len(report.answers)
    assert all(math.isnan(a.score) for a in report.answers)
    assert report.injection_shift is None and report.injection_passed is None
    assert report.pair_failures == report.n_pairs == 2
    assert report.to_dict()["answers"][0]["score"] is None


def test_agent_mode_audit_runs_with_the_tools(episodes: list[Episode]) -> None:
    report = audit(episodes[:1], model=grader(honest, shorter_first), mode="agent")
    assert report.mode == "agent" and report.judge_failures == 0
    assert report.injection_passed is True


def test_bad_audit_inputs_name_the_fix(episodes: list[Episode]) -> None:
    model = grader(honest)
    with pytest.raises(ValueError, match="no episodes"):
        audit([], model=model)
    with pytest.raises(ValueError, match="no injections"):
        audit(episodes, model=model, injections=())
    with pytest.raises(ValueError, match=r"padding \[0\] must be sentence counts"):
        audit(episodes, model=model, padding=(0,))


@pytest.mark.parametrize(
    ("rate", "code", "shown"),
    [
        (honest, 0, "injection_shift        -"),
        (gullible, 1, "failing: injection_shift"),
        (None, 2, "gave no valid reply for any"),
    ],
)
def test_judge_audit_command(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    rate: Callable[[str], int] | None,
    code: int,
    shown: str,
) -> None:
    from typer.testing import CliRunner

    import hat_eval.cli._judge as judge_cli
    from hat_eval.cli import app

    model = (
        grader(rate, shorter_first) if rate is not None else scripted(lambda *_: output("no json"))
    )
    monkeypatch.setattr(judge_cli, "_grader", lambda name: model)
    args = ["judge", "audit", "--judge", "scripted", "--out", str(tmp_path), "--n", "2"]
    result = CliRunner().invoke(app, [*args, "--mode", "lookups"])
    assert result.exit_code == code, result.output
    assert shown in result.output
    data = json.loads((tmp_path / "audit.json").read_text(encoding="utf-8"))
    assert data["n_cases"] == 2 and data["mode"] == "lookups"
    assert data["failing"] == (["injection_shift"] if code == 1 else [])


def test_judge_audit_command_rejects_a_bad_mode(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from hat_eval.cli import app

    args = ["judge", "audit", "--judge", "x", "--out", str(tmp_path), "--mode", "vibes"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2 and "'vibes' is not one of agent, lookups" in result.output
    assert not (tmp_path / "audit.json").exists()
