"""What a product's shipping rows give the checks: fees, times, regions, where it ships free."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ShippingTerms:
    """What a product's shipping rows give: fees and thresholds, delivery days, regions."""

    money: list[float]
    days: list[float]
    spans: set[tuple[str, float, float]]
    """("delivery", low, high) of each delivery time, and each end alone."""
    regions: list[str]
    free: bool
    """Free somewhere: no fee, or the lowest list price over the free-shipping threshold."""
    everywhere: bool
    """Free to every region it ships to."""
    mainland: bool
    """Free to every region but Hong Kong, Macau and Taiwan ("free anywhere in mainland China")."""
    free_over: list[float]
    """The free-shipping thresholds of the regions it ships to."""
    fastest: float | None


def shipping_terms(rows: list[dict[str, Any]], lowest: float) -> ShippingTerms:
    """The shipping rows of a product whose lowest list price is ``lowest``."""
    fees = [(r["fee"], r["free_shipping_over"]) for r in rows]
    open_fees = [f for r, f in zip(rows, fees, strict=True) if r["available"]]
    mainland = [
        f
        for r, f in zip(rows, fees, strict=True)
        if r["available"] and r["region_class"] != "hk_mo_tw"
    ]

    def free_for(fee_over: tuple[float, float | None]) -> bool:
        return fee_over[0] == 0 or (fee_over[1] is not None and lowest >= fee_over[1])

    times = [r["delivery_days"] for r in rows if r["available"] and r["delivery_days"]]
    ends = [(float(t["min"]), float(t["max"])) for t in times]
    return ShippingTerms(
        money=[float(x) for pair in fees for x in pair if x is not None],
        days=[float(v) for t in times for v in t.values()],
        spans={("delivery", a, b) for lo, hi in ends for a, b in ((lo, hi), (lo, lo), (hi, hi))},
        regions=[region for r in rows for region in r["regions"]],
        free=any(map(free_for, open_fees)),
        everywhere=bool(open_fees) and all(map(free_for, open_fees)),
        mainland=bool(open_fees) and all(map(free_for, mainland)),
        free_over=[over for _, over in open_fees if over is not None],
        fastest=min((lo for lo, _ in ends), default=None),
    )
