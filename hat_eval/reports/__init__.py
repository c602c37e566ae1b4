"""Reports over Inspect logs (``hat_eval.reports``).

The run summary, paired differences, the evolution report, and the candidates' comparison page
(``hat-eval report``).
"""

from ._build import ReportFiles, build_report, pick_baseline, run_gate
from ._candidates import (
    Answer,
    Candidate,
    ReportError,
    SuiteLog,
    check_same_data,
    read_logs,
    read_suite_log,
    unreadable_reason,
)
from ._compare import (
    Comparison,
    GateFailure,
    Regression,
    Row,
    Trials,
    comparisons,
    gate,
    main_table,
    regressions,
    trials,
)
from ._evolution import (
    EditInfo,
    EditRow,
    Estimate,
    EvolutionAnswer,
    EvolutionReport,
    error_pairs,
    error_reduction,
    evolution_report,
    evolution_table,
    log_evolution_answers,
    log_evolution_report,
)
from ._instrument import (
    InstrumentRow,
    instrument_lines,
    instrument_rows,
    instrument_table,
    measure_instrument,
)
from ._page import Page, render_html, render_markdown
from ._paired import case_bootstrap, paired_bootstrap
from ._pairs import PairedDifference, case_key, paired_difference
from ._summary import HEADLINE, SummaryRow, finished_samples, summary_rows, summary_table

__all__ = [
    "InstrumentRow",
    "instrument_lines",
    "instrument_rows",
    "instrument_table",
    "measure_instrument",
    "Answer",
    "Candidate",
    "Comparison",
    "GateFailure",
    "Page",
    "Regression",
    "ReportError",
    "ReportFiles",
    "Row",
    "SuiteLog",
    "Trials",
    "build_report",
    "check_same_data",
    "comparisons",
    "gate",
    "main_table",
    "pick_baseline",
    "read_logs",
    "read_suite_log",
    "regressions",
    "render_html",
    "render_markdown",
    "run_gate",
    "trials",
    "unreadable_reason",
    "EditInfo",
    "EditRow",
    "Estimate",
    "EvolutionAnswer",
    "EvolutionReport",
    "error_pairs",
    "error_reduction",
    "evolution_report",
    "evolution_table",
    "log_evolution_answers",
    "log_evolution_report",
    "HEADLINE",
    "PairedDifference",
    "SummaryRow",
    "finished_samples",
    "case_bootstrap",
    "case_key",
    "paired_bootstrap",
    "paired_difference",
    "summary_rows",
    "summary_table",
]
