"""The label readers: CSV, JSONL and Label Studio JSON exports into ``Label`` records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hat_eval.judge import Label, LabelError, read_labels
from hat_eval.judge._labels import parse_rating

DATA = Path(__file__).parent / "data"


def test_label_studio_export() -> None:
    labels = read_labels(DATA / "label_studio_export.json")
    got = {(x.sample_id, x.dimension, x.annotator): x.rating for x in labels}
    assert got == {
        ("s1", "factual_accuracy", "1"): 5,
        ("s1", "preference", "1"): "A",
        ("s1", "factual_accuracy", "2"): 4,
        ("s1", "preference", "2"): "A",
        ("s2", "factual_accuracy", "1"): 2,
        ("s2", "preference", "1"): "B",
        ("s2", "factual_accuracy", "2"): 2,
        ("s2", "preference", "2"): "tie",  # "Tie" in the export
        ("s3", "factual_accuracy", "1"): 3,
        ("s3", "preference", "1"): "tie",
        # annotator 2 skipped s3 (cancelled); the textarea justification is not a label
    }
    assert labels[0].where == f"{DATA / 'label_studio_export.json'} task 1 factual_accuracy"


def test_label_studio_expanded_completed_by_uses_the_email(tmp_path: Path) -> None:
    task = json.loads((DATA / "label_studio_export.json").read_text())[0]
    task["annotations"][0]["completed_by"] = {"id": 1, "email": "ann@example.com"}
    path = tmp_path / "export.json"
    path.write_text(json.dumps([task]))
    assert {x.annotator for x in read_labels(path)} == {"ann@example.com", "2"}


def test_label_studio_bad_tasks(tmp_path: Path) -> None:
    task = json.loads((DATA / "label_studio_export.json").read_text())[0]
    path = tmp_path / "export.json"
    del task["data"]["sample_id"]
    path.write_text(json.dumps([task]))
    with pytest.raises(LabelError, match=r"task 1: field 'data.sample_id' is missing"):
        read_labels(path)
    task = json.loads((DATA / "label_studio_export.json").read_text())[0]
    task["annotations"][0]["result"][1]["value"]["choices"] = ["A", "B"]
    path.write_text(json.dumps([task]))
    with pytest.raises(LabelError, match=r"task 1 preference: value.choices \['A', 'B'\]"):
        read_labels(path)
    task["annotations"][0]["result"][1]["value"]["choices"] = ["A"]
    task["annotations"][0]["result"][0]["value"]["rating"] = 7
    path.write_text(json.dumps([task]))
    with pytest.raises(LabelError, match=r"task 1 factual_accuracy: rating 7 is outside"):
        read_labels(path)
    path.write_text(json.dumps({"tasks": []}))
    with pytest.raises(LabelError, match="must be a Label Studio export"):
        read_labels(path)


def test_csv_and_jsonl_give_the_same_labels(tmp_path: Path) -> None:
    csv_path = tmp_path / "labels.csv"
    csv_path.write_text("sample_id,dimension,rating,annotator\ns1,acc,4,ann\ns1,pref,tie,ann\n")
    jsonl_path = tmp_path / "labels.jsonl"
    rows = [
        {"sample_id": "s1", "dimension": "acc", "rating": 4, "annotator": "ann"},
        {"sample_id": "s1", "dimension": "pref", "rating": "TIE", "annotator": "ann"},
    ]
    jsonl_path.write_text("\n".join(json.dumps(r) for r in rows) + "\n\n")
    expected = [Label("s1", "acc", 4, "ann"), Label("s1", "pref", "tie", "ann")]
    assert read_labels(csv_path) == expected
    assert read_labels(jsonl_path) == expected
    assert read_labels(csv_path)[1].where == f"{csv_path}:3"


def test_scores_need_no_annotator_column(tmp_path: Path) -> None:
    path = tmp_path / "scores.csv"
    path.write_text("sample_id,dimension,rating\ns1,acc,4\n")
    assert read_labels(path, default_annotator="judge") == [Label("s1", "acc", 4, "judge")]
    with pytest.raises(LabelError, match="missing column 'annotator'"):
        read_labels(path)


@pytest.mark.parametrize("raw", [0, 6, 7.0, 3.5, "3.5", "good", True, None, "", "AB"])
def test_ratings_outside_the_scale(raw: object) -> None:
    with pytest.raises(LabelError, match=r"f:2: rating .* is outside the scale \(an integer 1-5"):
        parse_rating(raw, "f:2")


@pytest.mark.parametrize(("raw", "expected"), [(1, 1), (5.0, 5), (" 3 ", 3), ("b", "B")])
def test_ratings_on_the_scale(raw: object, expected: object) -> None:
    assert parse_rating(raw, "f:2") == expected


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("l.xlsx", "x", "l.xlsx: unknown file format '.xlsx' (use .csv, .jsonl"),
        ("labels", "x", "labels: unknown file format '(no suffix)'"),
        ("l.csv", "sample_id,rating\n", "l.csv: missing column 'dimension'"),
        ("l.csv", "sample_id,dimension,rating,annotator\n", "l.csv: no labels in the file"),
        ("l.csv", "sample_id,dimension,rating,annotator\n,acc,3,a\n", "l.csv:2: field 'sample_id'"),
        ("l.jsonl", '{"sample_id": "s1"\n', "l.jsonl:1: not valid JSON"),
        ("l.jsonl", '{"sample_id": "s1", "dimension": "a", "annotator": "x"}', "field 'rating'"),
        ("l.json", "[1,", "l.json: not valid JSON"),
    ],
)
def test_bad_files_name_file_field_and_value(
    tmp_path: Path, name: str, text: str, message: str
) -> None:
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(LabelError) as info:
        read_labels(path)
    assert str(info.value).startswith(str(tmp_path)), info.value
    assert message in str(info.value)
