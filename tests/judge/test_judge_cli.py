"""``hat-eval judge agreement``: exit codes, the printed table, agreement.json, bad input."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from hat_eval.cli import app

DATA = Path(__file__).parent / "data"
runner = CliRunner()

HUMANS = """sample_id,dimension,rating,annotator
s1,accuracy,5,ann
s1,accuracy,4,bob
s2,accuracy,2,ann
s2,accuracy,2,bob
s3,accuracy,3,ann
s3,accuracy,4,bob
s4,accuracy,1,ann
s4,accuracy,2,bob
s5,accuracy,4,ann
s5,accuracy,4,bob
s1,preference,A,ann
s1,preference,A,bob
s2,preference,B,ann
s2,preference,B,bob
s3,preference,tie,ann
s3,preference,A,bob
s4,preference,B,ann
s4,preference,B,bob
s5,preference,A,ann
s5,preference,B,bob
"""


def judge_rows(accuracy: list[int], preference: list[str]) -> str:
    rows = [
        {"sample_id": f"s{i + 1}", "dimension": "accuracy", "rating": r}
        for i, r in enumerate(accuracy)
    ]
    rows += [
        {"sample_id": f"s{i + 1}", "dimension": "preference", "rating": p}
        for i, p in enumerate(preference)
    ]
    return "".join(json.dumps(r) + "\n" for r in rows)


def run(labels: Path, scores: Path, out: Path, *extra: str):  # type: ignore[no-untyped-def]
    return runner.invoke(
        app,
        ["judge", "agreement", "--labels", str(labels), "--scores", str(scores)]
        + ["--out", str(out), "--n-boot", "200", *extra],
    )


def files(tmp_path: Path, humans: str = HUMANS, scores: str | None = None) -> tuple[Path, Path]:
    labels = tmp_path / "humans.csv"
    labels.write_text(humans)
    judge = tmp_path / "judge.jsonl"
    judge.write_text(scores or judge_rows([5, 2, 3, 1, 4], ["A", "B", "A", "B", "B"]))
    return labels, judge


def test_end_to_end_writes_agreement_json_and_prints_a_table(tmp_path: Path) -> None:
    labels, scores = files(tmp_path)
    result = run(labels, scores, tmp_path / "out")
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "out" / "agreement.json").read_text())
    acc, pref = report["dimensions"]["accuracy"], report["dimensions"]["preference"]
    for dim in (acc, pref):
        assert dim["n_items"] == 5
        for key in ("krippendorff_alpha_humans", "krippendorff_alpha_judge_humans"):
            assert -1 <= dim[key] <= 1
            low, high = dim[f"{key}_ci"]
            assert low <= high
        for key in ("cohen_kappa", "accuracy"):
            assert dim[key] is not None and f"{key}_ci" in dim
    # accuracy majorities: s1 4 (tie 4/5: lower), s2 2, s3 3 (tie 3/4: lower), s4 1, s5 4
    assert acc["accuracy"] == 0.8  # judge 5, 2, 3, 1, 4
    assert acc["spearman"] is not None and "spearman_ci" in acc
    assert acc["confusion_matrix"]["labels"] == [1, 2, 3, 4, 5]
    assert acc["confusion_matrix"]["counts"][3] == [0, 0, 0, 1, 1]
    # preference majorities: A, B, tie (tie vs A), B, tie (A vs B): judge A, B, A, B, B
    assert pref["accuracy"] == 0.6
    assert pref["confusion_matrix"]["labels"] == ["A", "B", "tie"]
    assert "spearman" not in pref
    assert report["bootstrap"]["resamples"] == 200
    assert "dimension" in result.output and "alpha judge+humans" in result.output
    assert "accuracy" in result.output and "preference" in result.output
    assert "wrote" in result.output


def test_label_studio_export_against_judge_scores(tmp_path: Path) -> None:
    scores = tmp_path / "judge.csv"
    scores.write_text(
        "sample_id,dimension,rating\ns1,factual_accuracy,5\ns2,factual_accuracy,3\n"
        "s3,factual_accuracy,3\ns1,preference,A\ns2,preference,B\ns3,preference,tie\n"
    )
    result = run(DATA / "label_studio_export.json", scores, tmp_path / "out")
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "out" / "agreement.json").read_text())
    assert report["dimensions"]["factual_accuracy"]["n_items"] == 3
    assert report["dimensions"]["factual_accuracy"]["n_single_label_items"] == 1
    # majorities A, tie (B vs tie), tie (one label): the judge says A, B, tie
    assert report["dimensions"]["preference"]["accuracy"] == 2 / 3


def test_a_flagged_dimension_is_listed(tmp_path: Path) -> None:
    labels, scores = files(tmp_path, scores=judge_rows([1, 5, 1, 5, 1], ["B", "A", "B", "A", "A"]))
    result = run(labels, scores, tmp_path / "out")
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "out" / "agreement.json").read_text())
    assert report["flagged"] == ["accuracy", "preference"]
    assert report["dimensions"]["accuracy"]["flagged"] is True
    assert "FLAGGED" in result.output
    assert "flagged (judge-human alpha below 0.667 or undefined): accuracy, preference" in (
        result.output
    )


def test_single_annotator_says_human_alpha_is_undefined(tmp_path: Path) -> None:
    one = "\n".join(line for line in HUMANS.splitlines() if not line.endswith(",bob")) + "\n"
    labels, scores = files(tmp_path, humans=one)
    result = run(labels, scores, tmp_path / "out")
    assert result.exit_code == 0, result.output
    dim = json.loads((tmp_path / "out" / "agreement.json").read_text())["dimensions"]["accuracy"]
    assert dim["krippendorff_alpha_humans"] is None
    assert dim["krippendorff_alpha_humans_ci"] is None
    assert dim["krippendorff_alpha_judge_humans"] is not None
    assert dim["cohen_kappa"] is not None
    assert "human-human alpha undefined: every item has a single human label" in result.output
    assert "undefined" in result.output


def test_scores_for_unlabelled_samples_warn_and_are_left_out(tmp_path: Path) -> None:
    extra = '{"sample_id": "s99", "dimension": "accuracy", "rating": 3}\n'
    labels, scores = files(tmp_path)
    scores.write_text(scores.read_text() + extra)
    result = run(labels, scores, tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert (
        f"warning: 1 judge scores in {scores} have no human label in {labels} "
        "(e.g. sample_id 's99', dimension 'accuracy'); they are left out"
    ) in result.output
    report = json.loads((tmp_path / "out" / "agreement.json").read_text())
    assert report["unlabelled_scores"] == 1


def test_no_sample_in_common_exits_2(tmp_path: Path) -> None:
    labels, scores = files(
        tmp_path, scores='{"sample_id": "x1", "dimension": "accuracy", "rating": 3}\n'
    )
    result = run(labels, scores, tmp_path / "out")
    assert result.exit_code == 2
    assert "error: no sample and dimension is in both files" in result.output
    assert not (tmp_path / "out").exists()


def test_rating_outside_the_scale_exits_2_naming_the_line(tmp_path: Path) -> None:
    labels, scores = files(
        tmp_path, humans=HUMANS.replace("s2,accuracy,2,bob", "s2,accuracy,7,bob")
    )
    result = run(labels, scores, tmp_path / "out")
    assert result.exit_code == 2
    assert f"error: {labels}:5: rating '7' is outside the scale (an integer 1-5" in result.output
    assert "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_unknown_format_and_missing_file_exit_2(tmp_path: Path) -> None:
    labels, scores = files(tmp_path)
    odd = tmp_path / "judge.parquet"
    odd.write_text("x")
    result = run(labels, odd, tmp_path / "out")
    assert result.exit_code == 2
    assert f"error: {odd}: unknown file format '.parquet'" in result.output
    result = run(tmp_path / "nope.csv", scores, tmp_path / "out")
    assert result.exit_code == 2
    flat = " ".join(re.sub(r"[│╭╮╰╯─]", " ", result.output).split())  # typer's box may wrap it
    assert "nope.csv' does not exist" in flat


def test_help_lists_the_command() -> None:
    result = runner.invoke(app, ["judge", "--help"])
    assert result.exit_code == 0
    assert "agreement" in result.output


def test_judge_score_outside_the_scale_names_the_scores_file(tmp_path: Path) -> None:
    labels, scores = files(tmp_path, scores=judge_rows([0, 2, 3, 1, 4], ["A"] * 5))
    result = run(labels, scores, tmp_path / "out")
    assert result.exit_code == 2
    assert f"error: {scores}:1: rating 0 is outside the scale" in result.output


def test_duplicate_label_exits_2(tmp_path: Path) -> None:
    labels, scores = files(tmp_path, humans=HUMANS + "s1,accuracy,3,ann\n")
    result = run(labels, scores, tmp_path / "out")
    assert result.exit_code == 2
    assert f"error: {labels}:22: annotator 'ann' labels sample 's1' on 'accuracy'" in result.output
