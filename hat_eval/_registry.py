"""Inspect AI entry point: importing this module registers hat-eval's tasks and models.

``inspect eval hat_eval/variant`` finds the suites through it, and the ``hat/`` provider makes
``hat/reference`` (the reference policy), ``hat/memorized`` (the same policy frozen to the
default harness, the variant suite's positive control) and ``hat/oracle`` (the gold played
back, the instrument's ceiling) model names Inspect knows; the policies are
:mod:`hat_eval.baselines`.
"""

from hat_eval.baselines import OraclePolicy, ReferencePolicy, hat_provider
from hat_eval.suites.evolution.task import evolution
from hat_eval.suites.ifeval.task import ifeval, ifeval_harness
from hat_eval.suites.livestream.task import livestream
from hat_eval.suites.robustness.task import robustness
from hat_eval.suites.variant.task import variant

__all__ = [
    "OraclePolicy",
    "ReferencePolicy",
    "evolution",
    "hat_provider",
    "ifeval",
    "ifeval_harness",
    "livestream",
    "robustness",
    "variant",
]
