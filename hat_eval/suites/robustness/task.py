"""Tool/Prompt Robustness as a registered Inspect task: ``inspect eval hat_eval/robustness``."""

from .._scorers import robustness_scorer
from .._tasks import case_suite_task

robustness = case_suite_task("robustness", robustness_scorer)
