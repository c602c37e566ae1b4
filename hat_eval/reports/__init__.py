"""Reports over Inspect logs (``hat_eval.reports``): the run summary, paired differences."""

from ._paired import paired_bootstrap
from ._pairs import PairedDifference, case_key, paired_difference
from ._summary import HEADLINE, SummaryRow, summary_rows, summary_table

__all__ = [
    "HEADLINE",
    "PairedDifference",
    "SummaryRow",
    "case_key",
    "paired_bootstrap",
    "paired_difference",
    "summary_rows",
    "summary_table",
]
