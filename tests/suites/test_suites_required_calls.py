"""Every required call of every built-in case is one the tool accepts (its schema owns that)."""

import pytest

from hat_eval.episode import episode_context
from hat_eval.suites import suite_episodes
from hat_eval.world import ToolInputError, check_arguments


@pytest.mark.parametrize("suite", ["livestream", "variant", "robustness", "evolution"])
@pytest.mark.parametrize("split", ["test", "dev", "train"])
def test_required_calls_validate_against_their_tools_schema(suite: str, split: str) -> None:
    bad = []
    for ep in suite_episodes(suite, split=split):
        kb = episode_context(ep).kb
        for call in ep.case.required_calls:
            try:
                check_arguments(kb, call.function, dict(call.args))
            except ToolInputError as err:
                bad.append(f"{ep.id} {call.function}: {err}")
    assert not bad, bad[:5]


def test_the_hand_off_reason_is_free() -> None:
    escalations = [e for e in suite_episodes("livestream") if e.case.intent == "escalation"]
    assert escalations
    for ep in escalations:
        (call,) = [c for c in ep.case.required_calls if c.function == "handoff.escalate"]
        assert call.free == ("reason",)
        assert call.matches("handoff.escalate", {**call.args, "reason": "any words of mine"})
