"""The Locust load harness (``hat_eval.loadtest``); it arrives with its own issue."""
