"""The fixed vocabulary the knowledge base is generated from: product types, brands, colours.

The vocabulary is package data, ``hat_eval/world/vocab/``: ``common.yaml`` (category order,
colours, shared option sets, size chart), ``places.yaml`` (shipping regions, place aliases,
warehouses) and one ``<category>.yaml`` per category (its brands and product types). This module
holds the typed records and reads the files once, on the first use of one of its tables
(``CATEGORIES``, ``TYPES``, ``BRANDS``, ...), into frozen dataclasses and tuples. ``build_kb``
draws products from these tables with a seeded ``random.Random``, so the same seed always gives
the same catalogue. Brands are fictional.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import TYPE_CHECKING, Any, NoReturn

import yaml

try:  # the C loader is ~10x faster; fall back to pure Python where libyaml is missing
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]


@dataclass(frozen=True)
class Option:
    """One value of a product's variant axis, e.g. size M or the 50 ml bottle."""

    label: str
    code: str
    price_factor: float = 1.0
    zh: str = ""


@dataclass(frozen=True)
class ProductType:
    """A kind of product (a hoodie, a face cream) and how its listings are generated."""

    key: str
    en: str
    zh: str
    price: tuple[float, float]
    axis: str
    """What the SKUs vary by: size, shoe_size, capacity, shade, flavour, pack, length, ring_size,
    bangle_size, weight, or single (one SKU besides colours)."""
    options: tuple[Option, ...]
    colours: int
    """How many colours a listing comes in (0: colour is not a SKU axis)."""
    material_label: str
    materials: tuple[str, ...]
    specs: tuple[tuple[str, tuple[str, ...]], ...]
    lines: tuple[str, ...]
    """Its product lines: its own, the category's ``common_lines``, then ``more_lines``."""
    description: str
    sized: bool = False
    """Whether the size chart (height/weight per size) applies."""
    custom: bool = False
    """Made to order (engraved): not returnable."""
    first_lines: int = 0
    """How many of ``lines`` the first round draws from (its own and the common lines; 0:
    all)."""


@dataclass(frozen=True)
class Colour:
    """A colour SKU axis value."""

    name: str
    code: str
    zh: str


@dataclass(frozen=True)
class Vocabulary:
    """Everything in ``vocab/``; the module-level tables are its fields."""

    categories: tuple[str, ...]
    """The eight product categories of the stream, in generation order."""
    category_zh: dict[str, str]
    colours: tuple[Colour, ...]
    size_chart: dict[str, dict[str, tuple[int, int]]]
    """Height and weight ranges per apparel size (a range's upper bound belongs to the next
    size)."""
    types: dict[str, tuple[ProductType, ...]]
    """Eight product types per category; ``products_per_type`` listings are drawn per type."""
    brands: dict[str, tuple[str, ...]]
    """Every brand of a category: ``brands`` of its file, then ``more_brands``."""
    first_brands: dict[str, int]
    """How many of a category's brands the first round draws from."""
    rounds: tuple[int, ...]
    """Listings drawn per product type in each round; a round draws from the brands and lines
    the vocabulary had then, so earlier rounds' listings keep their ids and data."""
    products_per_type: int
    """Listings per product type, all rounds: 8 categories x 8 types x 10 = 640 products."""
    regions: dict[str, tuple[str, ...]]
    """Shipping region classes and the places in each."""
    region_aliases: dict[str, tuple[str, ...]]
    """Other names viewers use for a place (abbreviations, Chinese)."""
    warehouses: tuple[str, ...]
    units: dict[str, tuple[str, ...]]
    """Chinese forms of the units attribute values are measured in ("months" -> 个月)."""
    terms: dict[str, dict[str, tuple[str, ...]]]
    """Chinese forms of attribute values and policy terms: category -> English term -> forms
    (the first is the one an answer uses); category ``""`` holds the shared terms of
    ``common.yaml``."""


