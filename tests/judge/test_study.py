"""``hat-eval study``: blind export of two candidates' answers, analysis of the human votes."""

from __future__ import annotations

import csv
import json
import math
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from hat_eval.cli import app
from hat_eval.judge._study import majority_preference
from hat_eval.stats import sign_test, wilson_interval

runner = CliRunner()


# --- the statistics, against hand-derived values ----------------------------------------------


def test_wilson_interval_of_8_in_10() -> None:
    # p = 0.8, z^2 = 3.841459, denominator 1 + z^2/10 = 1.384146;
    # centre (0.8 + 0.192073) / 1.384146 = 0.716741;
    # half 1.959964 * sqrt(0.016 + 0.009604) / 1.384146 = 0.226571 -> [0.490170, 0.943312].
    low, high = wilson_interval(8, 10) or (math.nan, math.nan)
    assert low == pytest.approx(0.490170, abs=1e-5)
    assert high == pytest.approx(0.943312, abs=1e-5)
    assert wilson_interval(0, 0) is None
    assert wilson_interval(0, 5) == (0.0, pytest.approx(0.434482, abs=1e-5))


def test_sign_test_is_the_exact_two_sided_binomial() -> None:
    # 2 * (C(10,0) + C(10,1) + C(10,2)) / 2^10 = 2 * 56 / 1024.
    assert sign_test(8, 2) == pytest.approx(112 / 1024)
    assert sign_test(2, 8) == pytest.approx(112 / 1024)
    assert sign_test(3, 3) == pytest.approx(1.0)
    assert sign_test(0, 0) is None


def test_majority_preference_calls_split_votes_a_tie() -> None:
    assert majority_preference(["A", "A", "B"]) == "A"
    assert majority_preference(["A", "B"]) == "tie"
    assert majority_preference(["B", "tie"]) == "tie"
    assert majority_preference(["B"]) == "B"
    with pytest.raises(ValueError):
        majority_preference([])


# --- export from two real logs ------------------------------------------------------------------


def _export(logs: dict[str, Any], out: Path, *extra: str) -> Any:
    args = ["study", "export", "--a", str(logs["a"]), "--b", str(logs["b"]), "--out", str(out)]
    return runner.invoke(app, [*args, *extra])


def test_export_label_studio_is_blind_and_keyed(logs: dict[str, Any], tmp_path: Path) -> None:
    res = _export(logs, tmp_path, "--n", "6", "--seed", "3")
    assert res.exit_code == 0, res.output
    assert "6 items" in res.output
    tasks_text = (tmp_path / "tasks.json").read_text()
    tasks = json.loads(tasks_text)
    key = json.loads((tmp_path / "key.json").read_text())
    assert len(tasks) == 6 and len(key["items"]) == 6
    for identity in ("hat/", "reference", "memorized", "livestream", "variant", str(logs["a"])):
        assert identity not in tasks_text
    assert key["a"]["model"] == "hat/reference" and key["b"]["model"] == "hat/memorized"
    for task in tasks:
        data = task["data"]
        assert set(data) == {"sample_id", "message", "left", "right"}
        entry = key["items"][data["sample_id"]]
        a_side, b_side = ("left", "right") if entry["a_side"] == "left" else ("right", "left")
        assert data[a_side] == logs["a_answers"][data["sample_id"]]
        assert data[b_side] == logs["b_answers"][data["sample_id"]]
        assert entry["sample_id_a"] == f"livestream-{data['sample_id']}"
        assert entry["sample_id_b"] == f"variant-{data['sample_id']}"
    root = ET.fromstring((tmp_path / "label_config.xml").read_text())
    assert root.tag == "View"
    choices = root.find(".//Choices")
    assert choices is not None and choices.get("name") == "preference"
    assert [c.get("value") for c in choices.findall("Choice")] == ["left", "right", "tie"]
    assert {t.get("value") for t in root.iter("Text")} == {"$message", "$left", "$right"}


def test_export_is_reproducible_with_the_seed(logs: dict[str, Any], tmp_path: Path) -> None:
    def sides(seed: int, name: str) -> tuple[str, str]:
        out = tmp_path / name
        assert _export(logs, out, "--n", "6", "--seed", str(seed)).exit_code == 0
        return (out / "tasks.json").read_text(), (out / "key.json").read_text()

    first, again = sides(7, "first"), sides(7, "again")
    assert first[0] == again[0]
    assert json.loads(first[1])["items"] == json.loads(again[1])["items"]
    layouts = {
        tuple((i, e["a_side"]) for i, e in json.loads(sides(seed, f"s{seed}")[1])["items"].items())
        for seed in range(6)
    }
    assert len(layouts) > 1  # other seeds: other draws and sides


