"""The human-calibrated Agent-as-Judge (``hat_eval.judge``): for now, its agreement with humans.

``read_labels`` reads human labels and judge scores (CSV, JSONL, Label Studio JSON exports);
``agreement`` computes, per dimension, Krippendorff's alpha, Cohen's kappa, Spearman's rho,
accuracy and exact agreement with bootstrap intervals (``hat-eval judge agreement``).
"""

from ._agreement import (
    ALPHA_THRESHOLD,
    AgreementError,
    AgreementReport,
    DimensionAgreement,
    DimensionData,
    Kind,
    accuracy,
    agreement,
    bootstrap_intervals,
    cohen_kappa,
    confusion,
    exact_agreement,
    judge_human_alpha,
    krippendorff_alpha,
    majority,
    match,
    spearman,
    within_one_agreement,
)
from ._labels import (
    PREFERENCES,
    RATING_SCALE,
    Label,
    LabelError,
    Preference,
    Rating,
    parse_rating,
    read_labels,
)

__all__ = [
    "ALPHA_THRESHOLD",
    "PREFERENCES",
    "RATING_SCALE",
    "AgreementError",
    "AgreementReport",
    "DimensionAgreement",
    "DimensionData",
    "Kind",
    "Label",
    "LabelError",
    "Preference",
    "Rating",
    "accuracy",
    "agreement",
    "bootstrap_intervals",
    "cohen_kappa",
    "confusion",
    "exact_agreement",
    "judge_human_alpha",
    "krippendorff_alpha",
    "majority",
    "match",
    "parse_rating",
    "read_labels",
    "spearman",
    "within_one_agreement",
]
