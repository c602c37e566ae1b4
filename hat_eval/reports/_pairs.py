"""Two eval logs over the same cases, compared case by case.

``livestream`` and ``variant`` run the same cases (the second under held-out harness variants),
so matching their samples by case gives a paired measure of harness sensitivity; two models on
one suite pair the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hat_eval.stats import paired_bootstrap


@dataclass(frozen=True)
class PairedDifference:
    """The mean of ``a - b`` over the cases both logs scored, with its bootstrap 95% interval."""

    part: str
    n: int
    mean_a: float
    mean_b: float
    diff: float
    low: float
    high: float


def case_key(sample_id: str | int, message: str = "") -> str:
    """A sample's case, whatever suite ran it: ``variant-test-000042`` -> ``test-000042``.

    With the viewer ``message`` the key holds it too, so two suites whose case ids coincide but
    whose cases differ (robustness draws its own) never pair.
    """
    text = str(sample_id)
    case = text.split("-", 1)[1] if "-" in text else text
    return f"{case}\n{message}" if message else case


def paired_values(a: dict[str, float], b: dict[str, float]) -> tuple[list[float], list[float]]:
    """The values of the cases both ``a`` and ``b`` hold, in case order, side by side."""
    keys = sorted(a.keys() & b.keys())
    return [a[k] for k in keys], [b[k] for k in keys]


def paired_difference(
    log_a: Any, log_b: Any, part: str = "aggregate", *, n_boot: int = 2000, seed: int = 0
) -> PairedDifference:
    """``part`` of ``log_a`` minus ``log_b`` over the cases both scored.

    Raises:
        ValueError: the logs share no scored case (different suites' cases, or ``part`` absent).
    """
    from ._candidates import read_suite_log

    xs, ys = paired_values(
        read_suite_log(log_a).per_case(part), read_suite_log(log_b).per_case(part)
    )
    if not xs:
        raise ValueError(
            f"the two logs share no case with a {part!r} score; expected logs of the same cases "
            "(livestream and variant, or two models on one suite)"
        )
    diff, low, high = paired_bootstrap(xs, ys, n_boot=n_boot, seed=seed)
    return PairedDifference(part, len(xs), sum(xs) / len(xs), sum(ys) / len(ys), diff, low, high)
