"""The fixed vocabulary the knowledge base is generated from: product types, brands, colours.

The vocabulary is package data, ``hat_eval/world/vocab/``: ``common.yaml`` (category order,
colours, shared option sets, size chart), ``places.yaml`` (shipping regions, place aliases,
warehouses) and one ``<category>.yaml`` per category (its brands and product types). This module
holds the typed records and reads the files once (each through its pydantic model and
:func:`hat_eval._datafile.load_model`), on the first use of one of its tables (``CATEGORIES``,
``TYPES``, ``BRANDS``, ...), into frozen records and tuples. ``build_kb``
draws products from these tables with a seeded ``random.Random``, so the same seed always gives
the same catalogue. Brands are fictional.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import AfterValidator, Discriminator, Field, Tag

from hat_eval._datafile import DataFileError, DataModel, load_model


class Option(DataModel):
    """One value of a product's variant axis, e.g. size M or the 50 ml bottle."""

    label: str
    code: str
    price_factor: Annotated[float, Field(gt=0)] = 1.0
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


class Colour(DataModel):
    """A colour SKU axis value."""

    name: str
    code: str
    zh: str


@dataclass(frozen=True)
class Vocabulary:
    """Everything in ``vocab/``; the module-level tables are its fields, upper-cased."""

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
    units_zh: dict[str, tuple[str, ...]]
    """Chinese forms of the units attribute values are measured in ("months" -> 个月)."""
    terms_zh: dict[str, dict[str, tuple[str, ...]]]
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


def __getattr__(name: str) -> Any:
    """The vocabulary tables (``TYPES`` is ``vocabulary().types``), read on first use (PEP 562)."""
    if name.isupper() and name.lower() in Vocabulary.__dataclass_fields__:
        return getattr(vocabulary(), name.lower())
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def region_places() -> dict[str, tuple[str, ...]]:
    """Each shipping region class and the places in it (``metro``: Beijing, Shanghai, ...)."""
    return vocabulary().regions


def place_names(place: str) -> tuple[str, ...]:
    """A shipping place and the other names viewers use for it ("Beijing", "BJ", 北京)."""
    return (place, *vocabulary().region_aliases.get(place, ()))


