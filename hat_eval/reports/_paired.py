"""The reports' bootstrap intervals over cases, owned by :mod:`hat_eval.stats`.

``case_bootstrap`` and ``paired_bootstrap`` moved to ``hat_eval.stats`` (one owner for every
resampling scheme); they are re-exported here so ``hat_eval.reports`` keeps its public names.
"""

from hat_eval.stats import case_bootstrap, paired_bootstrap

__all__ = ["case_bootstrap", "paired_bootstrap"]
