"""The IFEval data: the reference's 541-prompt file, validation, eval.yaml, offline punkt."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from hat_eval.suites.ifeval import IFEvalError, instruction_ids, load_ifeval
from hat_eval.suites.ifeval._data import NUM_PROMPTS, parse_example, suite_entry
from hat_eval.suites.ifeval._task import VERSION

SUITE = Path(__file__).resolve().parents[2] / "hat_eval" / "suites" / "ifeval"


@pytest.fixture(scope="module")
def data_file(shared_dir: Path) -> Path:
    return shared_dir / "data" / "ifeval" / "input_data.jsonl"


def test_reference_file_matches_eval_yaml(data_file: Path) -> None:
    meta = yaml.safe_load((SUITE / "eval.yaml").read_text())
    examples = load_ifeval(data_file)
    assert len(examples) == meta["cases"] == NUM_PROMPTS
    assert sum(len(e.instruction_id_list) for e in examples) == meta["instructions"]
    used = {i for e in examples for i in e.instruction_id_list}
    assert len(used) == meta["instruction_types"] and used <= set(instruction_ids())
    assert meta["version"] == VERSION
    assert examples[0].key == 1000 and examples[0].where.endswith("input_data.jsonl:1")


def test_suite_entry_counts_and_hashes(data_file: Path) -> None:
    cases, sha256 = suite_entry(data_file)
    assert cases == 541 and sha256 is not None and len(sha256) == 64
    assert suite_entry(None) == (NUM_PROMPTS, None)


def test_hub_rows_with_none_arguments_equal_file_rows() -> None:
    file_row = {
        "key": 1,
        "prompt": "p",
        "instruction_id_list": ["a:b"],
        "kwargs": [{"num_words": 3}],
    }
    hub_row = {**file_row, "kwargs": [{"num_words": 3, "letter": None, "language": None}]}
    assert parse_example(hub_row, "hub") == parse_example(file_row, "file")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", r"bad\.jsonl:2: not valid JSON"),
        ('{"key": 2, "instruction_id_list": [], "kwargs": []}', r":2: field 'prompt' must be"),
        (
            '{"key": 2, "prompt": "p", "instruction_id_list": ["a"], "kwargs": []}',
            r":2: 'kwargs' has 0 entries but 'instruction_id_list' has 1",
        ),
        ('{"key": "x", "prompt": "p", "instruction_id_list": [], "kwargs": []}', r"'key' must be"),
        ("[1, 2]", r":2: a JSON array, not an object, expected one JSON object per line"),
    ],
)
def test_malformed_data_lines_name_their_line(tmp_path: Path, line: str, message: str) -> None:
    good = '{"key": 1, "prompt": "p", "instruction_id_list": [], "kwargs": []}'
    path = tmp_path / "bad.jsonl"
    path.write_text(good + "\n" + line + "\n")
    with pytest.raises(IFEvalError, match=message):
        load_ifeval(path)


def test_offline_without_data_says_what_to_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    with pytest.raises(IFEvalError, match=r"Hub is offline .*--ifeval-data PATH.*-T data=PATH"):
        load_ifeval()


def test_punkt_works_offline_on_a_fresh_machine(tmp_path: Path, data_file: Path) -> None:
    """No nltk_data anywhere, downloads forbidden: the checkers still split sentences."""
    script = f"""
import nltk
def no_download(*a, **k):
    raise SystemExit("nltk.download was called")
nltk.download = no_download
try:
    nltk.data.find("tokenizers/punkt_tab/english/")
    raise SystemExit("punkt_tab already installed: not a fresh machine")
except LookupError:
    pass
from hat_eval.suites.ifeval._checks import check_response
from hat_eval.suites.ifeval._data import IFEvalExample
from hat_eval.suites.ifeval._punkt import ensure_punkt
root = ensure_punkt()
assert str(root).startswith({str(tmp_path)!r}), root
e = IFEvalExample(1, "p", ("length_constraints:number_sentences",),
                  ({{"relation": "less than", "num_sentences": 3}},))
assert check_response(e, "Dr. Smith went home. He was tired.").strict == (True,)
assert check_response(e, "One. Two. Three.").strict == (False,)
from nltk.tokenize import PunktTokenizer
from punkt.data import english
p = PunktTokenizer("english")._params
assert p.abbrev_types == set(english.ABBREV_TYPES)
assert p.collocations == set(english.COLLOCATIONS)
assert p.sent_starters == set(english.SENT_STARTERS)
assert dict(p.ortho_context) == dict(english.ORTHO_CONTEXT)
print("ok")
"""
    env = {k: v for k, v in os.environ.items() if k != "NLTK_DATA"}
    env.update(
        HOME=str(tmp_path / "home"),
        HAT_EVAL_CACHE=str(tmp_path / "cache"),
        XDG_CACHE_HOME=str(tmp_path / "xdg"),
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().endswith("ok")
    written = tmp_path / "cache"
    files = sorted(p.name for p in written.rglob("*") if p.is_file())
    assert files == [
        "abbrev_types.txt",
        "collocations.tab",
        "ortho_context.tab",
        "sent_starters.txt",
    ]
    assert json.dumps(files)  # plain names, nothing else written
