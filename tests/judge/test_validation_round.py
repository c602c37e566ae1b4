"""scripts/validation_round.py: blind the writers' answers, merge two annotators, adjudicate."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "validation_round.py"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True)


def _jsonl(path: Path, rows: list[dict[str, object]]) -> None:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))


def _set(tmp_path: Path) -> Path:
    folder = tmp_path / "K"
    folder.mkdir()
    _jsonl(folder / "out_K1.jsonl", [
        {"case_id": "livestream-dev-001", "kind": "wrong_value", "answer": "It is ¥99."},
        {"case_id": "livestream-dev-001", "kind": "correct_terse", "answer": "¥89."},
    ])  # fmt: skip
    _jsonl(folder / "out_K2.jsonl", [{"case_id": "variant-dev-002", "answer": "In stock."}])
    return folder


def _label(folder: Path, who: str, verdicts: dict[str, tuple[str, str]]) -> None:
    rows = [{"aid": a, "accuracy": x, "safety": y, "reason": who} for a, (x, y) in verdicts.items()]
    _jsonl(folder / f"lab_{who}.jsonl", rows)


def test_blind_hides_writer_and_kind_and_keeps_them_in_the_key(tmp_path: Path) -> None:
    folder = _set(tmp_path)
    assert _run("blind", str(folder)).returncode == 0
    shown = [json.loads(x) for x in (folder / "to_label.jsonl").read_text().splitlines()]
    key = json.loads((folder / "key.json").read_text())
    assert [s["aid"] for s in shown] == sorted(key) == ["K001", "K002", "K003"]
    assert all(set(s) == {"aid", "case_id", "answer"} for s in shown)
    assert sorted(r["kind"] for r in key.values()) == [
        "agent_written",
        "correct_terse",
        "wrong_value",
    ]
    assert {r["answer"] for r in key.values()} == {s["answer"] for s in shown}


def test_merge_and_adjudicate_take_agreed_labels_and_rule_the_splits(tmp_path: Path) -> None:
    folder = _set(tmp_path)
    _run("blind", str(folder))
    key = json.loads((folder / "key.json").read_text())
    wrong = next(a for a, r in key.items() if r["kind"] == "wrong_value")
    same = {a: ("pass", "pass") for a in key}
    _label(folder, "A", {**same, wrong: ("fail", "pass")})
    _label(folder, "B", {**same, wrong: ("fail", "fail")})
    merged = _run("merge", str(folder))
    assert "agree on 2" in merged.stdout and wrong in merged.stdout
    out = tmp_path / "answers.jsonl"
    unruled = _run("adjudicate", str(folder), "--out", str(out))
    assert unruled.returncode == 2 and wrong in unruled.stderr and not out.exists()
    rulings = tmp_path / "splits.json"
    rulings.write_text(json.dumps({wrong: {"accuracy": "fail", "safety": "pass", "why": "R"}}))
    assert (
        _run("adjudicate", str(folder), "--rulings", str(rulings), "--out", str(out)).returncode
        == 0
    )
    lines = {r["answer"]: r for r in map(json.loads, out.read_text().splitlines())}
    assert lines["It is ¥99."]["labels"] == {"accuracy": "fail", "safety": "pass"}
    assert "adjudicated: R" in lines["It is ¥99."]["reason"]
    assert lines["¥89."]["labels"] == {"accuracy": "pass", "safety": "pass"}


def test_bad_labels_are_one_line_naming_the_file(tmp_path: Path) -> None:
    folder = _set(tmp_path)
    _run("blind", str(folder))
    key = json.loads((folder / "key.json").read_text())
    _label(folder, "A", {a: ("pass", "ok") for a in key})
    _label(folder, "B", {a: ("pass", "pass") for a in list(key)[:1]})
    done = _run("merge", str(folder))
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert "lab_A.jsonl" in done.stderr and "'pass' or 'fail'" in done.stderr


def _round(tmp_path: Path) -> Path:
    folder = tmp_path / "val1"
    for x, ids in (("A", ["a-1", "a-2", "a-3"]), ("K", ["k-1", "k-2", "k-3"])):
        (folder / x).mkdir(parents=True)
        (folder / x / "cases.txt").write_text("\n".join(ids) + "\n")
    return folder


def test_prompts_fill_the_writers_and_then_the_annotators_prompts(tmp_path: Path) -> None:
    folder = _round(tmp_path)
    assert _run("prompts", str(folder)).returncode == 0
    a2 = (folder / "WRITE_A2.md").read_text()
    assert f"{folder.resolve()}/A/out_A2.jsonl" in a2 and "(3 files)" in a2
    k1, k2 = ((folder / f"WRITE_{w}.md").read_text() for w in ("K1", "K2"))
    assert "cases (one per line): k-1 k-2\n" in k1 and "k-3" not in k1
    assert "cases (one per line): k-3\n" in k2 and "out_K2.jsonl" in k2
    assert not list(folder.glob("ANNOTATE_*"))  # no annotators before blind
    assert not any(p in a2 + k1 for p in ("VALDIR", "WRITER", "CASECOUNT", "CASELIST"))
    _jsonl(folder / "K" / "to_label.jsonl", [{"aid": "K001", "case_id": "k-1", "answer": "x"}])
    assert _run("prompts", str(folder)).returncode == 0
    kb = (folder / "ANNOTATE_KB.md").read_text()
    assert f"{folder.resolve()}/K/lab_B.jsonl" in kb and "(1 lines)" in kb
    assert f"{folder.resolve()}/K/review/" in kb and not (folder / "ANNOTATE_AA.md").exists()


def test_prompts_without_the_case_list_write_nothing(tmp_path: Path) -> None:
    folder = _round(tmp_path)
    (folder / "K" / "cases.txt").unlink()
    done = _run("prompts", str(folder))
    assert done.returncode == 2 and "K/cases.txt: missing" in done.stderr
    assert done.stderr.count("\n") == 1 and not list(folder.glob("*.md"))
