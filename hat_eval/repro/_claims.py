"""The reference's claims as data, and the verdict a run's measures give each.

The reference (arXiv 2608.15763) reports end-to-end numbers; a claim here names the measure that
would test it (measure, split, contrast), the sign of the contrast it predicts, and the least
budget that measures it. Two claims are token-level readings of the variant claim, which the
``cpu-30m`` budget measures teacher-forced (:mod:`._probe`); the end-to-end ones need the suites
run on a model that answers (:mod:`._contrast`: the ``gpu`` and ``full`` budgets, and
``smoke-e2e``, whose handful of cases resolves nothing). An end-to-end contrast names the models
by arm (:data:`~hat_eval.repro._e2e_arms.E2E_ARM_IDS`): ``hsa_sft+opd+rl`` is HAT (HSA-SFT, then
general OPD, then HSA-RL), ``fixed_sft`` plain SFT on the fixed harness.

A verdict reads the measure's interval (:func:`judge`):

- ``supported``: the interval excludes 0 on the side the claim predicts;
- ``contradicted``: it excludes 0 on the other side;
- ``not resolved at this budget``: the interval holds 0 (its ends included), the measure has
  fewer than :data:`MIN_PAIRS` pairs or no interval, or the run did not measure it at all.

Nothing else is asserted: a claim the run did not measure says so and which budget would.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from ._probe import CONTRAST

Verdict = Literal["supported", "contradicted", "not resolved at this budget"]
SUPPORTED: Verdict = "supported"
CONTRADICTED: Verdict = "contradicted"
UNRESOLVED: Verdict = "not resolved at this budget"
VERDICTS: tuple[Verdict, ...] = (SUPPORTED, CONTRADICTED, UNRESOLVED)

MIN_PAIRS = 10
"""Fewest paired cases an interval must rest on before a verdict reads it (fewer: unresolved)."""


class Measured(Protocol):
    """What a verdict reads: a contrast's value and interval over ``n`` pairs.

    The probe's :class:`~hat_eval.repro._probe.MeasureResult` (pairs of transcripts) and the
    end-to-end :class:`~hat_eval.repro._contrast.ContrastResult` (pairs of cases) both are.
    """

    @property
    def measure(self) -> str:
        """The measure's name."""
        ...

    @property
    def split(self) -> str:
        """Its split."""
        ...

    @property
    def contrast(self) -> str:
        """The difference it is."""
        ...

    @property
    def n(self) -> int:
        """The pairs it rests on."""
        ...

    @property
    def diff(self) -> float:
        """The contrast's value."""
        ...

    @property
    def low(self) -> float:
        """Lower end of its interval."""
        ...

    @property
    def high(self) -> float:
        """Upper end of its interval."""
        ...

    @property
    def unit(self) -> str:
        """What ``n`` counts (``transcripts``, ``cases``)."""
        ...

    def to_dict(self) -> dict[str, Any]:
        """Plain data."""
        ...


@dataclass(frozen=True)
class Claim:
    """One claim of the reference and the measure that tests it.

    Attributes:
        id: a short stable name.
        statement: what the claim says, in the words a verdict is read against.
        reference: the reference's own numbers behind it.
        measure: the measure that tests it (a probe measure, or an end-to-end one).
        split: the split of that measure.
        contrast: the difference it reads (``a-b``: model ``a`` minus model ``b``).
        expected: the sign the claim predicts for the contrast: ``higher`` (> 0) or ``lower``.
        budget: the least budget that measures it.
    """

    id: str
    statement: str
    reference: str
    measure: str
    split: str
    contrast: str
    expected: Literal["higher", "lower"]
    budget: str

    def to_dict(self) -> dict[str, Any]:
        """Plain data for ``results.json``."""
        return {
            "id": self.id,
            "statement": self.statement,
            "reference": self.reference,
            "measure": self.measure,
            "split": self.split,
            "contrast": self.contrast,
            "expected": self.expected,
            "budget": self.budget,
        }


