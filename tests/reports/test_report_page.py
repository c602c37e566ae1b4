"""``hat-eval report``'s numbers and page, over small real logs with planted scores.

The logs come from the session fixture ``report_logs`` (tests/conftest.py, which lists what is
planted); every expected value here is derived by hand from those plants.
"""

from __future__ import annotations

import base64
import math
import re
import shutil
import statistics
import subprocess
from pathlib import Path

import pytest
from inspect_ai.log import read_eval_log

from hat_eval.reports import build_report, read_logs
from hat_eval.reports._build import ReportFiles
from hat_eval.reports._compare import gate
from hat_eval.reports._page import Page, main_rows

N_BOOT = 999
"""Resamples per interval: the smallest p-value is then 1 / (999 + 1) = 0.001."""
REFERENCE, MINUS_TEN, REGRESSED = "hat/reference", "hat/minus-ten", "hat/regressed"
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def report(
    report_logs: dict[str, Path], tmp_path_factory: pytest.TempPathFactory
) -> tuple[Page, ReportFiles]:
    out = tmp_path_factory.mktemp("report")
    return build_report([report_logs["a"], report_logs["b"], report_logs["c"]], out, n_boot=N_BOOT)


def _messages(log_file: Path) -> list[str]:
    """The viewer messages of a log's cases, in case-id order."""
    log = read_eval_log(str(log_file))
    by_id = {str(s.id): str(s.input) for s in log.samples or []}
    return [by_id[k] for k in sorted(by_id)]


# -- the main table ------------------------------------------------------------------------------


def test_main_table_holds_the_planted_means(report: tuple[Page, ReportFiles]) -> None:
    page, _ = report
    rows = {r.candidate.name: r.cells for r in page.rows}
    assert list(rows) == [REFERENCE, MINUS_TEN, REGRESSED]
    # every case's epochs average (42 + 50 + 58) / 3 = 50: all cases equal, a zero-width interval
    live = rows[REFERENCE]["livestream"]
    assert (live.value, live.low, live.high, live.n) == (50.0, 50.0, 50.0, 12)
    minus = rows[MINUS_TEN]["livestream"]
    assert (minus.value, minus.low, minus.high, minus.n) == (40.0, 40.0, 40.0, 12)
    # shifts 6,-4,2,-3,5,-1,0,4,-2,3,-5,1 sum to 6: 50 + 6/12
    shifted = rows[REGRESSED]["livestream"]
    assert shifted.value == pytest.approx(50.5)
    assert shifted.low < 50.5 < shifted.high and shifted.n == 12
    # variant planted 35 on every case, each pairing with its livestream case by message
    variant, sensitivity = rows[REFERENCE]["variant"], rows[REFERENCE]["sensitivity"]
    assert (variant.value, variant.low, variant.high) == (35.0, 35.0, 35.0)
    assert (sensitivity.value, sensitivity.low, sensitivity.high, sensitivity.n) == (
        -15.0,
        -15.0,
        -15.0,
        12,
    )
    assert "variant" not in rows[MINUS_TEN] and "sensitivity" not in rows[MINUS_TEN]
    header, body = main_rows(page)
    assert header[1:] == [
        "Live-Stream QA",
        "Harness-Variant QA",
        "Harness sensitivity (variant - livestream)",
    ]
    assert body[0] == [
        REFERENCE,
        "50.00 [50.00, 50.00]",
        "35.00 [35.00, 35.00]",
        "-15.00 [-15.00, -15.00]",
    ]
    assert body[1] == [MINUS_TEN, "40.00 [40.00, 40.00]", "—", "—"]


# -- comparisons, Holm ---------------------------------------------------------------------------


def test_a_ten_point_drop_compares_as_exactly_minus_ten(report: tuple[Page, ReportFiles]) -> None:
    page, _ = report
    assert page.baseline is not None and page.baseline.name == REFERENCE
    found = {(c.candidate.name, c.part): c for c in page.comparisons}
    assert set(found) == {
        (MINUS_TEN, "aggregate"),
        (MINUS_TEN, "accuracy"),
        (REGRESSED, "aggregate"),
        (REGRESSED, "accuracy"),
    }
    drop = found[MINUS_TEN, "aggregate"]
    assert (drop.suite, drop.n, drop.diff, drop.low, drop.high) == (
        "livestream",
        12,
        -10.0,
        -10.0,
        -10.0,
    )
    assert drop.p == pytest.approx(1 / (N_BOOT + 1))  # every resample below 0: the floor
    same = found[MINUS_TEN, "accuracy"]
    assert (same.diff, same.low, same.high, same.p) == (0.0, 0.0, 0.0, 1.0)
    shifted = found[REGRESSED, "aggregate"]
    assert shifted.diff == pytest.approx(0.5) and shifted.low < 0 < shifted.high
    # one case of 12 lost its accuracy: -1/12, and resamples without it give 0
    lost = found[REGRESSED, "accuracy"]
    assert lost.diff == pytest.approx(-1 / 12) and lost.high == 0.0
    assert lost.inside_noise and not drop.inside_noise


