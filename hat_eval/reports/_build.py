"""``hat-eval report LOG_DIR... --out DIR``: read the logs, compare the candidates, write the page.

:func:`build_report` is the whole command minus its argument parsing; :func:`run_gate` the
``--gate`` check. Inputs beside the logs: a judge calibration file (its held-out judge-human
agreement per dimension) and load-test folders (each ``summary.json``: P50/P95 per concurrency).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hat_eval._outputs import save_files

from ._candidates import (
    Candidate,
    ReportError,
    SuiteLog,
    candidates,
    check_same_data,
    read_logs,
)
from ._compare import (
    comparisons,
    gate,
    main_table,
    regressions,
    trials,
)
from ._instrument import instrument_table
from ._judge_only import judge_only_notes
from ._page import Page, _png, _pyplot, plots, render_html, render_markdown

if TYPE_CHECKING:
    from hat_eval.loadtest import LevelSummary


@dataclass(frozen=True)
class ReportFiles:
    """What a report wrote."""

    html: Path
    markdown: Path
    images: tuple[Path, ...]


def _levels(folder: Path) -> list[LevelSummary]:
    """A load test's levels (``summary.json``), or :class:`ReportError` in one line."""
    from hat_eval.loadtest import SummaryError, read_summary

    try:
        return read_summary(folder)
    except SummaryError as err:
        raise ReportError(str(err)) from None


def pick_baseline(
    logs: Sequence[SuiteLog], name: str | None, *, option: str = "--baseline"
) -> Candidate:
    """The candidate ``name`` names (its full name or its model), else the first candidate.

    Raises:
        ReportError: ``name`` matches no candidate, or several.
    """
    found = candidates(logs)
    if name is None:
        return found[0]
    exact = [c for c in found if c.name == name]
    matches = exact or [c for c in found if c.model == name]
    if len(matches) != 1:
        what = "matches no candidate" if not matches else "matches several candidates"
        raise ReportError(
            f"{option} {name!r} {what}; expected one of: {'; '.join(c.name for c in found)}"
        )
    return matches[0]


def calibration_table(path: Path) -> tuple[str, list[str], list[list[str]]]:
    """The judge's held-out agreement with humans per dimension, from a calibration file."""
    from hat_eval.judge import CalibrationError, load_calibration

    try:
        load_calibration(path)  # validates the file (version, fields)
    except CalibrationError as err:
        raise ReportError(str(err)) from None
    doc = json.loads(path.read_text(encoding="utf-8"))
    rows = []
    for name, entry in doc["dimensions"].items():
        held = entry.get("held_out") or {}
        cells = []
        for when in ("before", "after"):
            summary = held.get(when) or {}
            shown = [
                f"{k} {v:.3f}"
                for k, v in summary.items()
                if isinstance(v, int | float) and k != "n"
            ][:3]
            cells.append(", ".join(shown) or "—")
        flagged = "flagged" if entry.get("flagged") else ""
        rows.append([name, str(entry.get("method", "")), *cells, flagged])
    header = ["dimension", "map", "held-out before calibration", "after", ""]
    return "Judge–human agreement", header, rows


def reliability(agreement: Path) -> dict[str, list[tuple[float, float, int]]]:
    """Per dimension, the judge's reliability: ``(judge rating, mean human rating, items)``.

    From ``agreement.json``'s confusion matrix (rows are the human majority, columns the
    judge). Labels that are not numbers read as 1 for ``pass``/``yes``/``true``, else 0.
    """
    doc = json.loads(agreement.read_text(encoding="utf-8"))
    out: dict[str, list[tuple[float, float, int]]] = {}
    for name, entry in (doc.get("dimensions") or {}).items():
        matrix = entry.get("confusion_matrix") or {}
        labels, counts = matrix.get("labels") or [], matrix.get("counts") or []
        values = [_label_value(x) for x in labels]
        points = []
        for j, judge in enumerate(values):
            column = [row[j] for row in counts if j < len(row)]
            n = sum(column)
            if n:
                mean = sum(values[i] * c for i, c in enumerate(column)) / n
                points.append((judge, mean, n))
        if points:
            out[str(name)] = points
    return out


