"""The judge's rubric file and the judge's answer format, both checked with pydantic.

The rubric (``hat_eval/judge/rubric.yaml``, or a team's copy) names the dimensions the judge
rates, each with a 1-5 scale. :func:`load_rubric` checks it and names the offending field when
it does not fit. :func:`parse_ratings` checks a grader's reply against :class:`JudgeOutput`
(``{"ratings": {dimension: {"score": 1-5, "justification": str}}}``) and the rubric's
dimensions, and raises :class:`JudgeOutputError` with a message the grader can act on.
"""

from __future__ import annotations

import json
import re
from importlib.resources import files
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from ._labels import RATING_SCALE

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


class JudgeOutput(BaseModel):
    """The JSON object the grader must reply with."""

    model_config = ConfigDict(extra="forbid")

    ratings: dict[str, JudgeRating]


def output_schema() -> dict[str, Any]:
    """The JSON schema of :class:`JudgeOutput` (shown to the grader)."""
    return JudgeOutput.model_json_schema()


_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL)


def parse_ratings(text: str, dimensions: list[str]) -> dict[str, JudgeRating]:
    """The ratings in a grader reply, one per rubric dimension.

    The reply may wrap the object in a fenced code block or surround it with prose; the
    outermost ``{...}`` is parsed.

    Raises:
        JudgeOutputError: no JSON object, an object that does not fit :class:`JudgeOutput`, or
            a dimension missing or not in the rubric.
    """
    fenced = _FENCE.search(text)
    body = fenced.group(1) if fenced else text
    start, end = body.find("{"), body.rfind("}")
    if start < 0 or end < start:
        raise JudgeOutputError(f"no JSON object in the reply (got {text[:80]!r})")
    try:
        out = JudgeOutput.model_validate_json(body[start : end + 1])
    except ValidationError as e:
        raise JudgeOutputError(f"the JSON does not fit the schema: {_first_error(e)}") from None
    missing = [d for d in dimensions if d not in out.ratings]
    extra = [d for d in out.ratings if d not in dimensions]
    if missing or extra:
        raise JudgeOutputError(
            f"ratings must have exactly the dimensions {dimensions}; missing {missing}, "
            f"not in the rubric {extra}"
        )
    return {d: out.ratings[d] for d in dimensions}
