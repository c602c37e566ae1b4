"""Caches for derived values: by object identity, and a mapping loaded on first use."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


def by_identity(maxsize: int) -> Callable[[Callable[[K], V]], Callable[[K], V]]:
    """Cache a one-argument function per argument *object*, not per value.

    For values derived from big frozen objects a run reuses (a harness per variant, the
    knowledge base): hashing them would cost more than it saves. Each entry holds its object,
    so the object's id is not reused while the entry lives; at ``maxsize`` entries the cache
    starts over.
    """

    def decorate(fn: Callable[[K], V]) -> Callable[[K], V]:
        table: dict[int, tuple[K, V]] = {}

        @functools.wraps(fn)
        def cached(obj: K) -> V:
            entry = table.get(id(obj))
            if entry is None or entry[0] is not obj:
                if len(table) >= maxsize:
                    table.clear()
                entry = (obj, fn(obj))
                table[id(obj)] = entry
            return entry[1]

        return cached

    return decorate


class LazyMapping(Mapping[K, V]):
    """A read-only mapping over the one built by ``load`` (a cached function), called on first use.

    For module-level tables derived from a file, so that importing the module reads nothing.
    """

    def __init__(self, load: Callable[[], Mapping[K, V]]) -> None:
        self._load = load

    def __getitem__(self, key: K) -> V:
        return self._load()[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._load())

    def __len__(self) -> int:
        return len(self._load())

    def __repr__(self) -> str:
        return repr(self._load())
