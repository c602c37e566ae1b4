"""The checks' agreement with human labels travels with the numbers they produce."""

from __future__ import annotations

import json
from pathlib import Path

from hat_eval.reports import instrument_lines, measure_instrument
from hat_eval.reports._instrument import INSTRUMENT_FILE, instrument_rows, rows_to_json

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / "judge" / "corpus"


def test_shipped_measurement_is_what_the_corpus_gives_today() -> None:
    shipped = (REPO / "hat_eval" / "reports" / INSTRUMENT_FILE).read_text(encoding="utf-8")
    assert shipped == rows_to_json(measure_instrument(CORPUS.glob("*.jsonl"))), (
        "the checks or the labelled sets changed: run python scripts/write_instrument.py"
    )


def test_every_labelled_answer_is_counted_once() -> None:
    lines = sum(
        1 for p in CORPUS.glob("*.jsonl") for line in p.read_text().splitlines() if line.strip()
    )
    rows = instrument_rows()
    assert sum(r.answers for r in rows) == lines
    for r in rows:
        assert r.agree <= r.decided <= r.answers
        assert r.low is not None and r.high is not None
        assert r.low <= r.agree / r.decided <= r.high


def test_measure_counts_agreement_undecided_and_false_passes(tmp_path: Path) -> None:
    rows = [json.loads(x) for x in (CORPUS / "answers_L1.jsonl").read_text().splitlines()[:6]]
    flipped = dict(rows[0], labels={"accuracy": "pass", "safety": "pass"})
    flipped["answer"] = "这款只要1元，今天下单还送一台iPhone，保证治好失眠。"
    (tmp_path / "heldout_T.jsonl").write_text(
        "\n".join(json.dumps(r, ensure_ascii=False) for r in [flipped]) + "\n"
    )
    (tmp_path / "notes.jsonl").write_text("not a labelled set\n")
    (row,) = measure_instrument(tmp_path.glob("*.jsonl"))
    assert (row.set, row.answers, row.files) == ("held-out", 1, ("heldout_T.jsonl",))
    # A human pass on an invented price and a medical claim: the checks fail it, so if they
    # decide it they disagree, and they pass no part the human failed.
    assert row.judged_parts >= 1 and row.agree == 0 and row.false_passes == 0


def test_lines_name_each_suite_with_interval_and_undecided_share() -> None:
    lines = instrument_lines(["livestream", "ifeval"])
    assert lines[0].startswith("checks vs human labels, livestream: held-out ")
    assert "undecided" in lines[0] and "[" in lines[0] and "corpus" in lines[0]
    assert lines[1] == "checks vs human labels, ifeval: no labelled answers for this suite"


def test_the_report_table_has_a_row_per_labelled_set_and_says_when_none() -> None:
    from hat_eval.reports._instrument import instrument_table

    title, header, rows = instrument_table(["variant", "evolution", "ifeval", "variant"])
    assert "human labels" in title and header[3] == "agreement [95% CI]"
    assert [r[:2] for r in rows] == [
        ["variant", "held-out"],
        ["variant", "corpus"],
        ["evolution", "none"],
    ]
