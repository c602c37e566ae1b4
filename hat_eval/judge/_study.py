"""A blind human preference study of two candidates: export the items, analyze the votes.

Export (``hat-eval study export``): the cases both Inspect logs answered (paired by
``hat_eval.reports.case_key``, so ``variant-…`` and ``livestream-…`` samples of one case pair),
``n`` of them drawn with a seed, each shown with its two answers on sides drawn per item. The
tasks hold only the item id (the case id, without the suite prefix), the viewer message and the
``left``/``right`` answers; which side is candidate A lives in a key file kept apart.

Analyze (``hat-eval study analyze``): votes of ``left``/``right``/``tie`` (a Label Studio JSON
export, or a CSV ``sample_id, preference, annotator``) are mapped back to ``A``/``B``/``tie``
with the key; the unit of the win rate and the sign test is the item (its human majority), so
several raters of one item do not count as independent trials.
"""

from __future__ import annotations

import io
import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal, TypeAlias, get_args

import numpy as np

from hat_eval.stats import sign_test, wilson_interval

from ._labels import (
    LabelError,
    Preference,
    csv_reader,
    label_studio_results,
    parse_rating,
    read_json,
    read_rows,
    read_text,
    required_field,
)
from ._statistics import (
    cohen_kappa,
    decode,
    encode,
    krippendorff_alpha,
    majority,
)
from ._study_export import (
    KeyEntry,
    StudyError,
    shown_digest,
)

Side: TypeAlias = Literal["left", "right", "tie"]
"""A human's vote on a blind item: the answer shown on the left, on the right, or neither."""

SIDES: Final[tuple[Side, ...]] = get_args(Side)
PREFERENCE_NAME: Final = "preference"
"""The ``name`` of the Label Studio ``<Choices>`` control, and the CSV column of the vote."""
LABEL_COLUMNS: Final[tuple[str, ...]] = ("sample_id", PREFERENCE_NAME, "annotator")

LABEL_CONFIG: Final = """\
<View>
  <Header value="Viewer message"/>
  <Text name="message" value="$message"/>
  <View style="display: flex; gap: 1em">
    <View style="flex: 1">
      <Header value="Left answer"/>
      <Text name="left" value="$left"/>
    </View>
    <View style="flex: 1">
      <Header value="Right answer"/>
      <Text name="right" value="$right"/>
    </View>
  </View>
  <Header value="Which answer is better for the viewer?"/>
  <Choices name="preference" toName="message" choice="single-radio" required="true"
           showInline="true">
    <Choice value="left"/>
    <Choice value="right"/>
    <Choice value="tie"/>
  </Choices>
</View>
"""
"""The Label Studio labelling configuration of the exported tasks (one single choice)."""


@dataclass(frozen=True)
class Vote:
    """One human's vote on one item, as shown (left/right/tie)."""

    item_id: str
    side: Side
    annotator: str
    where: str
    digest: str | None = None
    """The digest of the texts the rater saw, when the labels file carries them."""


def read_key(path: Path) -> dict[str, KeyEntry]:
    """Read a key file written by ``hat-eval study export``.

    Raises:
        LabelError: Not such a key (the message names the file and the field).
    """
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise LabelError(f"{path}: cannot read the study key ({err})") from err
    items = doc.get("items") if isinstance(doc, dict) else None
    if not isinstance(items, dict) or not items:
        raise LabelError(
            f"{path}: not a study key (expected an object with 'items': item id -> side of A; "
            f"use the key.json that `hat-eval study export` wrote)"
        )
    out = {}
    for item_id, entry in items.items():
        side = entry.get("a_side") if isinstance(entry, dict) else None
        if side not in ("left", "right"):
            raise LabelError(f"{path}: item {item_id!r} has a_side {side!r} (left or right)")
        out[str(item_id)] = KeyEntry(
            side,
            str(entry.get("digest", "")),
            str(entry.get("sample_id_a", "")),
            str(entry.get("sample_id_b", "")),
        )
    return out


