"""``hat-eval judge calibrate`` and ``hat-eval judge corpus``: a scripted grader, bad input."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from inspect_ai.model import ChatMessage, ModelOutput, get_model
from typer.testing import CliRunner

import hat_eval.cli._judge as judge_cli
from hat_eval.cli import app
from hat_eval.episode import agreement as checks_agreement
from hat_eval.episode import check_entry, read_corpus
from hat_eval.judge import load_rubric
from hat_eval.judge._judge_prompt import ANSWER_CLOSE, ANSWER_OPEN

runner = CliRunner()
DIMS = list(load_rubric().dimensions)
CORPUS = Path(__file__).resolve().parents[2] / "judge" / "corpus" / "answers_L1.jsonl"


def reply(ratings: dict[str, int], default: int = 3) -> str:
    out = {d: {"score": ratings.get(d, default), "justification": "scripted"} for d in DIMS}
    return json.dumps({"ratings": out, "claims": []})


def answer_in(prompt: str) -> str:
    return prompt.split(f"{ANSWER_OPEN}\n", 1)[1].split(f"\n{ANSWER_CLOSE}", 1)[0]


class Scripted:
    """A grader that rates each answer by a rule on its text, and counts its calls."""

    def __init__(self, rule: Callable[[str], dict[str, int]]) -> None:
        self.rule = rule
        self.calls = 0

    def __call__(self, input: list[ChatMessage], *_: Any) -> ModelOutput:
        self.calls += 1
        return ModelOutput.from_content("mockllm/model", reply(self.rule(answer_in(input[0].text))))


@pytest.fixture
def grader(
    monkeypatch: pytest.MonkeyPatch,
) -> Callable[[Callable[[str], dict[str, int]]], Scripted]:
    def install(rule: Callable[[str], dict[str, int]]) -> Scripted:
        scripted = Scripted(rule)
        monkeypatch.setattr(
            judge_cli,
            "_grader",
            lambda name: get_model("mockllm/model", custom_outputs=scripted, memoize=False),
        )
        return scripted

    return install


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """A real suite log (the reference policy on 8 livestream cases) and its answers by id."""
    from inspect_ai import eval as inspect_eval

    import hat_eval._registry  # noqa: F401  (registers hat/reference)
    from hat_eval.suites import suite_task

    (result,) = inspect_eval(
        suite_task("livestream", n=8),
        model="hat/reference",
        log_dir=str(tmp_path_factory.mktemp("log")),
        display="none",
    )
    assert result.status == "success"
    answers = {str(s.id): s.output.completion for s in result.samples or []}
    return Path(result.location), answers


def human_csv(path: Path, rows: list[tuple[str, str, int, str]]) -> Path:
    path.write_text(
        "sample_id,dimension,rating,annotator\n"
        + "".join(f"{s},{d},{r},{a}\n" for s, d, r, a in rows)
    )
    return path


def shifted_labels(
    answers: dict[str, str],
) -> tuple[list[tuple[str, str, int, str]], dict[str, int]]:
    """Two humans rate factual_accuracy from 1 to 5; the scripted judge says one point more."""
    ids = sorted(answers)
    truth = {s: 1 + i % 4 for i, s in enumerate(ids)}
    rows = [(s, "factual_accuracy", truth[s], who) for s in ids for who in ("ann", "bob")]
    judge = {answers[s]: truth[s] + 1 for s in ids}
    return rows, judge


def invoke(*args: str) -> Any:
    return runner.invoke(app, ["judge", "calibrate", *args, "--n-boot", "50"])


def test_calibrate_runs_the_judge_on_the_logs_labelled_samples(
    log: tuple[Path, dict[str, str]], grader: Any, tmp_path: Path
) -> None:
    path, answers = log
    rows, judge = shifted_labels(answers)
    labels = human_csv(tmp_path / "humans.csv", rows)
    scripted = grader(lambda answer: {"factual_accuracy": judge[answer]})
    out = tmp_path / "out"
    result = invoke(
        "--labels", str(labels), "--log", str(path), "--judge", "x/y", "--out", str(out)
    )
    assert result.exit_code == 0, result.output
    assert scripted.calls == len(answers)
    written = [json.loads(line) for line in (out / "judge_scores.jsonl").read_text().splitlines()]
    assert {r["sample_id"] for r in written} == set(answers)
    assert {r["dimension"] for r in written} == {"factual_accuracy"}  # only labelled dimensions
    report = json.loads((out / "agreement.json").read_text())
    acc = report["dimensions"]["factual_accuracy"]
    assert acc["n_items"] == len(answers) and acc["accuracy"] == 0.0  # always one point high
    calibration = json.loads((out / "calibration.json").read_text())
    entry = calibration["dimensions"]["factual_accuracy"]
    assert entry["method"] != "identity"
    before, after = entry["held_out"]["before"], entry["held_out"]["after"]
    assert after["accuracy"] > before["accuracy"]
    assert calibration["judge"] == "x/y"
    assert "calibration (held-out folds of items" in result.output
    # a second run reads the judge cache: no grader call
    again = invoke("--labels", str(labels), "--log", str(path), "--judge", "x/y", "--out", str(out))
    assert again.exit_code == 0, again.output
    assert scripted.calls == len(answers)
    # and the written scores can stand in for the judge
    cached = invoke(
        "--labels",
        str(labels),
        "--scores",
        str(out / "judge_scores.jsonl"),
        "--out",
        str(tmp_path / "o2"),
    )
    assert cached.exit_code == 0, cached.output
    assert (
        json.loads((tmp_path / "o2" / "calibration.json").read_text())["dimensions"]
        == calibration["dimensions"]
    )


def test_label_ids_not_in_the_log(
    log: tuple[Path, dict[str, str]], grader: Any, tmp_path: Path
) -> None:
    path, answers = log
    grader(lambda answer: {})
    rows, _ = shifted_labels(answers)
    some = human_csv(
        tmp_path / "some.csv", [*rows, ("livestream-nope", "factual_accuracy", 3, "ann")]
    )
    result = invoke(
        "--labels", str(some), "--log", str(path), "--judge", "x/y", "--out", str(tmp_path / "a")
    )
    assert result.exit_code == 0, result.output
    assert (
        f"warning: 1 labelled sample ids are not in {path} (e.g. 'livestream-nope')"
        in result.output
    )
    none = human_csv(tmp_path / "none.csv", [("nope-1", "factual_accuracy", 3, "ann")])
    result = invoke(
        "--labels", str(none), "--log", str(path), "--judge", "x/y", "--out", str(tmp_path / "b")
    )
    assert result.exit_code == 2
    assert f"error: none of the 1 labelled sample ids (e.g. 'nope-1') is in {path}" in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "b").exists()


def test_dimension_not_in_the_rubric(
    log: tuple[Path, dict[str, str]], grader: Any, tmp_path: Path
) -> None:
    path, answers = log
    grader(lambda answer: {})
    rows, _ = shifted_labels(answers)
    extra = [(s, "charisma", 4, "ann") for s in sorted(answers)]
    labels = human_csv(tmp_path / "humans.csv", [*rows, *extra])
    result = invoke(
        "--labels", str(labels), "--log", str(path), "--judge", "x/y", "--out", str(tmp_path / "a")
    )
    assert result.exit_code == 0, result.output
    assert (
        "warning: dimension 'charisma'" in result.output and "is not in the rubric" in result.output
    )
    report = json.loads((tmp_path / "a" / "agreement.json").read_text())
    assert set(report["dimensions"]) == {"factual_accuracy"}
    only = human_csv(tmp_path / "only.csv", extra)
    result = invoke(
        "--labels", str(only), "--log", str(path), "--judge", "x/y", "--out", str(tmp_path / "b")
    )
    assert result.exit_code == 2
    assert (
        "error: " in result.output and "none of the labelled dimensions (charisma)" in result.output
    )


def test_rating_outside_the_scale_exits_2(tmp_path: Path) -> None:
    labels = human_csv(tmp_path / "humans.csv", [("s1", "acc", 6, "ann")])
    scores = tmp_path / "scores.jsonl"
    scores.write_text('{"sample_id": "s1", "dimension": "acc", "score": 4}\n')
    result = invoke("--labels", str(labels), "--scores", str(scores), "--out", str(tmp_path / "o"))
    assert result.exit_code == 2
    assert f"error: {labels}:2: rating '6' is outside the scale" in result.output
    scores.write_text('{"sample_id": "s1", "dimension": "acc", "score": 0.5}\n')
    labels = human_csv(tmp_path / "humans.csv", [("s1", "acc", 3, "ann")])
    result = invoke("--labels", str(labels), "--scores", str(scores), "--out", str(tmp_path / "o"))
    assert result.exit_code == 2
    assert f"error: {scores}:1: score 0.5 is outside the scale" in result.output


def test_single_annotator_says_human_alpha_undefined_and_calibrates(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    truth = rng.integers(1, 6, size=40)
    labels = human_csv(
        tmp_path / "humans.csv", [(f"s{i}", "acc", int(t), "ann") for i, t in enumerate(truth)]
    )
    scores = tmp_path / "scores.jsonl"
    scores.write_text(
        "".join(
            json.dumps({"sample_id": f"s{i}", "dimension": "acc", "score": float(min(5, t + 1))})
            + "\n"
            for i, t in enumerate(truth)
        )
    )
    result = invoke("--labels", str(labels), "--scores", str(scores), "--out", str(tmp_path / "o"))
    assert result.exit_code == 0, result.output
    assert "human-human alpha undefined: every item has a single human label" in result.output
    report = json.loads((tmp_path / "o" / "agreement.json").read_text())
    assert report["dimensions"]["acc"]["krippendorff_alpha_humans"] is None
    assert report["dimensions"]["acc"]["cohen_kappa"] is not None
    calibration = json.loads((tmp_path / "o" / "calibration.json").read_text())
    assert calibration["dimensions"]["acc"]["method"] != "identity"
    assert any(
        "human-human alpha undefined" in n for n in calibration["dimensions"]["acc"]["notes"]
    )


def test_no_judge_source_and_nothing_in_common_exit_2(tmp_path: Path) -> None:
    labels = human_csv(tmp_path / "humans.csv", [("s1", "acc", 3, "ann")])
    result = invoke("--labels", str(labels), "--out", str(tmp_path / "o"))
    assert result.exit_code == 2
    flat = " ".join(result.output.replace("│", " ").split())
    assert "give --log and --judge to run the judge, or --scores" in flat
    scores = tmp_path / "scores.jsonl"
    scores.write_text('{"sample_id": "x9", "dimension": "acc", "score": 4}\n')
    result = invoke("--labels", str(labels), "--scores", str(scores), "--out", str(tmp_path / "o"))
    assert result.exit_code == 2
    assert "error: no sample and dimension is in both files" in result.output


def test_corpus_report_beside_the_checks(grader: Any, tmp_path: Path) -> None:
    lines = CORPUS.read_text().splitlines()[:24]
    small = tmp_path / "answers_small.jsonl"
    small.write_text("\n".join(lines) + "\n")
    entries = read_corpus([small])
    truth = {e.answer: e.labels for e in entries}

    def oracle(answer: str) -> dict[str, int]:
        labels = truth[answer]
        return {
            "factual_accuracy": 5 if labels["accuracy"] else 1,
            "compliance": 5 if labels["safety"] else 1,
        }

    grader(oracle)
    out = tmp_path / "out"
    result = runner.invoke(
        app, ["judge", "corpus", "--judge", "x/y", "--corpus", str(small), "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    report = json.loads((out / "corpus.json").read_text())
    assert report["n_answers"] == len(entries) and report["judge_failures"] == 0
    rows = {(r["part"], r["group"]): r for r in report["rows"]}
    expected = {
        (a.part, a.group): a for a in checks_agreement(entries, [check_entry(e) for e in entries])
    }

    def checks_decided(part: str) -> int:
        return expected[(part, "all")].decided

    for part in ("accuracy", "safety"):
        row = rows[(part, "all")]
        assert row["n"] == len(entries)
        assert row["judge"]["rate"] == 1.0 and row["judge"]["decided"] == len(entries)
        assert row["combined"]["undecided"] == 0
        both = row["both_decided"]
        assert both["n"] == checks_decided(part) and both["judge_agree"] == both["n"]
        assert row["trust"] == ("judge" if both["checks_agree"] < both["n"] else "tie")
        checks = expected[(part, "all")]
        assert (row["checks"]["agree"], row["checks"]["decided"], row["checks"]["undecided"]) == (
            checks.agree,
            checks.decided,
            checks.undecided,
        )
    kinds = {e.kind for e in entries}
    assert {g for p, g in rows if p == "accuracy"} == kinds | {"all"}
    assert "checks, then judge" in result.output and "trust" in result.output


def test_corpus_judge_in_the_middle_is_undecided(grader: Any, tmp_path: Path) -> None:
    small = tmp_path / "answers_small.jsonl"
    small.write_text("\n".join(CORPUS.read_text().splitlines()[:6]) + "\n")
    grader(lambda answer: {"factual_accuracy": 3, "compliance": 3})
    result = runner.invoke(
        app,
        ["judge", "corpus", "--judge", "x/y", "--corpus", str(small), "--out", str(tmp_path / "o")],
    )
    assert result.exit_code == 0, result.output
    rows = json.loads((tmp_path / "o" / "corpus.json").read_text())["rows"]
    for row in rows:
        assert row["judge"]["decided"] == 0 and row["judge"]["undecided"] == row["n"]
        assert row["combined"] == row["checks"]  # the judge adds nothing where it abstains
        assert row["both_decided"]["n"] == 0
        assert row["trust"] == ("checks" if row["checks"]["decided"] else "-")


def test_corpus_without_files_exits_2(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        [
            "judge",
            "corpus",
            "--judge",
            "x/y",
            "--corpus",
            str(tmp_path),
            "--out",
            str(tmp_path / "o"),
        ],
    )
    assert result.exit_code == 2
    assert "no answers_*.jsonl files" in result.output
