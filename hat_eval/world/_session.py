"""The state of the live stream when a viewer writes: what is on screen, the time, the deals."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any


@dataclass(frozen=True)
class Deal:
    """A time-limited deal announced on the stream: a promotion of one product."""

    product_id: str
    promotion_id: str
    ends_at: str

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Deal:
        """Inverse of :meth:`to_dict`."""
        return cls(str(data["product_id"]), str(data["promotion_id"]), str(data["ends_at"]))


@dataclass(frozen=True)
class LiveSession:
    """The live-stream context of one viewer message.

    ``now`` is an ISO 8601 datetime with offset (China Standard Time, fixed per case); every
    price and validity window is evaluated at it. ``deals`` accepts a list or tuple of
    :class:`Deal` or dicts and is stored as a tuple of :class:`Deal`.
    """

    product_on_screen: str
    now: str
    deals: tuple[Deal, ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        deals = tuple(d if isinstance(d, Deal) else Deal.from_dict(d) for d in self.deals)
        object.__setattr__(self, "deals", deals)
        try:
            parsed = datetime.fromisoformat(self.now)
        except (TypeError, ValueError):
            raise ValueError(
                f"now {self.now!r} is not an ISO datetime, expected e.g. "
                "'2026-11-11T20:30:00+08:00'"
            ) from None
        if parsed.tzinfo is None:
            raise ValueError(f"now {self.now!r} has no UTC offset, expected e.g. '+08:00'")

    @property
    def now_dt(self) -> datetime:
        """``now`` parsed (timezone-aware)."""
        return datetime.fromisoformat(self.now)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict (``deals`` as a list of dicts)."""
        return {**asdict(self), "deals": [asdict(d) for d in self.deals]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> LiveSession:
        """Inverse of :meth:`to_dict`."""
        return cls(
            str(data["product_on_screen"]),
            str(data["now"]),
            tuple(data.get("deals", [])),  # read as Deals by __post_init__
        )
