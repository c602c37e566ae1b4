"""Live-Stream QA as a registered Inspect task: ``inspect eval hat_eval/livestream``."""

from .._scorers import livestream_scorer
from .._tasks import case_suite_task

livestream = case_suite_task("livestream", livestream_scorer)
