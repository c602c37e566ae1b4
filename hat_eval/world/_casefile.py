"""A team's own viewer messages, with their gold, as a cases file the suites run.

One JSON object a line in the case schema (:meth:`Case.to_dict`, what ``LOG_DIR/cases/SUITE.jsonl``
rows hold under ``metadata.case``): ``id``, ``message``, ``session`` (``product_on_screen``,
``now``, optional ``deals``), ``intent``, ``style``, ``language``, ``expected_skill``, and the
gold: ``facts``, ``expected_calls``, ``forbidden``, ``should_escalate``... (``split`` defaults
to ``test``). :func:`read_case_file` checks every line against the shop (products, functions,
intents) and returns the cases, or raises :class:`CaseFileError` with one line per problem.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ._cases import INTENTS, STYLES, Case
from ._facts import FACT_KINDS
from ._functions import IMPLEMENTATIONS
from ._kb import KnowledgeBase

_REQUIRED = ("id", "message", "session", "intent", "style", "language", "expected_skill")
_GOLD = ("facts", "expected_calls", "forbidden", "should_escalate")


class CaseFileError(ValueError):
    """A cases file that does not read; ``problems`` has one line per problem."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        more = f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else ""
        super().__init__(f"{problems[0]}{more}")


def _problems(raw: dict[str, Any], kb: KnowledgeBase) -> list[str]:
    out = []
    missing = [k for k in _REQUIRED if k not in raw]
    if missing:
        return [f"{', '.join(missing)}: missing, expected the fields {', '.join(_REQUIRED)}"]
    if not any(k in raw for k in _GOLD):
        return [
            "no gold (facts, expected_calls, forbidden or should_escalate), expected the gold "
            "the checks score against; a message without gold needs the Agent-as-Judge, which "
            "--cases does not run yet"
        ]
    if raw["intent"] not in INTENTS:
        out.append(f"intent: {raw['intent']!r} is unknown, expected one of {', '.join(INTENTS)}")
    if raw["style"] not in STYLES:
        out.append(f"style: {raw['style']!r} is unknown, expected one of {', '.join(STYLES)}")
    session = raw["session"]
    screen = session.get("product_on_screen") if isinstance(session, dict) else None
    if kb.product(str(screen)) is None:
        out.append(
            f"session.product_on_screen: {screen!r} is not a product of the shop, expected a "
            "product id of its products.jsonl"
        )
    for i, pid in enumerate(raw.get("product_ids", [])):
        if kb.product(str(pid)) is None:
            out.append(f"product_ids.{i}: {pid!r} is not a product of the shop, expected an id")
    for i, call in enumerate(raw.get("expected_calls", [])):
        fn = call.get("function") if isinstance(call, dict) else None
        if fn not in IMPLEMENTATIONS:
            out.append(
                f"expected_calls.{i}.function: {fn!r} is unknown, expected one of "
                f"{', '.join(IMPLEMENTATIONS)}"
            )
    for i, fact in enumerate(raw.get("facts", [])):
        kind = fact.get("kind") if isinstance(fact, dict) else None
        if kind not in FACT_KINDS or "value" not in fact:
            out.append(
                f"facts.{i}: {fact!r:.60} is not a fact, expected {{kind: one of "
                f"{', '.join(FACT_KINDS)}, value: ...}}"
            )
    return out


def read_case_file(path: str | Path, kb: KnowledgeBase) -> list[Case]:
    """The cases of a cases file, checked against ``kb`` (the shop they are about).

    Raises:
        CaseFileError: a line that is not a JSON object of the case schema, a duplicate id, a
            product the shop does not have, an unknown intent, style, function or fact kind,
            a line without gold; one line per problem (``FILE:LINE (ID): FIELD: ...``).
    """
    source = Path(path)
    try:
        text = source.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        what = f"{source}: cannot be read ({err}), expected a UTF-8 JSONL file"
        raise CaseFileError([what]) from None
    problems: list[str] = []
    cases: list[Case] = []
    seen: set[str] = set()
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
        except ValueError as err:
            problems.append(f"{source}:{n}: not valid JSON ({err}), expected one case a line")
            continue
        if not isinstance(raw, dict):
            problems.append(f"{source}:{n}: a JSON {type(raw).__name__}, expected an object")
            continue
        where = f"{source}:{n} ({raw.get('id', f'row {n}')})"
        found = _problems(raw, kb)
        if str(raw.get("id")) in seen:
            found.append(f"id: {raw['id']!r} appears twice, expected each case once")
        seen.add(str(raw.get("id")))
        if not found:
            try:
                cases.append(Case.from_dict({"split": "test", **raw}))
            except (KeyError, TypeError, ValueError) as err:
                found.append(f"not a case ({err}), expected the case schema (docs/shop.md)")
        problems.extend(f"{where}: {p}" for p in found)
    if problems:
        raise CaseFileError(problems)
    if not cases:
        raise CaseFileError([f"{source}: no cases, expected one JSON object a line"])
    return cases
