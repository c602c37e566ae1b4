"""A measured spec said with a value the listing does not give ("重300g" of a 310 g helmet).

An answer that compares two helmets' materials and adds each one's weight has made a claim the
listing can deny: the weight said is read against the ``weight`` spec of the products the
clause is about. A measure is read only where its clause names the spec (the lexicon's
``label_words``, else the label's own words: "weighs", 重, "tank capacity"), in a unit the
spec is measured in; a value any product in scope gives for any spec is no claim against it
(an 8 mm stone beside a 2.2 mm band), and neither is a difference ("轻了30g"), a per-amount
("¥20/100 g") or a rounding a viewer accepts ("about 300 g" of 310 g). A range said of a spec
the listing gives as a range is read whole ("pearls (8–9 mm)" of 7–8 mm pearls), and a spec
given as a bound is its value ("noise cancelling up to 45 dB"). Time (shelf life, run time,
days) has its own readers.

A made-to-order piece's making time is read here too (:func:`lead_time_unsaid`).
"""

from __future__ import annotations

import re
from functools import lru_cache

from hat_eval.world import KnowledgeBase, made_to_order_days

from ._answer import _Answer
from ._conclusions import _COMPARATIVE
from ._fact_text import _DIMENSIONS, dimensions_of
from ._language import approximated_at
from ._lexicon import groups
from ._mentions import _difference
from ._quantities import in_unit, same_quantity
from ._text import clause_of, in_parentheses, prepare
from ._verdict import Verdict

_PHYSICAL = frozenset(
    {"g", "kg", "mg", "ml", "l", "mm", "cm", "m", "w", "mah", "gsm", "inch", "days", "db", "fill"}
    | {"ansi", "lumens"}
)  # days: a battery life ("充一次电能用90天"); shelf life and delivery have their own readers
_VALUE = re.compile(r"(\d+(?:\.\d+)?)[\s-]?([a-z]+)(?=\s[a-z]+$|$)")  # "1.32-inch amoled"
_UP_TO = re.compile(r"\bup to (\d+(?:\.\d+)?)\s?([a-z]+)$")  # "noise cancelling up to 45 db"
_SAID = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?)[ -]?([a-z]+)(?![a-z])")
"""A measure said (``_MEASURE``, and with a hyphen: "a 1.39-inch display")."""
_RANGE_BEFORE = re.compile(r"(\d+(?:\.\d+)?)\s?(?:-|–|~|to|至|到)\s?$")
_RANGE = re.compile(r"(\d+(?:\.\d+)?)\s?[-–~]\s?(\d+(?:\.\d+)?)\s?([a-z]+)$")  # "7-8 mm"
_COMPARED = re.compile(rf"比|更|差|\bthan\b|\bby\b|{_COMPARATIVE.pattern}")
"""Words that make "重30g" a difference ("比它重30g", "30 g lighter"): the comparatives of
:mod:`._conclusions` and their Chinese and English frames."""
_NOUN_AFTER = re.compile(
    r"\s(?!(?:and|or|with|of|for|in|at|so|but|which|that|per|each|only|just|to|is|are|vs|"
    r"versus|while|compared|than|too|also|both|lighter|heavier)\b)[a-z]+(?: [a-z]+)?"
)
"""The words right after a measure ("a 42 mm case", "1.39-inch amoled display") that name what
it measures; a function word ("300 g and 22 vents") names nothing."""
_VIEWER = re.compile(
    r"\byou(?:r|'re)?\b|\bgoal\b|\btarget\b|\blos[et]\b|你|您|宝宝|目标|减肥|减重|减脂"
)
"""The viewer's own measure ("if you weigh 55 kg", "a weight goal like 5 kg", 想减5公斤)."""


