"""The case record: one viewer message with its gold labels."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from .._facts import ExpectedCall, Fact
from .._session import LiveSession


@dataclass(frozen=True)
class Case:
    """One viewer message with its gold labels (``to_dict`` goes into sample metadata)."""

    id: str
    split: str
    intent: str
    style: str
    language: str
    message: str
    session: LiveSession
    facts: tuple[Fact, ...]
    forbidden: tuple[str, ...]
    expected_calls: tuple[ExpectedCall, ...]
    expected_skill: str
    constraints: tuple[str, ...]
    should_escalate: bool
    coupon_codes: tuple[str, ...] = ()
    accepted_skills: tuple[str, ...] = ()
    """Every skill that fits (``expected_skill`` first; two for multi-intent cases)."""
    product_ids: tuple[str, ...] = ()
    """The products the message is about."""
    details: dict[str, Any] = field(default_factory=dict)
    """What the generator chose (sub-intent, SKU, place, ...), for reference answers and
    analysis."""

    @property
    def parts(self) -> tuple[str, ...]:
        """The single intents the message asks: its intent, or a multi-intent case's two."""
        from ._intents import MULTI_PARTS

        if self.intent == "multi_intent" and self.details.get("sub") in MULTI_PARTS:
            return MULTI_PARTS[str(self.details["sub"])]
        return (self.intent,)

    @property
    def required_calls(self) -> tuple[ExpectedCall, ...]:
        """The expected calls that are not optional."""
        return tuple(c for c in self.expected_calls if not c.optional)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict: the fields in order, tuples as lists, records as their dicts."""
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out = {k: list(v) if isinstance(v, tuple) else v for k, v in out.items()}
        return {
            **out,
            "session": self.session.to_dict(),
            "facts": [f.to_dict() for f in self.facts],
            "expected_calls": [c.to_dict() for c in self.expected_calls],
            "details": dict(self.details),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Case:
        """Inverse of :meth:`to_dict`."""
        return cls(
            id=str(data["id"]),
            split=str(data["split"]),
            intent=str(data["intent"]),
            style=str(data["style"]),
            language=str(data["language"]),
            message=str(data["message"]),
            session=LiveSession.from_dict(data["session"]),
            facts=tuple(Fact.from_dict(f) for f in data.get("facts", [])),
            forbidden=tuple(data.get("forbidden", [])),
            expected_calls=tuple(ExpectedCall.from_dict(c) for c in data.get("expected_calls", [])),
            expected_skill=str(data["expected_skill"]),
            constraints=tuple(data.get("constraints", [])),
            should_escalate=bool(data.get("should_escalate", False)),
            coupon_codes=tuple(data.get("coupon_codes", [])),
            accepted_skills=tuple(data.get("accepted_skills", [])),
            product_ids=tuple(data.get("product_ids", [])),
            details=dict(data.get("details", {})),
        )
