"""Published human judgments: MT-Bench's expert votes beside GPT-4's pairwise verdicts.

Zheng et al. (2023), *Judging LLM-as-a-Judge with MT-Bench and Chatbot Arena*
(arXiv:2306.05685), released the pairwise votes of 58 experts on MT-Bench answers of six models
and GPT-4's pairwise verdicts on the same pairs (Hugging Face ``lmsys/mt_bench_human_judgments``,
CC-BY-4.0). An *item* is one question, turn and (unordered) pair of models; it has zero or more
expert votes and at most one GPT-4 verdict. GPT-4 judged each pair in both orders; a verdict that
flipped with the order is ``tie (inconsistent)``, which counts as a tie.

Two readers: :func:`read_mt_bench_votes` joins the dataset's rows (``question_id, model_a,
model_b, winner, judge, turn``; the ``human`` and ``gpt4_pair`` splits, or FastChat's JSON files),
and :func:`read_mt_bench` reads the committed sample (``judge/published``), one item a line.
:func:`mt_bench_labels` turns items into our ``Label`` records (dimension ``preference``; ``A``
is the model first in alphabetical order), so ``agreement`` and ``hat-eval judge agreement`` run
on them. :func:`vote_agreement` is the paper's agreement statistic (its Table 5, FastChat's
``compute_agreement.py``), pooled over votes rather than items.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ._labels import Label, LabelError, Preference, jsonl_rows, read_json, read_text
from ._statistics import (
    bootstrap_intervals,
)

DIMENSION: Final = "preference"
"""The dimension name the converted labels carry."""
TIE: Final = "tie"
INCONSISTENT: Final = "tie (inconsistent)"
GPT4: Final = "gpt4_pair"
"""The annotator name of GPT-4's verdicts in the converted labels."""


@dataclass(frozen=True)
class PairItem:
    """One MT-Bench comparison: a question, a turn, two models, the votes on it.

    Winners are a model name, ``tie``, or (GPT-4 only) ``tie (inconsistent)``.
    """

    question_id: int
    turn: int
    model_1: str
    """The model first in alphabetical order (``A`` in the converted labels)."""
    model_2: str
    human: tuple[tuple[str, str], ...]
    """(judge, winner) of each expert vote."""
    gpt4: str | None

    @property
    def sample_id(self) -> str:
        """``mtbench-q<question>-t<turn>-<model_1>-vs-<model_2>``."""
        return f"mtbench-q{self.question_id}-t{self.turn}-{self.model_1}-vs-{self.model_2}"

    def preference(self, winner: str) -> Preference:
        """A winner as ``A`` (model_1), ``B`` (model_2) or ``tie`` (either kind of tie)."""
        if winner in (TIE, INCONSISTENT):
            return "tie"
        if winner == self.model_1:
            return "A"
        if winner == self.model_2:
            return "B"
        raise LabelError(f"{self.sample_id}: winner {winner!r} is neither model nor a tie")

    def to_json(self) -> dict[str, Any]:
        """One line of the sample file."""
        return {
            "sample_id": self.sample_id,
            "question_id": self.question_id,
            "turn": self.turn,
            "model_1": self.model_1,
            "model_2": self.model_2,
            "human": [{"judge": j, "winner": w} for j, w in self.human],
            "gpt4_pair": self.gpt4,
        }


def _winner(row: dict[str, Any], where: str) -> str:
    winner = row.get("winner")
    if winner in ("model_a", "model_b"):  # the column that names the winning model
        return str(row[winner])
    if winner in (TIE, INCONSISTENT):
        return str(winner)
    raise LabelError(f"{where}: winner {winner!r} is not model_a, model_b, tie or {INCONSISTENT}")


_VOTES = "votes (question_id, model_a, model_b, winner, judge, turn)"


def _rows(path: Path, what: str = _VOTES) -> Iterable[tuple[str, dict[str, Any]]]:
    """Rows of a JSONL file, or of a JSON list (FastChat's ``*_judgments.json``)."""
    if path.suffix.lower() != ".json":
        yield from jsonl_rows(path, what)
        return
    doc = read_json(read_text(path), str(path))
    if not isinstance(doc, list):
        raise LabelError(f"{path}: expected a JSON list of votes")
    for i, row in enumerate(doc):
        yield f"{path} item {i}", row


