"""Bad input never ends in a traceback or a silent success (hypothesis).

Arbitrary JSON values (and bytes) go into every field of an answer line, a label row, a Label
Studio task and a harness file; each reader must give either a clean result, exactly when the
value is one the field documents, or one error line naming the field. The CLI is driven
through typer's ``CliRunner`` for whole files of arbitrary bytes. All offline, all in-process.
"""

from __future__ import annotations

import copy
import json
import math
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from hat_eval.cli import app
from hat_eval.episode import AnswerFileError, Episode, read_answer_file, score_answers
from hat_eval.episode._external import read_answers
from hat_eval.episode._runtime import CALL_OUTCOMES
from hat_eval.harness import FAULT_KINDS, Harness, HarnessError, load_harness
from hat_eval.harness._load import harness_to_dict, parse_harness
from hat_eval.judge import LabelError, read_labels
from hat_eval.suites import suite_episodes
from tests._cli import one_error_line

SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats()  # NaN and infinities too: json.loads reads them
    | st.text(max_size=30)
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
"""Any value a JSON line can hold (``json.loads`` also reads NaN and infinities)."""


@cache
def _episodes() -> dict[str, Episode]:
    return {e.id: e for e in suite_episodes("robustness", n=30)}


@cache
def _case() -> tuple[str, str, str]:
    """A case needing a tool: its id, the tool's name under its harness and the function id."""
    e = next(e for e in _episodes().values() if e.case.required_calls and e.fault is not None)
    function = e.case.required_calls[0].function
    return e.id, e.gold.tools[function], function


def _one_line(err: Exception, where: str, field: str) -> None:
    text = str(err)
    assert "\n" not in text and "Traceback" not in text, text
    assert text.startswith(f"{where}: field {field}"), text


def _score(row: dict[str, Any]) -> list[dict[str, Any]]:
    """Read and score one line (as the file would hold it), results strict JSON."""
    text = json.dumps(row, allow_nan=True, ensure_ascii=False)
    out = list(score_answers(read_answers([text], "a.jsonl", case_ids=_episodes()), _episodes()))
    json.dumps(out, allow_nan=False)  # strict: a NaN anywhere raises
    return out


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_arguments(v: Any) -> bool:
    if v is None or isinstance(v, dict):
        return True
    if not isinstance(v, str):
        return False
    if not v.strip():
        return True
    try:
        return isinstance(json.loads(v), dict)
    except ValueError:
        return False


CALL_FIELDS = {
    "arguments": _is_arguments,
    "outcome": lambda v: isinstance(v, str) and v in CALL_OUTCOMES,
    "attempts": lambda v: _is_int(v) and v >= 1,
    "faults": lambda v: isinstance(v, list) and len(v) <= 1 and all(f in FAULT_KINDS for f in v),
    "backoff_s": lambda v: (_is_int(v) or isinstance(v, float)) and math.isfinite(v) and v >= 0,
    "skill_type": lambda v: v in (None, "reply", "strategy"),
    "result": lambda v: True,
    "id": lambda v: v is None or isinstance(v, str),
    "type": lambda v: v in (None, "function"),
    "index": lambda v: v is None or _is_int(v),
    "parse_error": lambda v: v is None or isinstance(v, str),
    "view": lambda v: True,
    "name": lambda v: isinstance(v, str) and v != "",
}
"""What each field of a tool call documents (the call also names its tool by ``name``)."""


@SETTINGS
@given(field=st.sampled_from(sorted(CALL_FIELDS)), value=json_values)
def test_any_value_in_a_tool_call_field_scores_or_is_one_line(field: str, value: Any) -> None:
    case, name, _ = _case()
    call = {"name": name, "arguments": {"product_id": "P0001"}, field: value}
    try:
        _score({"id": case, "answer": "好的 ok", "tool_calls": [call]})
    except AnswerFileError as err:
        assert not CALL_FIELDS[field](value), f"{field}={value!r} is valid but refused: {err}"
        _one_line(err, "a.jsonl:1", f"tool_calls.0.{field}")
    else:
        assert CALL_FIELDS[field](value), f"{field}={value!r} accepted silently"


