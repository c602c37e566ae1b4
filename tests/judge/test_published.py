"""Published human judgments: the MT-Bench converter, and the paper's agreement on our sample."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hat_eval.cli import app
from hat_eval.judge import (
    Label,
    LabelError,
    agreement,
    mt_bench_labels,
    read_mt_bench,
    read_mt_bench_votes,
    vote_agreement,
)

runner = CliRunner()

# Zheng et al. 2023, arXiv:2306.05685v4, Table 5 (a), first turn: agreement in setup S1
# (ties and inconsistent votes kept, inconsistent counted as tie) and S2 (non-tie votes only).
PAPER = {
    ("gpt4", True): 0.66,  # G4-Pair vs Human, 1343 votes
    ("gpt4", False): 0.85,  # 859 votes
    ("human", True): 0.63,  # Human vs Human, 721 votes
    ("human", False): 0.81,  # 479 votes
}


def rows(path: Path, records: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def test_the_converter_joins_and_orients_the_votes(tmp_path: Path) -> None:
    human = rows(
        tmp_path / "human.jsonl",
        [
            # one item seen from both orders; B (vicuna) wins once, A (alpaca) once, one tie
            {"question_id": 81, "turn": 1, "model_a": "vicuna", "model_b": "alpaca",
             "winner": "model_a", "judge": "expert_1"},
            {"question_id": 81, "turn": 1, "model_a": "alpaca", "model_b": "vicuna",
             "winner": "model_a", "judge": "expert_2"},
            {"question_id": 81, "turn": 1, "model_a": "alpaca", "model_b": "vicuna",
             "winner": "tie", "judge": "expert_3"},
            {"question_id": 81, "turn": 1, "model_a": "alpaca", "model_b": "vicuna",
             "winner": "model_b", "judge": "author_0"},  # an author: left out
            {"question_id": 81, "turn": 2, "model_a": "alpaca", "model_b": "vicuna",
             "winner": "model_b", "judge": "expert_1"},
        ],
    )  # fmt: skip
    gpt4 = rows(
        tmp_path / "gpt4.jsonl",
        [
            {"question_id": 81, "turn": 1, "model_a": "vicuna", "model_b": "alpaca",
             "winner": "model_a", "judge": "gpt4_pair"},
            {"question_id": 81, "turn": 2, "model_a": "alpaca", "model_b": "vicuna",
             "winner": "tie (inconsistent)", "judge": "gpt4_pair"},
        ],
    )  # fmt: skip
    items = read_mt_bench_votes(human, gpt4)
    assert [i.sample_id for i in items] == [
        "mtbench-q81-t1-alpaca-vs-vicuna",
        "mtbench-q81-t2-alpaca-vs-vicuna",
    ]
    first = items[0]
    assert first.human == (("expert_1", "vicuna"), ("expert_2", "alpaca"), ("expert_3", "tie"))
    assert first.gpt4 == "vicuna"
    humans, judge = mt_bench_labels(items)
    assert [(h.sample_id[-19:], h.rating) for h in humans[:3]] == [
        ("t1-alpaca-vs-vicuna", "B"),
        ("t1-alpaca-vs-vicuna", "A"),
        ("t1-alpaca-vs-vicuna", "tie"),
    ]
    assert [j.rating for j in judge] == ["B", "tie"]  # an inconsistent verdict is a tie
    # S1, by hand: item 1 GPT-4 B vs (B, A, tie) -> 1 of 3; item 2 tie vs B -> 0 of 1
    s1 = vote_agreement(humans, judge, n_boot=0)
    assert (s1.agree, s1.total) == (1, 4)
    # S2 drops every pair with a tie: item 1 (B,B) (B,A) -> 1 of 2; item 2 has a tie verdict
    s2 = vote_agreement(humans, judge, ties=False, n_boot=0)
    assert (s2.agree, s2.total) == (1, 2)
    # human pairs on item 1: (B,A) (B,tie) (A,tie) -> 0 of 3; S2 keeps (B,A) only
    assert (vote_agreement(humans, n_boot=0).total, vote_agreement(humans, n_boot=0).agree) == (
        3,
        0,
    )
    assert vote_agreement(humans, ties=False, n_boot=0).total == 1
    with_authors = read_mt_bench_votes(human, gpt4, experts_only=False)
    assert len(with_authors[0].human) == 4


def test_a_bad_row_names_the_line(tmp_path: Path) -> None:
    human = rows(
        tmp_path / "human.jsonl",
        [{"question_id": 1, "turn": 1, "model_a": "x", "model_b": "y", "winner": "both",
          "judge": "expert_0"}],
    )  # fmt: skip
    with pytest.raises(LabelError, match=f"{human}:1: winner 'both'"):
        read_mt_bench_votes(human)


def test_a_broken_json_file_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    broken = tmp_path / "gpt4_pair_judgments.json"
    broken.write_text('[{"question_id": 1,\n', encoding="utf-8")
    with pytest.raises(LabelError, match=f"{broken}: not valid JSON \\(line 2"):
        read_mt_bench_votes(broken)


def test_the_sample_is_what_the_readme_says(mt_bench_sample: Path) -> None:
    items = read_mt_bench(mt_bench_sample)
    assert len(items) == 200
    assert {i.turn for i in items} == {1}
    assert all(i.gpt4 is not None and i.human for i in items)
    assert all(j.startswith("expert_") for i in items for j, _ in i.human)
    assert len({i.sample_id for i in items}) == 200


@pytest.mark.parametrize(("who", "ties"), list(PAPER))
def test_our_statistics_on_the_sample_reproduce_the_paper(
    who: str, ties: bool, mt_bench_sample: Path
) -> None:
    humans, judge = mt_bench_labels(read_mt_bench(mt_bench_sample))
    result = vote_agreement(humans, judge if who == "gpt4" else None, ties=ties, seed=0)
    assert result.ci is not None and result.rate is not None
    low, high = result.ci
    # the paper's figure (over all 821 first-turn items) lies in our 95% interval over a sample
    # of 200 of them; the GPT-4 figures are also close in value
    assert low <= PAPER[(who, ties)] <= high, (result, PAPER[(who, ties)])
    if who == "gpt4":
        assert abs(result.rate - PAPER[(who, ties)]) < 0.02


def test_our_agreement_report_runs_on_the_sample(tmp_path: Path, mt_bench_sample: Path) -> None:
    humans, judge = mt_bench_labels(read_mt_bench(mt_bench_sample))
    (dim,) = agreement(humans, judge, n_boot=200).dimensions
    assert dim.kind == "preference" and dim.n_items == 200
    # exact_agreement is the S1 figure with every item weighing the same (not every vote)
    assert dim.statistics["exact_agreement"] == pytest.approx(PAPER[("gpt4", True)], abs=0.03)
    for key in ("krippendorff_alpha_humans", "krippendorff_alpha_judge_humans", "cohen_kappa"):
        value = dim.statistics[key]
        assert value is not None and 0.2 < value < 0.8
    # through the CLI, from the converted files
    write = tmp_path / "humans.csv", tmp_path / "gpt4.csv"
    for path, labels in zip(write, (humans, judge), strict=True):
        path.write_text(
            "sample_id,dimension,rating,annotator\n"
            + "".join(f"{x.sample_id},{x.dimension},{x.rating},{x.annotator}\n" for x in labels)
        )
    result = runner.invoke(
        app,
        ["judge", "agreement", "--labels", str(write[0]), "--scores", str(write[1])]
        + ["--out", str(tmp_path / "o"), "--n-boot", "200"],
    )
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "o" / "agreement.json").read_text())
    assert report["dimensions"]["preference"]["exact_agreement"] == pytest.approx(
        dim.statistics["exact_agreement"]
    )


def test_labels_are_our_records(mt_bench_sample: Path) -> None:
    humans, judge = mt_bench_labels(read_mt_bench(mt_bench_sample)[:1])
    assert all(isinstance(x, Label) and x.dimension == "preference" for x in [*humans, *judge])
