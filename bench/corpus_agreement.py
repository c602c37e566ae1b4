"""Agreement of the deterministic checks with the hand-labelled answer corpus, per part and kind.

python bench/corpus_agreement.py [--held-out] [--disagreements] [--speed]

Prints, for the corpus (``judge/corpus/answers_*.jsonl``, written and labelled by annotators
who never saw the checks) or the held-out files (``heldout_*.jsonl``, never tuned on, each file
reported on its own too):

- agreement per part and per kind of answer, over decided answers, with the undecided count;
- the targets: answer-level agreement over decided parts (>= 95%), false passes (the checks
  pass a part a human failed) <= 1% of judged parts, undecided answers <= 15% (issue 30: a
  verdict the checks cannot tie to evidence is undecided, for the judge, never guessed), every
  kind >= 90%;
- with ``--speed``: the time to score 4,500 transcripts (the reference answers of the three
  suites' 4,000 test cases and 500 dev cases; target under 5 s).
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Sequence
from pathlib import Path

from hat_eval.episode import (
    AnswerCheck,
    CorpusEntry,
    agreement,
    answer_agreement,
    check_entry,
    read_corpus,
    verdict,
)

HERE = Path(__file__).resolve().parents[1] / "judge" / "corpus"
CORPUS = sorted(HERE.glob("answers_*.jsonl"))
HELD_OUT = sorted(HERE.glob("heldout_*.jsonl"))


def targets(entries: Sequence[CorpusEntry], checks: Sequence[AnswerCheck]) -> list[str]:
    """The issue's four agreement targets, each as a printed line with its verdict."""
    a = answer_agreement(entries, checks)
    decided_answers, agree_answers, judged = a.decided, a.agree, a.judged_parts
    false_pass, undecided_answers = a.false_passes, a.undecided
    kinds = [r for r in agreement(entries, checks, by="kind") if not math.isnan(r.rate)]
    low = [f"{r.part}/{r.group} {r.rate:.1%}" for r in kinds if r.rate < 0.90]
    answer_rate = agree_answers / decided_answers if decided_answers else math.nan
    fp_rate = false_pass / judged if judged else math.nan
    und_rate = undecided_answers / len(entries) if entries else math.nan

    def line(name: str, value: str, ok: bool) -> str:
        return f"  {name:52} {value:>18}  {'met' if ok else 'NOT MET'}"

    return [
        line(
            "answer-level agreement over decided parts (>= 95%)",
            f"{answer_rate:.1%}",
            answer_rate >= 0.95,
        ),
        line(
            "false passes of judged parts (<= 1%)",
            f"{fp_rate:.2%} ({false_pass}/{judged})",
            fp_rate <= 0.01,
        ),
        line(
            "undecided answers (<= 15%)", f"{und_rate:.1%} ({undecided_answers})", und_rate <= 0.15
        ),
        line("every kind >= 90%", f"{len(low)} below", not low)
        + (f": {', '.join(low)}" if low else ""),
    ]


def report(entries: Sequence[CorpusEntry], title: str, per_kind: bool = True) -> None:
    checks = [check_entry(e) for e in entries]
    cases = len({e.case_id for e in entries})
    print(f"{title}: {len(entries)} answers over {cases} cases")
    print(f"{'part':10} {'kind':34} {'agree':>7} {'decided':>8} {'undecided':>10}")
    for by in ("part", "kind") if per_kind else ("part",):
        for row in agreement(entries, checks, by):
            print(
                f"{row.part:10} {row.group:34} {row.rate:7.1%} {row.decided:8} {row.undecided:10}"
            )
    print("targets:")
    print("\n".join(targets(entries, checks)))


def speed() -> None:
    from hat_eval.episode import check_answer, knowledge_base
    from hat_eval.suites import suite_episodes
    from hat_eval.world import reference_answer

    kb = knowledge_base(0)
    work = []
    episodes = [
        e for suite in ("livestream", "variant", "robustness") for e in suite_episodes(suite)
    ]
    episodes += suite_episodes("livestream", split="dev", n=4500 - len(episodes))
    for e in episodes:
        work.append((e, f"[skill: {e.gold.skill}] {reference_answer(e.case, kb)}"))
    start = time.perf_counter()
    for e, answer in work:
        check_answer(e.case, e.gold, answer, [], e.fault, kb)
    took = time.perf_counter() - start
    print(f"scored {len(work)} transcripts in {took:.2f} s (target < 5 s, first pass, cold caches)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--disagreements", action="store_true", help="list every disagreement")
    parser.add_argument("--held-out", action="store_true", help="the held-out files")
    parser.add_argument("--speed", action="store_true", help="time 4,500 transcripts")
    args = parser.parse_args()
    files = HELD_OUT if args.held_out else CORPUS
    entries = read_corpus(files)
    report(entries, "held-out" if args.held_out else "corpus")
    if args.held_out and len(files) > 1:
        for path in files:
            print()
            report(read_corpus([path]), path.name, per_kind=False)
    if args.disagreements:
        for e in entries:
            c = check_entry(e)
            for part, human in e.labels.items():
                v = verdict(c, part)
                if v is not None and v != human:
                    why = c.reasons.get(part, "")
                    print(f"\n{e.id} {e.kind} {part}: human {human}, checks {v} ({why})")
                    print(f"  Q: {e.case.message}\n  A: {e.answer}\n  H: {e.reason}")
    if args.speed:
        speed()


if __name__ == "__main__":
    main()