@SETTINGS
@given(
    field=st.sampled_from(["function", "function.name", "function.arguments", "function.extra"]),
    value=json_values,
)
def test_any_value_in_openais_function_scores_or_is_one_line(field: str, value: Any) -> None:
    case, name, _ = _case()
    function: Any = {"name": name, "arguments": '{"product_id": "P0001"}'}
    if field == "function":
        function = value
        valid = isinstance(value, str) and value != ""
        if isinstance(value, dict):
            valid = (
                set(value) <= {"name", "arguments"}
                and CALL_FIELDS["name"](value.get("name"))
                and _is_arguments(value.get("arguments"))
            )
    else:
        function[field.split(".")[1]] = value
        valid = CALL_FIELDS.get(field.split(".")[1], lambda v: False)(value)
    call = {"type": "function", "function": function}
    try:
        _score({"id": case, "answer": "ok", "tool_calls": [call]})
    except AnswerFileError as err:
        assert not valid, f"{field}={value!r} is valid but refused: {err}"
        _one_line(err, "a.jsonl:1", "tool_calls.0.")  # function..., or name when it is null
    else:
        assert valid, f"{field}={value!r} accepted silently"


LINE_FIELDS = {
    "answer": lambda v: v is None or isinstance(v, str),
    "id": lambda v: isinstance(v, str) and v in _episodes(),
    "tool_calls": lambda v: v is None or v == [],
    "metadata": lambda v: v is None or isinstance(v, dict),
    "extra": lambda v: False,
}


@SETTINGS
@given(field=st.sampled_from(sorted(LINE_FIELDS)), value=json_values)
def test_any_value_in_an_answer_field_scores_or_is_one_line(field: str, value: Any) -> None:
    case, _, _ = _case()
    row = {"id": case, "answer": "The price is ¥99. 到手价99元。", field: value}
    if field == "tool_calls" and isinstance(value, list) and value:
        valid = None  # a list of arbitrary calls: only "clean or one line" is asserted
    else:
        valid = LINE_FIELDS[field](value)
    try:
        _score(row)
    except AnswerFileError as err:
        assert valid is not True, f"{field}={value!r} is valid but refused: {err}"
        _one_line(err, "a.jsonl:1", field)
    else:
        assert valid is not False, f"{field}={value!r} accepted silently"


@SETTINGS
@given(row=st.dictionaries(st.text(max_size=10), json_values, max_size=5))
@example(row={"a\nb": 1})  # a field name with a newline: still one line
def test_any_object_as_a_line_scores_or_is_one_line(row: dict[str, Any]) -> None:
    try:
        _score(row)
    except AnswerFileError as err:
        assert str(err).startswith("a.jsonl:1: field "), err
        assert "\n" not in str(err)


@SETTINGS
@given(result=json_values | st.text(max_size=200))
def test_any_result_a_call_returned_is_read(result: Any) -> None:
    """A result is evidence, never a reason to refuse the line, whatever it holds."""
    case, name, function = _case()
    e = _episodes()[case]
    args = next(c.args for c in e.case.required_calls if c.function == function)
    call = {"name": name, "arguments": args, "result": result}
    (out,) = _score({"id": case, "answer": "ok", "tool_calls": [call]})
    assert out["id"] == case


@settings(max_examples=25, deadline=None)
@given(data=st.lists(st.binary(max_size=60), min_size=1, max_size=4))
def test_any_bytes_as_an_answers_file_is_read_or_one_line(tmp_path_factory, data) -> None:
    folder = tmp_path_factory.mktemp("bytes")
    path = folder / "a.jsonl"
    path.write_bytes(b"\n".join(data))
    try:
        read_answer_file(path, case_ids=_episodes())
    except AnswerFileError as err:
        assert str(err).startswith(f"{path}:") and "\n" not in str(err), err
    bad: list[str] = []
    read_answer_file(path, case_ids=_episodes(), on_bad=lambda err: bad.append(str(err)))
    assert all(m.startswith(f"{path}:") and "\n" not in m for m in bad)


