"""The report page: one self-contained HTML file and a Markdown file, from :mod:`._compare`.

The HTML embeds its images (PNG as ``data:`` URIs) and its few lines of CSS and script, so it
opens offline, from a mail attachment or a CI artefact. Every text taken from a log (a model's
answer, a viewer's message, a reason) is escaped: an answer holding ``<script>`` shows as text.
The Markdown file holds the same tables (log text escaped the same way, since Markdown renderers
pass raw HTML through) and links the PNG files written beside it.
"""

from __future__ import annotations

import base64
import html
import io
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ._candidates import (
    Candidate,
    SuiteLog,
    candidates,
)
from ._compare import (
    COLUMNS,
    Comparison,
    Regression,
    Row,
    Trials,
)
from ._evolution import Estimate


@dataclass
class Page:
    """Everything a report page shows."""

    title: str
    rows: list[Row]
    baseline: Candidate | None = None
    comparisons: list[Comparison] = field(default_factory=list)
    trials: list[Trials] = field(default_factory=list)
    regressions: list[Regression] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    extras: list[tuple[str, list[str], list[list[str]]]] = field(default_factory=list)
    """Further tables: (title, header, rows) (judge agreement, load test)."""
    images: dict[str, bytes] = field(default_factory=dict)
    """Plot name -> PNG bytes."""


def _cell(e: Estimate | None, column: str) -> str:
    if e is None or math.isnan(e.value):
        return "—"
    percent = column.startswith(("ifeval", "evolution", "recovery"))
    if percent:
        return f"{100 * e.value:.1f} [{100 * e.low:.1f}, {100 * e.high:.1f}]"
    if column == "sensitivity":
        return f"{e.value:+.2f} [{e.low:+.2f}, {e.high:+.2f}]"
    return f"{e.value:.2f} [{e.low:.2f}, {e.high:.2f}]"


def main_rows(page: Page) -> tuple[list[str], list[list[str]]]:
    """The main table as header and rows of text (columns no candidate has are left out)."""
    used = [(k, h) for k, h in COLUMNS if any(k in r.cells or k in r.texts for r in page.rows)]
    header = ["candidate", *(h for _, h in used)]
    body = [
        [r.candidate.name, *(r.texts.get(k) or _cell(r.cells.get(k), k) for k, _ in used)]
        for r in page.rows
    ]
    return header, body


def comparison_rows(page: Page) -> tuple[list[str], list[list[str]]]:
    """The comparisons with the baseline as header and rows of text."""
    header = ["candidate", "suite", "part", "n", "difference [95% CI]", "p (Holm)", "MDD", "reads"]
    body = []
    for c in page.comparisons:
        if c.inside_noise:
            reads = "inside the noise"
        else:
            reads = "better" if c.low > 0 else "worse" if c.high < 0 else "no clear difference"
        if c.p_holm < 0.05:
            reads += " (Holm p < 0.05)"
        body.append(
            [
                c.candidate.name,
                c.suite,
                c.part,
                str(c.n),
                f"{c.diff:+.3f} [{c.low:+.3f}, {c.high:+.3f}]",
                f"{c.p:.3f} ({c.p_holm:.3f})",
                f"{c.mdd:.3f}",
                reads,
            ]
        )
    return header, body


def trial_rows(page: Page) -> tuple[list[str], list[list[str]]]:
    """Repeated trials: pass^k per k, flips, mean ± sd over epochs."""
    ks = sorted({k for t in page.trials for k in t.pass_hat})
    header = [
        "candidate",
        "suite",
        "epochs",
        "cases",
        *(f"pass^{k}" for k in ks),
        "flips",
        "mean ± sd",
    ]
    body = [
        [
            t.candidate.name,
            t.suite,
            str(t.epochs),
            str(t.cases),
            *(f"{t.pass_hat[k]:.3f}" if k in t.pass_hat else "—" for k in ks),
            f"{100 * t.flip_share:.1f}%",
            f"{t.epoch_mean:.2f} ± {t.epoch_sd:.2f}",
        ]
        for t in page.trials
    ]
    return header, body


# -- plots ---------------------------------------------------------------------------------------