def parse_side(raw: object, where: str) -> Side:
    """A vote as shown: ``left``, ``right`` or ``tie`` (case-insensitive).

    Raises:
        LabelError: Any other value, naming ``where``.
    """
    text = str(raw).strip().lower() if raw is not None else ""
    for side in SIDES:
        if text == side:
            return side
    hint = " (human votes name the side shown, not A/B)" if text in ("a", "b") else ""
    raise LabelError(f"{where}: preference {raw!r} must be left, right or tie{hint}")


def read_votes(path: Path) -> list[Vote]:
    """Read human votes: a Label Studio JSON export (``.json``) or a CSV (``.csv``).

    The CSV has the columns ``sample_id, preference, annotator`` (the exported ``tasks.csv``
    filled in works: its ``message``, ``left`` and ``right`` columns are checked against the key);
    rows with an empty preference are skipped. In a Label Studio export the vote is the single
    choice of the ``preference`` control; cancelled annotations are skipped.

    Raises:
        LabelError: An unknown format, a missing field, a vote other than left/right/tie, or a
            file without votes.
    """
    suffix = path.suffix.lower()
    if suffix not in (".csv", ".json"):
        raise LabelError(
            f"{path}: unknown labels format {path.suffix or '(no suffix)'!r} "
            f"(use a Label Studio JSON export .json, or .csv with {', '.join(LABEL_COLUMNS)})"
        )
    text = read_text(path)
    votes = list(_csv_votes(text, str(path)) if suffix == ".csv" else _ls_votes(text, str(path)))
    if not votes:
        raise LabelError(f"{path}: no votes in the file")
    return votes


def _shown_digest(row: Mapping[str, Any]) -> str | None:
    if not all(isinstance(row.get(c), str) for c in ("message", "left", "right")):
        return None
    return shown_digest(row["message"], row["left"], row["right"])


def _csv_votes(text: str, name: str) -> Iterable[Vote]:
    reader = csv_reader(io.StringIO(text, newline=""), name, LABEL_COLUMNS, LABEL_COLUMNS)
    for row in reader:
        where = f"{name}:{reader.line_num}"
        if not (row.get(PREFERENCE_NAME) or "").strip():
            continue
        sample_id = required_field(row, "sample_id", where)
        annotator = required_field(row, "annotator", where)
        side = parse_side(row[PREFERENCE_NAME], where)
        yield Vote(sample_id, side, annotator, where, _shown_digest(row))


def _ls_votes(text: str, name: str) -> Iterable[Vote]:
    doc = read_json(text, name)
    if not isinstance(doc, list):
        raise LabelError(f"{name}: not a Label Studio export (a list of tasks)")
    hint = "import the tasks.json that `hat-eval study export` wrote"
    for task_ref, data, annotator, result in label_studio_results(doc, name, hint):
        if result.get("from_name") != PREFERENCE_NAME or result.get("type") != "choices":
            continue
        choices = (result.get("value") or {}).get("choices") or []
        where = f"{task_ref} {PREFERENCE_NAME}"
        if len(choices) != 1:
            raise LabelError(f"{where}: value.choices {choices!r} must hold one choice")
        yield Vote(
            str(data["sample_id"]).strip(),
            parse_side(choices[0], where),
            annotator,
            where,
            _shown_digest(data),
        )


def read_judge(path: Path) -> dict[str, Preference]:
    """The judge's pairwise verdicts: CSV or JSONL with ``sample_id, preference`` (A, B or tie).

    Raises:
        LabelError: An unknown format, a missing field, or a verdict other than A/B/tie.
    """
    rows = read_rows(path, "judge verdicts", "sample_id, preference")
    out: dict[str, Preference] = {}
    for where, row in rows:
        sample_id = required_field(row, "sample_id", where)
        verdict = parse_rating(row.get(PREFERENCE_NAME), where)
        if not isinstance(verdict, str):
            raise LabelError(f"{where}: preference {verdict!r} must be A, B or tie")
        out[sample_id] = verdict
    if not out:
        raise LabelError(f"{path}: no verdicts in the file")
    return out