CLAIMS: tuple[Claim, ...] = (
    Claim(
        id="renamed-tools",
        statement="HSA-SFT follows renamed tools better than fixed-harness SFT: higher tool-name "
        "token accuracy on the tools a held-out variant renamed",
        reference="Harness-Variant QA 94.6 after HAT training (base 75.4); its token-level "
        "mechanism",
        measure="tool_name_accuracy",
        split="variant-renamed",
        contrast=CONTRAST,
        expected="higher",
        budget="cpu-30m",
    ),
    Claim(
        id="renamed-skills",
        statement="HSA-SFT follows renamed skills better than fixed-harness SFT: higher skill-id "
        "token accuracy on the skills a held-out variant renamed",
        reference="Harness-Variant QA 94.6 after HAT training (base 75.4); its token-level "
        "mechanism",
        measure="skill_id_accuracy",
        split="variant-renamed",
        contrast=CONTRAST,
        expected="higher",
        budget="cpu-30m",
    ),
    Claim(
        id="livestream-qa",
        statement="HAT (HSA-SFT, then general OPD, then HSA-RL) scores above the base on "
        "Live-Stream QA",
        reference="Live-Stream QA 94.8 after HAT (base 80.3)",
        measure="livestream_score",
        split="test",
        contrast="hsa_sft+opd+rl-base",
        expected="higher",
        budget="gpu",
    ),
    Claim(
        id="variant-qa",
        statement="HAT scores above the base on Harness-Variant QA (the same cases under "
        "held-out harness variants)",
        reference="Harness-Variant QA 94.6 after HAT (base 75.4)",
        measure="variant_score",
        split="test",
        contrast="hsa_sft+opd+rl-base",
        expected="higher",
        budget="gpu",
    ),
    Claim(
        id="ifeval-fixed-drop",
        statement="Fixed-harness SFT loses instruction following: its IFEval is below the base's",
        reference="fixed-harness SFT lost 7.7 IFEval points",
        measure="ifeval_prompt_strict",
        split="test",
        contrast="fixed_sft-base",
        expected="lower",
        budget="gpu",
    ),
    Claim(
        id="ifeval-kept",
        statement="HSA-SFT keeps instruction following that fixed-harness SFT loses: its IFEval "
        "is above fixed-harness SFT's",
        reference="IFEval 83.5 after HAT, where fixed-harness SFT lost 7.7 points",
        measure="ifeval_prompt_strict",
        split="test",
        contrast="hsa_sft-fixed_sft",
        expected="higher",
        budget="gpu",
    ),
    Claim(
        id="opd-recovers-fixed",
        statement="General OPD after fixed-harness SFT recovers instruction following: IFEval "
        "rises",
        reference="+8.5 IFEval from general OPD after fixed-harness SFT",
        measure="ifeval_prompt_strict",
        split="test",
        contrast="fixed_sft+opd-fixed_sft",
        expected="higher",
        budget="gpu",
    ),
    Claim(
        id="opd-after-fixed",
        statement="General OPD recovers instruction following after fixed-harness SFT more than "
        "after HSA-SFT",
        reference="+8.5 IFEval after fixed-harness SFT, +0.2 after HSA-SFT",
        measure="ifeval_prompt_strict",
        split="test",
        contrast="(fixed_sft+opd-fixed_sft)-(hsa_sft+opd-hsa_sft)",
        expected="higher",
        budget="gpu",
    ),
    Claim(
        id="hsa-sft-over-rl",
        statement="HSA matters more in SFT than in RL: HSA-SFT's gain over fixed-harness SFT on "
        "Harness-Variant QA exceeds HSA-RL's gain over fixed-harness RL (both RL arms start "
        "from HSA-SFT + OPD)",
        reference="+9.4 with HSA in SFT vs +1.0 in RL on the prompt-robustness subset (read "
        "here on the whole Harness-Variant QA suite)",
        measure="variant_score",
        split="test",
        contrast="(hsa_sft-fixed_sft)-(hsa_sft+opd+rl-hsa_sft+opd+fixed_rl)",
        expected="higher",
        budget="gpu",
    ),
    Claim(
        id="errors-after-edits",
        statement="After harness edits, errors fall more with HAT than with plain "
        "(fixed-harness) SFT",
        reference="errors fall 51.7% with HAT vs 18.1% with plain SFT",
        measure="evolution_error_reduction",
        split="test",
        contrast="hsa_sft+opd+rl-fixed_sft",
        expected="higher",
        budget="gpu",
    ),
)
"""The reference's claims, token-level first."""


@dataclass(frozen=True)
class ClaimVerdict:
    """A claim, its verdict, why, and the measure it was read from (None: not measured)."""

    claim: Claim
    verdict: Verdict
    reason: str
    measured: Measured | None = None

    def to_dict(self) -> dict[str, Any]:
        """Plain data for ``results.json``: the claim, the verdict, the numbers behind it."""
        out = {**self.claim.to_dict(), "verdict": self.verdict, "reason": self.reason}
        m = self.measured
        if m is not None:
            out["evidence"] = {
                k: v for k, v in m.to_dict().items() if k in ("n", "diff", "low", "high")
            }
        return out


def _fmt(x: float) -> str:
    return f"{x:+.3f}"


def judge(
    claim: Claim,
    measures: Sequence[Measured],
    *,
    budget: str,
    min_pairs: int = MIN_PAIRS,
) -> ClaimVerdict:
    """The verdict ``measures`` (one run's, at ``budget``) give ``claim``.

    The measure is the one whose (measure, split, contrast) is the claim's. Supported when its
    interval's lower end is above 0 and the claim expects ``higher`` (upper end below 0 and
    ``lower``); contradicted when the interval excludes 0 on the other side; otherwise not
    resolved: the interval holds 0 (an end at exactly 0 holds it), rests on fewer than
    ``min_pairs`` pairs or has NaN ends, or no such measure was run.
    """
    found = [
        m
        for m in measures
        if (m.measure, m.split, m.contrast) == (claim.measure, claim.split, claim.contrast)
    ]
    if not found:
        return ClaimVerdict(
            claim,
            UNRESOLVED,
            f"not measured at budget {budget}: {claim.measure} ({claim.contrast}) needs "
            f"--budget {claim.budget}",
        )
    m = found[0]
    if m.n < min_pairs or math.isnan(m.low) or math.isnan(m.high):
        return ClaimVerdict(
            claim,
            UNRESOLVED,
            f"{m.n} paired {m.unit}, fewer than the {min_pairs} a verdict needs",
            m,
        )
    numbers = f"{_fmt(m.diff)} [{_fmt(m.low)}, {_fmt(m.high)}] over {m.n} {m.unit}"
    sign = 1 if m.low > 0 else -1 if m.high < 0 else 0
    if sign == 0:
        return ClaimVerdict(claim, UNRESOLVED, f"{numbers}: the interval holds 0", m)
    expected = 1 if claim.expected == "higher" else -1
    if sign == expected:
        return ClaimVerdict(claim, SUPPORTED, f"{numbers}: {claim.expected}, as claimed", m)
    return ClaimVerdict(
        claim, CONTRADICTED, f"{numbers}: the other way from the claim's {claim.expected}", m
    )


def judge_all(
    measures: Sequence[Measured],
    *,
    budget: str,
    claims: Sequence[Claim] = CLAIMS,
    min_pairs: int = MIN_PAIRS,
) -> list[ClaimVerdict]:
    """:func:`judge` of every claim, in order."""
    return [judge(c, measures, budget=budget, min_pairs=min_pairs) for c in claims]