def read_mt_bench_votes(
    human: Path, gpt4: Path | None = None, *, experts_only: bool = True
) -> list[PairItem]:
    """Join the dataset's human votes and GPT-4 verdicts into items, sorted by sample id.

    Rows hold ``question_id, model_a, model_b, winner, judge, turn`` (extra columns such as the
    conversations are ignored). With ``experts_only`` the authors' votes (``author_*``) are left
    out, as in the paper's *Human* rows. Items without a human vote are left out.

    Raises:
        LabelError: A row without those fields, an unknown winner, or two GPT-4 verdicts on one
            item.
    """
    votes: defaultdict[tuple[int, int, str, str], list[tuple[str, str]]] = defaultdict(list)
    verdicts: dict[tuple[int, int, str, str], str] = {}

    def key(row: dict[str, Any], where: str) -> tuple[int, int, str, str]:
        try:
            first, second = sorted((str(row["model_a"]), str(row["model_b"])))
            return int(row["question_id"]), int(row["turn"]), first, second
        except (KeyError, TypeError, ValueError) as err:
            raise LabelError(
                f"{where}: {type(err).__name__} {err}; expected question_id, model_a, model_b, "
                "winner, judge, turn"
            ) from None

    for where, row in _rows(human):
        judge = str(row.get("judge", ""))
        if experts_only and not judge.startswith("expert"):
            continue
        votes[key(row, where)].append((judge, _winner(row, where)))
    if gpt4 is not None:
        for where, row in _rows(gpt4):
            k = key(row, where)
            if k in verdicts:
                raise LabelError(f"{where}: a second GPT-4 verdict on {k}")
            verdicts[k] = _winner(row, where)
    items = [
        PairItem(q, t, m1, m2, tuple(sorted(v)), verdicts.get((q, t, m1, m2)))
        for (q, t, m1, m2), v in votes.items()
    ]
    return sorted(items, key=lambda i: i.sample_id)


def read_mt_bench(path: Path) -> list[PairItem]:
    """Read a sample file written by ``judge/published/mt_bench.py sample`` (one item a line).

    Raises:
        LabelError: A line that is not such an item, naming the file and line.
    """
    out = []
    for where, row in _rows(path, "MT-Bench items (question_id, turn, model_1, model_2, ...)"):
        try:
            out.append(
                PairItem(
                    question_id=int(row["question_id"]),
                    turn=int(row["turn"]),
                    model_1=str(row["model_1"]),
                    model_2=str(row["model_2"]),
                    human=tuple((str(v["judge"]), str(v["winner"])) for v in row["human"]),
                    gpt4=None if row.get("gpt4_pair") is None else str(row["gpt4_pair"]),
                )
            )
        except (KeyError, TypeError, ValueError) as err:
            raise LabelError(
                f"{where}: {type(err).__name__} {err}; expected question_id, turn, model_1, "
                "model_2, human [{judge, winner}], gpt4_pair"
            ) from None
    return out


def mt_bench_labels(items: Sequence[PairItem]) -> tuple[list[Label], list[Label]]:
    """The items as (human labels, GPT-4 labels) on the ``preference`` dimension.

    ``A`` is ``model_1``, ``B`` ``model_2``; both kinds of tie are ``tie``. Items without a
    GPT-4 verdict give human labels only.
    """
    humans = [
        Label(i.sample_id, DIMENSION, i.preference(w), j, i.sample_id)
        for i in items
        for j, w in i.human
    ]
    judge = [
        Label(i.sample_id, DIMENSION, i.preference(i.gpt4), GPT4, i.sample_id)
        for i in items
        if i.gpt4 is not None
    ]
    return humans, judge


@dataclass(frozen=True)
class VoteAgreement:
    """The paper's agreement: the share of agreeing vote pairs, with a bootstrap interval."""

    agree: int
    total: int
    ci: tuple[float, float] | None

    @property
    def rate(self) -> float | None:
        """``agree / total`` (None with no pair)."""
        return self.agree / self.total if self.total else None


def vote_agreement(
    humans: Sequence[Label],
    judge: Sequence[Label] | None = None,
    *,
    ties: bool = True,
    n_boot: int = 1000,
    seed: int = 0,
) -> VoteAgreement:
    """Agreement pooled over votes, as in Zheng et al. (2023), Table 5.

    With ``judge``: over the items the judge labelled, each human vote is one pair with the
    judge's verdict. Without: each pair of two humans' votes on the same item is one pair. The
    rate is agreeing pairs over all pairs, so an item weighs by its number of pairs. Setup S1
    (``ties=True``) keeps ties (a tie agrees with a tie); setup S2 (``ties=False``) drops every
    pair where either side is a tie. The 95% interval is a percentile bootstrap resampling
    items (``bootstrap_intervals``).
    """
    by_item: defaultdict[str, list[str]] = defaultdict(list)
    for label in humans:
        by_item[label.sample_id].append(str(label.rating))
    verdict = {label.sample_id: str(label.rating) for label in judge or ()}
    counts: list[tuple[int, int]] = []
    for item, votes in sorted(by_item.items()):
        if judge is not None:
            if item not in verdict:
                continue
            pairs = [(verdict[item], v) for v in votes]
        else:
            pairs = list(combinations(votes, 2))
        kept = [(a, b) for a, b in pairs if ties or TIE not in (a, b)]
        if kept:
            counts.append((sum(a == b for a, b in kept), len(kept)))
    table = np.asarray(counts, dtype=np.int64).reshape(-1, 2)

    def statistic(idx: npt.NDArray[np.intp]) -> dict[str, float | None]:
        agree, total = table[idx].sum(axis=0)
        return {"rate": float(agree / total) if total else None}

    ci = bootstrap_intervals(statistic, len(table), n_boot=n_boot, seed=seed).get("rate")
    return VoteAgreement(int(table[:, 0].sum()), int(table[:, 1].sum()), ci)
