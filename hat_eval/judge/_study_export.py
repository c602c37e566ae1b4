"""The study's export: pair the two logs' answers, draw items and sides, write tasks and key."""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np


class StudyError(ValueError):
    """Nothing can be computed: the logs share no case, or the key does not match the labels."""


@dataclass(frozen=True)
class StudyItem:
    """One case answered by both candidates."""

    item_id: str
    message: str
    answer_a: str
    answer_b: str
    sample_id_a: str
    sample_id_b: str


def shown_digest(message: str, left: str, right: str) -> str:
    """A short hash of what a rater sees (message, left and right answers, in that order).

    The key holds it per item, so votes on tasks of another study (another seed puts the same
    answers on other sides) do not pass for votes on this one.
    """
    text = "\x00".join((message, left, right))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class PlacedItem:
    """A drawn item with the side its candidate A is shown on."""

    item: StudyItem
    a_side: Literal["left", "right"]

    @property
    def left(self) -> str:
        """The answer shown on the left."""
        return self.item.answer_a if self.a_side == "left" else self.item.answer_b

    @property
    def right(self) -> str:
        """The answer shown on the right."""
        return self.item.answer_b if self.a_side == "left" else self.item.answer_a


@dataclass(frozen=True)
class KeyEntry:
    """What the key says of one item: the side of A, and the digest of the texts shown."""

    a_side: Literal["left", "right"]
    digest: str
    sample_id_a: str
    sample_id_b: str


def _message(sample: Any) -> str:
    raw = sample.input
    if isinstance(raw, str):
        return raw
    users = [m for m in raw if getattr(m, "role", None) == "user"]
    return str(users[-1].text) if users else str(raw)


def _answers(log: Any) -> dict[str, tuple[str, str, str, str]]:
    """``case_key -> (case id, message, answer, sample id)`` of a log's first epoch.

    Errored samples are left out.
    """
    from hat_eval.reports import case_key

    out: dict[str, tuple[str, str, str, str]] = {}
    for sample in log.samples or []:
        if sample.error is not None or getattr(sample, "epoch", 1) != 1:
            continue
        message = _message(sample)
        key = case_key(sample.id, message)
        out[key] = (case_key(sample.id), message, sample.output.completion, str(sample.id))
    return out


def pair_samples(log_a: Any, log_b: Any) -> list[StudyItem]:
    """The cases both Inspect logs answered, sorted by item id, each with both answers.

    Samples pair by ``case_key(sample.id, message)``: the case id without its suite prefix and
    the viewer message. Only the first epoch of each sample counts; errored samples are left out.

    Raises:
        StudyError: The logs share no case.
    """
    a, b = _answers(log_a), _answers(log_b)
    common = sorted(a.keys() & b.keys(), key=lambda k: (a[k][0], k))
    if not common:
        raise StudyError(
            f"the logs share no case ({len(a)} and {len(b)} answered samples); export two "
            f"candidates' logs of the same suite cases (variant and livestream pair by case)"
        )
    items = []
    seen: Counter[str] = Counter()
    for key in common:
        case, message, answer_a, sid_a = a[key]
        seen[case] += 1
        item_id = case if seen[case] == 1 else f"{case}#{seen[case]}"
        items.append(StudyItem(item_id, message, answer_a, b[key][2], sid_a, b[key][3]))
    return items


def draw_study(items: Sequence[StudyItem], n: int, seed: int) -> list[PlacedItem]:
    """``n`` items drawn without replacement, each with A on a side drawn with probability 1/2.

    With ``rng = numpy.random.default_rng(seed)``: the items are ``items[rng.permutation(m)[:n]]``
    (in that drawn order) and item ``i`` shows A on the left when ``rng.integers(0, 2, n)[i]``
    is 0. The same items and seed give the same study.

    Raises:
        StudyError: ``n`` is below 1 or more than the items available.
    """
    if not 1 <= n <= len(items):
        raise StudyError(
            f"--n {n} must be between 1 and the {len(items)} cases both logs answered; "
            f"use --n {len(items)} or fewer"
        )
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(items))[:n]
    flips = rng.integers(0, 2, size=n)
    return [
        PlacedItem(items[int(i)], "left" if int(f) == 0 else "right")
        for i, f in zip(order, flips, strict=True)
    ]


def task_rows(placed: Sequence[PlacedItem]) -> list[dict[str, str]]:
    """The blind rows ``sample_id, message, left, right``: no candidate identity in them."""
    return [
        {"sample_id": p.item.item_id, "message": p.item.message, "left": p.left, "right": p.right}
        for p in placed
    ]


def key_json(placed: Sequence[PlacedItem], meta: Mapping[str, Any]) -> dict[str, Any]:
    """The key file: ``meta`` (the candidates, the seed) and, per item id, the side of A."""
    return {
        **meta,
        "items": {
            p.item.item_id: {
                "a_side": p.a_side,
                "digest": shown_digest(p.item.message, p.left, p.right),
                "sample_id_a": p.item.sample_id_a,
                "sample_id_b": p.item.sample_id_b,
            }
            for p in placed
        },
    }
