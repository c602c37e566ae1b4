"""Rewrite ``hat_eval/reports/instrument.json``: the checks' agreement with the labelled corpus.

    python scripts/write_instrument.py

Run it after the checks or the labelled sets change; ``tests/reports/test_instrument.py`` fails
until the shipped file equals what the corpus gives.
"""

from __future__ import annotations

from pathlib import Path

from hat_eval._outputs import write_text_atomic
from hat_eval.reports import measure_instrument
from hat_eval.reports._instrument import INSTRUMENT_FILE, rows_to_json

REPO = Path(__file__).resolve().parents[1]


def main() -> None:
    """Measure and write the file."""
    rows = measure_instrument((REPO / "judge" / "corpus").glob("*.jsonl"))
    path = REPO / "hat_eval" / "reports" / INSTRUMENT_FILE
    write_text_atomic(path, rows_to_json(rows))
    for r in rows:
        print(f"{r.suite:11} {r.set:9} {r.agree}/{r.decided} of {r.answers}  {r.files}")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