def test_p_holm_is_holms_step_down_over_the_page(report: tuple[Page, ReportFiles]) -> None:
    page, _ = report
    cs = page.comparisons
    m = len(cs)
    assert m == 4
    # Holm by hand: the i-th smallest p times (m - i + 1), a running maximum, capped at 1
    order = sorted(range(m), key=lambda i: cs[i].p)
    expected, running = {}, 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * cs[i].p))
        expected[i] = running
    for i, c in enumerate(cs):
        assert c.p_holm == pytest.approx(expected[i])
        assert c.p <= c.p_holm <= 1.0
    for a in cs:
        for b in cs:
            if a.p < b.p:
                assert a.p_holm <= b.p_holm
    drop = next(c for c in cs if c.candidate.name == MINUS_TEN and c.part == "aggregate")
    assert drop.p_holm == pytest.approx(4 * 0.001)  # the smallest p, times m = 4
    same = next(c for c in cs if c.candidate.name == MINUS_TEN and c.part == "accuracy")
    assert same.p_holm == 1.0


# -- repeated trials -----------------------------------------------------------------------------


def _pass_hat(successes: list[int], k: int, n: int = 3) -> float:
    return sum(math.comb(c, k) for c in successes) / math.comb(n, k) / len(successes)


def test_pass_hat_k_flips_and_spread_over_epochs(report: tuple[Page, ReportFiles]) -> None:
    page, _ = report
    trials = {t.candidate.name: t for t in page.trials}
    assert list(trials) == [REFERENCE, MINUS_TEN, REGRESSED]  # variant ran one epoch: no row
    counts = [3, 3, 3, 3, 3, 3, 3, 0, 0, 2, 1, 2]  # case 10 fails on safety, accuracy 1
    ref = trials[REFERENCE]
    assert (ref.suite, ref.epochs, ref.cases) == ("livestream", 3, 12)
    # pass^1 = 26/36, pass^2 = (7*3 + 1 + 1)/36 = 23/36, pass^3 = 7/12
    assert [_pass_hat(counts, k) for k in (1, 2, 3)] == pytest.approx([26 / 36, 23 / 36, 7 / 12])
    assert ref.pass_hat == pytest.approx({1: 0.7222222, 2: 0.6388889, 3: 0.5833333})
    assert ref.flip_share == 0.25  # cases 9, 10, 11 of 12
    # epoch means 42, 50, 58: mean 50, sample sd sqrt((64 + 0 + 64) / 2) = 8
    assert (ref.epoch_mean, ref.epoch_sd) == pytest.approx((50.0, 8.0))
    assert statistics.stdev([42, 50, 58]) == 8.0
    minus = trials[MINUS_TEN]
    assert minus.pass_hat == pytest.approx(ref.pass_hat)  # same verdicts, lower aggregate
    assert (minus.epoch_mean, minus.epoch_sd) == pytest.approx((40.0, 8.0))
    regressed = trials[REGRESSED]  # case 0 now fails every trial
    assert regressed.pass_hat == pytest.approx({1: 23 / 36, 2: 20 / 36, 3: 6 / 12})
    assert regressed.pass_hat == pytest.approx(
        {k: _pass_hat([0, *counts[1:]], k) for k in (1, 2, 3)}
    )
    assert regressed.flip_share == 0.25
    assert (regressed.epoch_mean, regressed.epoch_sd) == pytest.approx((50.5, 8.0))


# -- regressions and the gate --------------------------------------------------------------------


def test_regressions_list_the_case_only_the_candidate_got_wrong(
    report: tuple[Page, ReportFiles], report_logs: dict[str, Path]
) -> None:
    page, _ = report
    messages = _messages(report_logs["live"])
    [lost] = page.regressions  # case 0; cases 7 and 8 are wrong for the baseline too
    assert (lost.candidate.name, lost.suite) == (REGRESSED, "livestream")
    assert lost.message == messages[0]
    assert lost.reasons == {"accuracy": "<b>quoted 299 yuan</b>, the catalogue says 199"}
    assert lost.answer.startswith("<script>document.title='pwned'</script>")
    assert (lost.sample_id, lost.epoch) == ("livestream-test-000000", 1)
    assert Path(lost.location) == report_logs["c"] / "livestream.eval"
    assert all(r.message not in (messages[7], messages[8]) for r in page.regressions)


