"""The human-calibrated Agent-as-Judge (``hat_eval.judge``); it arrives with its own issue."""
