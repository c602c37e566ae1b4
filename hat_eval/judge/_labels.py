"""Read human labels and judge scores into typed ``Label`` records.

Three formats, chosen by the file's suffix:

- ``.csv``: a header with the columns ``sample_id, dimension, rating, annotator``;
- ``.jsonl``: one object per line with the same keys;
- ``.json``: a Label Studio JSON export (what ``label-studio`` 1.x writes under *Export → JSON*): a
  list of tasks, each ``{"id", "data": {...}, "annotations": [{"completed_by", "was_cancelled",
  "result": [{"from_name", "type", "value"}, ...]}, ...]}``. The sample id is ``data.sample_id``,
  the dimension is the control's ``from_name``, the annotator is ``completed_by`` (a user id, or
  the expanded ``{"id", "email", ...}`` object, whose email is used). Results of type ``rating``
  give ``value.rating``; results of type ``choices`` give the single entry of ``value.choices``.
  Other result types (a ``textarea`` justification, say), cancelled annotations (skipped tasks)
  and predictions are ignored.

A rating is an integer 1-5, or, for a pairwise dimension, one of ``A``, ``B``, ``tie``
(case-insensitive on input, normalised to those spellings).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, ClassVar, Final, Literal, TypeAlias, get_args

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, JsonValue, ValidationError

from hat_eval._fields import describe, field_problem
from hat_eval._jsonl import JsonlError, read_jsonl

Preference: TypeAlias = Literal["A", "B", "tie"]
"""A pairwise verdict: answer A is better, answer B is better, or neither."""

Rating: TypeAlias = int | Preference
"""One label's value: an integer on ``RATING_SCALE`` or a ``Preference``."""

RATING_SCALE: Final[tuple[int, ...]] = (1, 2, 3, 4, 5)
PREFERENCES: Final[tuple[Preference, ...]] = get_args(Preference)
COLUMNS: Final[tuple[str, ...]] = ("sample_id", "dimension", "rating", "annotator")

_SCALE_RULE = (
    f"an integer {RATING_SCALE[0]}-{RATING_SCALE[-1]}, or A, B or tie for a pairwise dimension"
)


class LabelError(ValueError):
    """A labels or scores file that cannot be read; the message names file, field and value."""


@dataclass(frozen=True)
class Label:
    """One rating of one sample on one dimension by one annotator (a human or the judge)."""

    sample_id: str
    dimension: str
    rating: Rating
    annotator: str
    where: str = field(default="", compare=False)
    """Where the label was read (``file:line`` or ``file task N``), for error messages."""


@dataclass(frozen=True)
class JudgeScore:
    """The judge's raw score of one sample on one dimension (a mean over k may be fractional)."""

    sample_id: str
    dimension: str
    score: float
    where: str = field(default="", compare=False)


def parse_rating(raw: object, where: str) -> Rating:
    """Validate one rating: an integer on ``RATING_SCALE`` or one of ``A``, ``B``, ``tie``.

    Integers may come as JSON numbers (``4`` or ``4.0``) or strings (``"4"``); booleans, other
    floats and other strings raise ``LabelError`` naming ``where`` and the value.
    """
    value: object = raw
    if isinstance(raw, float) and raw.is_integer():
        value = int(raw)
    elif isinstance(raw, str):
        text = raw.strip()
        lowered = text.lower()
        for pref in PREFERENCES:
            if lowered == pref.lower():
                return pref
        if text.isascii() and text.isdigit():  # "²" is a digit int() cannot read
            value = int(text)
    if isinstance(value, int) and not isinstance(value, bool) and value in RATING_SCALE:
        return value
    raise LabelError(f"{where}: rating {raw!r} is outside the scale ({_SCALE_RULE})")


def read_labels(path: Path, *, default_annotator: str | None = None) -> list[Label]:
    """Read a CSV, JSONL or Label Studio JSON file of labels (the format from the suffix).

    Args:
        path: The file.
        default_annotator: The annotator of rows without one (a judge scores file needs no
            ``annotator`` column); ``None`` makes the column required.

    Raises:
        LabelError: An unknown format, a missing column or field, a rating off the scale, an
            empty file; the message names the file, the line or task, the field and the value.
    """
    suffix = path.suffix.lower()
    if suffix == ".jsonl":
        rows = jsonl_rows(path, f"labels with {', '.join(COLUMNS)}")
        labels = [_row_label(row, where, default_annotator) for where, row in rows]
    elif suffix == ".csv":
        required = [c for c in COLUMNS if not (c == "annotator" and default_annotator)]
        reader = csv_reader(read_text(path).splitlines(), str(path), required, COLUMNS)
        labels = [_row_label(row, f"{path}:{reader.line_num}", default_annotator) for row in reader]
    elif suffix == ".json":
        labels = _read_json(read_text(path), str(path), default_annotator)
    else:
        raise LabelError(
            f"{path}: unknown file format {path.suffix or '(no suffix)'!r} "
            f"(use .csv, .jsonl, or a Label Studio JSON export .json)"
        )
    if not labels:
        raise LabelError(f"{path}: no labels in the file")
    return labels