@cache
def vocabulary() -> Vocabulary:
    """Read and check ``vocab/*.yaml`` (once; the result is shared, do not mutate it).

    Raises:
        DataFileError: a file does not fit its model or the other files; the message names the
            file and the key path.
    """
    root = files("hat_eval.world").joinpath("vocab")
    common = load_model(root.joinpath("common.yaml"), _CommonFile)
    categories, rounds = tuple(common.categories), tuple(common.rounds)
    per_type = sum(rounds)
    option_sets = {name: tuple(options) for name, options in common.option_sets.items()}
    units = _tuples(common.units)
    terms = {"": _forms(common.terms)}
    extra = sorted(
        f.name
        for f in root.iterdir()
        if f.name.endswith(".yaml")
        and f.name.removesuffix(".yaml") not in (*categories, "common", "places")
    )
    if extra:
        raise DataFileError(
            root.joinpath(extra[0]),
            "",
            f"not a category of common.yaml, expected one of {', '.join(categories)} (add it "
            "to common.yaml categories or remove the file)",
        )
    category_zh: dict[str, str] = {}
    types: dict[str, tuple[ProductType, ...]] = {}
    brands: dict[str, tuple[str, ...]] = {}
    first_brands: dict[str, int] = {}
    for cat in categories:
        path = root.joinpath(f"{cat}.yaml")
        data = load_model(path, _CategoryFile)
        category_zh[cat] = data.zh
        brands[cat] = (*data.brands, *data.more_brands)
        first_brands[cat] = len(data.brands)
        if first_brands[cat] < rounds[0]:
            raise DataFileError(
                path,
                "brands",
                f"{len(data.brands)} brands, expected at least {rounds[0]} (rounds[0])",
            )
        if len(brands[cat]) < per_type:
            raise DataFileError(
                path,
                "brands",
                f"{len(brands[cat])} brands (with more_brands), expected at least the listings "
                f"per type, the sum of common.yaml rounds ({per_type})",
            )
        terms[cat] = _forms(data.terms)
        shared = sorted(terms[cat].keys() & terms[""].keys())
        if shared:
            raise DataFileError(
                path, f"terms.{shared[0]}", "is in common.yaml terms too, expected a term once"
            )
        types[cat] = tuple(
            _product_type(path, f"types[{i}]", t, data, option_sets)
            for i, t in enumerate(data.types)
        )
        for i, t in enumerate(types[cat]):
            for value in _zh_needed(t):
                if not _zh_forms(value, terms[cat], terms[""], units):
                    raise DataFileError(
                        path,
                        f"types[{i}]",
                        f"{value!r} has no Chinese form, expected one (add it to terms of "
                        f"{cat}.yaml or common.yaml, or its unit to common.yaml units)",
                    )
            if len(t.lines) < per_type or len(t.lines[: t.first_lines or None]) < rounds[0]:
                raise DataFileError(
                    path,
                    f"types[{i}].lines",
                    f"{len(t.lines)} lines (with common_lines and more_lines), expected at least "
                    f"the listings per type, the sum of common.yaml rounds ({per_type}), "
                    f"{rounds[0]} of them before more_lines",
                )
    places = load_model(root.joinpath("places.yaml"), _PlacesFile)
    return Vocabulary(
        categories=categories,
        category_zh=category_zh,
        colours=tuple(common.colours),
        size_chart={
            size: {k: (low, high) for k, (low, high) in ranges.items()}
            for size, ranges in common.size_chart.items()
        },
        types=types,
        brands=brands,
        first_brands=first_brands,
        rounds=rounds,
        products_per_type=per_type,
        regions=_tuples(places.regions),
        region_aliases=_tuples(places.region_aliases),
        warehouses=tuple(places.warehouses),
        units_zh=units,
        terms_zh=terms,
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
    return _zh_forms(value, v.terms_zh.get(category or "", {}), v.terms_zh[""], v.units_zh)


# -- the files ------------------------------------------------------------------------------------


def _ordered(pair: list[Any]) -> list[Any]:
    if pair[0] > pair[1]:
        raise ValueError(f"{pair} runs backwards, expected [low, high] with low <= high")
    return pair


_Range = Annotated[list[int], Field(min_length=2, max_length=2), AfterValidator(_ordered)]
_Price = Annotated[list[int | float], Field(min_length=2, max_length=2), AfterValidator(_ordered)]


def _chinese(forms: str | list[str]) -> str | list[str]:
    first = forms if isinstance(forms, str) else (forms or [""])[0]
    if not re.search(r"[\u4e00-\u9fff]", first):
        raise ValueError(
            f"{forms!r}: expected Chinese forms, the first one with Chinese characters"
        )
    return forms


_Terms = dict[str, Annotated[str | list[str], AfterValidator(_chinese)]]
"""English term -> its Chinese forms: one string or a non-empty list."""


class _OptionSet(DataModel):
    """``options: {set: NAME}``, a shared set of ``common.yaml``, or ``labels:`` of it in order."""

    set: str
    labels: list[str] | None = None


_Options = Annotated[
    Annotated[list[Option], Tag("list")] | Annotated[_OptionSet, Tag("set")],
    Discriminator(lambda value: "list" if isinstance(value, list) else "set"),
]
"""A type's own options, or a shared set: a problem's key path names the form (``options.set``)."""


class _TypeFile(DataModel):
    """One product type of a category file (the fields of :class:`ProductType` it is read into)."""

    key: str
    en: str
    zh: str
    description: str
    price: _Price
    axis: str
    options: _Options
    colours: int
    material_label: str
    materials: list[str]
    specs: dict[str, list[str]]
    lines: list[str]
    sized: bool = False
    custom: bool = False


class _CommonFile(DataModel):
    categories: list[str]
    rounds: Annotated[list[Annotated[int, Field(ge=1)]], Field(min_length=1)]
    colours: list[Colour]
    option_sets: dict[str, list[Option]]
    size_chart: dict[str, dict[str, _Range]]
    units: dict[str, list[str]] = Field(default_factory=dict)
    terms: _Terms = Field(default_factory=dict)


class _CategoryFile(DataModel):
    zh: str
    brands: list[str]
    types: list[_TypeFile]
    common_lines: list[str] = Field(default_factory=list)
    more_lines: list[str] = Field(default_factory=list)
    more_brands: list[str] = Field(default_factory=list)
    terms: _Terms = Field(default_factory=dict)


class _PlacesFile(DataModel):
    regions: dict[str, list[str]]
    region_aliases: dict[str, list[str]]
    warehouses: list[str]


def _product_type(
    path: Any,
    where: str,
    t: _TypeFile,
    category: _CategoryFile,
    option_sets: dict[str, tuple[Option, ...]],
) -> ProductType:
    return ProductType(
        **t.model_dump(exclude={"price", "options", "materials", "specs", "lines"}),
        price=(t.price[0], t.price[1]),
        options=_options(path, f"{where}.options", t.options, option_sets),
        materials=tuple(t.materials),
        specs=tuple((k, tuple(v)) for k, v in t.specs.items()),
        lines=(*t.lines, *category.common_lines, *category.more_lines),
        first_lines=len(t.lines) + len(category.common_lines) if category.more_lines else 0,
    )


def _options(
    path: Any,
    where: str,
    value: list[Option] | _OptionSet,
    option_sets: dict[str, tuple[Option, ...]],
) -> tuple[Option, ...]:
    if isinstance(value, list):
        return tuple(value)
    if value.set not in option_sets:
        raise DataFileError(
            path,
            f"{where}.set",
            f"{value.set!r} is unknown, expected one of {', '.join(option_sets)} (common.yaml "
            "option_sets)",
        )
    shared = option_sets[value.set]
    if value.labels is None:
        return shared
    by_label = {o.label: o for o in shared}
    for label in value.labels:
        if label not in by_label:
            raise DataFileError(
                path,
                f"{where}.labels",
                f"{label!r} is unknown, expected a label of option set {value.set}: "
                f"{', '.join(by_label)}",
            )
    return tuple(by_label[label] for label in value.labels)


def _tuples(table: dict[str, list[str]]) -> dict[str, tuple[str, ...]]:
    return {k: tuple(v) for k, v in table.items()}


def _forms(terms: dict[str, str | list[str]]) -> dict[str, tuple[str, ...]]:
    return {k: (v,) if isinstance(v, str) else tuple(v) for k, v in terms.items()}
