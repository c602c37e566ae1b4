"""The judge's rubric file and the judge's answer format, both checked with pydantic.

The rubric (``hat_eval/judge/rubric.yaml``, or a team's copy) names the dimensions the judge
rates, each with a 1-5 scale. :func:`load_rubric` checks it and names the offending field when
it does not fit. :func:`parse_judgement` checks a grader's reply against :class:`JudgeOutput`
(``{"ratings": {dimension: {"score": 1-5, "justification": str}}, "claims": [...]}``; the
``claims`` list, each claim of the answer with its verdict against the world and the tool that
decided it, is optional unless asked for, so replies of the first version still fit) and the
rubric's dimensions, and raises :class:`JudgeOutputError` with a message the grader can act on.
:func:`parse_preferences` does the same for a pairwise reply (:class:`PairwiseOutput`).
"""

from __future__ import annotations

import json
import re
from importlib.resources import files
from pathlib import Path
from typing import Annotated, Any, Literal, TypeAlias, get_args

import yaml
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, field_validator

from ._labels import RATING_SCALE, _whole_as_text

SCALE = RATING_SCALE
"""The rating scale every dimension uses (the human labels' scale)."""
DEFAULT_RUBRIC = "rubric.yaml"
"""The packaged rubric's file name in ``hat_eval.judge``."""


class RubricError(ValueError):
    """A rubric file that cannot be read or does not fit :class:`Rubric`."""


class JudgeOutputError(ValueError):
    """A grader reply that is not the JSON object :class:`JudgeOutput` describes."""


class Dimension(BaseModel):
    """One rated dimension: what it measures and what each point of the 1-5 scale means."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    description: str = Field(min_length=1)
    scale: dict[int, str]

    @field_validator("scale")
    @classmethod
    def _whole_scale(cls, scale: dict[int, str]) -> dict[int, str]:
        if tuple(sorted(scale)) != SCALE:
            raise ValueError(
                f"scale has points {sorted(scale)}, expected exactly {list(SCALE)}: "
                "describe each point 1-5 once"
            )
        return scale


class Rubric(BaseModel):
    """A rubric file: the judge's instructions and its dimensions (name -> :class:`Dimension`)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    version: int = 1
    instructions: str = Field(min_length=1)
    dimensions: dict[str, Dimension] = Field(min_length=1)

    @field_validator("dimensions")
    @classmethod
    def _names(cls, dimensions: dict[str, Dimension]) -> dict[str, Dimension]:
        bad = [n for n in dimensions if not re.fullmatch(r"[a-z][a-z0-9_]*", n)]
        if bad:
            raise ValueError(
                f"dimension names {bad} are not snake_case identifiers: use e.g. factual_accuracy"
            )
        return dimensions

    def canonical(self) -> str:
        """The rubric as canonical JSON (what the judge's cache key hashes)."""
        return json.dumps(self.model_dump(mode="json"), sort_keys=True, ensure_ascii=False)

    def render(self) -> str:
        """The dimensions and their scales as the judge's prompt shows them."""
        lines = []
        for name, dim in self.dimensions.items():
            lines.append(f"- {name}: {dim.description}")
            lines += [f"    {point}: {dim.scale[point]}" for point in SCALE]
        return "\n".join(lines)


def _first_error(err: ValidationError) -> str:
    first = err.errors()[0]
    field = ".".join(str(p) for p in first["loc"]) or "(top level)"
    return f"field {field}: {first['msg']} (got {first.get('input')!r})"


def load_rubric(path: str | Path | None = None) -> Rubric:
    """The rubric at ``path`` (None: the packaged ``hat_eval/judge/rubric.yaml``).

    Raises:
        RubricError: the file is missing, is not YAML, or does not fit :class:`Rubric`; the
            message names the file and the first offending field.
    """
    if path is None:
        text = files("hat_eval.judge").joinpath(DEFAULT_RUBRIC).read_text(encoding="utf-8")
        where = f"packaged {DEFAULT_RUBRIC}"
    else:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as e:
            raise RubricError(f"rubric {path}: cannot read it ({e.strerror})") from None
        where = str(path)
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as e:
        raise RubricError(f"rubric {where}: not valid YAML ({e})") from None
    try:
        return Rubric.model_validate(data)
    except ValidationError as e:
        raise RubricError(
            f"rubric {where}: {_first_error(e)}; fix the file (see hat_eval/judge/rubric.yaml)"
        ) from None


class JudgeRating(BaseModel):
    """One dimension's rating in a grader reply."""

    model_config = ConfigDict(extra="forbid")

    score: int = Field(ge=RATING_SCALE[0], le=RATING_SCALE[-1])
    justification: str = Field(min_length=1)


ClaimVerdict: TypeAlias = Literal["supported", "contradicted", "unverifiable"]
"""A claim checked against the world: a tool result confirms it, refutes it, or none decides it."""
CLAIM_VERDICTS: tuple[ClaimVerdict, ...] = get_args(ClaimVerdict)

Winner: TypeAlias = Literal["1", "2", "tie"]
"""A pairwise reply's verdict on one dimension: the answer shown first, second, or neither."""