def read_text(path: Path) -> str:
    """The text of a labels, votes or scores file (UTF-8, a byte-order mark dropped).

    Raises:
        LabelError: The file cannot be read or is not UTF-8.
    """
    try:
        return path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as err:
        raise LabelError(f"{path}: cannot read the file ({err})") from err


def required_field(row: Mapping[str, Any], column: str, where: str) -> str:
    """``row[column]`` as stripped text.

    Raises:
        LabelError: The field is missing or empty (naming ``where``).
    """
    text = str(row.get(column) or "").strip()
    if not text:
        raise LabelError(f"{where}: field {column!r} is missing or empty")
    return text


def read_json(text: str, name: str) -> Any:
    """The JSON document ``text`` of the file ``name``.

    Raises:
        LabelError: Not valid JSON (the message names the line).
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise LabelError(f"{name}: not valid JSON (line {err.lineno}: {err.msg})") from err


def csv_reader(
    lines: Iterable[str], name: str, required: Sequence[str], expected: Sequence[str]
) -> csv.DictReader[str]:
    """A CSV reader over ``lines`` whose header (stripped) holds every ``required`` column.

    Raises:
        LabelError: A required column is missing (the message lists the ``expected`` ones).
    """
    reader = csv.DictReader(lines)
    header = [c.strip() for c in reader.fieldnames or []]
    reader.fieldnames = header
    missing = [c for c in required if c not in header]
    if missing:
        found = ", ".join(header) or "nothing"
        raise LabelError(
            f"{name}: missing column {missing[0]!r} (the header has {found}; "
            f"expected {', '.join(expected)})"
        )
    return reader


def _whole_as_text(value: Any) -> Any:
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else value


Ident = Annotated[str, BeforeValidator(_whole_as_text)]
"""An id as a labels file gives it: text, or a whole number (never a boolean or an object)."""


class LabelRow(BaseModel):
    """One row of a labels or scores file (CSV, JSONL, or a plain JSON list), as typed.

    Other columns are left alone (a judge scores file carries more); the rating is checked
    against the scale by :func:`parse_rating`.
    """

    model_config = ConfigDict(extra="ignore", frozen=True, strict=True)
    what: ClassVar[str] = "a label {sample_id, dimension, rating, annotator}"

    sample_id: Ident = Field(description="the sample's id (text or a whole number)")
    dimension: Ident = Field(description="the rubric dimension (text)")
    rating: JsonValue = Field(description=_SCALE_RULE)
    annotator: Ident = Field(description="who labelled it (text or a user id)")


def _row_label(row: Mapping[str, Any], where: str, default_annotator: str | None) -> Label:
    values: dict[str, Any] = {}
    for column in COLUMNS:
        raw = row.get(column)
        if column == "annotator" and (raw is None or raw == "") and default_annotator:
            raw = default_annotator
        if raw is None or (isinstance(raw, str) and raw.strip() == ""):
            raise LabelError(f"{where}: field {column!r} is missing or empty")
        values[column] = raw
    try:
        typed = LabelRow.model_validate(values)
    except ValidationError as err:
        raise LabelError(f"{where}: {field_problem(err, LabelRow)}") from None
    return Label(
        sample_id=str(typed.sample_id).strip(),
        dimension=str(typed.dimension).strip(),
        rating=parse_rating(typed.rating, where),
        annotator=str(typed.annotator).strip(),
        where=where,
    )


def jsonl_rows(path: Path, what: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each non-blank line of a JSONL file as ``(file:line, object)``, streamed.

    Raises:
        LabelError: A missing file or a line that is not a JSON object (``what`` says what the
            file should hold).
    """
    try:
        for number, row in read_jsonl(path, what=what):
            yield f"{path}:{number}", row
    except JsonlError as err:
        raise LabelError(str(err)) from None


def read_rows(path: Path, what: str, columns: str) -> list[tuple[str, Mapping[str, Any]]]:
    """The rows of a CSV (``.csv``) or JSONL (``.jsonl``) file, each with where it was read.

    ``what`` (``scores``) and ``columns`` (``sample_id, dimension, score``) name the file's
    kind and fields in the error for another suffix.

    Raises:
        LabelError: The file cannot be read, has another suffix, or holds a line that is not a
            JSON object.
    """
    suffix = path.suffix.lower()
    if suffix == ".jsonl":
        return list(jsonl_rows(path, f"{what} with {columns}"))
    if suffix == ".csv":
        reader = csv.DictReader(io.StringIO(read_text(path), newline=""))
        return [(f"{path}:{reader.line_num}", r) for r in reader]
    raise LabelError(
        f"{path}: unknown {what} format {path.suffix or '(no suffix)'!r} (use .csv or .jsonl "
        f"with {columns})"
    )