def test_gate_fails_a_drop_beyond_the_margin_only(report_logs: dict[str, Path]) -> None:
    base = read_logs([report_logs["a"]])
    [failure] = gate(read_logs([report_logs["b"]]), base, margin=0.02, n_boot=N_BOOT)
    c = failure.comparison
    assert (c.suite, c.part, c.diff, c.high, failure.margin) == (
        "livestream",
        "aggregate",
        -10.0,
        -10.0,
        2.0,
    )
    assert failure.line().startswith("livestream aggregate: hat/minus-ten -10.000 vs hat/reference")
    assert gate(read_logs([report_logs["b"]]), base, margin=0.11, n_boot=N_BOOT) == []
    assert gate(base, base, n_boot=N_BOOT) == []  # an identical rerun


# -- the page ------------------------------------------------------------------------------------


def test_html_escapes_log_text_and_embeds_every_image(report: tuple[Page, ReportFiles]) -> None:
    page, files = report
    text = files.html.read_text(encoding="utf-8")
    assert "&lt;script&gt;document.title=&#x27;pwned&#x27;&lt;/script&gt;" in text
    assert "&lt;img src=x onerror=alert(1)&gt;" in text
    assert "&lt;b&gt;quoted 299 yuan&lt;/b&gt;" in text
    assert "<script>document" not in text and "<img src=x" not in text and "<b>" not in text
    assert text.count("<script>") == 1  # the page's own image check
    # nothing is fetched from anywhere: the only address is the local Inspect viewer's links
    outside = re.findall(r"https?://(?!127\.0\.0\.1:7575/#/logs/)", text)
    assert outside == [], outside
    assert re.search(r'<a href="http://127\.0\.0\.1:7575/#/logs/[^"]+\.eval/samples/sample/', text)
    srcs = re.findall(r"<img\b[^>]*\bsrc=\"([^\"]*)\"", text)
    assert len(srcs) == len(re.findall(r"<img\b", text)) == len(page.images) == len(files.images)
    assert len(srcs) >= 1
    beside = {p.read_bytes() for p in files.images}
    for src in srcs:
        prefix = "data:image/png;base64,"
        assert src.startswith(prefix)
        png = base64.b64decode(src[len(prefix) :], validate=True)
        assert png.startswith(PNG) and png in beside
    assert "<td>50.00 [50.00, 50.00]</td>" in text and "<h2>Main table</h2>" in text


def test_markdown_has_the_tables_and_links_the_plots(report: tuple[Page, ReportFiles]) -> None:
    _, files = report
    md = files.markdown.read_text(encoding="utf-8")
    assert "## Main table" in md
    assert (
        "| hat/reference | 50.00 [50.00, 50.00] | 35.00 [35.00, 35.00] | -15.00 [-15.00, -15.00] |"
    ) in md
    assert "| hat/minus-ten | livestream | aggregate | 12 | -10.000 [-10.000, -10.000] |" in md
    assert (
        "| hat/reference | livestream | 3 | 12 | 0.722 | 0.639 | 0.583 | 25.0% | 50.00 ± 8.00 |"
        in md
    )
    links = re.findall(r"!\[([^\]]*)\]\(([^)]+)\)", md)
    assert sorted(f for _, f in links) == sorted(p.name for p in files.images)
    for name, link in links:
        png = files.markdown.parent / link
        assert link == f"{name}.png" and png.read_bytes().startswith(PNG)
    # Markdown renderers pass raw HTML through: the planted answer arrives escaped here too
    assert "<script>" not in md and "<img src=x" not in md
    assert "&lt;script&gt;document.title='pwned'&lt;/script&gt;" in md


def test_page_in_headless_chromium(report: tuple[Page, ReportFiles]) -> None:
    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.skip("needs Debian's chromium (apt-get install chromium)")
    _, files = report
    run = subprocess.run(
        [
            chromium,
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--enable-logging=stderr",
            "--v=0",
            "--dump-dom",
            files.html.resolve().as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    dom = run.stdout
    [(ok, total)] = re.findall(r"<body[^>]*\bdata-images=\"(\d+)/(\d+)\"", dom)
    assert ok == total and int(total) == len(files.images) >= 1
    assert "<h2>Main table</h2>" in dom and "50.00 [50.00, 50.00]" in dom
    assert "&lt;script&gt;document.title='pwned'&lt;/script&gt;" in dom
    assert "<title>hat-eval report</title>" in dom
    console = [ln for ln in run.stderr.splitlines() if ":CONSOLE" in ln or "Uncaught" in ln]
    assert console == []
