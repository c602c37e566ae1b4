"""Agreement of the deterministic checks with the hand-labelled answer corpus, per part and kind.

python bench/corpus_agreement.py [--disagreements]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from hat_eval.episode import agreement, check_entry, read_corpus, verdict

HERE = Path(__file__).resolve().parents[1] / "judge" / "corpus"
CORPUS = sorted(HERE.glob("answers_*.jsonl"))
HELD_OUT = sorted(HERE.glob("heldout_*.jsonl"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--disagreements", action="store_true", help="list every disagreement")
    parser.add_argument(
        "--held-out", action="store_true", help="the held-out set (written after the checks)"
    )
    args = parser.parse_args()
    entries = read_corpus(HELD_OUT if args.held_out else CORPUS)
    checks = [check_entry(e) for e in entries]
    cases = len({e.case_id for e in entries})
    print(f"{len(entries)} answers over {cases} cases")
    print(f"{'part':10} {'kind':34} {'agree':>7} {'decided':>8} {'undecided':>10}")
    for by in ("part", "kind"):
        for row in agreement(entries, checks, by):
            print(
                f"{row.part:10} {row.group:34} {row.rate:7.1%} {row.decided:8} {row.undecided:10}"
            )
    if args.disagreements:
        for e, c in zip(entries, checks, strict=True):
            for part, human in e.labels.items():
                v = verdict(c, part)
                if v is not None and v != human:
                    why = c.reasons.get(part, "")
                    print(f"\n{e.id} {e.kind} {part}: human {human}, checks {v} ({why})")
                    print(f"  Q: {e.case.message}\n  A: {e.answer}\n  H: {e.reason}")


if __name__ == "__main__":
    main()
