"""The Agent-as-Judge as an async function of an episode and an answer: :func:`answer_judge`.

The grader is shown the case (viewer message, product on screen, time), the tool calls the
agent made, the answer (as delimited untrusted content) and the rubric, and asked for one 1-5
rating with a justification per rubric dimension as JSON. Two modes:

- ``agent`` (the default): the grader gets read-only tools over the sample's knowledge base
  and live session (:func:`~hat_eval.judge._tools.kb_tools`: product and SKU lookup, stock,
  promotions and final price, shipping and returns, compliance rules), may call them for a bounded
  number of turns, and must list each claim of the answer with its verdict (supported, contradicted,
  unverifiable) and the tool whose result decided it;
- ``lookups`` (the first version): the grader is shown the knowledge-base results of the
  case's expected lookups, computed beforehand, and calls no tool.

The reply is checked against :class:`~hat_eval.judge.JudgeOutput`; a malformed reply is retried
with the error shown, and one still malformed after the retries is a recorded failure (NaN,
``judge_error``), never a default score. The bias audit calls this judge directly; the scorer
:func:`~hat_eval.judge.agent_judge` wraps it for Inspect.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from inspect_ai.model import GenerateConfig, Model

from hat_eval.episode import CallRecord, Episode

from ._grader import (
    JudgeSettings,
    generate_config,
    grader_facts,
    judge_max_tokens,
    resolve_grader,
)
from ._judge_cache import JudgeCache, JudgeCosts, cache_key
from ._judge_prompt import JudgeMode, judge_prompt
from ._rubric import (
    CLAIM_VERDICTS,
    JudgeClaim,
    JudgeOutput,
    JudgeRating,
    Rubric,
    load_rubric,
    parse_judgement,
)
from ._tools import DEFAULT_TOOL_TURNS, ToolCallRecord, converse


@dataclass(frozen=True)
class Judgement:
    """The judge's verdict on one answer: ``k`` samples' ratings and claims, and their costs.

    ``means`` holds each rubric dimension's mean rating over the valid samples (NaN when none
    was valid); ``ratings[dim]`` every valid sample's rating; ``claims`` every valid sample's
    claims (empty lists in ``lookups`` mode unless the grader gave some); ``errors`` the last
    error of each sample that stayed malformed; ``error`` is set when no sample was valid.
    """

    means: dict[str, float]
    ratings: dict[str, list[JudgeRating]]
    claims: list[list[JudgeClaim]]
    tool_calls: list[ToolCallRecord]
    costs: JudgeCosts
    errors: list[str] = field(default_factory=list)
    error: str | None = None
    cached: bool = False
    model: str = ""
    mode: JudgeMode = "agent"

    @property
    def overall(self) -> float:
        """The mean of the dimensions' mean ratings (NaN when the judge failed)."""
        values = [v for v in self.means.values() if not math.isnan(v)]
        return math.fsum(values) / len(values) if values else math.nan

    def claim_counts(self) -> dict[str, int]:
        """How many claims of each verdict, over the valid samples."""
        counts = Counter(c.verdict for sample in self.claims for c in sample)
        return {verdict: counts[verdict] for verdict in CLAIM_VERDICTS}


class AnswerJudge(Protocol):
    """A judge of one answer to one episode (what :func:`answer_judge` returns)."""

    async def __call__(
        self, episode: Episode, answer: str, records: Sequence[CallRecord] = ()
    ) -> Judgement:
        """Judge ``answer`` to ``episode`` (the agent's tool calls in ``records``)."""
        ...


