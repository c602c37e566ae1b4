"""Reports over Inspect logs (``hat_eval.reports``).

The run summary, paired differences, the evolution report, and the candidates' comparison page
(``hat-eval report``).
"""

from ._build import build_report, run_gate
from ._candidates import ReportError, SuiteLog, read_logs, unreadable_reason
from ._evolution import (
    error_pairs,
    error_reduction,
    evolution_table,
    log_evolution_answers,
    log_evolution_report,
)
from ._instrument import instrument_lines, measure_instrument
from ._pairs import case_key, paired_difference
from ._summary import finished_samples, summary_rows, summary_table

__all__ = [
    "instrument_lines",
    "measure_instrument",
    "ReportError",
    "SuiteLog",
    "build_report",
    "read_logs",
    "run_gate",
    "unreadable_reason",
    "error_pairs",
    "error_reduction",
    "evolution_table",
    "log_evolution_answers",
    "log_evolution_report",
    "finished_samples",
    "case_key",
    "paired_difference",
    "summary_rows",
    "summary_table",
]
