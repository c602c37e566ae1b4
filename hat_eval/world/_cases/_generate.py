"""Draw viewer cases: ``generate_cases(kb, split=..., n=..., seed=...)``.

Case ``i`` is drawn from its own ``random.Random("hat-eval-case|<seed>|<split>|<i>")`` (string
seeds hash with SHA-512, so the cases do not depend on ``PYTHONHASHSEED``, and the first ``k``
cases of ``n`` equal the cases of ``n = k``). Each case picks an intent and a style, then the
intent's builder (one module of this package per intent) picks products of its split, a moment
in the stream season and a message template, and computes the gold by calling the tool
implementations: the facts are read from those results, never written by hand.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from importlib import import_module

from .._kb import KnowledgeBase
from .._splits import SPLITS, split_products
from ._case import Case
from ._draft import Ctx, Skip
from ._intents import INTENT_WEIGHTS, INTENTS, STYLE_WEIGHTS

_BUILDERS: dict[str, Callable[[Ctx], Case]] = {
    intent: import_module(f"{__package__}.{intent}").build for intent in INTENTS
}
"""Intent -> the ``build`` of the module of this package named after it."""


def generate_cases(
    kb: KnowledgeBase, *, split: str, n: int, seed: int, intents: Sequence[str] | None = None
) -> list[Case]:
    """``n`` viewer messages with gold, about products of ``split`` only.

    Args:
        kb: the knowledge base (e.g. ``build_kb()``).
        split: ``train``, ``dev`` or ``test``.
        n: how many cases.
        seed: the seed; the same arguments always give identical cases.
        intents: restrict to these intents (weights kept); all of :data:`INTENTS` when None.

    Raises:
        ValueError: unknown split or intent, or ``n`` < 0.
    """
    if split not in SPLITS:
        raise ValueError(f"split {split!r} is unknown, expected one of {', '.join(SPLITS)}")
    if n < 0:
        raise ValueError(f"n {n} is negative, expected n >= 0")
    chosen = tuple(intents) if intents is not None else INTENTS
    bad = [i for i in chosen if i not in INTENTS]
    if bad or not chosen:
        raise ValueError(
            f"intents {bad or list(chosen)} unknown or empty, expected a non-empty "
            f"subset of {', '.join(INTENTS)}"
        )
    ids = set(split_products(kb, split))
    pool = [p for p in kb.products() if p["id"] in ids]
    weights = [INTENT_WEIGHTS[i] for i in chosen]
    styles, style_weights = list(STYLE_WEIGHTS), list(STYLE_WEIGHTS.values())
    cases = []
    for index in range(n):
        rng = random.Random(f"hat-eval-case|{seed}|{split}|{index}")
        intent = rng.choices(chosen, weights)[0]
        style = rng.choices(styles, style_weights)[0]
        for _attempt in range(20):
            ctx = Ctx(f"{split}-{index:06d}", kb, rng, split, pool, style)
            try:
                case = _BUILDERS[intent](ctx)
                break
            except Skip:
                continue
        else:  # pragma: no cover - every intent fits some product of every split
            raise RuntimeError(f"could not build a {intent} case for split {split}")
        cases.append(case)
    return cases