if TYPE_CHECKING:  # what ``__getattr__`` returns, for type checkers
    CATEGORIES: tuple[str, ...]
    CATEGORY_ZH: dict[str, str]
    COLOURS: tuple[Colour, ...]
    SIZE_CHART: dict[str, dict[str, tuple[int, int]]]
    TYPES: dict[str, tuple[ProductType, ...]]
    BRANDS: dict[str, tuple[str, ...]]
    FIRST_BRANDS: dict[str, int]
    ROUNDS: tuple[int, ...]
    PRODUCTS_PER_TYPE: int
    REGIONS: dict[str, tuple[str, ...]]
    REGION_ALIASES: dict[str, tuple[str, ...]]
    WAREHOUSES: tuple[str, ...]
    UNITS_ZH: dict[str, tuple[str, ...]]
    TERMS_ZH: dict[str, dict[str, tuple[str, ...]]]

_TABLES = {
    "CATEGORIES": "categories",
    "CATEGORY_ZH": "category_zh",
    "COLOURS": "colours",
    "SIZE_CHART": "size_chart",
    "TYPES": "types",
    "BRANDS": "brands",
    "FIRST_BRANDS": "first_brands",
    "ROUNDS": "rounds",
    "PRODUCTS_PER_TYPE": "products_per_type",
    "REGIONS": "regions",
    "REGION_ALIASES": "region_aliases",
    "WAREHOUSES": "warehouses",
    "UNITS_ZH": "units",
    "TERMS_ZH": "terms",
}
"""Module-level table name -> :class:`Vocabulary` field."""


def __getattr__(name: str) -> Any:
    """The vocabulary tables, read from ``vocab/`` on first use (PEP 562)."""
    if name in _TABLES:
        return getattr(vocabulary(), _TABLES[name])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@cache
