"""``hat-eval report LOG_DIR... --out DIR``, its ``--gate``, and ``hat-eval report paired``.

Over the planted logs of the session fixture ``report_logs`` (tests/conftest.py).
"""

from __future__ import annotations

import json
from pathlib import Path

from inspect_ai.log import read_eval_log
from typer.testing import CliRunner

from hat_eval.cli import app
from tests._cli import one_error_line

runner = CliRunner()
FAST = ["--n-boot", "200"]


def test_report_writes_the_page_with_a_load_test_table(
    report_logs: dict[str, Path], tmp_path: Path
) -> None:
    from dataclasses import replace

    from hat_eval.loadtest._stats import summarize
    from hat_eval.loadtest._summary import write_summary

    loadtest = tmp_path / "lt"
    raw = loadtest / "users-4" / "raw"
    raw.mkdir(parents=True)
    lines = [
        {"outcome": "ok", "started_at": 0.0, "elapsed_s": 1.0, "e2e_s": e} for e in (0.5, 1.25)
    ]
    (raw / "raw-1.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    level = replace(
        summarize([], users=4, slo_p95_s=2.0),
        e2e_p50_s=0.5,
        e2e_p95_s=1.25,
        ttft_p95_s=0.1,
        slo_pass=True,
    )
    write_summary(loadtest, [level])
    out = tmp_path / "out"
    dirs = [str(report_logs[k]) for k in ("a", "b", "c")]
    res = runner.invoke(
        app, ["report", *dirs, "--out", str(out), "--loadtest", str(loadtest), *FAST]
    )
    assert res.exit_code == 0, res.output
    assert res.stdout.splitlines()[0] == "3 candidates: hat/reference, hat/minus-ten, hat/regressed"
    assert "(3 plots)" in res.stdout  # scores, variant's dimensions, the latency CDF
    md = (out / "report.md").read_text(encoding="utf-8")
    assert "| hat/minus-ten | 40.00 [40.00, 40.00] | — | — |" in md
    assert "## Latency under load" in md and "| lt | 4 | 0.500 | 1.250 | 0.100 | pass |" in md
    assert (out / "report.html").is_file() and (out / "scores.png").is_file()
    assert (out / "latency.png").read_bytes()[:4] == b"\x89PNG"
    # CANDIDATE=DIR puts the load test's latency in that candidate's row of the main table
    owned = ["--loadtest", f"hat/minus-ten={loadtest}"]
    res = runner.invoke(app, ["report", *dirs, "--out", str(out), *owned, *FAST])
    assert res.exit_code == 0, res.output
    md = (out / "report.md").read_text(encoding="utf-8")
    header = next(ln for ln in md.splitlines() if ln.startswith("| candidate |"))
    assert header.endswith("| P50 / P95 latency s (load test) |")
    assert next(ln for ln in md.splitlines() if ln.startswith("| hat/minus-ten |")).endswith(
        "| 0.500 / 1.250 @4 |"
    )
    res = runner.invoke(app, ["report", *dirs, "--out", str(out), "--loadtest", f"gpt={loadtest}"])
    assert res.exit_code == 2 and "--loadtest 'gpt' matches no candidate" in res.stderr


def test_baseline_option_flips_the_comparison(report_logs: dict[str, Path], tmp_path: Path) -> None:
    dirs = [str(report_logs[k]) for k in ("a", "b")]
    res = runner.invoke(
        app, ["report", *dirs, "--out", str(tmp_path), "--baseline", "hat/minus-ten", *FAST]
    )
    assert res.exit_code == 0, res.output
    md = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert "## Compared with hat/minus-ten" in md
    assert "| hat/reference | livestream | aggregate | 12 | +10.000 [+10.000, +10.000] |" in md


# -- the gate ------------------------------------------------------------------------------------


def test_gate_passes_an_identical_rerun(report_logs: dict[str, Path]) -> None:
    a = str(report_logs["a"])
    res = runner.invoke(app, ["report", a, "--gate", a, *FAST])
    assert res.exit_code == 0, res.output
    assert "gate passed" in res.stdout


