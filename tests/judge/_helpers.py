"""What the judge's tests share: scripted ``mockllm/model`` graders, their replies, a scored answer.

Fixtures (an episode, two candidates' logs) are in ``conftest.py``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from inspect_ai.model import Model, ModelName, ModelOutput, get_model
from inspect_ai.scorer import Score, Target
from inspect_ai.solver import TaskState

from hat_eval._aio import run_blocking
from hat_eval.episode import Episode
from hat_eval.judge import load_rubric
from hat_eval.judge._judge_prompt import ANSWER_CLOSE, ANSWER_OPEN
from hat_eval.suites import to_sample

DIMS = list(load_rubric().dimensions)
"""The packaged rubric's dimensions."""
FENCED = re.compile(rf"{re.escape(ANSWER_OPEN)}\n(.*?)\n{re.escape(ANSWER_CLOSE)}", re.DOTALL)
"""The answers fenced in a judge prompt."""

run_async = run_blocking
"""Run a coroutine on a fresh event loop and close it (not ``asyncio.run``: see
:func:`hat_eval._aio.run_blocking`)."""


def output(text: str) -> ModelOutput:
    """A grader reply of ``text``."""
    return ModelOutput.from_content("mockllm/model", text)


def grader(outputs: Sequence[str | ModelOutput] | Callable[..., ModelOutput]) -> Model:
    """``mockllm/model`` replying ``outputs`` in turn, or what the function ``outputs`` returns.

    A function is called as Inspect calls a custom output: ``(input, tools, tool_choice,
    config)``.
    """
    if callable(outputs):
        custom: Any = outputs
    else:
        custom = [output(o) if isinstance(o, str) else o for o in outputs]
    return get_model("mockllm/model", custom_outputs=custom, memoize=False)


def ratings_json(
    score: int = 4,
    dims: Sequence[str] = DIMS,
    *,
    claims: Sequence[Mapping[str, Any]] | None = (),
) -> str:
    """A judge reply rating every dimension ``score`` (``claims`` None: no claims key)."""
    ratings = {d: {"score": score, "justification": f"{d} ok"} for d in dims}
    body: dict[str, Any] = {"ratings": ratings}
    if claims is not None:
        body["claims"] = list(claims)
    return json.dumps(body)


def preferences_json(winner: Callable[[str], str] | str, dims: Sequence[str]) -> str:
    """A pairwise reply: ``winner`` ("1", "2" or "tie", or a function of the dimension)."""
    pick = winner if callable(winner) else lambda _: winner
    return json.dumps(
        {"preferences": {d: {"winner": pick(d), "justification": "compared"} for d in dims}}
    )


def judge_answer(scorer: Any, episode: Episode, answer: str) -> Score:
    """``scorer``'s score of ``answer`` to ``episode``, as a suite sample answered with it."""
    sample = to_sample(episode)
    assert isinstance(sample.target, str)
    state = TaskState(
        model=ModelName("hat/reference"),
        sample_id=episode.id,
        epoch=1,
        input=episode.case.message,
        messages=[],
        target=Target(sample.target),
        output=ModelOutput.from_content("hat/reference", answer),
        metadata=dict(sample.metadata or {}),
    )
    result = run_async(scorer(state, Target(sample.target)))
    assert isinstance(result, Score)
    return result