def vocabulary() -> Vocabulary:
    """Read and check ``vocab/*.yaml`` (once; the result is shared, do not mutate it).

    Raises:
        ValueError: a file is missing a field, has an unknown one or a value of the wrong type;
            the message names the file and the field path.
    """
    common = _read("common.yaml")
    _keys(
        common,
        "common.yaml",
        {"categories", "rounds", "colours", "option_sets", "size_chart"},
        {"units", "terms"},
    )
    units = _str_lists(common.get("units", {}), "common.yaml: units")
    terms: dict[str, dict[str, tuple[str, ...]]] = {
        "": _terms(common.get("terms", {}), "common.yaml: terms")
    }
    categories = _strs(common["categories"], "common.yaml: categories")
    rounds = tuple(
        _int(r, f"common.yaml: rounds.{i}") for i, r in enumerate(_list(common["rounds"], "rounds"))
    )
    if not rounds or min(rounds) < 1:
        _fail("common.yaml: rounds", list(rounds), "a non-empty list of positive whole numbers")
    per_type = sum(rounds)
    option_sets = {
        name: tuple(
            _option(o, f"common.yaml: option_sets.{name}.{i}")
            for i, o in enumerate(_list(opts, f"common.yaml: option_sets.{name}"))
        )
        for name, opts in _map(common["option_sets"], "common.yaml: option_sets").items()
    }
    extra = sorted(
        f.name
        for f in files("hat_eval.world").joinpath("vocab").iterdir()
        if f.name.endswith(".yaml")
        and f.name.removesuffix(".yaml") not in (*categories, "common", "places")
    )
    if extra:
        raise ValueError(
            f"vocab/{extra[0]}: not a category of common.yaml, expected one of "
            f"{', '.join(categories)} (add it to common.yaml categories or remove the file)"
        )
    category_zh: dict[str, str] = {}
    types: dict[str, tuple[ProductType, ...]] = {}
    brands: dict[str, tuple[str, ...]] = {}
    first_brands: dict[str, int] = {}
    for cat in categories:
        name = f"{cat}.yaml"
        data = _read(name)
        _keys(
            data,
            name,
            {"zh", "brands", "types"},
            {"common_lines", "more_lines", "more_brands", "terms"},
        )
        category_zh[cat] = _str(data["zh"], f"{name}: zh")
        first = _strs(data["brands"], f"{name}: brands")
        brands[cat] = first + _strs(data.get("more_brands", []), f"{name}: more_brands")
        first_brands[cat] = len(first)
        common_lines = _strs(data.get("common_lines", []), f"{name}: common_lines")
        more_lines = _strs(data.get("more_lines", []), f"{name}: more_lines")
        types[cat] = tuple(
            _product_type(t, f"{name}: types.{i}", option_sets, common_lines, more_lines)
            for i, t in enumerate(_list(data["types"], f"{name}: types"))
        )
        if first_brands[cat] < rounds[0]:
            _fail(f"{name}: brands", list(first), f"at least {rounds[0]} brands (rounds.0)")
        terms[cat] = _terms(data.get("terms", {}), f"{name}: terms")
        shared = sorted(terms[cat].keys() & terms[""].keys())
        if shared:
            _fail(
                f"{name}: terms.{shared[0]}",
                terms[cat][shared[0]],
                "a term only once: it is in common.yaml terms too (keep one)",
            )
        for i, t in enumerate(types[cat]):
            for value in _zh_needed(t):
                if not _zh_forms(value, terms[cat], terms[""], units):
                    _fail(
                        f"{name}: types.{i}",
                        value,
                        "a value with a Chinese form (add it to "
                        f"terms of {name} or common.yaml, or its unit to common.yaml units)",
                    )
        if len(brands[cat]) < per_type:
            raise ValueError(
                f"{name}: brands: {len(brands[cat])} brands (with more_brands), expected at "
                f"least the listings per type, the sum of common.yaml rounds ({per_type})"
            )
        for i, t in enumerate(types[cat]):
            if len(t.lines) < per_type or len(t.lines[: t.first_lines or None]) < rounds[0]:
                raise ValueError(
                    f"{name}: types.{i}.lines: {len(t.lines)} lines (with common_lines and "
                    f"more_lines), expected at least the listings per type, the sum of "
                    f"common.yaml rounds ({per_type}), {rounds[0]} of them before more_lines"
                )
    places = _read("places.yaml")
    _keys(places, "places.yaml", {"regions", "region_aliases", "warehouses"})
    return Vocabulary(
        categories=categories,
        category_zh=category_zh,
        colours=tuple(
            _colour(c, f"common.yaml: colours.{i}")
            for i, c in enumerate(_list(common["colours"], "common.yaml: colours"))
        ),
        size_chart={
            size: {
                k: _pair(v, f"common.yaml: size_chart.{size}.{k}", int)
                for k, v in _map(ranges, f"common.yaml: size_chart.{size}").items()
            }
            for size, ranges in _map(common["size_chart"], "common.yaml: size_chart").items()
        },
        types=types,
        brands=brands,
        first_brands=first_brands,
        rounds=rounds,
        products_per_type=per_type,
        regions=_str_lists(places["regions"], "places.yaml: regions"),
        region_aliases=_str_lists(places["region_aliases"], "places.yaml: region_aliases"),
        warehouses=_strs(places["warehouses"], "places.yaml: warehouses"),
        units=units,
        terms=terms,
    )


# -- Chinese forms ---------------------------------------------------------------------------------

_NUMBER = r"\d+(?:\.\d+)?(?:(?:-| x )\d+(?:\.\d+)?)*"


def material_parts(material: str) -> list[str]:
    """The parts of a material value ("80% cotton, 20% polyester" -> two parts)."""
    return [p.strip() for p in material.split(",") if p.strip()]


def _zh_needed(t: ProductType) -> list[str]:
    """The attribute values of ``t`` an answer may quote: material parts, comma-free specs."""
    out = [part for m in t.materials for part in material_parts(m)]
    out += [v for _, values in t.specs for v in values if "," not in v]
    return out