@settings(max_examples=8, deadline=None)
@given(
    lines=st.lists(
        st.binary(max_size=40) | json_values.map(lambda v: json.dumps(v).encode()),
        min_size=1,
        max_size=3,
    ),
    skip_bad=st.booleans(),
)
def test_hat_eval_score_on_any_bytes_is_one_line(tmp_path_factory, lines, skip_bad) -> None:
    """No line holds a case id: exit 2, one error line (and the skipped lines), no output."""
    folder = tmp_path_factory.mktemp("cli")
    answers = folder / "a.jsonl"
    answers.write_bytes(b"\n".join(lines) + b"\n")
    args = ["score", "--suite", "livestream", "--answers", str(answers)]
    res = CliRunner().invoke(
        app, [*args, "--out", str(folder / "out.jsonl"), *(["--skip-bad"] * skip_bad)]
    )
    if skip_bad:
        assert res.exit_code == 2 and "Traceback" not in res.output, res.output
        *skipped, last = [ln for ln in res.stderr.splitlines() if ln.strip()]
        assert last.startswith(f"error: {answers}: ")
        # every line blank: nothing to skip, "no answers"; else every line skipped as bad
        assert ("lines bad" in last) if skipped else ("no answers" in last), last
        assert all(ln.startswith(f"skipped: {answers}:") for ln in skipped), skipped
    else:
        one_error_line(res, f"error: {answers}")
    assert not (folder / "out.jsonl").exists()


# -- label files ---------------------------------------------------------------------------------

LABEL_FIELDS = {
    "sample_id": lambda v: (isinstance(v, str) and v.strip() != "") or _is_int(v),
    "dimension": lambda v: (isinstance(v, str) and v.strip() != "") or _is_int(v),
    "annotator": lambda v: (isinstance(v, str) and v.strip() != "") or _is_int(v),
    "rating": lambda v: (
        (_is_int(v) and 1 <= v <= 5)
        or (isinstance(v, float) and v.is_integer() and 1 <= v <= 5)
        or (isinstance(v, str) and v.strip().lower() in ("a", "b", "tie"))
        or (isinstance(v, str) and v.strip() in ("1", "2", "3", "4", "5"))
    ),
}


@SETTINGS
@given(field=st.sampled_from(sorted(LABEL_FIELDS)), value=json_values)
@example(field="rating", value="²")  # a digit int() cannot read
def test_any_value_in_a_label_field_reads_or_is_one_line(
    tmp_path_factory, field: str, value: Any
) -> None:
    row = {
        "sample_id": "s1",
        "dimension": "accuracy",
        "rating": 4,
        "annotator": "ann",
        field: value,
    }
    path = tmp_path_factory.mktemp("labels") / "l.jsonl"
    path.write_text(json.dumps(row, ensure_ascii=False) + "\n", encoding="utf-8")
    try:
        labels = read_labels(path)
    except LabelError as err:
        assert not LABEL_FIELDS[field](value), f"{field}={value!r} is valid but refused: {err}"
        assert str(err).startswith(f"{path}:1: ") and "\n" not in str(err), err
        assert field in str(err) or "rating" in str(err), err
    else:
        assert LABEL_FIELDS[field](value), f"{field}={value!r} accepted silently"
        assert len(labels) == 1


def _studio_task() -> dict[str, Any]:
    return {
        "id": 1,
        "data": {"sample_id": "s1"},
        "annotations": [
            {
                "completed_by": 1,
                "was_cancelled": False,
                "result": [{"from_name": "accuracy", "type": "rating", "value": {"rating": 4}}],
            }
        ],
    }


STUDIO_PATHS = [
    ("data",),
    ("data", "sample_id"),
    ("annotations",),
    ("annotations", 0),
    ("annotations", 0, "completed_by"),
    ("annotations", 0, "was_cancelled"),
    ("annotations", 0, "result"),
    ("annotations", 0, "result", 0),
    ("annotations", 0, "result", 0, "from_name"),
    ("annotations", 0, "result", 0, "type"),
    ("annotations", 0, "result", 0, "value"),
    ("annotations", 0, "result", 0, "value", "rating"),
]


