"""The evaluation suites (``hat_eval.suites``) and the default harness under ``harnesses/``."""

from ._messages import viewer_messages

__all__ = ["viewer_messages"]