def _zh_forms(
    value: str,
    own: dict[str, tuple[str, ...]],
    common: dict[str, tuple[str, ...]],
    units: dict[str, tuple[str, ...]],
) -> tuple[str, ...]:
    for table in (own, common):
        if value in table:
            return table[value]
    m = re.fullmatch(r"(\d+(?:\.\d+)?)% (.+)", value)
    if m:
        rest = _zh_forms(m.group(2), own, common, units)
        forms = [f"{m.group(1)}%{r}" for r in rest]
        if m.group(1) == "100" and rest and not rest[0].startswith("纯"):
            forms.append(f"纯{rest[0]}")
        return tuple(forms)
    m = re.fullmatch(rf"({_NUMBER}) ?(.+)", value)
    if m and m.group(2) in units:
        number = m.group(1).replace(" x ", "x")
        return tuple(f"{number}{u}" for u in units[m.group(2)])
    return ()


def zh_forms(value: str, category: str | None = None) -> tuple[str, ...]:
    """The Chinese forms of an attribute value or policy term (the first is the usual one).

    Looked up in the terms of ``category`` then the shared terms; ``"N% <term>"`` takes the
    term's forms after ``N%``; a number with a unit of ``common.yaml`` ``units`` takes the unit's
    forms ("24 months" -> 24个月). Empty when the vocabulary has none.
    """
    v = vocabulary()
    return _zh_forms(value, v.terms.get(category or "", {}), v.terms[""], v.units)


# -- reading ---------------------------------------------------------------------------------------


def _read(name: str) -> dict[str, Any]:
    text = files("hat_eval.world").joinpath("vocab", name).read_text(encoding="utf-8")
    return _map(yaml.load(text, Loader=_Loader), name)  # noqa: S506 - a safe loader


def _product_type(
    value: Any,
    where: str,
    option_sets: dict[str, tuple[Option, ...]],
    common_lines: tuple[str, ...],
    more_lines: tuple[str, ...] = (),
) -> ProductType:
    d = _map(value, where)
    _keys(
        d,
        where,
        {"key", "en", "zh", "description", "price", "axis", "options", "colours"}
        | {"material_label", "materials", "specs", "lines"},
        {"sized", "custom"},
    )
    specs = _map(d["specs"], f"{where}.specs")
    return ProductType(
        key=_str(d["key"], f"{where}.key"),
        en=_str(d["en"], f"{where}.en"),
        zh=_str(d["zh"], f"{where}.zh"),
        price=_pair(d["price"], f"{where}.price", int | float),
        axis=_str(d["axis"], f"{where}.axis"),
        options=_options(d["options"], f"{where}.options", option_sets),
        colours=_int(d["colours"], f"{where}.colours"),
        material_label=_str(d["material_label"], f"{where}.material_label"),
        materials=_strs(d["materials"], f"{where}.materials"),
        specs=tuple((k, _strs(v, f"{where}.specs.{k}")) for k, v in specs.items()),
        lines=_strs(d["lines"], f"{where}.lines") + common_lines + more_lines,
        description=_str(d["description"], f"{where}.description"),
        sized=_bool(d.get("sized", False), f"{where}.sized"),
        custom=_bool(d.get("custom", False), f"{where}.custom"),
        first_lines=len(d["lines"]) + len(common_lines) if more_lines else 0,
    )


