"""Outputs are checked before work starts and written atomically (hat_eval._outputs)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hat_eval._outputs import (
    OutputError,
    check_output_dir,
    check_output_file,
    save_files,
    save_text,
    write_text_atomic,
)


def test_output_file_folder_is_created(tmp_path: Path) -> None:
    out = check_output_file(tmp_path / "a b" / "ü" / "r.json")
    assert out.parent.is_dir() and not out.exists()


def test_output_file_that_is_an_input_is_refused(tmp_path: Path) -> None:
    answers = tmp_path / "a.jsonl"
    answers.write_text("{}\n")
    with pytest.raises(OutputError, match=r"--out .*same file as --answers"):
        check_output_file(tmp_path / "x" / ".." / "a.jsonl", inputs=[("--answers", answers)])
    assert answers.read_text() == "{}\n"


def test_output_file_that_is_a_folder_or_under_a_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(OutputError, match="a folder, expected a file"):
        check_output_file(tmp_path)
    (tmp_path / "f").write_text("x")
    with pytest.raises(OutputError, match="is a file, expected a folder"):
        check_output_file(tmp_path / "f" / "out.json")
    with pytest.raises(OutputError, match="a file, expected a folder"):
        check_output_dir(tmp_path / "f", option="--log-dir")


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes anywhere")
def test_unwritable_folder_is_refused(tmp_path: Path) -> None:
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        with pytest.raises(OutputError, match="cannot write"):
            check_output_dir(ro, option="--log-dir")
    finally:
        ro.chmod(0o700)


def test_atomic_write_leaves_the_old_file_on_failure(tmp_path: Path) -> None:
    target = tmp_path / "r.json"
    target.write_text("old")

    with pytest.raises(TypeError):
        write_text_atomic(target, 42)  # type: ignore[arg-type]
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]
    write_text_atomic(target, "new")
    assert target.read_text() == "new"


def test_save_text_keeps_the_results_when_the_target_fails(tmp_path: Path) -> None:
    (tmp_path / "gone").write_text("a file took the folder's place after the check")
    with pytest.raises(OutputError, match=r"saved to (\S+) instead") as info:
        save_text(tmp_path / "gone" / "r.json", "results")
    fallback = Path(str(info.value).rsplit("saved to ", 1)[1].split(" instead")[0])
    try:
        assert fallback.read_text() == "results"
    finally:
        fallback.unlink()


def test_save_files_writes_each_file_or_all_of_them_to_a_fallback_folder(tmp_path: Path) -> None:
    files = {"page.html": "<p>ü</p>", "plot.png": b"\x89PNG"}
    written = save_files(tmp_path / "out", files)
    assert [p.name for p in written] == ["page.html", "plot.png"]
    assert written[1].read_bytes() == b"\x89PNG" and written[0].read_text() == "<p>ü</p>"
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the folder should be")
    with pytest.raises(OutputError, match=r"saved to (\S+)/ instead") as info:
        save_files(blocked, files)
    fallback = Path(str(info.value).rsplit("saved to ", 1)[1].removesuffix("/ instead"))
    try:
        assert (fallback / "plot.png").read_bytes() == b"\x89PNG"
        assert (fallback / "page.html").read_text() == "<p>ü</p>"
    finally:
        for p in fallback.iterdir():
            p.unlink()
        fallback.rmdir()


def test_a_place_no_one_can_write_is_refused(tmp_path: Path) -> None:
    with pytest.raises(OutputError, match="cannot create the folder"):
        check_output_dir("/proc/hat-eval-out", option="--log-dir")


def test_a_missing_folder_is_only_checked_when_not_created(tmp_path: Path) -> None:
    out = check_output_dir(tmp_path / "new" / "out", create=False)
    assert out == (tmp_path / "new" / "out").resolve() and not (tmp_path / "new").exists()
    assert list(tmp_path.iterdir()) == []  # the probe left nothing
    check_output_file(tmp_path / "a" / "r.json", create=False)
    assert not (tmp_path / "a").exists()
    (tmp_path / "f").write_text("x")
    with pytest.raises(OutputError, match="is a file, expected a folder"):
        check_output_dir(tmp_path / "f" / "out", create=False)
    with pytest.raises(OutputError, match="cannot create the folder /proc/x/y"):
        check_output_dir("/proc/x/y", create=False)
    assert save_text(tmp_path / "new" / "out" / "r.json", "ok").read_text() == "ok"


def test_an_atomic_write_gives_the_mode_a_plain_write_gives(tmp_path: Path) -> None:
    plain, atomic = tmp_path / "plain.txt", tmp_path / "atomic.txt"
    plain.write_text("x")
    write_text_atomic(atomic, "x")
    assert atomic.stat().st_mode == plain.stat().st_mode
    os.chmod(atomic, 0o640)
    write_text_atomic(atomic, "y")
    assert (atomic.stat().st_mode & 0o777, atomic.read_text()) == (0o640, "y")