class JudgeClaim(BaseModel):
    """One claim of the answer and the grader's verdict on it."""

    model_config = ConfigDict(extra="forbid")

    claim: str = Field(min_length=1)
    verdict: ClaimVerdict
    evidence: str | None = None
    """The tool whose result decided the verdict (None: no tool decided it)."""


class JudgeOutput(BaseModel):
    """The JSON object the grader must reply with."""

    model_config = ConfigDict(extra="forbid")

    ratings: dict[str, JudgeRating]
    claims: list[JudgeClaim] | None = None
    """Each claim of the answer checked against the world (asked for in ``agent`` mode)."""


class PairwiseChoice(BaseModel):
    """One dimension's verdict in a pairwise reply."""

    model_config = ConfigDict(extra="forbid")

    winner: Annotated[Winner, BeforeValidator(_whole_as_text)]
    justification: str = Field(min_length=1)


class PairwiseOutput(BaseModel):
    """The JSON object a pairwise grader must reply with."""

    model_config = ConfigDict(extra="forbid")

    preferences: dict[str, PairwiseChoice]


def output_schema(*, claims: bool = False) -> dict[str, Any]:
    """The JSON schema of :class:`JudgeOutput` (shown to the grader).

    Args:
        claims: make ``claims`` required (the ``agent`` mode asks for it).
    """
    schema = JudgeOutput.model_json_schema()
    if claims:
        schema["required"] = [*schema.get("required", []), "claims"]
        schema["properties"]["claims"] = {
            "type": "array",
            "items": {"$ref": "#/$defs/JudgeClaim"},
        }
    return schema


_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL)


def _json_body(text: str) -> str:
    fenced = _FENCE.search(text)
    body = fenced.group(1) if fenced else text
    start, end = body.find("{"), body.rfind("}")
    if start < 0 or end < start:
        raise JudgeOutputError(f"no JSON object in the reply (got {text[:80]!r})")
    return body[start : end + 1]


def _same_keys(kind: str, got: dict[str, Any], dimensions: list[str]) -> None:
    missing = [d for d in dimensions if d not in got]
    extra = [d for d in got if d not in dimensions]
    if missing or extra:
        raise JudgeOutputError(
            f"{kind} must have exactly the dimensions {dimensions}; missing {missing}, "
            f"not in the rubric {extra}"
        )


def parse_judgement(
    text: str,
    dimensions: list[str],
    *,
    claims_required: bool = False,
    tools: dict[str, str] | None = None,
) -> JudgeOutput:
    """The grader's reply: one rating per rubric dimension and, when asked, the claims.

    The reply may wrap the object in a fenced code block or surround it with prose; the
    outermost ``{...}`` is parsed. The ratings come back in the rubric's order.

    Args:
        text: the reply.
        dimensions: the rubric's dimensions, each of which must be rated (and no other).
        claims_required: the reply must hold ``claims`` (an empty list when the answer makes
            no claim about the world).
        tools: the tools the grader had (any name it may cite -> the tool's name). A
            supported or contradicted claim must then cite one of them as ``evidence``;
            the evidence is normalised to the tool's name.

    Raises:
        JudgeOutputError: no JSON object, an object that does not fit :class:`JudgeOutput`, a
            dimension missing or not in the rubric, no ``claims`` when required, or a decided
            claim whose evidence names no tool the grader had.
    """
    try:
        out = JudgeOutput.model_validate_json(_json_body(text))
    except ValidationError as e:
        raise JudgeOutputError(f"the JSON does not fit the schema: {_first_error(e)}") from None
    _same_keys("ratings", out.ratings, dimensions)
    if claims_required and out.claims is None:
        raise JudgeOutputError(
            "field claims is missing: list each claim of the answer as "
            '{"claim", "verdict": supported|contradicted|unverifiable, "evidence": tool name} '
            "([] when the answer states nothing about the world)"
        )
    claims = out.claims
    if tools is not None and claims is not None:
        checked = []
        for i, c in enumerate(claims, start=1):
            if c.verdict == "unverifiable" and c.evidence is None:
                checked.append(c)
                continue
            if c.evidence not in tools:
                raise JudgeOutputError(
                    f"claims[{i}] ({c.verdict}) cites evidence {c.evidence!r}, which is not one "
                    f"of your tools {sorted(set(tools.values()))}: name the tool whose result "
                    "decided it, or mark the claim unverifiable"
                )
            checked.append(c.model_copy(update={"evidence": tools[c.evidence]}))
        claims = checked
    return JudgeOutput(ratings={d: out.ratings[d] for d in dimensions}, claims=claims)


def parse_preferences(text: str, dimensions: list[str]) -> dict[str, PairwiseChoice]:
    """The verdicts in a pairwise reply, one per pairwise dimension, in ``dimensions`` order.

    Raises:
        JudgeOutputError: no JSON object, an object that does not fit :class:`PairwiseOutput`
            (a winner other than "1", "2" or "tie"), or a dimension missing or unknown.
    """
    try:
        out = PairwiseOutput.model_validate_json(_json_body(text))
    except ValidationError as e:
        raise JudgeOutputError(f"the JSON does not fit the schema: {_first_error(e)}") from None
    _same_keys("preferences", out.preferences, dimensions)
    return {d: out.preferences[d] for d in dimensions}