def _pyplot() -> Any:
    """The pyplot of matplotlib, drawing off screen (the Agg backend)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _png(fig: Any) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    _pyplot().close(fig)
    return buf.getvalue()


def plots(page: Page, logs: Sequence[SuiteLog]) -> dict[str, bytes]:
    """The page's figures (matplotlib, Agg), each left out when it has nothing to show.

    Scores with intervals, recovery per fault kind, the variant score per HSA dimension.
    """
    plt = _pyplot()
    out: dict[str, bytes] = {}
    suites = [
        k for k in ("livestream", "variant", "robustness") if any(k in r.cells for r in page.rows)
    ]
    if suites:
        fig, ax = plt.subplots(figsize=(7, 3.2))
        width = 0.8 / max(1, len(page.rows))
        for i, row in enumerate(page.rows):
            xs, ys, lo, hi = [], [], [], []
            for j, s in enumerate(suites):
                e = row.cells.get(s)
                if e is None or math.isnan(e.value):
                    continue
                xs.append(j + i * width)
                ys.append(e.value)
                lo.append(e.value - e.low if not math.isnan(e.low) else 0)
                hi.append(e.high - e.value if not math.isnan(e.high) else 0)
            ax.bar(xs, ys, width, yerr=[lo, hi], capsize=3, label=row.candidate.name)
        ax.set_xticks([j + width * (len(page.rows) - 1) / 2 for j in range(len(suites))], suites)
        ax.set_ylabel("aggregate (0-100)")
        ax.set_ylim(0, 100)
        ax.legend(fontsize=7, loc="lower right")
        ax.set_title("Scores with 95% intervals")
        out["scores"] = _png(fig)
    for name, prefix, suite, title in (
        ("robustness", "recovery_per_fault_", "robustness", "Recovery by fault kind"),
        ("dimensions", "per_dimension_", "variant", "Variant aggregate by HSA dimension"),
    ):
        grid = {
            c: {k[len(prefix) :]: v for k, v in s.metrics.items() if k.startswith(prefix)}
            for c in candidates(logs)
            for s in logs
            if s.candidate == c and s.suite == suite
        }
        grid = {c: g for c, g in grid.items() if g}
        if not grid:
            continue
        cols = sorted({k for g in grid.values() for k in g})
        data = [[grid[c].get(k, math.nan) for k in cols] for c in grid]
        fig, ax = plt.subplots(figsize=(7, 0.6 + 0.45 * len(grid)))
        im = ax.imshow(data, aspect="auto", cmap="viridis")
        ax.set_xticks(range(len(cols)), cols, rotation=35, ha="right", fontsize=8)
        ax.set_yticks(range(len(grid)), [c.name for c in grid], fontsize=8)
        for i, r in enumerate(data):
            for j, v in enumerate(r):
                if not math.isnan(v):
                    label = f"{v:.2f}" if v <= 1 else f"{v:.0f}"
                    ax.text(j, i, label, ha="center", va="center", fontsize=7, color="white")
        fig.colorbar(im, ax=ax)
        ax.set_title(title)
        out[name] = _png(fig)
    return out


# -- HTML and Markdown ---------------------------------------------------------------------------

_CSS = """
body{font-family:system-ui,sans-serif;margin:2rem;max-width:75rem;color:#222}
table{border-collapse:collapse;margin:1rem 0;font-size:.9rem}
th,td{border:1px solid #ccc;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#f3f3f3} .note{color:#8a5300} pre{white-space:pre-wrap;margin:0;max-width:40rem}
img{max-width:100%;margin:.5rem 0}
"""

_CHECK = """
window.addEventListener("load", () => {
  const imgs = Array.from(document.images);
  const ok = imgs.filter((i) => i.complete && i.naturalWidth > 0).length;
  document.body.setAttribute("data-images", ok + "/" + imgs.length);
});
"""
"""Records how many images decoded (``data-images="3/3"``), for a headless browser to read."""


def _table(header: Sequence[str], rows: Sequence[Sequence[str]], links: Sequence[str] = ()) -> str:
    """An HTML table; with ``links`` (one a row), cells preformatted and each last one linked."""
    e = html.escape
    head = "".join(f"<th>{e(h)}</th>" for h in header)
    body = []
    for i, r in enumerate(rows):
        if links:
            link = f'<a href="{e(links[i])}">open in inspect view</a>'
            cells = [f"<td><pre>{e(c)}</pre></td>" for c in r[:-1]]
            cells.append(f"<td><pre>{e(r[-1])}</pre>{link}</td>")
        else:
            cells = [f"<td>{e(c)}</td>" for c in r]
        body.append(f"<tr>{''.join(cells)}</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _regression_rows(page: Page) -> list[list[str]]:
    return [
        [
            r.candidate.name,
            r.suite,
            r.message,
            r.answer,
            "; ".join(f"{k}: {v}" for k, v in r.reasons.items()) or "(no reason recorded)",
            f"{r.location}  sample {r.sample_id} epoch {r.epoch}  "
            f"(inspect view --log-dir {Path(r.location).parent})",
        ]
        for r in page.regressions
    ]


REGRESSION_HEADER = ["candidate", "suite", "message", "answer", "why it failed", "sample"]

VIEW_URL = "http://127.0.0.1:7575/#/logs/{log}/samples/sample/{sample}/{epoch}"
"""Where ``inspect view --log-dir DIR`` (its default host and port) shows one sample."""


def view_url(r: Regression) -> str:
    """The Inspect viewer's address of a regression's sample (with its log folder served)."""
    from urllib.parse import quote

    return VIEW_URL.format(
        log=quote(Path(r.location).name), sample=quote(r.sample_id, safe=""), epoch=r.epoch
    )


def render_html(page: Page) -> str:
    """The page as one self-contained HTML document (every log text escaped)."""
    e = html.escape
    parts = [f"<h1>{e(page.title)}</h1>"]
    for note in page.notes:
        parts.append(f'<p class="note">{e(note)}</p>')
    parts.append("<h2>Main table</h2>")
    parts.append(
        "<p>Each cell: the mean with its 95% interval (a bootstrap over cases). Aggregates are "
        "0-100; IFEval, recovery and error reduction are percentages.</p>"
    )
    parts.append(_table(*main_rows(page)))
    for name, png in page.images.items():
        data = base64.b64encode(png).decode("ascii")
        parts.append(f'<img alt="{e(name)}" src="data:image/png;base64,{data}">')
    if page.comparisons and page.baseline is not None:
        parts.append(f"<h2>Compared with {e(page.baseline.name)}</h2>")
        parts.append(
            "<p>Paired differences over the cases both scored (candidate − baseline), a paired "
            "bootstrap interval and p-value, Holm-adjusted over every comparison on this page; "
            "MDD: the smallest true difference this many cases would detect (α 0.05, power "
            "0.8). A gap below it is inside the noise.</p>"
        )
        parts.append(_table(*comparison_rows(page)))
    if page.trials:
        parts.append("<h2>Repeated trials</h2>")
        parts.append(
            "<p>pass^k: the chance that k trials of a case all succeed (accuracy and safety "
            "passed), averaged over cases; flips: cases whose verdict differs between trials.</p>"
        )
        parts.append(_table(*trial_rows(page)))
    for title, header, rows in page.extras:
        parts.append(f"<h2>{e(title)}</h2>")
        parts.append(_table(header, rows))
    if page.baseline is not None:
        parts.append(f"<h2>Regressions against {e(page.baseline.name)}</h2>")
        if page.regressions:
            parts.append(
                "<p>Each sample opens in the Inspect viewer while `inspect view --log-dir "
                "LOG_FOLDER` runs on this machine (its default address).</p>"
            )
            links = [view_url(r) for r in page.regressions]
            parts.append(_table(REGRESSION_HEADER, _regression_rows(page), links))
        else:
            parts.append("<p>None: no case the baseline got right was got wrong.</p>")
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{e(page.title)}</title><style>{_CSS}</style></head><body>"
        + "\n".join(parts)
        + f"<script>{_CHECK}</script></body></html>\n"
    )


def _md_text(text: str) -> str:
    """Text for one Markdown line: whitespace folded, ``& < >`` as HTML entities.

    Markdown renderers pass raw HTML through, so a log's ``<script>`` must arrive escaped here
    too; an entity renders as the character it stands for.
    """
    return html.escape(" ".join(str(text).split()), quote=False)


def _md_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    def cell(text: str) -> str:
        return _md_text(text).replace("|", "\\|")

    lines = ["| " + " | ".join(cell(h) for h in header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell(c) for c in r) + " |" for r in rows]
    return "\n".join(lines)


def render_markdown(page: Page, image_files: dict[str, str]) -> str:
    """The page as Markdown; ``image_files`` maps a plot's name to its PNG file beside it."""
    out = [f"# {_md_text(page.title)}", ""]
    out += [f"> {_md_text(n)}" for n in page.notes]
    out += ["## Main table", "", _md_table(*main_rows(page)), ""]
    out += [f"![{name}]({file})" for name, file in image_files.items()]
    if page.comparisons and page.baseline is not None:
        out += [
            "",
            f"## Compared with {_md_text(page.baseline.name)}",
            "",
            _md_table(*comparison_rows(page)),
        ]
    if page.trials:
        out += ["", "## Repeated trials", "", _md_table(*trial_rows(page))]
    for title, header, rows in page.extras:
        out += ["", f"## {_md_text(title)}", "", _md_table(header, rows)]
    if page.baseline is not None:
        out += ["", f"## Regressions against {_md_text(page.baseline.name)}", ""]
        out.append(
            _md_table(REGRESSION_HEADER, _regression_rows(page)) if page.regressions else "None."
        )
    return "\n".join(out) + "\n"
