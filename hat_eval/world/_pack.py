"""A shop as a folder: read, check and write a data pack of :mod:`hat_eval.world._schema` records.

Layout (every file required; a record file may be empty)::

    shop.yaml          name, version, currency, timezone, seed, season
    policy.yaml        stacking rules in words, the made-to-order returns rule, softer words
    products.jsonl     one Product a line        skus.jsonl      one Sku a line
    promotions.jsonl   one Promotion a line      coupons.jsonl   one Coupon a line
    regions.jsonl      one RegionClass a line    shipping.jsonl  one Shipping a line
    returns.jsonl      one Returns a line        rules.jsonl     one Rule a line

:func:`check_pack` returns one line per problem (``FILE:LINE (RECORD): FIELD: what is wrong,
expected what``), from each record's schema and from the rules that span records
(:func:`~hat_eval.world._pack_checks.cross_problems`); :func:`read_pack` raises
:class:`PackError` with the first ones.
:func:`write_pack` writes a :class:`ShopPack` so that reading it back gives the same pack and
writing that again the same bytes. The built-in shop is :func:`builtin_pack_dir`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from importlib.resources import files
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from hat_eval._outputs import write_text_atomic

from ._pack_checks import cross_problems
from ._problems import Problem, split_rule
from ._schema import (
    MANIFEST_FILE,
    POLICY_FILE,
    RECORD_FILES,
    Coupon,
    Product,
    Promotion,
    RegionClass,
    Returns,
    Rule,
    Shipping,
    ShopManifest,
    ShopPolicy,
    Sku,
    record_key,
)

R = TypeVar("R", bound=BaseModel)


def builtin_pack_dir() -> Path:
    """The folder of the built-in shop shipped in the package (``hat_eval/world/shop``)."""
    return Path(str(files("hat_eval.world") / "shop"))


class PackError(ValueError):
    """A shop folder that does not validate; ``problems`` has one :class:`Problem` each."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = list(problems)
        more = f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else ""
        super().__init__(f"{problems[0]}{more}; check the shop with: hat-eval shop validate DIR")


@dataclass(frozen=True)
class ShopPack:
    """Every record of a shop, in file order."""

    manifest: ShopManifest
    policy: ShopPolicy
    products: tuple[Product, ...]
    skus: tuple[Sku, ...]
    promotions: tuple[Promotion, ...]
    coupons: tuple[Coupon, ...]
    regions: tuple[RegionClass, ...]
    shipping: tuple[Shipping, ...]
    returns: tuple[Returns, ...]
    rules: tuple[Rule, ...]
    lines: dict[tuple[str, str], int] = field(default_factory=dict, compare=False, repr=False)
    """(file, record key) -> its line (1-based), for problem reports; empty when generated."""
    sources: dict[str, str] = field(default_factory=dict, compare=False, repr=False)
    """Record file -> the name problem reports give it (e.g. the CSV it was imported from)."""

    def records(self, file: str) -> tuple[BaseModel, ...]:
        """The records of one record file (a :data:`RECORD_FILES` name)."""
        value: tuple[BaseModel, ...] = getattr(self, file.removesuffix(".jsonl"))
        return value


def _raw_key(raw: dict[str, Any], keys: tuple[str, ...], line_no: int) -> str:
    if "sku" not in raw and "region_class" in keys and "category" in keys:  # a shipping row
        return f"{raw.get('category')}/{raw.get('region_class')}"
    return next((str(raw[k]) for k in keys if isinstance(raw.get(k), str)), f"row {line_no}")


def validation_problems(
    file: str, err: ValidationError, *, line: int | None = None, record: str | None = None
) -> list[Problem]:
    """One :class:`Problem` per field pydantic refused (the value given shown after the rule)."""
    out = []
    for e in err.errors():
        loc = ".".join(str(x) for x in e["loc"]) or "record"
        given = "" if e["type"] == "missing" else f" (got {e['input']!r:.60})"
        msg = e["msg"].removeprefix("Value error, ")
        if msg.startswith("Input should be "):  # pydantic's type errors: say what was expected
            msg = "expected " + msg.removeprefix("Input should be ")
        if e["type"] == "missing":
            msg = "missing, expected the field to be present"
        elif e["type"] == "extra_forbidden":
            msg = "unknown field, expected only the fields of the schema"
            given = ""
        what, expected = split_rule(msg)
        out.append(Problem(file, what, expected, line=line, record=record, field=loc, given=given))
    return out


def _read_records(
    path: Path, model: type[R], problems: list[Problem], lines: dict[tuple[str, str], int]
) -> list[R]:
    out: list[R] = []
    fields = set(model.model_fields)
    keys = tuple(k for k in ("id", "sku", "code", "region_class", "category") if k in fields)
    name = path.name
    with path.open(encoding="utf-8") as fh:
        for line_no, text in enumerate(fh, start=1):
            if not text.strip():
                continue
            try:  # pydantic parses the JSON itself: the common, valid line costs one call
                record = model.model_validate_json(text)
            except ValidationError as err:
                problems.extend(_line_problems(name, text, keys, line_no, err))
                continue
            lines.setdefault((name, record_key(record)), line_no)
            out.append(record)
    return out


