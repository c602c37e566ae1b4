"""Statistics of hat-eval (``hat_eval.stats``): the one owner of every interval and test.

- Bootstraps over cases: :func:`case_bootstrap` (any statistic of the cases),
  :func:`paired_bootstrap` (a mean paired difference), built on :func:`bootstrap_indices` (the
  one resampling scheme) and :func:`percentile_interval`.
- Tests: :func:`paired_p_value` (the paired bootstrap's two-sided p-value) and :func:`holm`
  (Holm–Bonferroni adjustment over several comparisons).
- Standard errors: :func:`mean_stderr` (Inspect's ``stderr()``), :func:`ratio_stderr` (a ratio
  of sums, prompts as clusters: IFEval's instruction-level accuracy).
- Proportions: :func:`wilson_interval` (a binomial proportion's interval) and
  :func:`sign_test` (paired preferences, ties left out).
- Planning and per-case estimators: :func:`min_detectable_difference`, :func:`pass_hat_k`.

NumPy loads inside the functions that need it: ``import hat_eval.stats`` stays light.
"""

from ._bootstrap import bootstrap_indices, case_bootstrap, paired_bootstrap, percentile_interval
from ._pass_k import pass_hat_k
from ._power import min_detectable_difference
from ._proportions import (
    sign_test,
    wilson_interval,
)
from ._stderr import mean_stderr, ratio_stderr
from ._tests import holm, paired_p_value

__all__ = [
    "bootstrap_indices",
    "case_bootstrap",
    "holm",
    "mean_stderr",
    "min_detectable_difference",
    "paired_bootstrap",
    "paired_p_value",
    "pass_hat_k",
    "percentile_interval",
    "ratio_stderr",
    "sign_test",
    "wilson_interval",
]
