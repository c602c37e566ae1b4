"""MT-Bench human judgments: draw the committed sample, convert it, reproduce the paper's numbers.

python judge/published/mt_bench.py sample --human human.jsonl --gpt4 gpt4_pair.jsonl [--n 200]
python judge/published/mt_bench.py convert [--sample FILE] --out DIR
python judge/published/mt_bench.py agreement [--sample FILE | --human H --gpt4 G] [--turn 1]

`human.jsonl` and `gpt4_pair.jsonl` are the `human` and `gpt4_pair` splits of the Hugging Face
dataset lmsys/mt_bench_human_judgments (CC-BY-4.0), one row a line with question_id, model_a,
model_b, winner, judge, turn (FastChat's human_judgments.json / gpt4_pair_judgments.json work
too). See README.md beside this file.
"""

from __future__ import annotations

import argparse
import csv
import json
from pathlib import Path

import numpy as np

from hat_eval.judge import (
    agreement,
    mt_bench_labels,
    read_mt_bench,
    read_mt_bench_votes,
    vote_agreement,
)

HERE = Path(__file__).resolve().parent
SAMPLE = HERE / "mt_bench_sample.jsonl"


def sample(args: argparse.Namespace) -> None:
    """Draw ``--n`` items of one turn that have a GPT-4 verdict, uniformly with ``--seed``."""
    items = read_mt_bench_votes(Path(args.human), Path(args.gpt4))
    pool = [i for i in items if i.turn == args.turn and i.gpt4 is not None]
    rng = np.random.default_rng(args.seed)
    drawn = sorted(rng.choice(len(pool), size=min(args.n, len(pool)), replace=False))
    out = Path(args.out)
    out.write_text("".join(json.dumps(pool[int(i)].to_json()) + "\n" for i in drawn))
    print(f"{len(drawn)} of {len(pool)} turn-{args.turn} items with a GPT-4 verdict -> {out}")


def convert(args: argparse.Namespace) -> None:
    """Write the sample as humans.csv and gpt4.csv (our label format)."""
    humans, judge = mt_bench_labels(read_mt_bench(Path(args.sample)))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for name, labels in (("humans.csv", humans), ("gpt4.csv", judge)):
        with (out / name).open("w", newline="") as fh:
            writer = csv.writer(fh)
            writer.writerow(["sample_id", "dimension", "rating", "annotator"])
            writer.writerows(
                [lab.sample_id, lab.dimension, lab.rating, lab.annotator] for lab in labels
            )
    print(f"wrote {out / 'humans.csv'} ({len(humans)} votes), {out / 'gpt4.csv'} ({len(judge)})")
    print(
        f"hat-eval judge agreement --labels {out / 'humans.csv'} "
        f"--scores {out / 'gpt4.csv'} --out DIR"
    )


def report(args: argparse.Namespace) -> None:
    """Print the paper's vote agreement (S1, S2) and our agreement statistics."""
    if args.human:
        items = read_mt_bench_votes(Path(args.human), Path(args.gpt4) if args.gpt4 else None)
    else:
        items = read_mt_bench(Path(args.sample))
    items = [i for i in items if args.turn is None or i.turn == args.turn]
    humans, judge = mt_bench_labels(items)
    print(f"{len(items)} items, {len(humans)} expert votes, {len(judge)} GPT-4 verdicts")
    for setup, ties in (("S1 (with ties)", True), ("S2 (without ties)", False)):
        gh = vote_agreement(humans, judge, ties=ties)
        hh = vote_agreement(humans, ties=ties)
        for who, v in (("GPT-4 vs human", gh), ("human vs human", hh)):
            ci = f" [{v.ci[0]:.3f}, {v.ci[1]:.3f}]" if v.ci else ""
            print(f"{setup:18} {who}: {v.agree}/{v.total} = {v.rate:.3f}{ci}")
    dim = agreement(humans, judge, n_boot=1000).dimensions[0]
    for key in (
        "krippendorff_alpha_humans",
        "krippendorff_alpha_judge_humans",
        "cohen_kappa",
        "accuracy",
        "exact_agreement",
    ):
        print(f"{key:32} {dim.statistics[key]}")


def main() -> None:
    """Parse the subcommand and run it."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    sub = parser.add_subparsers(required=True)
    p = sub.add_parser("sample", help="draw the sample from the full splits")
    p.add_argument("--human", required=True)
    p.add_argument("--gpt4", required=True)
    p.add_argument("--n", type=int, default=200)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--turn", type=int, default=1)
    p.add_argument("--out", default=str(SAMPLE))
    p.set_defaults(run=sample)
    p = sub.add_parser(
        "convert", help="write humans.csv and gpt4.csv for `hat-eval judge agreement`"
    )
    p.add_argument("--sample", default=str(SAMPLE))
    p.add_argument("--out", required=True)
    p.set_defaults(run=convert)
    p = sub.add_parser("agreement", help="the paper's agreement figures and ours")
    p.add_argument("--sample", default=str(SAMPLE))
    p.add_argument("--human")
    p.add_argument("--gpt4")
    p.add_argument("--turn", type=int)
    p.set_defaults(run=report)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
