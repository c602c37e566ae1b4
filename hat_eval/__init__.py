"""hat-eval: evaluation-first benchmarking for harness-aware live-commerce agents.

Data flows one way: harness -> augment (hsa) -> samples -> solver -> scorers -> logs -> report.
Import the area you need (``hat_eval.harness``, ``hat_eval.hsa``, ...); nothing heavy loads here.
"""

__version__ = "0.1.0"

__all__ = ["__version__"]
