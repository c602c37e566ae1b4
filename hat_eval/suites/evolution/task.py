"""Harness Evolution as a registered Inspect task: ``inspect eval hat_eval/evolution``."""

from .._scorers import evolution_scorer
from .._tasks import case_suite_task

evolution = case_suite_task("evolution", evolution_scorer)