def _label_value(label: Any) -> float:
    try:
        return float(label)
    except (TypeError, ValueError):
        return 1.0 if str(label).lower() in ("pass", "yes", "true") else 0.0


def calibration_plot(path: Path) -> bytes:
    """The judge's reliability diagram and calibration maps, each beside the diagonal.

    Left (when ``agreement.json`` lies beside the calibration file): for each judge rating the
    mean human rating of those items, marker size by count. Right: each dimension's map from
    the judge's raw rating to the human-aligned rating it stands for.
    """
    from hat_eval.judge import RATING_SCALE, load_calibration

    plt = _pyplot()
    cal = load_calibration(path)
    lo, hi = float(RATING_SCALE[0]), float(RATING_SCALE[-1])
    agreement = path.parent / "agreement.json"
    points = reliability(agreement) if agreement.is_file() else {}
    fig, axes = plt.subplots(1, 2 if points else 1, figsize=(10 if points else 5, 4))
    axes = list(axes) if points else [axes]
    if points:
        ax = axes[0]
        ax.plot([lo, hi], [lo, hi], color="grey", linestyle=":", label="perfectly reliable")
        for name, pts in sorted(points.items()):
            ax.scatter([p[0] for p in pts], [p[1] for p in pts], s=[12 + 4 * p[2] for p in pts],
                       label=name, alpha=0.7)  # fmt: skip
            ax.plot([p[0] for p in pts], [p[1] for p in pts], alpha=0.5)
        ax.set_xlabel("judge rating")
        ax.set_ylabel("mean human rating")
        ax.set_title("Judge reliability (uncalibrated)")
        ax.legend(fontsize=7)
    ax = axes[-1]
    xs = [lo + (hi - lo) * i / 40 for i in range(41)]
    ax.plot([lo, hi], [lo, hi], color="grey", linestyle=":", label="no calibration")
    for name, m in sorted(cal.maps.items()):
        ax.plot(xs, [m.apply(x) for x in xs], label=name)
    ax.set_xlabel("judge rating")
    ax.set_ylabel("calibrated (human-aligned) rating")
    ax.set_title("Judge calibration maps")
    ax.legend(fontsize=7)
    return _png(fig)


def loadtest_table(folders: Sequence[Path]) -> tuple[str, list[str], list[list[str]]]:
    """P50/P95 end-to-end latency per concurrency level, from load-test folders."""
    rows = []
    for folder in folders:
        for lv in _levels(folder):
            slo = "" if lv.slo_pass is None else "pass" if lv.slo_pass else "miss"
            cells = [_seconds(v) for v in (lv.e2e_p50_s, lv.e2e_p95_s, lv.ttft_p95_s)]
            rows.append([folder.name, str(lv.users), *cells, slo])
    header = ["run", "users", "E2E P50 s", "E2E P95 s", "TTFT P95 s", "SLO"]
    return "Latency under load", header, rows


def _seconds(value: float | None) -> str:
    return "—" if value is None or math.isnan(value) else f"{value:.3f}"


def latency_plot(folders: Sequence[Path]) -> bytes | None:
    """The CDF of end-to-end latency per concurrency level, with the SLO line (None: no data).

    Failed requests count as infinitely slow, so a level's curve ends below 1 by its failure
    share.
    """
    from hat_eval.loadtest import SummaryError, level_latencies, read_summary

    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 3.5))
    drawn = False
    slo: float | None = None
    for folder in folders:
        levels = {lv.users: lv for lv in read_summary(folder)}
        try:
            latencies = level_latencies(folder)
        except SummaryError:  # a summary without its raw records: the table only
            continue
        for users, values in latencies.items():
            if not values:
                continue
            n = len(values)
            finite = [v for v in values if math.isfinite(v)]
            ys = [(i + 1) / n for i in range(len(finite))]
            label = f"{folder.name}, {users} users" if len(folders) > 1 else f"{users} users"
            ax.step(finite, ys, where="post", label=label)
            drawn = True
            level = levels.get(users)
            if level is not None and level.slo_p95_s is not None:
                slo = level.slo_p95_s
    if not drawn:
        plt.close(fig)
        return None
    if slo is not None:
        ax.axvline(slo, color="red", linestyle=":", label=f"SLO P95 {slo:g} s")
        ax.axhline(0.95, color="grey", linestyle=":", linewidth=0.8)
    ax.set_xlabel("end-to-end latency (s)")
    ax.set_ylabel("share of requests")
    ax.set_ylim(0, 1.02)
    ax.legend(fontsize=7)
    ax.set_title("Latency CDF per concurrency")
    return _png(fig)


