"""A shop's record tables as CSV: what a catalogue kept in a spreadsheet imports from.

The columns of a table are its record model's fields (:mod:`._schema`), in schema order:
``products.csv`` the :class:`~._schema.Product` fields, ``skus.csv`` the :class:`~._schema.Sku`
fields, ``promotions.csv`` the :class:`~._schema.Promotion` fields.
A cell is read as its field's type: numbers and ``true``/``false`` as written, a mapping or
list field (``specs``) as JSON text, an empty cell of a field that may be null as null. A
SKU's ``position`` may be left out (column or cell): its row order within its product.

:func:`import_csv` builds a shop from a base shop (its manifest, policy and shop-wide tables)
with the tables the CSV files give, checked as a whole: one line per problem naming the CSV
file, its row and record, the field and what was expected; nothing is returned half-way.
"""

from __future__ import annotations

import csv
import io
import json
import types
from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError

from ._pack import PackError, ShopPack, read_pack, validation_problems
from ._pack_checks import cross_problems
from ._problems import Problem
from ._schema import RECORD_FILES, Sku, key_field, record_key

CSV_TABLES: dict[str, type[BaseModel]] = {
    n: RECORD_FILES[n] for n in ("products.jsonl", "skus.jsonl", "promotions.jsonl")
}
"""The record files a CSV can give (the catalogue); the shop-wide tables stay the base's."""

_OPTIONAL_COLUMNS = {"position"}


def _nullable(annotation: Any) -> bool:
    return get_origin(annotation) in (Union, types.UnionType) and type(None) in get_args(annotation)


def _cell(text: str, annotation: Any) -> Any:
    if text == "" and _nullable(annotation):
        return None
    if (get_origin(annotation) or annotation) in (dict, list):  # a JSON object or list
        return json.loads(text)
    return text


def _cell_text(value: Any) -> str:
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


def _rows(
    path: Path, model: type[BaseModel], problems: list[Problem]
) -> list[tuple[int, dict[str, str]]]:
    file = str(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as err:
        problems.append(Problem(file, f"cannot be read ({err})", "a UTF-8 CSV file"))
        return []
    columns = list(model.model_fields)
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        header = next(reader, None)
        if header is None:
            problems.append(Problem(file, "empty", f"a header row of {', '.join(columns)}"))
            return []
        header = [h.strip() for h in header]
        unknown = [h for h in header if h not in columns]
        missing = [c for c in columns if c not in header and c not in _OPTIONAL_COLUMNS]
        if unknown or missing:
            what = "; ".join(
                f"{which} columns {', '.join(names)}"
                for which, names in (("unknown", unknown), ("missing", missing))
                if names
            )
            problems.append(
                Problem(file, what, f"the columns {', '.join(columns)}", line=1, field="header")
            )
            return []
        out = []
        start = reader.line_num + 1
        for row in reader:
            if not any(cell.strip() for cell in row):
                start = reader.line_num + 1
                continue
            if len(row) != len(header):
                problems.append(
                    Problem(
                        file,
                        f"{len(row)} cells",
                        f"{len(header)} (one per header column; quote a cell that holds a comma)",
                        line=start,
                        record=f"row {start}",
                    )
                )
            else:
                out.append((start, dict(zip(header, row, strict=True))))
            start = reader.line_num + 1
    except csv.Error as err:
        problems.append(
            Problem(file, f"not valid CSV ({err})", "RFC 4180 CSV", line=reader.line_num)
        )
        return []
    return out


def read_csv_records(
    path: str | Path, model: type[BaseModel], problems: list[Problem]
) -> tuple[list[Any], dict[str, int]]:
    """The records of one CSV table and each record's row (key -> line); problems appended."""
    source = Path(path)
    fields = model.model_fields
    key_name = key_field(model) or ""
    records: list[Any] = []
    lines: dict[str, int] = {}
    positions: dict[str, int] = {}
    for line, row in _rows(source, model, problems):
        key = row.get(key_name, "")
        row_key = key or f"row {line}"
        raw: dict[str, Any] = {}
        bad = False
        for name, text in row.items():
            try:
                raw[name] = _cell(text.strip(), fields[name].annotation)
            except ValueError as err:
                kind = "object" if "dict" in str(fields[name].annotation) else "list"
                problems.append(
                    Problem(
                        str(source),
                        f"not valid JSON ({err})",
                        f"a JSON {kind}",
                        line=line,
                        record=row_key,
                        field=name,
                    )
                )
                bad = True
        if model is Sku and raw.get("position") in (None, ""):
            product = str(raw.get("product_id", ""))
            raw["position"] = positions.get(product, 0)
        if bad:
            continue
        try:
            record = model.model_validate(raw)
        except ValidationError as err:
            problems.extend(validation_problems(str(source), err, line=line, record=row_key))
            continue
        if isinstance(record, Sku):
            positions[record.product_id] = record.position + 1
        records.append(record)
        lines.setdefault(record_key(record), line)
    return records, lines


def import_csv(tables: Mapping[str, str | Path], base: str | Path | ShopPack) -> ShopPack:
    """A shop: ``base``'s files with the record tables of ``tables`` read from CSV.

    Args:
        tables: record file (a :data:`CSV_TABLES` name, e.g. ``"products.jsonl"``) -> its CSV.
        base: the shop (a folder or a pack) whose manifest, policy and other tables are kept.

    Raises:
        PackError: a CSV or the resulting shop does not validate; one line per problem, each
            naming the CSV file (or the base's file), row, record and field.
    """
    unknown = [name for name in tables if name not in CSV_TABLES]
    if unknown:
        raise ValueError(f"tables {unknown} cannot come from CSV, expected {list(CSV_TABLES)}")
    pack = base if isinstance(base, ShopPack) else read_pack(base)
    base_dir = None if isinstance(base, ShopPack) else Path(base)
    problems: list[Problem] = []
    replaced: dict[str, tuple[Any, ...]] = {}
    lines = {k: v for k, v in pack.lines.items() if k[0] not in tables}
    sources = {}
    for name, path in tables.items():
        records, where = read_csv_records(path, CSV_TABLES[name], problems)
        replaced[name.removesuffix(".jsonl")] = tuple(records)
        lines.update({(name, key): line for key, line in where.items()})
        sources[name] = str(path)
    if problems:
        raise PackError(problems)
    if base_dir is not None:
        sources.update({n: str(base_dir / n) for n in RECORD_FILES if n not in tables})
    merged = replace(pack, **replaced, lines=lines, sources=sources)  # type: ignore[arg-type]
    found = cross_problems(merged)
    if found:
        raise PackError(found)  # each naming its file's source (pack.sources)
    return merged


def csv_text(records: Iterable[BaseModel], model: type[BaseModel]) -> str:
    """The CSV table of ``records`` (the inverse of :func:`read_csv_records`)."""
    buf = io.StringIO(newline="")
    writer = csv.writer(buf, lineterminator="\n")
    columns = list(model.model_fields)
    writer.writerow(columns)
    writer.writerows([_cell_text(getattr(r, name)) for name in columns] for r in records)
    return buf.getvalue()