def wrong_spec_measures(a: _Answer, kb: KnowledgeBase) -> list[Verdict]:
    """A measure said of a named spec that no product in scope gives (see the module)."""
    measures = [m for m in _SAID.finditer(a.text) if m.group(2) in _PHYSICAL]
    own = [v for pid in a.case.product_ids for vs in _measured(kb, pid).values() for v in vs]
    if not any(  # most answers: no physical measure, or only the case's own products' values
        not any(_same(v, u, float(m.group(1)), m.group(2)) for v, u in own) for m in measures
    ):
        return []
    # a brand names many products: only a name of one brings it into scope
    scope = {pid for about in a.named if len(about) == 1 for pid in about} | set(a.case.product_ids)
    specs = {pid: _measured(kb, pid) for pid in sorted(scope)}
    given = [v for spec in specs.values() for vs in spec.values() for v in vs]
    for m in measures:
        said, unit = float(m.group(1)), m.group(2)
        if unit not in _PHYSICAL or any(_same(v, u, said, unit) for v, u in given):
            continue
        if a.text.startswith("半", m.end()):
            continue  # "两公斤半" (2.5 kg)
        clause = clause_of(a.scopes, m.start())
        words = a.text[clause.start : clause.end]
        ranged = _RANGE_BEFORE.search(a.text, max(0, m.start() - 12), m.start())
        if ranged:  # "pearls (8-9 mm)" of 7-8 mm pearls; "weight 45-55 kg" of a size chart: none
            low = float(ranged.group(1))
            if in_parentheses(a.text, m.start()):  # "freshwater pearls (8-9 mm)": the words before
                opened = max(a.text.rfind("(", 0, m.start()), a.text.rfind("（", 0, m.start()))
                words = a.text[clause_of(a.scopes, max(0, opened - 1)).start : clause.end]
            why = _wrong_range(a, kb, m.start(), words, (low, said, unit), m.group(0))
            if why:
                return [Verdict(0.0, why)]
            continue
        if a.negated(m.start()) or (  # "重300g" names the weight; "比它重30g" is a difference
            _difference(a.text, m.start(), m.end()) and _COMPARED.search(words)
        ):
            continue
        if _VIEWER.search(words) or re.match(r"\s?/|\s?每", a.text[m.end() : m.end() + 2]):
            continue
        noun = _NOUN_AFTER.match(a.text, m.end())  # "a 42 mm case": the case's, not the display's
        if noun and not any(_label(lb).search(noun.group(0)) for sp in specs.values() for lb in sp):
            continue
        for pid in _products_at(a, m.start()):
            for label, values in specs.get(pid, {}).items():
                if not _label(label).search(words):
                    continue
                if all(_same(v, u, said, unit) is None for v, u in values):
                    continue  # another quantity than the spec's
                if approximated_at(a.text, m.start(), m.end()) and any(
                    (x := in_unit(v, u, unit)) is not None and abs(said - x) <= 0.05 * x
                    for v, u in values
                ):
                    continue  # "about 300 g" of 310 g
                gives = ", ".join(f"{v:g} {u}" for v, u in sorted(values))
                why = f"says {m.group(0)!r} for the {label}: the listing gives {gives}"
                return [Verdict(0.0, why)]
    return []


def wrong_dimensions(a: _Answer, kb: KnowledgeBase) -> list[Verdict]:
    """Dimensions said ("183×61 cm") that no product in scope gives, of one that gives others.

    Read against the listing's dimensions (``dimensions``, ``sheet size``, ``stone size``) of
    the product the clause is about, in any order and unit; a rounding a viewer accepts
    ("about 185 x 70 cm"), the viewer's own ("my bed is 180 x 200 cm") and a denial are none.
    """
    found = list(_DIMENSIONS.finditer(a.text))
    if not found:
        return []
    scope = {pid for about in a.named if len(about) == 1 for pid in about} | set(a.case.product_ids)
    given = {pid: _dimensioned(kb, pid) for pid in sorted(scope)}
    for m in found:
        sides, unit = dimensions_of(m)
        said = sorted(sides)
        rough = 0.05 if approximated_at(a.text, m.start(), m.end()) else 1e-6
        if any(
            _dims_near(sizes, u, said, unit, rough)
            for dims in given.values()
            for _, sizes, u, _ in dims
        ):
            continue
        clause = clause_of(a.scopes, m.start())
        if a.negated(m.start()) or _VIEWER.search(a.text[clause.start : clause.end]):
            continue
        for pid in _products_at(a, m.start()):
            rows = [(lb, shown) for lb, sz, _, shown in given.get(pid, []) if len(sz) == len(said)]
            if rows:
                gives = ", ".join(shown for _, shown in rows)
                why = f"says {m.group(0)!r} for the {rows[0][0]}: the listing gives {gives}"
                return [Verdict(0.0, why)]
    return []


def _dims_near(
    sizes: list[float], unit: str, said: list[float], unit_said: str, rough: float
) -> bool:
    """Whether two sets of dimensions are the same, side by side (in order of size)."""
    if len(sizes) != len(said):
        return False
    for v, w in zip(sizes, said, strict=True):
        x = in_unit(w, unit_said, unit)
        if x is None or abs(x - v) > rough * v:
            return False
    return True


@lru_cache(maxsize=4096)
def _dimensioned(kb: KnowledgeBase, pid: str) -> list[tuple[str, list[float], str, str]]:
    """The product's specs given as dimensions: (label, sides sorted, unit, "185 x 68 cm")."""
    product = kb.product(pid)
    out = []
    for label, value in (product.get("specs", {}) if product else {}).items():
        m = _DIMENSIONS.fullmatch(prepare(str(value))) if isinstance(value, str) else None
        if m:
            sides, unit = dimensions_of(m)
            out.append((str(label), sorted(sides), unit, str(value)))
    return out


def _products_at(a: _Answer, at: int) -> list[str]:
    """The products a measure at ``at`` is said of: its clause's, else the case's (sorted)."""
    i = a.clause_at(at)
    about = (a.products[i] if i is not None else None) or frozenset()
    of = (about & set(a.case.product_ids)) or (about if len(about) == 1 else a.case.product_ids)
    return sorted(of)


