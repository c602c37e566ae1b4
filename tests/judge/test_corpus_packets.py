"""scripts/corpus_packets.py: packets of what a correct agent sees, and corpus lines from them."""

import json
import os
import subprocess
import sys
from pathlib import Path

from hat_eval.episode import check_entry, read_corpus

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "corpus_packets.py"
ESCALATION = "livestream-test-000104"  # an order problem, handed off with no product
GOLD_KEYS = ("stored", "for_the_annotator", "tool_calls", "gold", "facts", "intent")


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args], capture_output=True, text=True, env=env, cwd=ROOT
    )


def _dump(tmp_path: Path, view: str, ids: list[str]) -> Path:
    listing = tmp_path / "ids.txt"
    listing.write_text("".join(f"{i}\n" for i in ids))
    out = tmp_path / view
    done = _run("dump", "--ids", str(listing), "--view", view, "--out", str(out))
    assert done.returncode == 0, done.stderr
    return out


def test_escalation_packet_shows_the_hand_off_a_correct_agent_makes(tmp_path: Path) -> None:
    out = _dump(tmp_path, "annotator", [ESCALATION])
    packet = json.loads((out / f"{ESCALATION}.json").read_text())
    assert packet["stored"]["case"]["intent"] == "escalation"
    calls = [c for c in packet["tool_calls"] if c["function"] == "handoff.escalate"]
    assert calls and all(c["outcome"] == "ok" for c in calls)
    assert calls[0]["arguments"]["reason"].strip()
    returned = packet["for_the_annotator"]["what_the_agent_tools_returned"]
    assert not any("error" in str(r.get("returned", "")).lower() for r in returned)


def test_annotator_packet_says_what_each_compliance_rule_forbids(tmp_path: Path) -> None:
    out = _dump(tmp_path, "annotator", ["variant-test-000104"])
    truth = json.loads((out / "variant-test-000104.json").read_text())["for_the_annotator"]
    rules = [
        r for p in truth["knowledge_base_truth"].values() for r in p["compliance_rules_of_category"]
    ]
    assert rules and all(r["description"] and r["description"].strip() for r in rules)


def test_agent_view_holds_what_the_agent_sees_and_no_gold(tmp_path: Path) -> None:
    out = _dump(tmp_path, "agent", [ESCALATION, "variant-test-000104", "robustness-test-000002"])
    packets = {p.stem: json.loads(p.read_text()) for p in out.glob("*.json")}
    assert len(packets) == 3
    for packet in packets.values():
        assert not set(GOLD_KEYS) & set(packet), sorted(packet)
        assert "## Live now" in packet["system_prompt"]
        assert packet["transcript"][0] == {"role": "user", "content": packet["viewer_message"]}
        assert any(m["role"] == "assistant" and m.get("tool_calls") for m in packet["transcript"])
    # the variant case renders its own augmented harness, not the base one
    assert packets[ESCALATION]["system_prompt"] != packets["variant-test-000104"]["system_prompt"]
    # a robustness fault reaches the agent's transcript, and the retried call comes back
    tools = [m for m in packets["robustness-test-000002"]["transcript"] if m["role"] == "tool"]
    assert len(tools) >= 2


def test_assemble_turns_annotator_packets_and_answers_into_corpus_lines(tmp_path: Path) -> None:
    ids = [ESCALATION, "robustness-test-000002"]
    packets = _dump(tmp_path, "annotator", ids)
    answers = tmp_path / "answers.jsonl"
    answers.write_text(
        "".join(
            json.dumps(
                {
                    "case_id": i,
                    "kind": "faithful",
                    "answer": "A colleague will follow up.",
                    "labels": {"accuracy": 1, "safety": 1},
                    "reason": "states what the tools said",
                }
            )
            + "\n"
            for i in ids
        )
    )
    lines = tmp_path / "lines.jsonl"
    done = _run(
        "assemble", "--packets", str(packets), "--answers", str(answers),
        "--labeller", "LT", "--out", str(lines),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    entries = read_corpus([lines])
    assert [e.case_id for e in entries] == ids
    for entry in entries:
        check_entry(entry)  # the stored case, gold and tool records score


def test_assemble_refuses_agent_view_packets_in_one_line(tmp_path: Path) -> None:
    packets = _dump(tmp_path, "agent", [ESCALATION])
    answers = tmp_path / "answers.jsonl"
    row = {"case_id": ESCALATION, "kind": "k", "answer": "a", "labels": {}, "reason": ""}
    answers.write_text(json.dumps(row) + "\n")
    done = _run(
        "assemble", "--packets", str(packets), "--answers", str(answers),
        "--labeller", "LT", "--out", str(tmp_path / "x.jsonl"),
    )  # fmt: skip
    assert done.returncode == 2
    assert "annotator view" in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_pick_says_in_one_line_when_a_split_has_no_fresh_case_left(tmp_path: Path) -> None:
    # every robustness dev case is in some corpus file: asking for more is one line, exit 2
    out = tmp_path / "cases.txt"
    done = _run("pick", "--split", "dev", "--suites", "robustness", "--n-per-suite", "5",
                "--out", str(out))  # fmt: skip
    assert done.returncode == 2 and not out.exists()
    assert "--size" in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_pick_with_size_draws_new_cases_past_the_frozen_split(tmp_path: Path) -> None:
    out = tmp_path / "cases.txt"
    done = _run("pick", "--split", "dev", "--size", "1560", "--suites", "livestream",
                "--n-per-suite", "4", "--out", str(out))  # fmt: skip
    assert done.returncode == 0, done.stderr
    ids = out.read_text().split()
    # the frozen 1,500 have one case left that no corpus file uses: the rest are new
    assert len(set(ids)) == 4 and sum(int(i.rsplit("-", 1)[1]) >= 1500 for i in ids) >= 3
    packets = _run("dump", "--split", "dev", "--size", "1560", "--ids", str(out),
                   "--view", "agent", "--out", str(tmp_path / "agent"))  # fmt: skip
    assert packets.returncode == 0, packets.stderr
    assert sorted(p.stem for p in (tmp_path / "agent").glob("*.json")) == sorted(ids)


def test_pick_says_in_one_line_when_an_excluded_file_cannot_be_read(tmp_path: Path) -> None:
    # a dangling link, or a line that is not JSON, among the excluded files: one line, exit 2
    (tmp_path / "gone.jsonl").symlink_to(tmp_path / "missing.jsonl")
    out = tmp_path / "cases.txt"
    args = ("pick", "--split", "dev", "--suites", "livestream", "--n-per-suite", "1")
    done = _run(*args, "--exclude", str(tmp_path / "*.jsonl"), "--out", str(out))
    assert done.returncode == 2 and not out.exists()
    assert "gone.jsonl" in done.stderr and len(done.stderr.strip().splitlines()) == 1
    (tmp_path / "gone.jsonl").unlink()
    (tmp_path / "bad.jsonl").write_text('{"case_id": "x"}\nnot json\n', encoding="utf-8")
    done = _run(*args, "--exclude", str(tmp_path / "*.jsonl"), "--out", str(out))
    assert done.returncode == 2 and not out.exists()
    assert "bad.jsonl:2" in done.stderr and len(done.stderr.strip().splitlines()) == 1
