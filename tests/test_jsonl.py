"""The one JSONL reader: good, blank and BOM lines, and one-line errors naming file and line."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest

from hat_eval._jsonl import JsonlError, parse_jsonl, read_jsonl, write_jsonl


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def test_good_lines_come_with_their_line_numbers(tmp_path: Path) -> None:
    path = _write(tmp_path / "a.jsonl", b'{"id": 1}\n{"id": 2, "t": "caf\xc3\xa9"}\n')
    assert list(read_jsonl(path)) == [(1, {"id": 1}), (2, {"id": 2, "t": "café"})]


def test_blank_lines_are_skipped_but_counted(tmp_path: Path) -> None:
    path = _write(tmp_path / "a.jsonl", b'\n{"id": 1}\n   \n\t\r\n{"id": 2}')  # no last newline
    assert list(read_jsonl(path)) == [(2, {"id": 1}), (5, {"id": 2})]


def test_crlf_line_ends_are_whitespace(tmp_path: Path) -> None:
    path = _write(tmp_path / "a.jsonl", b'{"id": 1}\r\n{"id": 2}\r\n')
    assert [row["id"] for _, row in read_jsonl(path)] == [1, 2]


def test_a_byte_order_mark_is_dropped(tmp_path: Path) -> None:
    path = _write(tmp_path / "a.jsonl", b'\xef\xbb\xbf{"id": 1}\n{"id": 2}\n')
    assert list(read_jsonl(path)) == [(1, {"id": 1}), (2, {"id": 2})]
    assert list(parse_jsonl(['\ufeff{"id": 1}', ""], "t")) == [(1, {"id": 1})]


def test_a_unicode_line_separator_inside_a_string_stays_one_line(tmp_path: Path) -> None:
    row = {"text": "one\u2028two\x85three"}
    path = tmp_path / "a.jsonl"
    write_jsonl(path, [row, {"id": 2}])
    assert list(read_jsonl(path)) == [(1, row), (2, {"id": 2})]


def test_a_bad_json_line_names_file_and_line(tmp_path: Path) -> None:
    path = _write(tmp_path / "answers.jsonl", b'{"id": 1}\n\n{"id": 2 "answer": "x"}\n')
    with pytest.raises(JsonlError) as info:
        list(read_jsonl(path))
    err = info.value
    assert (err.path, err.line) == (str(path), 3)
    assert str(err) == (
        f"{path}:3: not valid JSON (Expecting ',' delimiter at column 10), "
        "expected one JSON object per line"
    )
    assert "\n" not in str(err)
    assert isinstance(err, ValueError)


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("[1, 2]", "array"),
        ('"text"', "string"),
        ("3", "number"),
        ("true", "boolean"),
        ("null", "null"),
    ],
)
def test_a_line_that_is_not_an_object_says_what_it_is(tmp_path: Path, line: str, kind: str) -> None:
    path = _write(tmp_path / "a.jsonl", f'{{"id": 1}}\n{line}\n'.encode())
    with pytest.raises(JsonlError) as info:
        list(read_jsonl(path))
    assert info.value.line == 2
    assert info.value.message == f"a JSON {kind}, not an object, expected one JSON object per line"
    assert str(info.value) == f"{path}:2: {info.value.message}"


def test_a_missing_file_says_what_was_expected(tmp_path: Path) -> None:
    path = tmp_path / "none.jsonl"
    with pytest.raises(JsonlError) as info:
        list(read_jsonl(path, what="answers"))
    assert info.value.line is None
    assert str(info.value) == f"{path}: no such file, expected a JSONL file of answers"


def test_a_folder_is_not_a_file(tmp_path: Path) -> None:
    with pytest.raises(JsonlError, match=r": cannot read it \(.+\), expected a JSONL file of"):
        list(read_jsonl(tmp_path))


def test_bytes_that_are_not_utf8_name_their_line(tmp_path: Path) -> None:
    path = _write(tmp_path / "a.jsonl", b'{"id": 1}\n{"id": "\xff"}\n')
    with pytest.raises(JsonlError, match=r"a\.jsonl:2: not UTF-8 \(.+\), expected a UTF-8"):
        list(read_jsonl(path))


def test_lines_before_a_bad_one_are_yielded_first(tmp_path: Path) -> None:
    """It streams: the good lines come out before the bad one is read."""
    path = _write(tmp_path / "a.jsonl", b'{"id": 1}\n{"id": 2}\nnot json\n')
    rows = read_jsonl(path)
    assert next(rows) == (1, {"id": 1}) and next(rows) == (2, {"id": 2})
    with pytest.raises(JsonlError, match=":3: not valid JSON"):
        next(rows)


def test_a_cut_tail_is_skipped_only_when_asked(tmp_path: Path) -> None:
    path = _write(tmp_path / "raw.jsonl", b'{"id": 1}\n{"id": 2}\n{"id": 3, "te')
    assert [n for n, _ in read_jsonl(path, skip_cut_tail=True)] == [1, 2]
    with pytest.raises(JsonlError, match=":3: not valid JSON"):
        list(read_jsonl(path))


def test_text_lines_read_the_same_way() -> None:
    assert list(parse_jsonl(['{"a": 1}', "", '{"b": 2}'], "t.jsonl")) == [
        (1, {"a": 1}),
        (3, {"b": 2}),
    ]
    with pytest.raises(JsonlError, match=r"^t\.jsonl:2: a JSON array, not an object"):
        list(parse_jsonl(['{"a": 1}', "[]"], "t.jsonl"))


def test_the_error_survives_pickling() -> None:
    err = pickle.loads(pickle.dumps(JsonlError("a.jsonl", 7, "not valid JSON")))
    assert (err.path, err.line, err.message, str(err)) == (
        "a.jsonl",
        7,
        "not valid JSON",
        "a.jsonl:7: not valid JSON",
    )


def test_write_jsonl_writes_one_utf8_object_a_line(tmp_path: Path) -> None:
    rows = [{"t": "café"}, {"n": [1, 2]}]
    path = write_jsonl(tmp_path / "sub" / "out.jsonl", rows)
    data = path.read_bytes()
    assert data == '{"t": "café"}\n{"n": [1, 2]}\n'.encode()
    assert [json.loads(x) for x in data.decode().splitlines()] == rows
    assert [row for _, row in read_jsonl(path)] == rows
