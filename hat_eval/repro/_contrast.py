"""End-to-end measures, and their contrasts between models with paired case intervals.

An end-to-end run scores the base and every trained arm on the same cases of each suite. A
*measure* (:data:`E2E_MEASURES`) is one statistic of one suite over its cases: the mean of a
score key (Live-Stream QA's aggregate, IFEval's prompt-level strict accuracy), or the evolution
suite's error reduction (the share of answers wrong under the changelog's first version that are
right under its last, :func:`hat_eval.reports.error_reduction`). A *contrast* names the models it
compares, by arm: ``a-b`` (``a``'s statistic minus ``b``'s) or ``(a-b)-(c-d)`` (a difference of
differences). :func:`measure_contrast` computes it over the cases every model involved scored,
with a case-bootstrap interval (:func:`hat_eval.stats.case_bootstrap`: each case's scores under
every model are resampled together, so the contrast is paired), and the same statistic for each
training seed (the spread over seeds).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ._budget import ReproError

CaseValues = Mapping[str, tuple[float, ...]]
"""One model's scores on one measure, by case: ``(value,)`` for a mean, ``(first, last)``
errors for the error reduction."""


@dataclass(frozen=True)
class E2EMeasure:
    """One end-to-end measure: which suite, which score key, which statistic of the cases.

    Attributes:
        name: the measure's name (what claims and ``results.json`` call it).
        suite: the suite it reads.
        key: the score key of each case (``aggregate``, ``prompt_level_strict``, ``error``).
        statistic: ``mean`` of the key over cases, or ``error_reduction`` of the evolution
            suite's first- and last-version errors.
        column: the column of ``hat-eval report``'s main table that shows it for one run.
        description: what it is, in words.
    """

    name: str
    suite: str
    key: str
    statistic: Literal["mean", "error_reduction"]
    column: str
    description: str


E2E_MEASURES: dict[str, E2EMeasure] = {
    m.name: m
    for m in (
        E2EMeasure(
            "livestream_score",
            "livestream",
            "aggregate",
            "mean",
            "livestream",
            "Live-Stream QA: the checks' aggregate (0-100) per test case, mean over cases",
        ),
        E2EMeasure(
            "variant_score",
            "variant",
            "aggregate",
            "mean",
            "variant",
            "Harness-Variant QA: the aggregate (0-100) of the same cases under held-out "
            "harness variants, mean over cases",
        ),
        E2EMeasure(
            "ifeval_prompt_strict",
            "ifeval",
            "prompt_level_strict",
            "mean",
            "ifeval_prompt_level_strict",
            "IFEval prompt-level strict accuracy (0-1): the share of prompts whose every "
            "instruction was followed",
        ),
        E2EMeasure(
            "evolution_error_reduction",
            "evolution",
            "error",
            "error_reduction",
            "evolution",
            "Harness evolution: the share of answers wrong under the changelog's first version "
            "that are right under its last (the reference's error reduction)",
        ),
    )
}
"""The end-to-end measures, by name: the one list the runs, results and claims name."""

E2E_SPLIT = "test"
"""The split of every end-to-end measure: the suites' test cases."""

_ARM = r"([^()\-\s]+)"
_SIMPLE = re.compile(rf"{_ARM}-{_ARM}")
_DOUBLE = re.compile(rf"\({_ARM}-{_ARM}\)-\({_ARM}-{_ARM}\)")


def contrast_terms(contrast: str) -> tuple[tuple[str, str], ...]:
    """The pairs of models a contrast subtracts: ``a-b`` -> ``((a, b),)``; ``(a-b)-(c-d)`` -> two.

    Raises:
        ReproError: ``contrast`` is neither form (arm names hold no ``-``, brackets or spaces).
    """
    for pattern in (_SIMPLE, _DOUBLE):
        m = pattern.fullmatch(contrast)
        if m is not None:
            g = m.groups()
            return tuple((g[i], g[i + 1]) for i in range(0, len(g), 2))
    raise ReproError(
        f"contrast {contrast!r}: expected 'a-b' or '(a-b)-(c-d)' over arm names (no '-', "
        "brackets or spaces in a name)"
    )


def contrast_arms(contrast: str) -> tuple[str, ...]:
    """Every model a contrast reads, in the order it names them (each once)."""
    return tuple(dict.fromkeys(arm for pair in contrast_terms(contrast) for arm in pair))