@SETTINGS
@given(where=st.sampled_from(STUDIO_PATHS), value=json_values)
@example(where=("annotations", 0, "result", 0, "value", "rating"), value="²")
def test_any_value_in_a_label_studio_task_reads_or_is_one_line(
    tmp_path_factory, where: tuple[Any, ...], value: Any
) -> None:
    task = _studio_task()
    holder: Any = task
    for part in where[:-1]:
        holder = holder[part]
    holder[where[-1]] = value
    path = tmp_path_factory.mktemp("studio") / "export.json"
    path.write_text(json.dumps([task]), encoding="utf-8")
    try:
        read_labels(path)
    except LabelError as err:
        assert str(err).startswith(f"{path}") and "\n" not in str(err), err


# -- harness files -------------------------------------------------------------------------------


@cache
def _harness_dict() -> dict[str, Any]:
    return harness_to_dict(load_harness())


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into ``value`` (dict keys and list indexes), depth first."""
    out = [prefix] if prefix else []
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value[:2]):
            out += _paths(v, (*prefix, i))
    return out


@settings(max_examples=120, deadline=None)
@given(data=st.data(), value=json_values)
def test_any_value_anywhere_in_a_harness_validates_or_is_one_line(data, value: Any) -> None:
    doc = copy.deepcopy(_harness_dict())
    where = data.draw(st.sampled_from(_paths(doc)))
    holder: Any = doc
    for part in where[:-1]:
        holder = holder[part]
    holder[where[-1]] = value
    try:
        harness = parse_harness(doc, "h.yaml")
    except HarnessError as err:
        assert str(err).startswith("h.yaml: ") and "\n" not in str(err), err
    else:
        assert isinstance(harness, Harness)


def test_a_key_with_a_newline_in_a_harness_is_one_line() -> None:
    doc = copy.deepcopy(_harness_dict())
    doc["hooks"]["messages"]["\n"] = "x"
    with pytest.raises(HarnessError) as err:
        parse_harness(doc, "h.yaml")
    assert str(err.value).startswith("h.yaml: hooks.messages.'\\n'") and "\n" not in str(err.value)


@settings(max_examples=40, deadline=None)
@given(text=st.binary(max_size=120) | json_values.map(lambda v: yaml.safe_dump(v).encode()))
def test_any_bytes_as_a_harness_file_load_or_are_one_line(tmp_path_factory, text: bytes) -> None:
    path = tmp_path_factory.mktemp("harness") / "h.yaml"
    path.write_bytes(text)
    with pytest.raises(HarnessError) as err:  # none of these is a whole harness
        load_harness(path)
    assert str(err.value).startswith(str(path)) and "\n" not in str(err.value)
    res = CliRunner().invoke(app, ["harness", "validate", str(path)])
    one_error_line(res)


def test_the_properties_see_real_files(tmp_path: Path) -> None:
    """The fixtures the properties mutate are themselves valid (else every case is 'refused')."""
    case, name, _ = _case()
    assert _score({"id": case, "answer": "ok", "tool_calls": [{"name": name}]})
    assert isinstance(parse_harness(copy.deepcopy(_harness_dict()), "h.yaml"), Harness)
    path = tmp_path / "export.json"
    path.write_text(json.dumps([_studio_task()]))
    assert len(read_labels(path)) == 1


@pytest.mark.parametrize("required", [None, [[]], "product_id", [1]])
def test_a_tool_schemas_required_that_is_not_a_list_of_names_is_one_line(required: Any) -> None:
    """Found by the property above: these were a TypeError out of the harness validator."""
    doc = copy.deepcopy(_harness_dict())
    doc["tools"][1]["parameters"]["required"] = required
    with pytest.raises(HarnessError, match=r"^h\.yaml: tools\.1\.parameters\.required: got "):
        parse_harness(doc, "h.yaml")