def majority_preference(votes: Sequence[Preference]) -> Preference:
    """An item's human verdict: its most frequent vote, ``tie`` when the top votes are tied.

    ``[A, A, B]`` gives A; ``[A, B]`` and ``[A, tie]`` give tie (the raters did not agree on a
    winner; ``hat_eval.judge._statistics.majority`` for preferences).

    Raises:
        ValueError: ``votes`` is empty.
    """
    code, _ = majority([encode(v) for v in votes], "preference")
    verdict = decode(code, "preference")
    assert isinstance(verdict, str)
    return verdict


@dataclass(frozen=True)
class StudyReport:
    """The study's outcome: A vs B over items (human majorities), rater and judge agreement."""

    n_items: int
    n_votes: int
    n_annotators: int
    wins_a: int
    wins_b: int
    ties: int
    win_rate_a: float | None
    win_rate_a_ci: tuple[float, float] | None
    tie_share: float
    sign_test_p: float | None
    n_multi_rated: int
    unanimous_share: float | None
    krippendorff_alpha: float | None
    judge: Mapping[str, Any] | None
    items: tuple[Mapping[str, Any], ...]
    unknown_items: tuple[str, ...]
    notes: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        """``study.json``: the summary, then one entry per item (votes, majority, judge)."""
        out: dict[str, Any] = {
            k: v for k, v in self.__dict__.items() if k not in ("items", "unknown_items")
        }
        out["win_rate_a_ci"] = list(self.win_rate_a_ci) if self.win_rate_a_ci else None
        out["notes"] = list(self.notes)
        out["unknown_items"] = list(self.unknown_items)
        out["items"] = [dict(i) for i in self.items]
        return out


def _votes_by_item(
    known: Sequence[Vote], key: Mapping[str, KeyEntry]
) -> defaultdict[str, dict[str, Preference]]:
    """Item id -> annotator -> A/B/tie; refuses votes on other texts and repeated votes."""
    by_item: defaultdict[str, dict[str, Preference]] = defaultdict(dict)
    first_where: dict[tuple[str, str], str] = {}
    for vote in known:
        entry = key[vote.item_id]
        if vote.digest is not None and entry.digest and vote.digest != entry.digest:
            raise StudyError(
                f"{vote.where}: the key does not match the labels: item {vote.item_id!r} shows "
                f"other texts than the study the key was written for; use the key.json "
                f"written with these tasks"
            )
        pair = (vote.item_id, vote.annotator)
        if pair in first_where:
            raise StudyError(
                f"{vote.where}: annotator {vote.annotator!r} voted on item {vote.item_id!r} "
                f"again (first at {first_where[pair]}); keep one vote per annotator and item"
            )
        first_where[pair] = vote.where
        by_item[vote.item_id][vote.annotator] = (
            "tie" if vote.side == "tie" else "A" if vote.side == entry.a_side else "B"
        )
    return by_item


def _rater_agreement(
    by_item: Mapping[str, dict[str, Preference]],
    multi: list[str],
    item_ids: list[str],
    annotators: list[str],
    notes: list[str],
) -> tuple[float | None, float | None]:
    """The unanimous share and Krippendorff's alpha over multi-rated items (noted if undefined)."""
    if not multi:
        notes.append(
            f"agreement among raters is undefined: no item has votes from two or more "
            f"annotators ({len(annotators)} annotator(s)); the rest is computed"
        )
        return None, None
    unanimous = sum(len(set(by_item[i].values())) == 1 for i in multi) / len(multi)
    matrix = np.full((len(annotators), len(item_ids)), np.nan)
    for col, i in enumerate(item_ids):
        for row, annotator in enumerate(annotators):
            if annotator in by_item[i]:
                matrix[row, col] = encode(by_item[i][annotator])
    alpha = krippendorff_alpha(matrix, "preference")
    if alpha is None:
        notes.append("Krippendorff's alpha is undefined: all votes on multi-rated items agree")
    return unanimous, alpha


