"""The identity cache: one computation per object, never shared between equal objects."""

from __future__ import annotations

from hat_eval._cache import by_identity


def test_by_identity_computes_once_per_object_and_starts_over_when_full() -> None:
    calls: list[list[int]] = []

    @by_identity(2)
    def total(xs: list[int]) -> int:
        calls.append(xs)
        return sum(xs)

    a, b, c = [1, 2], [1, 2], [5]
    assert total(a) == 3 and total(a) == 3
    assert len(calls) == 1
    assert total(b) == 3  # equal, but another object: computed for it
    assert len(calls) == 2
    assert total(c) == 5  # a third object: the full table starts over
    assert total(a) == 3
    assert len(calls) == 4
