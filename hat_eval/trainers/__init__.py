"""The three HAT trainers on TRL (``hat_eval.trainers``); they arrive with their own issue."""
