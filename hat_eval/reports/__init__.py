"""Reports over Inspect logs (``hat_eval.reports``): today the run summary; more with its issue."""

from ._summary import HEADLINE, SummaryRow, summary_rows, summary_table

__all__ = ["HEADLINE", "SummaryRow", "summary_rows", "summary_table"]
