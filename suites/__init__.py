"""The evaluation suites (``hat_eval.suites``) and the default harness under ``harnesses/``."""
