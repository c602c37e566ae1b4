"""One validation round's bookkeeping: blind the writers' answers, merge two annotators, adjudicate.

The procedure (judge/validation/README.md): writers answer fresh cases (``out_*.jsonl`` in a
set's folder), two annotators label them blind (``lab_A.jsonl``, ``lab_B.jsonl``), splits are
adjudicated by docs/labelling.md, and ``scripts/corpus_packets.py assemble`` makes corpus lines.

    python scripts/validation_round.py prompts VALDIR     # the helpers' prompts, filled in
    python scripts/validation_round.py blind DIR          # out_*.jsonl -> to_label.jsonl, key.json
    python scripts/validation_round.py merge DIR          # lab_A/lab_B: agreement and the splits
    python scripts/validation_round.py adjudicate DIR --rulings splits.json --out answers.jsonl

``prompts`` fills judge/validation/'s prompts for a round's folder (``A/cases.txt`` and
``K/cases.txt``, one case id a line): ``WRITE_A1.md``, ``WRITE_A2.md`` (every A case each),
``WRITE_K1.md``, ``WRITE_K2.md`` (the K cases split in two), and, once ``X/to_label.jsonl`` is
there, ``ANNOTATE_XA.md`` and ``ANNOTATE_XB.md`` for each set; a helper is told to read one.
``blind`` shuffles the answers (seeded by the folder's name), gives each an id (``A001``) and
writes what the annotators see (``to_label.jsonl``: id, case, answer; no writer, no kind) and
the key (``key.json``). ``splits.json``: ``{id: {"accuracy": "pass"|"fail", "safety": ...,
"why": "the ruling"}}`` for every answer the two annotators label differently.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any, NoReturn

PARTS = ("accuracy", "safety")


def _fail(message: str) -> NoReturn:
    """Bad input: one line on stderr, exit code 2."""
    print(message, file=sys.stderr)
    raise SystemExit(2)


def _lines(path: Path, need: tuple[str, ...]) -> list[dict[str, Any]]:
    rows = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as err:
            _fail(f"{path}:{n}: not JSON ({err.msg}); expected one object a line")
        missing = [k for k in need if k not in row]
        if missing:
            _fail(f"{path}:{n}: missing {missing}; expected the keys {list(need)}")
        rows.append(row)
    return rows


def _write(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def blind(folder: Path) -> None:
    """Shuffle the writers' answers into what the annotators label, and the key."""
    rows = []
    for path in sorted(folder.glob("out_*.jsonl")):
        for row in _lines(path, ("case_id", "answer")):
            rows.append({**row, "writer": path.stem, "kind": row.get("kind", "agent_written")})
    if not rows:
        _fail(f"{folder}: no out_*.jsonl answers; expected the writers' files there")
    seed = hashlib.sha256(folder.resolve().name.encode()).hexdigest()
    random.Random(seed).shuffle(rows)
    key = {f"{folder.name[:1].upper() or 'X'}{i:03d}": row for i, row in enumerate(rows, 1)}
    shown = [{"aid": aid, "case_id": r["case_id"], "answer": r["answer"]} for aid, r in key.items()]
    _write(folder / "key.json", json.dumps(key, ensure_ascii=False, indent=1))
    _write(
        folder / "to_label.jsonl", "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in shown)
    )
    print(f"{len(rows)} answers to label in {folder / 'to_label.jsonl'}")


def _labels(folder: Path) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    key_path = folder / "key.json"
    if not key_path.exists():
        _fail(f"{key_path}: missing; run `blind {folder}` first")
    key = json.loads(key_path.read_text(encoding="utf-8"))
    labs = []
    for who in ("A", "B"):
        path = folder / f"lab_{who}.jsonl"
        if not path.exists():
            _fail(f"{path}: missing; expected the labels of annotator {who}")
        rows = {r["aid"]: r for r in _lines(path, ("aid", *PARTS))}
        for aid, row in rows.items():
            bad = [p for p in PARTS if row[p] not in ("pass", "fail")]
            if bad:
                _fail(f"{path}: {aid} {bad[0]} is {row[bad[0]]!r}; expected 'pass' or 'fail'")
        missing = sorted(set(key) - set(rows))
        if missing:
            _fail(f"{path}: no label for {missing[:3]} ({len(missing)} in all); label every answer")
        labs.append(rows)
    return key, labs[0], labs[1]


def splits(folder: Path) -> list[str]:
    """The ids the two annotators label differently."""
    key, a, b = _labels(folder)
    return [aid for aid in key if any(a[aid][p] != b[aid][p] for p in PARTS)]