def analyze_study(
    votes: Sequence[Vote],
    key: Mapping[str, KeyEntry],
    judge: Mapping[str, Preference] | None = None,
) -> StudyReport:
    """Map the votes to A/B with the key and compute the study's statistics.

    Per item, the human verdict is ``majority_preference`` of its votes. Over items: the win
    rate of A is ``wins_a / (wins_a + wins_b)`` (ties excluded) with its ``wilson_interval``,
    the tie share is ``ties / items``, and ``sign_test`` gives the p-value. Among raters, over
    items with two or more votes: the share whose votes are all equal, and Krippendorff's
    nominal alpha on the A/B/tie votes (``krippendorff_alpha``; annotators x items). With a
    ``judge``, its verdicts (keyed by item id, or by candidate A's or B's sample id) are set
    beside the human majority: the agreement rate (share equal) and Cohen's kappa.

    Votes on items the key does not name are left out (listed in ``unknown_items``).

    Raises:
        StudyError: No vote names an item of the key, a vote's texts differ from those the key
            was written for, or an annotator voted twice on one item.
    """
    known = [v for v in votes if v.item_id in key]
    unknown = tuple(sorted({v.item_id for v in votes if v.item_id not in key}))
    if not known:
        raise StudyError(
            f"the key does not match the labels: none of the {len(unknown)} labelled items "
            f"(e.g. {unknown[0]!r}) is in the key's {len(key)} items; use the key.json written "
            f"with these tasks"
        )
    by_item = _votes_by_item(known, key)
    item_ids = sorted(by_item)
    annotators = sorted({a for v in by_item.values() for a in v})
    verdicts = {i: majority_preference(list(by_item[i].values())) for i in item_ids}
    counts = Counter(verdicts.values())
    wins_a, wins_b, ties = counts["A"], counts["B"], counts["tie"]
    decided = wins_a + wins_b
    notes: list[str] = []

    multi = [i for i in item_ids if len(by_item[i]) >= 2]
    unanimous, alpha = _rater_agreement(by_item, multi, item_ids, annotators, notes)
    if decided == 0:
        notes.append("the win rate and the sign test are undefined: every item is a tie")

    judge_json = _judge_summary(judge, verdicts, key, notes) if judge is not None else None
    items = tuple(
        {
            "sample_id": i,
            "a_side": key[i].a_side,
            "votes": dict(sorted(by_item[i].items())),
            "human_majority": verdicts[i],
            **({"judge": _judge_verdict(judge, i, key[i])} if judge is not None else {}),
        }
        for i in item_ids
    )
    return StudyReport(
        n_items=len(item_ids),
        n_votes=len(known),
        n_annotators=len(annotators),
        wins_a=wins_a,
        wins_b=wins_b,
        ties=ties,
        win_rate_a=wins_a / decided if decided else None,
        win_rate_a_ci=wilson_interval(wins_a, decided),
        tie_share=ties / len(item_ids),
        sign_test_p=sign_test(wins_a, wins_b),
        n_multi_rated=len(multi),
        unanimous_share=unanimous,
        krippendorff_alpha=alpha,
        judge=judge_json,
        items=items,
        unknown_items=unknown,
        notes=tuple(notes),
    )


def _judge_verdict(
    judge: Mapping[str, Preference], item_id: str, entry: KeyEntry
) -> Preference | None:
    for ident in (item_id, entry.sample_id_a, entry.sample_id_b):
        if ident and ident in judge:
            return judge[ident]
    return None


def _judge_summary(
    judge: Mapping[str, Preference],
    verdicts: Mapping[str, Preference],
    key: Mapping[str, KeyEntry],
    notes: list[str],
) -> dict[str, Any]:
    pairs = [
        (j, h) for i, h in verdicts.items() if (j := _judge_verdict(judge, i, key[i])) is not None
    ]
    if not pairs:
        notes.append("the judge's verdicts name none of the labelled items; nothing to compare")
    counts = Counter(j for j, _ in pairs)
    j_codes = np.asarray([encode(j) for j, _ in pairs], dtype=np.float64)
    h_codes = np.asarray([encode(h) for _, h in pairs], dtype=np.float64)
    return {
        "n_items": len(pairs),
        "agreement_with_human_majority": (
            sum(j == h for j, h in pairs) / len(pairs) if pairs else None
        ),
        "cohen_kappa": cohen_kappa(j_codes, h_codes, "preference") if pairs else None,
        "wins_a": counts["A"],
        "wins_b": counts["B"],
        "ties": counts["tie"],
    }