def statistic(measure: E2EMeasure, rows: Sequence[tuple[float, ...]]) -> float:
    """The measure's statistic over some cases' values (NaN with none, or undefined)."""
    if not rows:
        return math.nan
    if measure.statistic == "mean":
        return math.fsum(r[0] for r in rows) / len(rows)
    from hat_eval.reports import error_reduction

    return error_reduction([(r[0], r[1]) for r in rows])


@dataclass(frozen=True)
class ContrastResult:
    """One measure's contrast between models: the statistic of each, the difference, its interval.

    Attributes:
        measure: a key of :data:`E2E_MEASURES`.
        split: :data:`E2E_SPLIT`.
        contrast: ``a-b`` or ``(a-b)-(c-d)``, over arm names.
        n: the cases every model of the contrast scored (the pairs).
        arms: each model's statistic over those cases (seeds averaged per case first).
        terms: each bracket's difference (one for ``a-b``, two for a difference of differences).
        diff: the contrast: the first term, minus the second when there is one.
        low: lower end of its case-bootstrap interval (NaN when ``n`` is 0).
        high: upper end.
        per_seed: the contrast with each training seed's models alone (the spread over seeds).
    """

    measure: str
    split: str
    contrast: str
    n: int
    arms: tuple[tuple[str, float], ...]
    terms: tuple[float, ...]
    diff: float
    low: float
    high: float
    per_seed: tuple[float, ...] = ()

    unit = "cases"
    """What ``n`` counts (a verdict's reason names it)."""

    def to_dict(self) -> dict[str, Any]:
        """Plain data for ``results.json`` (NaN as null)."""

        def num(x: float) -> float | None:
            return None if math.isnan(x) else x

        return {
            "measure": self.measure,
            "split": self.split,
            "contrast": self.contrast,
            "n": self.n,
            "arms": {a: num(v) for a, v in self.arms},
            "terms": [num(t) for t in self.terms],
            "diff": num(self.diff),
            "low": num(self.low),
            "high": num(self.high),
            "per_seed": [num(x) for x in self.per_seed],
            "spread": num(seed_spread(self.per_seed)),
            "description": E2E_MEASURES[self.measure].description
            if self.measure in E2E_MEASURES
            else "",
        }


def seed_spread(values: Sequence[float]) -> float:
    """The sample standard deviation of the per-seed values (NaN with fewer than two)."""
    import statistics

    kept = [v for v in values if not math.isnan(v)]
    return statistics.stdev(kept) if len(kept) >= 2 else math.nan


def _spec(measure: str) -> E2EMeasure:
    if measure not in E2E_MEASURES:
        raise ReproError(
            f"measure {measure!r}: not an end-to-end measure, expected one of "
            f"{', '.join(E2E_MEASURES)}"
        )
    return E2E_MEASURES[measure]


def _shared_cases(
    what: str, arms: Sequence[str], seeds: Sequence[Mapping[str, CaseValues]]
) -> list[str]:
    """The cases every model of ``arms`` scored in every seed, sorted.

    Raises:
        ReproError: no seed, or a model missing from a seed.
    """
    if not seeds:
        raise ReproError(f"{what}: no seed's scores to compare")
    for k, models in enumerate(seeds):
        missing = [a for a in arms if a not in models]
        if missing:
            raise ReproError(
                f"{what}: seed {k} has no scores of {', '.join(missing)}; expected every model "
                f"it names ({', '.join(arms)})"
            )
    common = set(seeds[0][arms[0]])
    for models in seeds:
        for a in arms:
            common &= set(models[a])
    return sorted(common)


def _pooled(
    arms: Sequence[str], seeds: Sequence[Mapping[str, CaseValues]], cases: Sequence[str]
) -> dict[str, list[tuple[float, ...]]]:
    """Each model's values on ``cases``, averaged over seeds case by case."""
    return {a: [_mean_rows([models[a][c] for models in seeds]) for c in cases] for a in arms}