def answer_judge(
    *,
    model: str | Model | None = None,
    model_role: str = "grader",
    rubric: str | None = None,
    mode: JudgeMode = "agent",
    retries: int = 2,
    k: int = 1,
    config: GenerateConfig | None = None,
    cache_dir: str | None = None,
    max_tool_turns: int = DEFAULT_TOOL_TURNS,
) -> AnswerJudge:
    """The judge as an async function of an episode and an answer.

    :func:`~hat_eval.judge.agent_judge` is the same judge as an Inspect scorer.

    Args:
        model: the grader; takes precedence over ``model_role``.
        model_role: the model role that gives the grader (default ``grader``; without a
            binding, Inspect's default model).
        rubric: a rubric file (None: the packaged ``hat_eval/judge/rubric.yaml``).
        mode: ``agent`` (the grader calls read-only knowledge-base tools and checks each
            claim) or ``lookups`` (it is shown the expected lookups' results).
        retries: how many times a malformed reply is retried (the error is shown to the
            grader); after that the sample is a recorded failure.
        k: judge samples per answer (seeds ``seed``, ``seed + 1``, ...), averaged (mean).
        config: generation settings for the grader; by default temperature 0 and seed
            :data:`~hat_eval.judge._grader.JUDGE_SEED`, under the grader model's own config and this
            one.
        cache_dir: a folder for ``judge_cache.json``; a cached answer is not judged again.
        max_tool_turns: tool turns the grader gets before it must reply (``agent`` mode).

    Raises:
        ValueError: an unknown mode, ``retries`` below 0, ``k`` below 1, or no tool turn in
            ``agent`` mode.
    """
    settings = JudgeSettings(
        mode=mode, retries=retries, k=k, config=config, max_tool_turns=max_tool_turns
    )
    spec = load_rubric(rubric)
    dims = list(spec.dimensions)
    cache = JudgeCache(cache_dir) if cache_dir else None

    async def run(episode: Episode, answer: str, records: Sequence[CallRecord] = ()) -> Judgement:
        grader = resolve_grader(model, model_role)
        case = episode.case
        key = cache_key(spec, answer, case.id, case.message, str(grader), k, mode, max_tool_turns)
        entry = cache.get(key) if cache is not None else None
        if entry is not None:
            return _judgement(entry, dims, cached=True, model=str(grader), mode=mode)
        entry = await _judge(grader, spec, episode, answer, records, settings)
        if cache is not None and "judge_error" not in entry:
            cache.put(key, entry)
        return _judgement(entry, dims, cached=False, model=str(grader), mode=mode)

    return run


def _judgement(
    entry: Mapping[str, Any], dims: list[str], *, cached: bool, model: str, mode: JudgeMode
) -> Judgement:
    ratings = {
        d: [JudgeRating.model_validate(r) for r in entry["ratings"].get(d, [])] for d in dims
    }
    means = {
        d: math.fsum(r.score for r in rs) / len(rs) if rs else math.nan for d, rs in ratings.items()
    }
    costs = JudgeCosts() if cached else JudgeCosts(**entry["costs"])
    return Judgement(
        means=means,
        ratings=ratings,
        claims=[[JudgeClaim.model_validate(c) for c in s] for s in entry.get("claims", [])],
        tool_calls=[] if cached else [ToolCallRecord(**c) for c in entry.get("tool_calls", [])],
        costs=costs,
        errors=list(entry.get("errors", [])),
        error=entry.get("judge_error"),
        cached=cached,
        model=model,
        mode=mode,
    )


async def _judge(
    grader: Model,
    spec: Rubric,
    episode: Episode,
    answer: str,
    records: Sequence[CallRecord],
    settings: JudgeSettings,
) -> dict[str, Any]:
    """Run ``settings.k`` judge samples: the cache entry (plain data) of their outcome."""
    dims = list(spec.dimensions)
    facts = grader_facts(episode, settings.mode, settings.max_tool_turns)
    prompt = judge_prompt(spec, episode, answer, facts, records)
    tools = facts.tools

    def parse(text: str) -> JudgeOutput:
        return parse_judgement(
            text,
            dims,
            claims_required=tools is not None,
            tools=tools.names if tools is not None else None,
        )

    max_tokens = judge_max_tokens(len(dims), claims=tools is not None)
    started = time.perf_counter()
    draws = [
        await converse(
            grader,
            prompt,
            parse,
            retries=settings.retries,
            config=generate_config(grader, settings.config, i, max_tokens),
            tools=tools,
            max_tool_turns=settings.max_tool_turns,
        )
        for i in range(settings.k)
    ]
    costs = JudgeCosts.of(draws, time.perf_counter() - started)
    good = [d.parsed for d in draws if d.parsed is not None]
    entry: dict[str, Any] = {
        "ratings": {dim: [r.ratings[dim].model_dump() for r in good] for dim in dims},
        "claims": [[c.model_dump() for c in r.claims or []] for r in good],
        "tool_calls": [c.to_dict() for d in draws for c in d.tool_calls],
        "costs": costs.to_dict(),
    }
    errors = [d.error or "no reply" for d in draws if d.parsed is None]
    if errors:
        entry["errors"] = errors
    if not good:
        entry["judge_error"] = (
            f"no valid reply in {settings.retries + 1} attempts per sample ({settings.k} "
            f"samples); last error: {errors[-1]}"
        )
    return entry