def merge(folder: Path) -> None:
    """Print the annotators' agreement and every split, with both reasons."""
    key, a, b = _labels(folder)
    split = splits(folder)
    print(f"{folder}: {len(key)} answers, the annotators agree on {len(key) - len(split)}")
    for aid in split:
        row = key[aid]
        print(f"\n{aid} {row['case_id']} {row['kind']}\n  answer: {row['answer']}")
        for who, lab in (("A", a[aid]), ("B", b[aid])):
            print(f"  {who}: {lab['accuracy']}/{lab['safety']} - {lab.get('reason', '')}")


def adjudicate(folder: Path, rulings: Path | None, out: Path) -> None:
    """The answers with their labels: both annotators' where they agree, the ruling's where not."""
    key, a, b = _labels(folder)
    ruled = json.loads(rulings.read_text(encoding="utf-8")) if rulings else {}
    open_splits = [aid for aid in splits(folder) if aid not in ruled]
    if open_splits:
        _fail(f"{rulings or '--rulings'}: no ruling for {open_splits}; give each split one")
    lines = []
    for aid, row in key.items():
        reason = f"A: {a[aid].get('reason', '')} | B: {b[aid].get('reason', '')}"
        labels = {p: a[aid][p] for p in PARTS}
        if any(a[aid][p] != b[aid][p] for p in PARTS):
            labels = {p: ruled[aid][p] for p in PARTS}
            reason += f" | adjudicated: {ruled[aid].get('why', '')}"
        lines.append({k: row[k] for k in ("case_id", "kind", "answer")})
        lines[-1].update(labels=labels, reason=reason)
    _write(out, "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines))
    print(f"{len(lines)} labelled answers to {out}")


PROMPTS = Path(__file__).resolve().parents[1] / "judge" / "validation"


def _fill(template: str, folder: Path, **values: str) -> str:
    text = (PROMPTS / template).read_text(encoding="utf-8").replace("VALDIR", str(folder.resolve()))
    for name, value in values.items():
        text = text.replace(name, value)
    return text


def prompts(folder: Path) -> None:
    """Write the round's writer and annotator prompts into ``folder`` (judge/validation/*.md)."""
    cases = {}
    for x in ("A", "K"):
        path = folder / x / "cases.txt"
        if not path.is_file():
            _fail(f"{path}: missing; expected the set's case ids, one a line (README step 1)")
        cases[x] = [c for c in path.read_text(encoding="utf-8").split() if c]
        if not cases[x]:
            _fail(f"{path}: no case ids; expected one a line")
    written = []
    for who in ("A1", "A2"):
        text = _fill("write_agent.md", folder, WRITER=who, CASECOUNT=str(len(cases["A"])))
        written.append((f"WRITE_{who}.md", text))
    half = (len(cases["K"]) + 1) // 2
    for who, ids in (("K1", cases["K"][:half]), ("K2", cases["K"][half:])):
        written.append(
            (f"WRITE_{who}.md", _fill("write_kinds.md", folder, WRITER=who, CASELIST=" ".join(ids)))
        )
    for x in ("A", "K"):
        shown = folder / x / "to_label.jsonl"
        if not shown.is_file():
            continue  # annotators' prompts once blind has run
        count = str(sum(1 for line in shown.read_text(encoding="utf-8").splitlines() if line))
        for who in ("A", "B"):
            text = _fill("annotate.md", folder, NNN=count).replace("/X/", f"/{x}/")
            written.append((f"ANNOTATE_{x}{who}.md", text.replace("lab_WHO", f"lab_{who}")))
    for name, text in written:
        _write(folder / name, text)
    print(f"{len(written)} prompts in {folder}: " + ", ".join(n for n, _ in written))


def main() -> None:
    """The command line: ``prompts``, ``blind``, ``merge`` or ``adjudicate`` a folder."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    for name in ("prompts", "blind", "merge", "adjudicate"):
        p = sub.add_parser(name)
        p.add_argument("folder", type=Path)
        if name == "adjudicate":
            p.add_argument("--rulings", type=Path)
            p.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    if not args.folder.is_dir():
        _fail(f"{args.folder}: not a folder; expected a set's folder (out_*.jsonl, lab_*.jsonl)")
    if args.cmd == "prompts":
        prompts(args.folder)
    elif args.cmd == "blind":
        blind(args.folder)
    elif args.cmd == "merge":
        merge(args.folder)
    else:
        adjudicate(args.folder, args.rulings, args.out)


if __name__ == "__main__":
    main()