def _options(
    value: Any, where: str, option_sets: dict[str, tuple[Option, ...]]
) -> tuple[Option, ...]:
    """A list of options, or ``{set: NAME}`` / ``{set: NAME, labels: [...]}`` of a shared set."""
    if isinstance(value, list):
        return tuple(_option(o, f"{where}.{i}") for i, o in enumerate(value))
    d = _map(value, where)
    _keys(d, where, {"set"}, {"labels"})
    name = _str(d["set"], f"{where}.set")
    if name not in option_sets:
        _fail(f"{where}.set", name, f"one of {', '.join(option_sets)} (common.yaml option_sets)")
    shared = option_sets[name]
    if "labels" not in d:
        return shared
    by_label = {o.label: o for o in shared}
    labels = _strs(d["labels"], f"{where}.labels")
    for label in labels:
        if label not in by_label:
            _fail(f"{where}.labels", label, f"a label of option set {name}: {', '.join(by_label)}")
    return tuple(by_label[label] for label in labels)


def _option(value: Any, where: str) -> Option:
    d = _map(value, where)
    _keys(d, where, {"label", "code"}, {"zh", "price_factor"})
    factor = d.get("price_factor", 1.0)
    if isinstance(factor, bool) or not isinstance(factor, int | float) or factor <= 0:
        _fail(f"{where}.price_factor", factor, "a positive number")
    return Option(
        label=_str(d["label"], f"{where}.label"),
        code=_str(d["code"], f"{where}.code"),
        price_factor=factor,
        zh=_str(d.get("zh", ""), f"{where}.zh"),
    )


def _colour(value: Any, where: str) -> Colour:
    d = _map(value, where)
    _keys(d, where, {"name", "code", "zh"})
    return Colour(
        _str(d["name"], f"{where}.name"),
        _str(d["code"], f"{where}.code"),
        _str(d["zh"], f"{where}.zh"),
    )


def _fail(where: str, got: Any, expected: str) -> NoReturn:
    raise ValueError(f"vocab/{where}: got {got!r}, expected {expected}")


def _keys(d: dict[str, Any], where: str, required: set[str], optional: set[str] = set()) -> None:  # noqa: B006 - never mutated
    missing = sorted(required - d.keys())
    if missing:
        _fail(where, sorted(d), f"the field(s) {', '.join(missing)} too")
    unknown = sorted(d.keys() - required - optional)
    if unknown:
        _fail(
            f"{where}.{unknown[0]}", d[unknown[0]], f"only {', '.join(sorted(required | optional))}"
        )


def _map(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        _fail(where, value, "a mapping with string keys")
    return value


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        _fail(where, value, "a list")
    return value


def _str(value: Any, where: str) -> str:
    if not isinstance(value, str):
        _fail(where, value, 'a string (quote numbers and yes/no: "36")')
    return value


def _strs(value: Any, where: str) -> tuple[str, ...]:
    return tuple(_str(v, f"{where}.{i}") for i, v in enumerate(_list(value, where)))


def _str_lists(value: Any, where: str) -> dict[str, tuple[str, ...]]:
    return {k: _strs(v, f"{where}.{k}") for k, v in _map(value, where).items()}


def _terms(value: Any, where: str) -> dict[str, tuple[str, ...]]:
    """English term -> Chinese forms; a form may be one string or a non-empty list."""
    out = {}
    for k, v in _map(value, where).items():
        forms = (_str(v, f"{where}.{k}"),) if isinstance(v, str) else _strs(v, f"{where}.{k}")
        if not forms or not all(re.search(r"[\u4e00-\u9fff]", f) for f in forms[:1]):
            _fail(f"{where}.{k}", v, "Chinese forms, the first one with Chinese characters")
        out[k] = forms
    return out


def _int(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        _fail(where, value, "a whole number")
    return value


def _bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        _fail(where, value, "true or false")
    return value


def _pair(value: Any, where: str, kind: Any) -> Any:
    """``[low, high]`` of ``kind`` numbers, as a tuple (values keep their YAML type)."""
    items = _list(value, where)
    if (
        len(items) != 2
        or any(isinstance(v, bool) or not isinstance(v, kind) for v in items)
        or items[0] > items[1]
    ):
        _fail(where, value, "[low, high], two numbers with low <= high")
    return (items[0], items[1])