def _line_problems(
    name: str, text: str, keys: tuple[str, ...], line_no: int, err: ValidationError
) -> list[Problem]:
    """The problems of a line that did not validate: bad JSON, not an object, or bad fields."""
    try:
        raw = json.loads(text)
    except ValueError as bad:
        what = f"not valid JSON ({bad})"
    else:
        if isinstance(raw, dict):
            return validation_problems(name, err, line=line_no, record=_raw_key(raw, keys, line_no))
        what = f"a JSON {type(raw).__name__}"
    return [Problem(name, what, "one JSON object a line", line=line_no, record=f"row {line_no}")]


def _read_yaml(path: Path, model: type[R], problems: list[Problem]) -> R | None:
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as err:
        first = str(err).splitlines()[0]
        problems.append(Problem(path.name, f"not valid YAML ({first})", "a mapping of fields"))
        return None
    if not isinstance(raw, dict):
        problems.append(Problem(path.name, f"a {type(raw).__name__}", "a mapping of fields"))
        return None
    try:
        return model.model_validate(raw)
    except ValidationError as err:
        problems.extend(validation_problems(path.name, err))
        return None


def _load(folder: Path) -> tuple[ShopPack | None, list[Problem]]:
    if not folder.is_dir():
        return None, [Problem(str(folder), "not a folder", f"a shop folder with {MANIFEST_FILE}")]
    expected = [MANIFEST_FILE, POLICY_FILE, *RECORD_FILES]
    problems = [
        Problem(name, "missing", f"every record kind of a shop ({', '.join(expected)})")
        for name in expected
        if not (folder / name).is_file()
    ]
    if problems:
        return None, problems
    lines: dict[tuple[str, str], int] = {}
    manifest = _read_yaml(folder / MANIFEST_FILE, ShopManifest, problems)
    policy = _read_yaml(folder / POLICY_FILE, ShopPolicy, problems)
    records = {
        name: tuple(_read_records(folder / name, model, problems, lines))
        for name, model in RECORD_FILES.items()
    }
    if problems or manifest is None or policy is None:
        return None, problems
    pack = ShopPack(
        manifest,
        policy,
        **{name.removesuffix(".jsonl"): rows for name, rows in records.items()},  # type: ignore[arg-type]
        lines=lines,
    )
    return pack, cross_problems(pack)


def _named(folder: Path, problems: list[Problem]) -> list[Problem]:
    inside = {MANIFEST_FILE, POLICY_FILE, *RECORD_FILES}
    return [replace(p, file=str(folder / p.file)) if p.file in inside else p for p in problems]


def pack_problems(folder: str | Path) -> list[Problem]:
    """Every problem of the shop at ``folder`` (empty: it validates).

    Each names the file's path (and the line and record where one record is at fault), the
    field, what is wrong and what was expected. Record-level problems (a missing file, a
    malformed JSON line, a wrong or missing field) come first; the cross-record rules run only
    on a pack whose records all parse.
    """
    return _named(Path(folder), _load(Path(folder))[1])


def check_pack(folder: str | Path) -> list[str]:
    """:func:`pack_problems` as the lines ``hat-eval shop validate`` prints (empty: valid)."""
    return [str(p) for p in pack_problems(folder)]


def read_pack(folder: str | Path) -> ShopPack:
    """The shop at ``folder``.

    Raises:
        PackError: it does not validate (:func:`check_pack`'s problems).
    """
    pack, problems = _load(Path(folder))
    if problems or pack is None:
        raise PackError(_named(Path(folder), problems))
    return pack


def _yaml(model: BaseModel, header: str) -> str:
    body = yaml.safe_dump(
        model.model_dump(mode="json"), sort_keys=False, allow_unicode=True, width=100
    )
    return header + body


_MANIFEST_HEADER = "# A shop (hat-eval data pack): hat_eval/world/_schema.py is its schema.\n"
_POLICY_HEADER = (
    "# The shop's rules in words (returned to the agent) and the softer words compliance\n"
    "# suggests; the rules themselves are records (coupons, shipping, returns, rules .jsonl).\n"
)


def pack_files(pack: ShopPack) -> dict[str, str]:
    """File name -> text of every file of ``pack``, as :func:`write_pack` writes them."""
    out = {
        MANIFEST_FILE: _yaml(pack.manifest, _MANIFEST_HEADER),
        POLICY_FILE: _yaml(pack.policy, _POLICY_HEADER),
    }
    for name in RECORD_FILES:
        rows = (r.model_dump(mode="json") for r in pack.records(name))
        out[name] = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
    return out


def write_pack(pack: ShopPack, folder: str | Path) -> Path:
    """Write ``pack`` into ``folder`` (created; each file replaced atomically); returns it."""
    target = Path(folder)
    target.mkdir(parents=True, exist_ok=True)
    for name, text in pack_files(pack).items():
        write_text_atomic(target / name, text)
    return target