def test_export_csv_round_trip(logs: dict[str, Any], tmp_path: Path) -> None:
    res = _export(logs, tmp_path, "--n", "5", "--format", "csv")
    assert res.exit_code == 0, res.output
    assert not (tmp_path / "label_config.xml").exists()
    key = json.loads((tmp_path / "key.json").read_text())["items"]
    with (tmp_path / "tasks.csv").open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 5
    assert list(rows[0]) == ["sample_id", "message", "left", "right", "preference", "annotator"]
    for row in rows:  # a rater who always prefers A
        row["preference"], row["annotator"] = key[row["sample_id"]]["a_side"], "rater1"
    labels = tmp_path / "filled.csv"
    with labels.open("w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    res = runner.invoke(
        app, ["study", "analyze", "--labels", str(labels), "--key", str(tmp_path / "key.json")]
    )
    assert res.exit_code == 0, res.output
    report = json.loads(res.stdout)
    assert (report["wins_a"], report["wins_b"], report["ties"]) == (5, 0, 0)
    assert report["win_rate_a"] == 1.0


def test_export_bad_values(logs: dict[str, Any], tmp_path: Path) -> None:
    res = _export(logs, tmp_path, "--n", "7")
    assert res.exit_code == 2
    assert "--n 7 must be between 1 and the 6 cases" in res.output
    assert len([x for x in res.output.splitlines() if x.strip()]) == 1
    res = _export(logs, tmp_path, "--n", "0")
    assert res.exit_code == 2 and "must be at least 1" in res.output


def test_labels_from_another_seed_do_not_match_the_key(
    logs: dict[str, Any], tmp_path: Path
) -> None:
    one = tmp_path / "one"
    assert _export(logs, one, "--n", "6", "--seed", "1").exit_code == 0
    tasks = json.loads((one / "tasks.json").read_text())
    for number, task in enumerate(tasks):
        task["id"] = number
        task["annotations"] = [_annotation(1, "left")]
    export = tmp_path / "export.json"
    export.write_text(json.dumps(tasks))
    ok = _analyze(export, one / "key.json")
    assert ok.exit_code == 0, ok.output
    # Another seed shows some item whose answers differ on the other sides: its votes would
    # mean the opposite, so the key of that study must not pass.
    key_one = json.loads((one / "key.json").read_text())["items"]
    differing = [t["data"]["sample_id"] for t in tasks if t["data"]["left"] != t["data"]["right"]]
    assert differing
    for seed in range(2, 20):
        other = tmp_path / f"seed{seed}"
        assert _export(logs, other, "--n", "6", "--seed", str(seed)).exit_code == 0
        key_other = json.loads((other / "key.json").read_text())["items"]
        if any(key_other[i]["a_side"] != key_one[i]["a_side"] for i in differing):
            break
    else:
        pytest.fail("no seed in 2..19 swapped the sides of an item with differing answers")
    bad = _analyze(export, other / "key.json")
    assert bad.exit_code == 2
    assert "the key does not match the labels" in bad.output
    assert len([x for x in bad.output.splitlines() if x.strip()]) == 1


# --- analyze a hand-written study with a known answer -------------------------------------------

# Items i01..i12; candidate A is on the left in odd items, on the right in even ones.
# Rater r1: A wins i01-i08, B wins i09-i10, tie on i11-i12.
# Rater r2: agrees on i01-i03 (A), votes B on i11 (where r1 said tie: the majority stays tie).
LABELS_CSV = """\
sample_id,preference,annotator
i01,left,r1
i02,right,r1
i03,left,r1
i04,right,r1
i05,left,r1
i06,right,r1
i07,left,r1
i08,right,r1
i09,right,r1
i10,left,r1
i11,tie,r1
i12,tie,r1
i01,left,r2
i02,right,r2
i03,left,r2
i11,right,r2
"""


def _key(path: Path) -> Path:
    items = {
        f"i{n:02d}": {
            "a_side": "left" if n % 2 else "right",
            "sample_id_a": f"livestream-i{n:02d}",
            "sample_id_b": f"variant-i{n:02d}",
        }
        for n in range(1, 13)
    }
    path.write_text(json.dumps({"seed": 0, "items": items}))
    return path


def _annotation(user: int, side: str) -> dict[str, Any]:
    return {
        "completed_by": user,
        "was_cancelled": False,
        "result": [
            {"from_name": "preference", "to_name": "message", "type": "choices",
             "value": {"choices": [side]}},
        ],
    }  # fmt: skip


def _analyze(labels: Path, key: Path, *extra: str) -> Any:
    return runner.invoke(
        app, ["study", "analyze", "--labels", str(labels), "--key", str(key), *extra]
    )


