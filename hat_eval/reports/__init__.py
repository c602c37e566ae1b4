"""Reports over Inspect logs (``hat_eval.reports``): the run summary, paired differences."""

from ._evolution import (
    EditInfo,
    EditRow,
    Estimate,
    EvolutionAnswer,
    EvolutionReport,
    evolution_report,
    evolution_table,
    log_evolution_report,
)
from ._paired import case_bootstrap, paired_bootstrap
from ._pairs import PairedDifference, case_key, paired_difference
from ._summary import HEADLINE, SummaryRow, summary_rows, summary_table

__all__ = [
    "EditInfo",
    "EditRow",
    "Estimate",
    "EvolutionAnswer",
    "EvolutionReport",
    "evolution_report",
    "evolution_table",
    "log_evolution_report",
    "HEADLINE",
    "PairedDifference",
    "SummaryRow",
    "case_bootstrap",
    "case_key",
    "paired_bootstrap",
    "paired_difference",
    "summary_rows",
    "summary_table",
]
