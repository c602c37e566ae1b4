"""Reports over Inspect logs (``hat_eval.reports``); they arrive with their own issue."""