def build_report(
    paths: Sequence[str | Path],
    out: Path,
    *,
    baseline: str | None = None,
    allow_mixed: bool = False,
    calibration: Path | None = None,
    loadtest: Sequence[Path | str] = (),
    n_boot: int = 2000,
    title: str = "hat-eval report",
    with_plots: bool = True,
    warn: Callable[[str], None] | None = None,
) -> tuple[Page, ReportFiles]:
    """Read the logs under ``paths``, compare their candidates, write the page.

    ``out/report.html`` is self-contained; ``out/report.md`` links the plots written beside it.
    Every file is written atomically once the page is built; ``warn`` gets one line per log
    that cannot be read (skipped, see :func:`read_logs`).

    Raises:
        OutputError: ``out`` could not be written; the files were saved to the fallback
            folder it names.
        ReportError: no logs, logs of one suite over different cases or dataset versions
            (unless ``allow_mixed``), a baseline that names no candidate, an unreadable
            calibration file or load-test folder.
    """
    logs = read_logs(paths, warn=warn)
    notes = check_same_data(logs, allow_mixed=allow_mixed)
    mixed = {n.split(":", 1)[0] for n in notes}
    base = pick_baseline(logs, baseline)
    extras = []
    figures: dict[str, bytes] = {}
    if calibration is not None:
        extras.append(calibration_table(calibration))
        figures["calibration"] = calibration_plot(calibration)
    entries = [str(entry).rpartition("=") for entry in loadtest]  # DIR or CANDIDATE=DIR
    folders = [Path(folder) for _, _, folder in entries]
    if folders:
        extras.append(loadtest_table(folders))
        if (cdf := latency_plot(folders)) is not None:
            figures["latency"] = cdf
    extras.append(instrument_table(s.suite for s in logs))
    several = len(candidates(logs)) > 1
    rows = main_table(logs, n_boot)
    for name, _, folder in entries:
        if name:  # the candidate's row shows P50 / P95 end-to-end seconds at each concurrency
            owner = pick_baseline(logs, name, option="--loadtest")
            row = next(r for r in rows if r.candidate == owner)
            row.texts["latency"] = "; ".join(
                f"{_seconds(lv.e2e_p50_s)} / {_seconds(lv.e2e_p95_s)} @{lv.users}"
                for lv in _levels(Path(folder))
            )
    page = Page(
        title=title,
        rows=rows,
        baseline=base if several else None,
        comparisons=comparisons(logs, base, n_boot=n_boot, skip=mixed) if several else [],
        trials=[t for s in logs if (t := trials(s)) is not None],
        regressions=regressions(logs, base, skip=mixed) if several else [],
        notes=[f"not compared (--allow-mixed): {n}" for n in notes] + judge_only_notes(logs),
        extras=extras,
    )
    if with_plots:
        page.images = {**plots(page, logs), **figures}
    names = {name: f"{name}.png" for name in page.images}
    files: dict[str, str | bytes] = {names[name]: png for name, png in page.images.items()}
    files["report.html"] = render_html(page)
    files["report.md"] = render_markdown(page, names)
    *images, html_file, md_file = save_files(out, files)
    return page, ReportFiles(html_file, md_file, tuple(images))


def run_gate(
    paths: Sequence[str | Path],
    baseline_paths: Sequence[str | Path],
    *,
    margin: float = 0.02,
    n_boot: int = 2000,
    warn: Callable[[str], None] | None = None,
) -> list[str]:
    """The ``--gate`` check: one line per part that regressed (empty: the gate passes)."""
    logs = read_logs(paths, warn=warn)
    base = read_logs(baseline_paths, warn=warn)
    check_same_data([*base, *logs])
    return [f.line() for f in gate(logs, base, margin=margin, n_boot=n_boot)]
