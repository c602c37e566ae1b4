"""The oracle follows the changelog's edits: it states the facts an edit in force adds."""

from __future__ import annotations

from hat_eval.episode import episode_context, oracle_answer
from hat_eval.episode._claims import check_fact
from hat_eval.suites import suite_episodes


def test_under_an_edit_that_adds_a_fact_the_oracle_states_it() -> None:
    episodes = suite_episodes("evolution", n=60, versions="v2")
    added = 0
    for ep in episodes:
        ctx = episode_context(ep)
        answer = oracle_answer(ep, ctx).split("] ", 1)[-1]
        for fact in ep.case.facts:
            assert check_fact(ep.case, fact, answer, ctx.kb).value == 1.0, (ep.id, fact, answer)
        if "returns.window_days" in " ".join(f.source for f in ep.case.facts):
            added += ep.id.startswith("evolution-v2-") and ep.case.intent == "price"
    assert added > 0  # the v2 edit (the returns window with the price) was exercised


def test_without_an_added_fact_the_answer_is_the_reference_answer() -> None:
    from hat_eval.world import reference_answer

    for ep in suite_episodes("livestream", n=40):
        ctx = episode_context(ep)
        body = oracle_answer(ep, ctx)
        assert body.endswith(reference_answer(ep.case, ctx.kb)), ep.id