def _read_json(text: str, name: str, default_annotator: str | None) -> list[Label]:
    doc = read_json(text, name)
    if not isinstance(doc, list):
        raise LabelError(
            f"{name}: a .json file must be a Label Studio export (a list of tasks), "
            f"not a JSON {type(doc).__name__}"
        )
    if doc and all(
        isinstance(t, dict) and "annotations" not in t and "sample_id" in t for t in doc
    ):
        # A plain list of rows, as in the JSONL format.
        return [_row_label(t, f"{name} item {i}", default_annotator) for i, t in enumerate(doc)]
    return list(_label_studio_labels(doc, name))


def label_studio_results(
    tasks: list[Any], name: str, missing_id_hint: str
) -> Iterator[tuple[str, dict[str, Any], str, dict[str, Any]]]:
    """Every annotation result of a Label Studio export, with its task.

    Yields ``(task reference, task data, annotator, result)`` for each result of each annotation
    that was not cancelled. Every task must carry ``data.sample_id``; ``missing_id_hint`` tells
    the user how to get it there.

    Raises:
        LabelError: A task that is not an object with ``data``, a task without
            ``data.sample_id``, or an annotation without a usable annotator.
    """
    for index, task in enumerate(tasks):
        if not isinstance(task, dict) or not isinstance(task.get("data"), dict):
            raise LabelError(
                f"{name} task #{index}: not a Label Studio task (an object with 'data' and "
                f"'annotations')"
            )
        task_ref = f"{name} task {task.get('id', f'#{index}')}"
        try:
            typed = StudioTask.model_validate(task)
        except ValidationError as err:
            raise LabelError(f"{task_ref}: {field_problem(err, StudioTask)}") from None
        sample_id = typed.data.get("sample_id")
        if sample_id is None or str(sample_id).strip() == "":
            raise LabelError(f"{task_ref}: field 'data.sample_id' is missing ({missing_id_hint})")
        if not isinstance(sample_id, str | int) or isinstance(sample_id, bool):
            raise LabelError(
                f"{task_ref}: field data.sample_id: got {describe(sample_id)}, expected the "
                "sample's id (text or a whole number)"
            )
        for annotation in typed.annotations or []:
            if annotation.was_cancelled:
                continue
            annotator = _annotator(annotation.completed_by, task_ref)
            for result in annotation.result or []:
                yield task_ref, dict(typed.data), annotator, result.model_dump()


class StudioResult(BaseModel):
    """One result of a Label Studio annotation (other keys are kept as they are)."""

    model_config = ConfigDict(extra="allow")
    what: ClassVar[str] = "a Label Studio result {from_name, type, value}"

    from_name: str | None = Field(None, description="the control's name (text)")
    type: str | None = Field(None, description="the result's type (text: rating, choices, ...)")
    value: dict[str, JsonValue] | None = Field(
        None, description="an object ({rating: N} or {choices: [...]})"
    )


class StudioAnnotation(BaseModel):
    """One annotation of a Label Studio task."""

    model_config = ConfigDict(extra="ignore")
    what: ClassVar[str] = "a Label Studio annotation {completed_by, was_cancelled, result}"

    completed_by: JsonValue = None
    was_cancelled: bool | None = Field(None, description="true or false")
    result: list[StudioResult] | None = Field(None, description="a list of results")


class StudioTask(BaseModel):
    """One task of a Label Studio JSON export, as far as the readers look into it."""

    model_config = ConfigDict(extra="ignore")
    what: ClassVar[str] = "a Label Studio task {id, data, annotations}"

    data: dict[str, JsonValue] = Field(description="an object of the task's fields")
    annotations: list[StudioAnnotation] | None = Field(None, description="a list of annotations")


def _label_studio_labels(tasks: list[Any], name: str) -> Iterable[Label]:
    hint = "the id the judge scores use; put it in each task's data when exporting the tasks"
    for task_ref, data, annotator, result in label_studio_results(tasks, name, hint):
        kind = result.get("type")
        value = result.get("value") or {}
        where = f"{task_ref} {result.get('from_name', '?')}"
        if kind == "rating":
            raw: object = value.get("rating")
        elif kind == "choices":
            choices = value.get("choices") or []
            if not isinstance(choices, list) or len(choices) != 1:
                raise LabelError(
                    f"{where}: value.choices {choices!r} must hold exactly one choice "
                    f"(A, B or tie; use a single-choice control)"
                )
            raw = choices[0]
        else:
            continue
        dimension = result.get("from_name")
        if not dimension:
            raise LabelError(f"{where}: result has no 'from_name' (the dimension)")
        yield Label(
            sample_id=str(data["sample_id"]).strip(),
            dimension=str(dimension),
            rating=parse_rating(raw, where),
            annotator=annotator,
            where=where,
        )


def _annotator(completed_by: object, where: str) -> str:
    """``completed_by`` is a user id, or the expanded user object in older exports."""
    if isinstance(completed_by, dict):
        ident = completed_by.get("email") or completed_by.get("id")
        if ident is not None:
            return str(ident)
    elif completed_by is not None and not isinstance(completed_by, bool | list):
        return str(completed_by)
    raise LabelError(f"{where}: annotation has no usable 'completed_by' ({completed_by!r})")
