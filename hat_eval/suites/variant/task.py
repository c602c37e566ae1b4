"""Harness-Variant QA as a registered Inspect task: ``inspect eval hat_eval/variant``."""

from .._scorers import variant_scorer
from .._tasks import case_suite_task

variant = case_suite_task("variant", variant_scorer)
