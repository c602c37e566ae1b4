"""Gold labels of a case: facts the answer must state, calls it should make, claims it must not.

Matching helpers live here too, so scorers, tests and the reference policy agree on what "the
answer states the fact" means.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from typing import Any, Literal

from ._compliance import normalise

FactKind = Literal["price", "stock", "count", "days", "text"]
FACT_KINDS: tuple[str, ...] = ("price", "stock", "count", "days", "text")

_NUMBER = re.compile(r"(?<![\w.])(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?![\d])")
_RANGE_SEP = r"\s*(?:-|–|—|~|to|至|到)\s*"


@dataclass(frozen=True)
class Fact:
    """A fact the answer must state.

    ``kind``: ``price`` (``value`` yuan, ``unit`` "CNY"), ``count`` (a number of units),
    ``days`` (``value`` a number of days, or a range string "2-4"), ``stock`` or ``text``
    (``value`` a phrase). ``aliases`` are other accepted phrasings. ``source`` says where the
    fact comes from: ``"<i>:<dotted.path>"`` into the result of the case's ``expected_calls[i]``
    (list indices are numbers), or ``"skill:<skill id>.<rule id>"`` for a fact a harness rule
    requires (e.g. suggesting a doctor). ``optional`` facts are ones the viewer did not ask for
    (the fee when the question was how long delivery takes): an answer may leave them out, but
    must not misstate them.
    """

    kind: FactKind
    value: str | float
    unit: str | None = None
    aliases: tuple[str, ...] = ()
    source: str = ""
    optional: bool = False

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict (``optional`` only when set, so required facts keep their form)."""
        out = {**asdict(self), "aliases": list(self.aliases)}
        if not self.optional:
            del out["optional"]
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Fact:
        """Inverse of :meth:`to_dict`."""
        value = data["value"]
        return cls(
            data["kind"],
            float(value) if isinstance(value, int | float) else str(value),
            data.get("unit"),
            tuple(data.get("aliases", ())),
            str(data.get("source", "")),
            bool(data.get("optional", False)),
        )


