"""The progress lines of ``hat-eval run`` (:mod:`hat_eval.runner._progress` writes them)."""

from hat_eval.runner._progress import Progress, Retry, duration, every_s_from_env, watch

__all__ = ["Progress", "Retry", "duration", "every_s_from_env", "watch"]
