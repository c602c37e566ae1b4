"""Reports over Inspect logs (``hat_eval.reports``).

The run summary, paired differences, the evolution report, and the candidates' comparison page
(``hat-eval report``).
"""

from ._build import (
    ReportFiles,
    build_report,
    run_gate,
)
from ._candidates import (
    Answer,
    ReportError,
    SuiteLog,
    read_logs,
    unreadable_reason,
)
from ._compare import (
    Comparison,
    Row,
    Trials,
    comparisons,
    gate,
    regressions,
    trials,
)
from ._evolution import (
    EditInfo,
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
    instrument_lines,
    instrument_rows,
    instrument_table,
    measure_instrument,
)
from ._page import (
    Page,
)
from ._paired import case_bootstrap, paired_bootstrap
from ._pairs import (
    case_key,
    paired_difference,
)
from ._summary import (
    SummaryRow,
    finished_samples,
    summary_rows,
    summary_table,
)

__all__ = [
    "instrument_lines",
    "instrument_rows",
    "instrument_table",
    "measure_instrument",
    "Answer",
    "Comparison",
    "Page",
    "ReportError",
    "ReportFiles",
    "Row",
    "SuiteLog",
    "Trials",
    "build_report",
    "comparisons",
    "gate",
    "read_logs",
    "regressions",
    "run_gate",
    "trials",
    "unreadable_reason",
    "EditInfo",
    "EvolutionAnswer",
    "EvolutionReport",
    "error_pairs",
    "error_reduction",
    "evolution_report",
    "evolution_table",
    "log_evolution_answers",
    "log_evolution_report",
    "SummaryRow",
    "finished_samples",
    "case_bootstrap",
    "case_key",
    "paired_bootstrap",
    "paired_difference",
    "summary_rows",
    "summary_table",
]