@dataclass(frozen=True)
class ExpectedCall:
    """A tool call the agent should make, by function id.

    ``args`` lists the argument values that must match (arguments not listed are free);
    strings match case-insensitively, lists as multisets. ``free`` names arguments of ``args``
    whose value is the agent's own words (a hand-off's ``reason``): any non-empty value matches,
    and the value in ``args`` is one a correct agent sends, so the call is complete (it passes
    the tool's schema) and can be replayed. ``optional`` calls are fine to make or skip (e.g.
    looking up the product on screen).
    """

    function: str
    args: dict[str, Any] = field(default_factory=dict)
    optional: bool = False
    free: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        stray = [name for name in self.free if name not in self.args]
        if stray:
            raise ValueError(
                f"free arguments {stray} of the expected {self.function} call have no value in "
                f"args {sorted(self.args)}: give each free argument a value a correct agent sends"
            )

    def matches(self, function: str, args: dict[str, Any]) -> bool:
        """Whether a call of ``function`` with ``args`` satisfies this expectation."""
        if function != self.function:
            return False
        return all(
            _given(args.get(name)) if name in self.free else _same(value, args.get(name))
            for name, value in self.args.items()
        )

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict (``free`` only when set, so other calls keep their form)."""
        out = {**asdict(self), "free": list(self.free)}
        if not self.free:
            del out["free"]
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ExpectedCall:
        """Inverse of :meth:`to_dict`."""
        return cls(
            str(data["function"]),
            dict(data.get("args", {})),
            bool(data.get("optional", False)),
            tuple(data.get("free", ())),
        )


def _given(actual: Any) -> bool:
    """Whether a free argument was sent: a non-empty value (a string with non-space text)."""
    if isinstance(actual, str):
        return bool(actual.strip())
    return actual is not None and actual != [] and actual != {}


def _same(expected: Any, actual: Any) -> bool:
    if isinstance(expected, str):
        return isinstance(actual, str) and expected.strip().upper() == actual.strip().upper()
    if isinstance(expected, list | tuple):
        if not isinstance(actual, list | tuple):
            return False
        return sorted(_norm_item(v) for v in expected) == sorted(_norm_item(v) for v in actual)
    return bool(expected == actual)


def _norm_item(value: Any) -> str:
    return value.strip().upper() if isinstance(value, str) else repr(value)


def numbers_in(text: str) -> list[float]:
    """Every number written in ``text`` (``1,299.00`` -> 1299.0)."""
    out = []
    for m in _NUMBER.finditer(text):
        whole = m.group(1).replace(",", "")
        out.append(float(f"{whole}.{m.group(2)}" if m.group(2) else whole))
    return out


_WORD_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")


@lru_cache(maxsize=8192)
def _normalised(phrase: str) -> str:
    return normalise(phrase)


def phrase_spans(needle: str, text: str) -> Iterator[tuple[int, int]]:
    """Every ``(start, end)`` of ``needle`` in ``text`` (both normalised alike), on word boundaries.

    A boundary is checked at an end of the needle that is a latin letter or digit: "15 days" is
    in "within 15 days." but "5 days" is not, and "15天" is in "可以15天退货".

    A substring search rather than a regex: the suites' cases name thousands of distinct
    phrases, and compiling a pattern for each cost more than scoring the answers.
    """
    if not needle:
        return
    left, right = needle[0] in _WORD_CHARS, needle[-1] in _WORD_CHARS
    start = text.find(needle)
    while start != -1:
        end = start + len(needle)
        if not (left and start > 0 and text[start - 1] in _WORD_CHARS) and not (
            right and end < len(text) and text[end] in _WORD_CHARS
        ):
            yield start, end
        start = text.find(needle, start + 1)


def phrase_in(phrase: str, norm_text: str) -> bool:
    """Whether ``phrase`` is in normalised text on word boundaries (see :func:`phrase_spans`)."""
    return any(True for _ in phrase_spans(_normalised(phrase), norm_text))


def fact_mentioned(fact: Fact, text: str) -> bool:
    """Whether ``text`` states ``fact``.

    Numbers (``price``, ``count``, numeric ``days``) match when any number in the text equals the
    value to the cent; a day range "2-4" matches "2-4", "2 to 4", "2–4" or "2~4"; phrases
    (the value and the aliases of every kind) match case-insensitively on word boundaries.
    """
    norm = normalise(text)
    phrases = [fact.value] if isinstance(fact.value, str) else []
    if any(phrase_in(p, norm) for p in [*phrases, *fact.aliases] if p):
        return True
    if isinstance(fact.value, float):
        return any(abs(n - fact.value) < 0.005 for n in numbers_in(norm))
    if fact.kind == "days":
        m = re.fullmatch(r"(\d+)-(\d+)", fact.value)
        if m:
            return (
                re.search(rf"(?<!\d){m.group(1)}{_RANGE_SEP}{m.group(2)}(?!\d)", norm) is not None
            )
    return False


def price_aliases(value: float) -> tuple[str, ...]:
    """Ways to write a yuan amount: ¥169, ¥169.00, 169 yuan, 169元, RMB 169."""
    two = f"{value:.2f}"
    short = two[:-3] if two.endswith(".00") else two.rstrip("0")  # two always has a "."
    forms = {
        f"¥{two}",
        f"¥{short}",
        f"{two} yuan",
        f"{short} yuan",
        f"{short}元",
        f"{two}元",
        f"rmb {short}",
        f"cny {short}",
        f"{short} rmb",
        f"¥ {short}",
    }
    return tuple(sorted(forms))


def price_pattern(value: float) -> str:
    """A lower-case regex for stating ``value`` as a price (not as "was ¥X" / "list ¥X").

    Matches ``¥199``, ``¥ 199.00``, ``199 yuan``, ``1,299``; not ``was ¥199``, ``list 199``,
    ``from ¥199``, ``199.90`` (another amount), ``199 g`` or ``199%``.
    """
    whole, cents = f"{value:.2f}".split(".")
    whole_re = whole if len(whole) <= 3 else f"{whole[:-3]},?{whole[-3:]}"
    if cents == "00":
        num = whole_re + r"(?:\.0{1,2})?"
    elif cents[1] == "0":
        num = whole_re + rf"\.{cents[0]}0?"
    else:
        num = whole_re + rf"\.{cents}"
    guard = r"(?<!was )(?<!list )(?<!from )(?<!original )(?<!usually )(?<!normally )"
    return (
        rf"(?:{guard}¥ ?|{guard}(?<![\d¥.,])(?<!¥ )){num}(?!\.?\d)(?! ?%)"
        r"(?!\s*(?:g|ml|mah|w|cm|mm|kg|days?|hours?|units?|pieces?|left)\b)"
    )


_UNIT_WORDS = {
    "g": ("grams", "gram"),
    "kg": ("kilos", "kilograms"),
    "ml": ("millilitres", "milliliters"),
    "l": ("litres", "liters", "litre"),
    "cm": ("centimetres", "centimeters"),
    "mm": ("millimetres", "millimeters"),
    "hours": ("hrs", "h", "hour"),
    "days": ("day",),
    "months": ("month",),
    "w": ("watts", "watt"),
    "mah": (),
    "gsm": ("g/m²", "g/m2"),
    "db": (),
}


def value_aliases(value: str) -> tuple[str, ...]:
    """Other ways to write a spec value such as "680 g" or "30 hours".

    The unit spelled out, without a space, or hyphenated ("680 grams", "680g", "680-g").
    """
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s?([A-Za-z]+)", value.strip())
    if not m:
        return ()
    n, unit = m.group(1), m.group(2)
    forms = {f"{n}{unit}", f"{n} {unit}", f"{n}-{unit}"}
    for word in _UNIT_WORDS.get(unit.lower(), ()):
        forms |= {f"{n} {word}", f"{n}{word}", f"{n}-{word}"}
    forms.discard(value)
    return tuple(sorted(forms))
