"""The built-in policies (``hat_eval.baselines``): every ``hat/`` model, no weights, no network.

``hat/reference`` (:class:`ReferencePolicy`) is the rule-based policy that reads what a model is
given (the rendered prompt, the tools' descriptions, the tool results): the embedded default of
``hat-eval run``. ``hat/memorized`` is the same policy frozen to the default harness, the
``variant`` suite's positive control. ``hat/oracle`` (:class:`OraclePolicy`) plays each sample's
gold back, the instrument's ceiling. :func:`hat_provider` registers them with Inspect as the
``hat/`` provider (through ``hat_eval._registry``).

The policies sit above the suites (the oracle reads the running sample's episode with
:func:`hat_eval.suites.episode_of`); nothing below imports them. Importing this package loads
Inspect.
"""

from ._oracle import RETRIES, OraclePolicy
from ._provider import hat_provider
from ._read import read_intent
from ._reference_policy import ReferencePolicy

__all__ = [
    "RETRIES",
    "OraclePolicy",
    "ReferencePolicy",
    "hat_provider",
    "read_intent",
]
