"""Statistics of hat-eval (``hat_eval.stats``): the one owner of every interval and test.

- Bootstraps over cases: :func:`case_bootstrap` (any statistic of the cases),
  :func:`paired_bootstrap` (a mean paired difference), built on :func:`bootstrap_indices` (the
  one resampling scheme) and :func:`percentile_interval`.
- Tests: :func:`paired_p_value` (the paired bootstrap's two-sided p-value) and :func:`holm`
  (Holm–Bonferroni adjustment over several comparisons).
- :func:`clustered_stderr`: the standard error of a mean when samples share a cluster, as
  Inspect's ``stderr(cluster=...)``.
- Planning and per-case estimators: :func:`min_detectable_difference`, :func:`pass_hat_k`,
  :func:`pass_at_k`.

NumPy loads inside the functions that need it: ``import hat_eval.stats`` stays light.
"""

from ._bootstrap import bootstrap_indices, case_bootstrap, paired_bootstrap, percentile_interval
from ._pass_k import pass_at_k, pass_hat_k
from ._power import min_detectable_difference
from ._stderr import clustered_stderr
from ._tests import holm, paired_p_value

__all__ = [
    "bootstrap_indices",
    "case_bootstrap",
    "clustered_stderr",
    "holm",
    "min_detectable_difference",
    "paired_bootstrap",
    "paired_p_value",
    "pass_at_k",
    "pass_hat_k",
    "percentile_interval",
]