def test_analyze_known_answer(tmp_path: Path) -> None:
    labels = tmp_path / "labels.csv"
    labels.write_text(LABELS_CSV)
    judge = tmp_path / "judge.csv"
    judge.write_text(
        "sample_id,preference\n"
        + "".join(f"i{n:02d},A\n" for n in range(1, 12))
        + "variant-i12,B\n"  # the judge may name an item by a candidate's sample id
    )
    res = _analyze(
        labels, _key(tmp_path / "key.json"), "--judge", str(judge), "--out", str(tmp_path)
    )
    assert res.exit_code == 0, res.output
    report = json.loads((tmp_path / "study.json").read_text())
    assert (report["n_items"], report["n_votes"], report["n_annotators"]) == (12, 16, 2)
    assert (report["wins_a"], report["wins_b"], report["ties"]) == (8, 2, 2)
    assert report["win_rate_a"] == pytest.approx(0.8)
    assert report["win_rate_a_ci"] == pytest.approx([0.490170, 0.943312], abs=1e-5)
    assert report["tie_share"] == pytest.approx(2 / 12)
    assert report["sign_test_p"] == pytest.approx(112 / 1024)
    # Multi-rated: i01-i03 (A, A) and i11 (tie, B): unanimous 3 of 4.
    assert report["n_multi_rated"] == 4 and report["unanimous_share"] == pytest.approx(0.75)
    # Nominal alpha over the 8 pairable values (A x6, B, tie): D_o = 2/8,
    # D_e = (8^2 - 6^2 - 1 - 1) / (8 * 7) = 26/56, alpha = 1 - (1/4) / (26/56) = 6/13.
    assert report["krippendorff_alpha"] == pytest.approx(6 / 13)
    # The judge: A on i01-i11, B on i12; human majorities A x8, B x2, tie x2 -> 8 of 12 agree.
    assert report["judge"]["n_items"] == 12
    assert report["judge"]["agreement_with_human_majority"] == pytest.approx(8 / 12)
    assert report["items"][11]["judge"] == "B" and report["items"][11]["human_majority"] == "tie"
    assert "win rate A (ties out)  0.800  95% Wilson [0.490, 0.943]" in res.output
    assert "sign test p            0.109" in res.output

    # The same votes as a Label Studio export give the same report.
    tasks: dict[str, dict[str, Any]] = {}
    users = {"r1": 1, "r2": 2}
    for line in LABELS_CSV.splitlines()[1:]:
        item, side, rater = line.split(",")
        task = tasks.setdefault(item, {"id": len(tasks) + 1, "data": {"sample_id": item}})
        task.setdefault("annotations", []).append(_annotation(users[rater], side))
    export = tmp_path / "export.json"
    export.write_text(json.dumps(list(tasks.values())))
    res = _analyze(export, tmp_path / "key.json")
    assert res.exit_code == 0, res.output
    again = json.loads(res.stdout)
    for field in ("wins_a", "wins_b", "ties", "sign_test_p", "krippendorff_alpha", "win_rate_a_ci"):
        assert again[field] == pytest.approx(report[field])
    assert again["judge"] is None


def test_single_annotator_leaves_agreement_undefined(tmp_path: Path) -> None:
    labels = tmp_path / "labels.csv"
    labels.write_text("\n".join(LABELS_CSV.splitlines()[:13]) + "\n")
    res = _analyze(labels, _key(tmp_path / "key.json"))
    assert res.exit_code == 0, res.output
    report = json.loads(res.stdout)
    assert report["unanimous_share"] is None and report["krippendorff_alpha"] is None
    assert report["win_rate_a"] == pytest.approx(0.8)
    assert report["sign_test_p"] == pytest.approx(112 / 1024)
    assert any("agreement among raters is undefined" in n for n in report["notes"])
    assert "agreement among raters is undefined" in res.stderr


def test_labels_naming_items_not_in_the_key(tmp_path: Path) -> None:
    labels = tmp_path / "labels.csv"
    labels.write_text(LABELS_CSV + "zz99,left,r1\n")
    res = _analyze(labels, _key(tmp_path / "key.json"))
    assert res.exit_code == 0, res.output
    assert "1 labelled items are not in" in res.stderr and "'zz99'" in res.stderr
    report = json.loads(res.stdout)
    assert report["unknown_items"] == ["zz99"] and report["n_items"] == 12


def test_key_that_does_not_match_the_labels(tmp_path: Path) -> None:
    labels = tmp_path / "labels.csv"
    labels.write_text("sample_id,preference,annotator\nx1,left,r1\nx2,tie,r1\n")
    res = _analyze(labels, _key(tmp_path / "key.json"))
    assert res.exit_code == 2
    assert "the key does not match the labels" in res.output
    assert len([x for x in res.output.splitlines() if x.strip()]) == 1


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("sample_id,preference,annotator\ni01,A,r1\n", "not A/B"),
        ("sample_id,annotator\ni01,r1\n", "missing column 'preference'"),
        ("sample_id,preference,annotator\ni01,left,r1\ni01,right,r1\n", "voted on item 'i01'"),
    ],
)
def test_bad_labels_are_one_line(tmp_path: Path, text: str, needle: str) -> None:
    labels = tmp_path / "labels.csv"
    labels.write_text(text)
    res = _analyze(labels, _key(tmp_path / "key.json"))
    assert res.exit_code == 2
    assert needle in res.output
    assert len([x for x in res.output.splitlines() if x.strip()]) == 1


def test_a_file_that_is_not_a_key(tmp_path: Path) -> None:
    labels = tmp_path / "labels.csv"
    labels.write_text(LABELS_CSV)
    bad = tmp_path / "key.json"
    bad.write_text("[1, 2]")
    res = _analyze(labels, bad)
    assert res.exit_code == 2 and "not a study key" in res.output
