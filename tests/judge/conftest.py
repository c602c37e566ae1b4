"""Fixtures of the judge's tests: a priced episode, two candidates' logs (helpers: ``_helpers``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hat_eval.episode import Episode
from hat_eval.suites import suite_episodes


@pytest.fixture(scope="module")
def episode() -> Episode:
    """A livestream case about a price."""
    return next(e for e in suite_episodes("livestream", n=10) if e.case.intent == "price")


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """candidate A: hat/reference on livestream; B: hat/memorized on variant (same 6 cases).

    ``a`` and ``b`` are the logs' paths; ``a_answers`` and ``b_answers`` their answers by case.
    """
    from inspect_ai import eval as inspect_eval

    import hat_eval._registry  # noqa: F401  (registers the hat/ models)
    from hat_eval.suites import suite_task

    out: dict[str, Any] = {}
    for name, suite, model in (
        ("a", "livestream", "hat/reference"),
        ("b", "variant", "hat/memorized"),
    ):
        (log,) = inspect_eval(
            suite_task(suite, n=6),
            model=model,
            log_dir=str(tmp_path_factory.mktemp(name)),
            display="none",
        )
        assert log.status == "success"
        out[name] = Path(log.location)
        out[f"{name}_answers"] = {
            str(s.id).split("-", 1)[1]: s.output.completion for s in log.samples or []
        }
    return out
