"""A team's own viewer messages, with their gold, as a cases file the suites run.

One JSON object a line in the case schema (:meth:`Case.to_dict`, what ``LOG_DIR/cases/SUITE.jsonl``
rows hold under ``metadata.case``): ``id``, ``message``, ``session`` (``product_on_screen``,
``now``, optional ``deals``), ``intent``, ``style``, ``language``, ``expected_skill``, and the
gold: ``facts``, ``expected_calls``, ``forbidden``, ``should_escalate``... (``split`` defaults
to ``test``). :func:`read_case_file` checks every line against the shop (products, functions,
intents) and returns the cases, or raises :class:`CaseFileError` with one line per problem.

A line with no gold (none of ``facts``, ``expected_calls``, ``forbidden``,
``should_escalate``) is a *judge-only* case: ``message`` and ``session``
(``product_on_screen``, ``now``) are all it needs. Its ``id`` defaults to ``line-N``, its
``language`` to the message's (Chinese characters: ``zh``, some: ``mixed``), its ``intent`` to
the one the message's words read (the reference policy's keyword tables; ``details.intent_read``
then says so, and its skill is not scored), its
``expected_skill`` to the intent's skill, its ``style`` to ``clean``, its products to the one
on screen; ``details.judge_only`` is true. The checks decide what they can without gold and
the Agent-as-Judge the rest (``hat-eval run --cases FILE --judge MODEL``). A line with
``"reviewed": false`` (a draft of ``hat-eval shop draft-gold``) is refused until a person has
reviewed it and set ``"reviewed": true``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hat_eval._jsonl import JsonlError, read_jsonl

from ._cases import INTENTS, SKILL_OF, STYLES, Case
from ._cases._draft import BASE_CONSTRAINTS
from ._facts import FACT_KINDS
from ._functions import IMPLEMENTATIONS
from ._kb import KnowledgeBase
from ._oracle import CJK
from ._problems import Problem, jsonl_problem

_REQUIRED = ("id", "message", "session", "intent", "style", "language", "expected_skill")
_GOLD = ("facts", "expected_calls", "forbidden", "should_escalate")
JUDGE_ONLY = "judge_only"
"""The ``details`` key that marks a case without gold, which the Agent-as-Judge scores."""
INTENT_READ = "intent_read"
"""The ``details`` key that marks a judge-only case whose intent was read, not given: its skill
is not scored (a guess must not fail an answer, and the judge does not rate skills)."""


def is_judge_only(case: Case) -> bool:
    """Whether ``case`` is a judge-only case (a logged message with no gold)."""
    return bool(case.details.get(JUDGE_ONLY))


def _language(message: str) -> str:
    cjk = len(CJK.findall(message))
    latin = len(re.findall(r"[A-Za-z]+", message))
    return "en" if not cjk else "zh" if cjk >= 2 * latin else "mixed"


IntentReader = Callable[[str], str]
"""Reads a viewer message's intent (one of ``INTENTS``). The world does not read messages
itself: a caller above it passes one (the CLI passes :func:`hat_eval.baselines.read_intent`,
the reference policy's keyword tables)."""


def judge_only_fields(
    raw: dict[str, Any], n: int, read_intent: IntentReader | None = None
) -> dict[str, Any]:
    """A gold-less line's fields, the ones it leaves out filled in (the module docstring)."""
    message = str(raw.get("message", ""))
    session = raw["session"] if isinstance(raw.get("session"), dict) else {}
    intent = str(raw.get("intent") or (read_intent(message) if read_intent else "out_of_scope"))
    screen = session.get("product_on_screen")
    return {
        "id": f"line-{n}",
        "language": _language(message),
        "intent": intent,
        "style": "clean",
        "expected_skill": SKILL_OF.get(intent, ""),
        "product_ids": [screen] if screen else [],
        "constraints": list(BASE_CONSTRAINTS),
        **raw,
        "details": {
            **dict(raw.get("details") or {}),
            JUDGE_ONLY: True,
            **({} if raw.get("intent") else {INTENT_READ: True}),
        },
    }


class CaseFileError(ValueError):
    """A cases file that does not read; ``problems`` has one :class:`Problem` each."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        more = f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else ""
        super().__init__(f"{problems[0]}{more}")


def read_rows(source: Path, what: str, problems: list[Problem]) -> list[tuple[int, Any]]:
    """A JSONL file's (line, object) rows; bad lines go to ``problems``, a bad file raises."""
    try:
        return list(
            read_jsonl(source, what=what, on_error=lambda e: problems.append(jsonl_problem(e)))
        )
    except JsonlError as err:
        raise CaseFileError([jsonl_problem(err)]) from None


def _problems(raw: dict[str, Any], kb: KnowledgeBase) -> list[tuple[str | None, str, str]]:
    """The line's problems as ``(field, what is wrong, what was expected)``."""
    out: list[tuple[str | None, str, str]] = []
    missing = [k for k in _REQUIRED if k not in raw]
    if missing:
        return [(", ".join(missing), "missing", f"the fields {', '.join(_REQUIRED)}")]
    if raw.get("reviewed") is False:
        return [
            (
                "reviewed",
                "false, a drafted gold not yet reviewed",
                '"reviewed": true once a person has checked its gold against the shop '
                "(set it on the line)",
            )
        ]
    if raw["intent"] not in INTENTS:
        out.append(("intent", f"{raw['intent']!r} is unknown", f"one of {', '.join(INTENTS)}"))
    if raw["style"] not in STYLES:
        out.append(("style", f"{raw['style']!r} is unknown", f"one of {', '.join(STYLES)}"))
    session = raw["session"]
    screen = session.get("product_on_screen") if isinstance(session, dict) else None
    if kb.product(str(screen)) is None:
        out.append(
            (
                "session.product_on_screen",
                f"{screen!r} is not a product of the shop",
                "a product id of its products.jsonl",
            )
        )
    for i, pid in enumerate(raw.get("product_ids", [])):
        if kb.product(str(pid)) is None:
            out.append((f"product_ids.{i}", f"{pid!r} is not a product of the shop", "an id"))
    for i, call in enumerate(raw.get("expected_calls", [])):
        fn = call.get("function") if isinstance(call, dict) else None
        if fn not in IMPLEMENTATIONS:
            out.append(
                (
                    f"expected_calls.{i}.function",
                    f"{fn!r} is unknown",
                    f"one of {', '.join(IMPLEMENTATIONS)}",
                )
            )
    for i, fact in enumerate(raw.get("facts", [])):
        kind = fact.get("kind") if isinstance(fact, dict) else None
        if kind not in FACT_KINDS or "value" not in fact:
            out.append(
                (
                    f"facts.{i}",
                    f"{fact!r:.60} is not a fact",
                    f"{{kind: one of {', '.join(FACT_KINDS)}, value: ...}}",
                )
            )
    return out


def read_case_file(
    path: str | Path, kb: KnowledgeBase, *, read_intent: IntentReader | None = None
) -> list[Case]:
    """The cases of a cases file, checked against ``kb`` (the shop they are about).

    ``read_intent`` reads the intent of a gold-less line that does not give one (without it,
    such a line is ``out_of_scope``).

    Raises:
        CaseFileError: a line that is not a JSON object of the case schema, a duplicate id, a
            product the shop does not have, an unknown intent, style, function or fact kind,
            a drafted line not yet reviewed; one line per problem (``FILE:LINE (ID): FIELD: ...``).
    """
    source = Path(path)
    problems: list[Problem] = []
    cases: list[Case] = []
    seen: set[str] = set()
    rows = read_rows(source, "cases", problems)
    for n, raw in rows:
        if not any(k in raw for k in _GOLD) and "reviewed" not in raw:
            raw = judge_only_fields(raw, n, read_intent)
        if raw.get("reviewed") is True:  # a reviewed draft: its gold is the team's now
            raw = {k: v for k, v in raw.items() if k != "reviewed"}
        record = str(raw.get("id", f"row {n}"))
        found = _problems(raw, kb)
        if str(raw.get("id")) in seen:
            found.append(("id", f"{raw['id']!r} appears twice", "each case once"))
        seen.add(str(raw.get("id")))
        if not found:
            try:
                cases.append(Case.from_dict({"split": "test", **raw}))
            except (KeyError, TypeError, ValueError) as err:
                found.append((None, f"not a case ({err})", "the case schema (docs/shop.md)"))
        problems.extend(
            Problem(str(source), what, expected, line=n, record=record, field=field)
            for field, what, expected in found
        )
    if problems:
        raise CaseFileError(problems)
    if not cases:
        raise CaseFileError([Problem(str(source), "no cases", "one JSON object a line")])
    return cases