def test_gate_fails_the_planted_ten_point_drop(report_logs: dict[str, Path]) -> None:
    res = runner.invoke(
        app, ["report", str(report_logs["b"]), "--gate", str(report_logs["a"]), *FAST]
    )
    assert res.exit_code == 1, res.output
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert lines == [
        "regression: livestream aggregate: hat/minus-ten -10.000 vs hat/reference [baseline] "
        "(95% CI -10.000 to -10.000, n=12), beyond the margin 2",
        "error: gate failed: 1 part(s) regressed",
    ]
    assert "gate passed" not in res.stdout


def test_gate_margin_is_on_a_0_1_part_x100_for_the_aggregate(report_logs: dict[str, Path]) -> None:
    args = ["report", str(report_logs["b"]), "--gate", str(report_logs["a"]), *FAST]
    passed = runner.invoke(app, [*args, "--margin", "0.11"])  # 11 points > the 10-point drop
    assert passed.exit_code == 0, passed.output
    assert "gate passed" in passed.stdout
    failed = runner.invoke(app, [*args, "--margin", "0.09"])  # 9 points < the drop
    assert failed.exit_code == 1, failed.output
    assert "beyond the margin 9" in failed.stderr


# -- bad input -----------------------------------------------------------------------------------


def test_a_folder_without_logs(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    res = runner.invoke(app, ["report", str(empty), "--out", str(tmp_path / "out")])
    one_error_line(res, f"error: {empty}: no finished eval log, expected the --log-dir")
    assert not (tmp_path / "out").exists()  # checked before the work, nothing written


def test_a_path_that_does_not_exist(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"
    res = runner.invoke(app, ["report", str(missing), "--out", str(tmp_path / "out")])
    one_error_line(res, f"error: {missing}: no such folder or log file")


def test_a_file_that_is_not_a_log(tmp_path: Path) -> None:
    bogus = tmp_path / "notes.eval"
    bogus.write_text("not a log", encoding="utf-8")
    res = runner.invoke(app, ["report", str(bogus), "--out", str(tmp_path / "out")])
    one_error_line(res, f"error: {bogus}: not a readable Inspect eval log")


def test_logs_of_different_dataset_versions_are_refused_naming_both(
    report_logs: dict[str, Path], tmp_path: Path
) -> None:
    new = report_logs["a"] / "livestream.eval"
    old = report_logs["old"] / "livestream.eval"
    meta = read_eval_log(str(new), header_only=True).eval.metadata or {}
    version = meta["dataset_version"]
    dirs = [str(report_logs["a"]), str(report_logs["old"])]
    res = runner.invoke(app, ["report", *dirs, "--out", str(tmp_path / "out")])
    line = one_error_line(res, "error: livestream: hat/reference (")
    assert f"({new})" in line and f"hat/old ({old})" in line
    assert f"ran dataset versions {version} and 3;" in line and "--allow-mixed" in line


def test_allow_mixed_shows_both_unpaired_with_a_note(
    report_logs: dict[str, Path], tmp_path: Path
) -> None:
    dirs = [str(report_logs["a"]), str(report_logs["old"])]
    res = runner.invoke(app, ["report", *dirs, "--out", str(tmp_path), "--allow-mixed", *FAST])
    assert res.exit_code == 0, res.output
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert '<p class="note">not compared (--allow-mixed): livestream: hat/reference (' in html
    md = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert "| hat/old | 50.00 [50.00, 50.00] | — | — |" in md
    # hat/old's case 0 is wrong, but cases of another dataset version are not paired
    assert "## Compared with" not in md
    assert md.rstrip().endswith("## Regressions against hat/reference\n\nNone.")


def test_a_load_test_folder_without_its_summary(
    report_logs: dict[str, Path], tmp_path: Path
) -> None:
    res = runner.invoke(
        app,
        [
            "report",
            str(report_logs["a"]),
            "--out",
            str(tmp_path / "out"),
            "--loadtest",
            str(tmp_path),
        ],
    )
    one_error_line(res, f"error: {tmp_path}: no summary.json, expected the --out folder")


def test_a_baseline_that_matches_no_candidate(report_logs: dict[str, Path], tmp_path: Path) -> None:
    dirs = [str(report_logs[k]) for k in ("a", "b")]
    res = runner.invoke(app, ["report", *dirs, "--out", str(tmp_path), "--baseline", "hat/nobody"])
    one_error_line(
        res,
        "error: --baseline 'hat/nobody' matches no candidate; expected one of: "
        "hat/reference; hat/minus-ten",
    )


def test_no_out_and_no_gate(report_logs: dict[str, Path]) -> None:
    res = runner.invoke(app, ["report", str(report_logs["a"])])
    assert res.exit_code == 2
    assert "--out" in res.stderr and "Traceback" not in res.output


# -- paired --------------------------------------------------------------------------------------


def test_paired_still_compares_two_logs(report_logs: dict[str, Path]) -> None:
    res = runner.invoke(
        app, ["report", "paired", str(report_logs["variant"]), str(report_logs["live"])]
    )
    assert res.exit_code == 0, res.output
    assert res.stdout.strip() == (
        "aggregate: A 35.000 - B 50.000 = -15.000 (95% CI -15.000 to -15.000) over 12 paired cases"
    )


def test_a_calibration_file_adds_its_table_and_map(
    report_logs: dict[str, Path], tmp_path: Path
) -> None:
    from hat_eval.judge import Calibration
    from hat_eval.judge._calibration_map import CalibrationMap

    # one point high everywhere: the map takes 2..5 back to 1..4
    fitted = CalibrationMap("factual_accuracy", "isotonic", x=(2.0, 5.0), y=(1.0, 4.0))
    calibration = tmp_path / "calibration.json"
    calibration.write_text(
        json.dumps(Calibration({"factual_accuracy": fitted}).to_json()), encoding="utf-8"
    )
    out = tmp_path / "out"
    res = runner.invoke(
        app,
        ["report", str(report_logs["a"]), "--out", str(out), "--calibration", str(calibration)],
    )
    assert res.exit_code == 0, res.output
    md = (out / "report.md").read_text(encoding="utf-8")
    assert "## Judge–human agreement" in md and "| factual_accuracy | isotonic |" in md
    assert (out / "calibration.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    bad = tmp_path / "bad.json"
    bad.write_text('{"version": 0, "dimensions": {}}', encoding="utf-8")
    res = runner.invoke(
        app, ["report", str(report_logs["a"]), "--out", str(out), "--calibration", str(bad)]
    )
    assert res.exit_code == 2
    assert [ln for ln in res.stderr.splitlines() if ln.strip()][0].startswith(
        f"error: {bad}: version"
    )


def test_the_judges_reliability_is_read_from_the_confusion_matrix(tmp_path: Path) -> None:
    from hat_eval.reports._build import reliability

    counts = [[0] * 5 for _ in range(5)]  # rows: human 1..5, columns: judge 1..5
    counts[0][1], counts[1][2], counts[3][4] = 3, 2, 1  # the judge one point high
    counts[1][1] = 1  # and once right
    matrix = {"labels": ["1", "2", "3", "4", "5"], "counts": counts}
    doc = {"dimensions": {"factual_accuracy": {"confusion_matrix": matrix}}}
    path = tmp_path / "agreement.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    # judge 2: humans 1, 1, 1 and 2 -> mean 1.25 over 4; judge 3: 2 over 2; judge 5: 4 over 1
    assert reliability(path) == {"factual_accuracy": [(2.0, 1.25, 4), (3.0, 2.0, 2), (5.0, 4.0, 1)]}


# -- outputs and unreadable logs -----------------------------------------------------------------


def _truncated_copy(log: Path, folder: Path) -> Path:
    """A copy of ``log`` cut in half, as an interrupted run leaves it."""
    folder.mkdir(parents=True, exist_ok=True)
    cut = folder / ("cut-" + log.name)
    data = log.read_bytes()
    cut.write_bytes(data[: len(data) // 2])
    return cut


def test_an_unreadable_log_is_named_and_skipped(
    report_logs: dict[str, Path], tmp_path: Path
) -> None:
    import shutil

    logs = tmp_path / "logs"
    shutil.copytree(report_logs["a"], logs)
    cut = _truncated_copy(report_logs["live"], logs)
    out = tmp_path / "out"
    res = runner.invoke(app, ["report", str(logs), "--out", str(out), *FAST])
    assert res.exit_code == 0, res.output
    warnings = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert len(warnings) == 1, res.stderr
    assert warnings[0].startswith(f"warning: {cut}: not a readable Inspect eval log (truncated")
    assert warnings[0].endswith("; skipped")
    assert res.stdout.splitlines()[0] == "1 candidates: hat/reference"
    assert (out / "report.html").is_file()
    # the gate skips it the same way
    res = runner.invoke(app, ["report", str(logs), "--gate", str(logs), *FAST])
    assert res.exit_code == 0, res.output
    assert f"warning: {cut}: not a readable" in res.stderr


def test_out_that_is_a_file_is_refused_before_any_log_is_read(tmp_path: Path) -> None:
    taken = tmp_path / "report.html"
    taken.write_text("mine", encoding="utf-8")
    missing_logs = tmp_path / "nowhere"  # would fail later: the output is checked first
    res = runner.invoke(app, ["report", str(missing_logs), "--out", str(taken)])
    one_error_line(res, f"error: --out {taken}: a file, expected a folder")
    assert taken.read_text(encoding="utf-8") == "mine"


def test_out_in_an_unwritable_place_is_refused(tmp_path: Path) -> None:
    res = runner.invoke(app, ["report", str(tmp_path), "--out", "/proc/hat-eval-report"])
    one_error_line(res, "error: --out /proc/hat-eval-report: cannot create the folder")


def test_a_page_that_cannot_be_written_after_the_work_is_kept_elsewhere(
    report_logs: dict[str, Path], tmp_path: Path, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    import hat_eval.reports._build as build

    out = tmp_path / "out"
    read = build.read_logs

    def read_then_lose_the_folder(*args, **kwargs):  # type: ignore[no-untyped-def]
        logs = read(*args, **kwargs)
        out.write_text("in the way", encoding="utf-8")  # the folder cannot be made any more
        return logs

    monkeypatch.setattr(build, "read_logs", read_then_lose_the_folder)
    res = runner.invoke(app, ["report", str(report_logs["a"]), "--out", str(out), *FAST])
    assert res.exit_code == 1, res.output
    (line,) = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert line.startswith(f"error: --out {out}: could not be written (")
    fallback = Path(line.rsplit("saved to ", 1)[1].removesuffix("/ instead"))
    try:
        names = sorted(p.name for p in fallback.iterdir())
        assert names == ["dimensions.png", "report.html", "report.md", "scores.png"]
    finally:
        import shutil

        shutil.rmtree(fallback)


def test_paired_takes_a_folder_that_holds_one_log(
    report_logs: dict[str, Path], tmp_path: Path
) -> None:
    import shutil

    one = tmp_path / "variant run"
    one.mkdir()
    shutil.copy(report_logs["variant"], one)
    res = runner.invoke(app, ["report", "paired", str(one), str(report_logs["live"])])
    assert res.exit_code == 0, res.output
    assert res.stdout.startswith("aggregate: A 35.000 - B 50.000 = -15.000")
    res = runner.invoke(app, ["report", "paired", str(report_logs["a"]), str(one)])
    one_error_line(
        res, f"error: {report_logs['a']}: a folder with 2 eval logs (", "name one .eval file"
    )
    res = runner.invoke(app, ["report", "paired", str(tmp_path / "none"), str(one)])
    one_error_line(res, f"error: {tmp_path / 'none'}: no such log or folder")


def test_paired_names_a_truncated_log(report_logs: dict[str, Path], tmp_path: Path) -> None:
    cut = _truncated_copy(report_logs["live"], tmp_path)
    res = runner.invoke(app, ["report", "paired", str(report_logs["variant"]), str(cut)])
    one_error_line(res, f"error: {cut}: not a readable Inspect eval log (truncated")