def measure_contrast(
    measure: str,
    contrast: str,
    seeds: Sequence[Mapping[str, CaseValues]],
    *,
    n_boot: int = 2000,
    seed: int = 0,
    confidence: float = 0.95,
) -> ContrastResult:
    """``contrast`` on ``measure``: its value, paired case-bootstrap interval and per-seed values.

    ``seeds[k]`` maps each model (arm name) to its values on the measure with training seed
    ``k`` (the base, trained by no one, is the same in every seed). The cases are those every
    model of the contrast scored in every seed; a case's value for a model is its mean over
    seeds. The interval resamples cases (``n_boot`` resamples seeded with ``seed``): it is the
    uncertainty from the cases drawn; the spread over training seeds is ``per_seed``. No common
    case gives ``n = 0`` and NaN.

    Raises:
        ReproError: an unknown measure, a malformed contrast, no seed, or a model of the
            contrast missing from a seed.
    """
    from hat_eval.stats import case_bootstrap

    spec = _spec(measure)
    terms = contrast_terms(contrast)
    arms = contrast_arms(contrast)
    cases = _shared_cases(f"{measure} {contrast}", arms, seeds)
    nan = math.nan
    if not cases:
        return ContrastResult(
            measure, E2E_SPLIT, contrast, 0, tuple((a, nan) for a in arms), (), nan, nan, nan
        )
    pooled = _pooled(arms, seeds, cases)

    def value(by_arm: Mapping[str, Sequence[tuple[float, ...]]], idx: Sequence[int]) -> float:
        diffs = [
            statistic(spec, [by_arm[a][i] for i in idx])
            - statistic(spec, [by_arm[b][i] for i in idx])
            for a, b in terms
        ]
        return diffs[0] - diffs[1] if len(diffs) == 2 else diffs[0]

    diff, low, high = case_bootstrap(
        lambda idx: value(pooled, idx),
        len(cases),
        n_boot=n_boot,
        seed=seed,
        confidence=confidence,
    )
    everything = range(len(cases))
    per_seed = tuple(
        value({a: [models[a][c] for c in cases] for a in arms}, everything) for models in seeds
    )
    return ContrastResult(
        measure=measure,
        split=E2E_SPLIT,
        contrast=contrast,
        n=len(cases),
        arms=tuple((a, statistic(spec, pooled[a])) for a in arms),
        terms=tuple(statistic(spec, pooled[a]) - statistic(spec, pooled[b]) for a, b in terms),
        diff=diff,
        low=low,
        high=high,
        per_seed=per_seed,
    )


@dataclass(frozen=True)
class ArmEstimate:
    """One model's measure over the seeds: pooled value, its case interval, each seed's value.

    Attributes:
        measure: a key of :data:`E2E_MEASURES`.
        arm: the model.
        n: the cases it scored in every seed.
        value: the statistic over those cases, each case's values averaged over seeds first.
        low: lower end of its case-bootstrap interval (NaN when ``n`` is 0).
        high: upper end.
        per_seed: the statistic with each seed's model alone.
    """

    measure: str
    arm: str
    n: int
    value: float
    low: float
    high: float
    per_seed: tuple[float, ...]


def arm_estimate(
    measure: str,
    arm: str,
    seeds: Sequence[Mapping[str, CaseValues]],
    *,
    n_boot: int = 2000,
    seed: int = 0,
    confidence: float = 0.95,
) -> ArmEstimate:
    """``arm``'s ``measure`` pooled over seeds (per case), with its case-bootstrap interval.

    Raises:
        ReproError: an unknown measure, no seed, or ``arm`` missing from a seed.
    """
    from hat_eval.stats import case_bootstrap

    spec = _spec(measure)
    cases = _shared_cases(f"{measure} of {arm}", [arm], seeds)
    if not cases:
        return ArmEstimate(measure, arm, 0, math.nan, math.nan, math.nan, ())
    pooled = _pooled([arm], seeds, cases)[arm]
    value, low, high = case_bootstrap(
        lambda idx: statistic(spec, [pooled[i] for i in idx]),
        len(cases),
        n_boot=n_boot,
        seed=seed,
        confidence=confidence,
    )
    per_seed = tuple(statistic(spec, [models[arm][c] for c in cases]) for models in seeds)
    return ArmEstimate(measure, arm, len(cases), value, low, high, per_seed)


def _mean_rows(rows: Sequence[tuple[float, ...]]) -> tuple[float, ...]:
    """Element-wise mean of equal-length value tuples (one case's values over seeds)."""
    return tuple(math.fsum(col) / len(rows) for col in zip(*rows, strict=True))