def _wrong_range(
    a: _Answer, kb: KnowledgeBase, at: int, words: str, said: tuple[float, float, str], shown: str
) -> str | None:
    """Why a range said of a spec the listing gives as another range is wrong (None: it is not).

    Read only where the clause names a spec given as a range in the same unit, of one product.
    """
    if a.negated(at):
        return None
    low, high, unit = said
    for pid in _products_at(a, at):
        for label, ranges in _ranged(kb, pid).items():
            if not _label(label).search(words):
                continue
            same = [r for r in ranges if _same(r[0], r[2], low, unit) is not None]
            if same and not any(
                _same(lo, u, low, unit) and _same(hi, u, high, unit) for lo, hi, u in same
            ):
                gives = ", ".join(f"{lo:g}-{hi:g} {u}" for lo, hi, u in same)
                return f"says '{low:g}-{shown}' for the {label}: the listing gives {gives}"
    return None


@lru_cache(maxsize=4096)
def _ranged(kb: KnowledgeBase, pid: str) -> dict[str, list[tuple[float, float, str]]]:
    """The product's specs given as a range in a physical unit: label -> [(low, high, unit)]."""
    product = kb.product(pid)
    out: dict[str, list[tuple[float, float, str]]] = {}
    for label, value in (product.get("specs", {}) if product else {}).items():
        m = _RANGE.search(prepare(str(value))) if isinstance(value, str) else None
        if m and m.group(3) in _PHYSICAL and m.start() == 0:
            low, high = float(m.group(1)), float(m.group(2))
            out.setdefault(str(label), []).append((low, high, m.group(3)))
    return out


_FAMILY = {"g": "mass", "kg": "mass", "mg": "mass", "ml": "volume", "l": "volume", "mm": "length"}
_FAMILY |= {"cm": "length", "m": "length", "inch": "length", "w": "w", "mah": "mah", "gsm": "gsm"}
_FAMILY |= {"days": "days", "db": "db", "fill": "fill"}


@lru_cache(maxsize=8192)
def _same(value: float, unit: str, said: float, unit_said: str) -> bool | None:
    """Whether two measures are the same amount (None: not the same quantity).

    ``same_quantity`` without pint where the units settle it, as they do for most pairs.
    """
    if _FAMILY.get(unit) != _FAMILY.get(unit_said):
        return None
    if unit == unit_said:
        return abs(value - said) < 1e-9
    return same_quantity(value, unit, said, unit_said)


@lru_cache(maxsize=4096)
def _measured(kb: KnowledgeBase, pid: str) -> dict[str, list[tuple[float, str]]]:
    """The product's specs measured in a physical unit: label -> [(value, unit)]."""
    product = kb.product(pid)
    out: dict[str, list[tuple[float, str]]] = {}
    for label, value in (product.get("specs", {}) if product else {}).items():
        said = prepare(str(value))
        m = _VALUE.match(said) or _UP_TO.search(said)
        if m and m.group(2) in _PHYSICAL:
            out.setdefault(str(label), []).append((float(m.group(1)), m.group(2)))
    return out


@lru_cache(maxsize=256)
def _label(label: str) -> re.Pattern[str]:
    """What names spec ``label`` in an answer: the lexicon's words, else its own."""
    named = groups("spec_words").get(label) or groups("label_words").get(label)
    if named is not None:
        return named
    own = [re.escape(w) for w in label.lower().split() if len(w) > 2]
    return re.compile(r"\b(?:" + "|".join(own) + r")s?\b" if own else r"(?!)")


_MAKING = re.compile(
    r"\b(?:once|after|when) (?:it is |it has been |it's |they are )?"
    r"(?:made|engraved|ready|finished)|\bmade to order in\b|\bto (?:make|engrave)\b"
    r"|\b(?:production|making|engraving) (?:time|takes)"
    r"|制作(?:完成|好|完)?(?:后|之后|再)|做好(?:后|之后|再)|(?:制作|定制|刻字)(?:需要|要|周期|时间)"
)


def lead_time_unsaid(a: _Answer, kb: KnowledgeBase) -> list[Verdict]:
    """Undecided: a delivery time of a made-to-order piece given as the shipping's alone.

    "Delivery to Nanjing takes 1-2 days" of a necklace made to order in 3-5 days first. Fresh
    annotators fail most such answers (L373, L399, L403) and passed two (L391); the corpus's
    earlier labels pass 21. The case's gold gives the shipping days, so the checks do not guess:
    the judge decides. An answer that says the making time (its days, or that shipping starts
    once the piece is made) is read as usual.
    """
    if not any(f.source.endswith(".delivery_days") for f in a.case.facts):
        return []
    for pid in a.case.product_ids:
        product = kb.product(pid)
        days = made_to_order_days(product)
        if days is None:
            continue
        low, high = days
        said = re.search(rf"(?<![\d.]){low}\s?(?:-|–|~|to|至|到)\s?{high}(?![\d.])", a.text)
        if said is None and not _MAKING.search(a.text):
            name = (product or {}).get("name", pid)
            why = f"gives the shipping time only; {name} is made to order in {low}-{high} days"
            return [Verdict(None, f"{why} first: annotators split")]
    return []
