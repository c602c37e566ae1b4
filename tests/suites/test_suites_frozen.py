"""The frozen test/dev split files: pinned by their eval.yaml, what the generator gives, and what
the suites read."""

from __future__ import annotations

import hashlib

import pytest

import hat_eval.suites._frozen as frozen
from hat_eval.episode import DATASET_VERSION, build_episodes
from hat_eval.suites import case_suites, suite_episodes, suite_info, suite_recipe
from hat_eval.suites._frozen import (
    FROZEN_SPLITS,
    REGENERATE,
    SplitFile,
    SplitFileError,
    generated_split,
    split_files,
)

PAIRS = [
    (s, split)
    for s in ("livestream", "variant", "robustness", "evolution")
    for split in FROZEN_SPLITS
]


def test_every_case_suite_ships_its_test_and_dev_split():
    assert set(case_suites()) == {s for s, _ in PAIRS}
    for name in case_suites():
        assert set(split_files(name)) == set(FROZEN_SPLITS)


@pytest.mark.parametrize(("suite", "split"), PAIRS)
def test_split_file_matches_its_eval_yaml(suite, split):
    entry = split_files(suite)[split]
    assert entry.path.name == f"{split}.jsonl"
    assert entry.path.parent.name == suite
    assert hashlib.sha256(entry.path.read_bytes()).hexdigest() == entry.sha256
    assert entry.dataset_version == DATASET_VERSION


@pytest.mark.parametrize(("suite", "split"), PAIRS)
def test_generated_split_equals_the_shipped_file(suite, split):
    assert generated_split(suite, split) == split_files(suite)[split].path.read_bytes(), (
        f"the case generator no longer gives the shipped {suite}/{split}.jsonl: if the change is "
        f"deliberate, bump DATASET_VERSION and run {REGENERATE}"
    )


@pytest.mark.parametrize("suite", ["livestream", "variant", "robustness", "evolution"])
def test_frozen_episodes_are_the_generated_ones(suite):
    recipe = suite_recipe(suite)
    for split, n in (("test", 7), ("dev", 3)):
        assert suite_episodes(suite, split=split, n=n) == build_episodes(recipe, split=split, n=n)


def test_runs_the_files_do_not_hold_are_generated(monkeypatch):
    def no_file(*args, **kwargs):
        raise AssertionError("read the frozen file")

    monkeypatch.setattr(frozen, "split_bytes", no_file)
    recipe = suite_recipe("livestream")
    assert suite_episodes("livestream", split="test", n=4, seed=5) == build_episodes(
        recipe, split="test", n=4, seed=5
    )
    assert len(suite_episodes("livestream", split="train", n=3)) == 3
    assert len(suite_episodes("robustness", n=1001)) == 1001


def test_suites_listing_reads_the_files_without_generating(monkeypatch):
    def no_generation(*args, **kwargs):
        raise AssertionError("generated a dataset")

    monkeypatch.setattr("hat_eval.episode.build_episodes", no_generation)
    monkeypatch.setattr("hat_eval.suites._recipes.suite_rows", no_generation)
    info = suite_info("livestream")
    assert info.cases == 1500
    assert info.sha256 == split_files("livestream")["test"].sha256


def _pointing_at(monkeypatch, entry: SplitFile) -> None:
    monkeypatch.setattr(frozen, "split_files", lambda name: {entry.split: entry})
    frozen._pinned_bytes.cache_clear()


@pytest.fixture
def clear_caches():
    yield
    frozen._pinned_bytes.cache_clear()


def test_an_edited_file_is_refused_with_the_fix(monkeypatch, tmp_path, clear_caches):
    real = split_files("livestream")["test"]
    copy = tmp_path / "test.jsonl"
    copy.write_bytes(real.path.read_bytes().replace(b"guaranteed", b"guaranteeD", 1))
    _pointing_at(monkeypatch, SplitFile("livestream", "test", copy, real.sha256, DATASET_VERSION))
    with pytest.raises(
        SplitFileError, match=rf"{copy}: sha256 .* but eval.yaml pins .*{REGENERATE}"
    ):
        suite_episodes("livestream", n=2)


def test_a_stale_or_missing_file_is_refused(monkeypatch, tmp_path, clear_caches):
    real = split_files("livestream")["test"]
    _pointing_at(monkeypatch, SplitFile("livestream", "test", real.path, real.sha256, "0"))
    with pytest.raises(SplitFileError, match=rf"dataset version 0, .*{REGENERATE}"):
        suite_episodes("livestream", n=2)
    gone = tmp_path / "gone.jsonl"
    _pointing_at(monkeypatch, SplitFile("livestream", "test", gone, real.sha256, DATASET_VERSION))
    with pytest.raises(SplitFileError, match=rf"{gone}: cannot be read"):
        suite_episodes("livestream", n=2)


def test_write_split_files_rewrites_files_and_hashes(monkeypatch, tmp_path):
    folder = tmp_path / "livestream"
    folder.mkdir()
    head = "name: livestream\nrecipe:\n  cases: 3\n"
    (folder / "eval.yaml").write_text(head, encoding="utf-8")
    monkeypatch.setattr(
        frozen, "eval_files", _FakeFiles({"livestream": (str(folder / "eval.yaml"), {})})
    )
    monkeypatch.setattr(frozen, "generated_split", lambda name, split: f"{split}\n".encode())
    out = frozen.write_split_files(("livestream",))
    assert [(f.split, f.path.read_bytes()) for f in out] == [("test", b"test\n"), ("dev", b"dev\n")]
    text = (folder / "eval.yaml").read_text(encoding="utf-8")
    assert text.startswith(head)
    sha = hashlib.sha256(b"test\n").hexdigest()
    assert (
        f"  test: {{file: test.jsonl, sha256: {sha}, dataset_version: '{DATASET_VERSION}'}}" in text
    )
    frozen.write_split_files(("livestream",))  # again: the block is replaced, not repeated
    assert (folder / "eval.yaml").read_text(encoding="utf-8") == text


class _FakeFiles:
    def __init__(self, table):
        self.table = table

    def __call__(self):
        return self.table

    def cache_clear(self):
        pass
