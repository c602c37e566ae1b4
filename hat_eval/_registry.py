"""Inspect AI entry point: importing this module registers hat-eval's tasks and models.

``inspect eval hat_eval/variant`` finds the suites through it, and the ``hat/`` provider makes
``hat/reference`` (the reference policy) and ``hat/memorized`` (the same policy frozen to the
default harness, the variant suite's positive control) model names Inspect knows.
"""

from hat_eval.suites._reference_policy import ReferencePolicy, hat_provider
from hat_eval.suites.ifeval.task import ifeval, ifeval_harness
from hat_eval.suites.livestream.task import livestream
from hat_eval.suites.robustness.task import robustness
from hat_eval.suites.variant.task import variant

__all__ = [
    "ReferencePolicy",
    "hat_provider",
    "ifeval",
    "ifeval_harness",
    "livestream",
    "robustness",
    "variant",
]
