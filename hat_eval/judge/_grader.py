"""How a judge asks its grader: the model, its generation settings and where it finds the facts.

Shared by the answer judge (:func:`~hat_eval.judge.answer_judge`) and the pairwise judge
(:func:`~hat_eval.judge.pairwise_judge`): the settings check, the grader model, the seeded
temperature-0 config with the reply's token cap (:func:`judge_max_tokens`), and the tools or
lookups the grader is given in each mode.
"""

from __future__ import annotations

from dataclasses import dataclass

from inspect_ai.model import GenerateConfig, Model, get_model

from hat_eval.episode import Episode

from ._judge_prompt import JUDGE_MODES, GraderFacts, JudgeMode, lookups
from ._tools import DEFAULT_TOOL_TURNS, kb_tools

JUDGE_SEED = 20261203
"""The grader's seed unless configured (sample ``i`` of ``k`` uses ``seed + i``)."""
JUSTIFICATION_TOKENS = 96
"""Tokens of one dimension's entry in a reply: its name, score and a one- or two-sentence
justification (``{"factual_accuracy": {"score": 4, "justification": "..."}}``)."""
CLAIM_TOKENS = 48
"""Tokens of one claim in a reply: the claim, its verdict and the tool that decided it."""
MAX_CLAIMS = 12
"""Claims a reply lists at most in practice: an answer has at most 100 words (the harness's
answer limit), a dozen statements."""
REPLY_OVERHEAD_TOKENS = 64
"""Tokens of a reply's JSON frame (braces, keys) and end of turn."""


def judge_max_tokens(dimensions: int, *, claims: bool) -> int:
    """The most tokens a grader turn needs for the reply format (a token cap per turn).

    ``REPLY_OVERHEAD_TOKENS + dimensions * JUSTIFICATION_TOKENS`` and, when the reply must list
    the answer's claims (``agent`` mode), ``MAX_CLAIMS * CLAIM_TOKENS`` more: 1,120 tokens for
    the default rubric's five dimensions with claims, 544 without. Without a cap a local grader
    writes up to its default (Inspect's ``hf/``: 2,048 tokens a turn; minutes on a CPU). The
    grader model's own ``max_tokens`` or the judge's ``config`` overrides it.
    """
    return (
        REPLY_OVERHEAD_TOKENS
        + dimensions * JUSTIFICATION_TOKENS
        + (MAX_CLAIMS * CLAIM_TOKENS if claims else 0)
    )


def check_settings(mode: str, retries: int, k: int, max_tool_turns: int) -> None:
    """Raise ``ValueError`` (value, rule, fix) for settings no judge can run with."""
    if mode not in JUDGE_MODES:
        raise ValueError(f"mode {mode!r} is not one of {', '.join(JUDGE_MODES)}: pick one of them")
    if retries < 0:
        raise ValueError(f"retries ({retries}) must be at least 0: pass 0 for no retry")
    if k < 1:
        raise ValueError(f"k ({k}) must be at least 1: the number of judge samples per answer")
    if mode == "agent" and max_tool_turns < 1:
        raise ValueError(
            f"max_tool_turns ({max_tool_turns}) must be at least 1 in agent mode: use "
            "mode='lookups' for a grader that calls no tool"
        )


@dataclass(frozen=True)
class JudgeSettings:
    """How each answer is judged: the mode, retries, samples, generation and tool turns.

    The fields are :func:`~hat_eval.judge.answer_judge`'s arguments of the same names; they are
    checked on construction (:func:`check_settings`).
    """

    mode: JudgeMode = "agent"
    retries: int = 2
    k: int = 1
    config: GenerateConfig | None = None
    max_tool_turns: int = DEFAULT_TOOL_TURNS

    def __post_init__(self) -> None:
        check_settings(self.mode, self.retries, self.k, self.max_tool_turns)


def resolve_grader(model: str | Model | None, model_role: str) -> Model:
    """The grader: ``model`` when given, else the model bound to ``model_role``."""
    return get_model(model) if model is not None else get_model(role=model_role)  # a Model as is


def generate_config(
    grader: Model, config: GenerateConfig | None, sample: int, max_tokens: int | None = None
) -> GenerateConfig:
    """Temperature 0, seed :data:`JUDGE_SEED` + ``sample`` and the reply's token cap.

    ``max_tokens`` is :func:`judge_max_tokens` of the reply format; the grader's config and
    ``config`` override all three.
    """
    base = GenerateConfig(temperature=0.0, seed=JUDGE_SEED, max_tokens=max_tokens)
    base = base.merge(grader.config)
    base = base.merge(config or GenerateConfig())
    return base if base.seed is None else base.merge(GenerateConfig(seed=base.seed + sample))


def grader_facts(episode: Episode, mode: JudgeMode, max_tool_turns: int) -> GraderFacts:
    """Where the grader finds the facts in ``mode``.

    ``agent`` mode gives the episode's :func:`~hat_eval.judge._tools.kb_tools` and no lookups;
    ``lookups`` mode no tools and the results of :func:`lookups`.
    """
    if mode == "agent":
        return GraderFacts(mode, max_tool_turns, tools=kb_tools(episode))
    return GraderFacts(mode, max_tool_turns, evidence=lookups(episode))
