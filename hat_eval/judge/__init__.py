"""The human-calibrated Agent-as-Judge (``hat_eval.judge``): for now, its agreement with humans.

``read_labels`` reads human labels and judge scores (CSV, JSONL, Label Studio JSON exports);
``agreement`` computes, per dimension, Krippendorff's alpha, Cohen's kappa, Spearman's rho,
accuracy and exact agreement with bootstrap intervals (``hat-eval judge agreement``).
``agent_judge`` is the judge as an Inspect scorer (``mode="agent"``: the grader calls read-only
knowledge-base tools, ``kb_tools``, and checks each claim; ``mode="lookups"``: it is shown the
expected lookups); ``judged`` wraps a suite scorer so the judge decides the parts its checks
left undecided; ``pairwise_judge`` compares two answers in both orders; ``audit`` measures
position, verbosity and injection bias (``hat-eval judge audit``).
"""

from typing import TYPE_CHECKING

from hat_eval._lazy import lazy_getattr
from hat_eval.stats import sign_test, wilson_interval

from ._agreement import (
    AgreementReport,
    DimensionAgreement,
    DimensionData,
    agreement,
    match,
)
from ._calibrate import (
    CALIBRATION_FILE,
    Calibration,
    DimensionCalibration,
    JudgeScore,
    MethodCV,
    RatingData,
    as_labels,
    calibrate,
    calibrate_dimension,
    load_calibration,
    rating_data,
    read_judge_scores,
    scores_jsonl,
    select_method,
)
from ._calibration_map import (
    METHODS,
    CalibrationError,
    CalibrationMap,
    Method,
    fit_isotonic,
    fit_map,
    fit_thresholds,
    to_scale,
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
from ._published import (
    PairItem,
    VoteAgreement,
    mt_bench_labels,
    read_mt_bench,
    read_mt_bench_votes,
    vote_agreement,
)
from ._rubric import (
    ClaimVerdict,
    Dimension,
    JudgeClaim,
    JudgeOutput,
    JudgeOutputError,
    JudgeRating,
    PairwiseChoice,
    PairwiseOutput,
    Rubric,
    RubricError,
    Winner,
    load_rubric,
    parse_judgement,
    parse_preferences,
    parse_ratings,
)
from ._statistics import (
    ALPHA_THRESHOLD,
    AgreementError,
    Kind,
    accuracy,
    bootstrap_intervals,
    cohen_kappa,
    confusion,
    exact_agreement,
    judge_human_alpha,
    krippendorff_alpha,
    majority,
    spearman,
    within_one_agreement,
)
from ._study import (
    LABEL_CONFIG,
    Side,
    StudyReport,
    Vote,
    analyze_study,
    majority_preference,
    parse_side,
    read_judge,
    read_key,
    read_votes,
)
from ._study_export import (
    KeyEntry,
    PlacedItem,
    StudyError,
    StudyItem,
    draw_study,
    key_json,
    pair_samples,
    shown_digest,
    task_rows,
)

if TYPE_CHECKING:
    from ._audit import (  # noqa: F401 (exported through *_LAZY)
        FILLER,
        INJECTIONS,
        PADDING,
        AuditAnswer,
        AuditReport,
        audit,
        audit_async,
        correct_answer,
        inject,
        pad,
        wrong_answer,
    )
    from ._judge_cache import (  # noqa: F401 (exported through *_LAZY)
        JudgeCache,
        JudgeCosts,
        cache_key,
    )
    from ._judge_prompt import (  # noqa: F401 (exported through *_LAZY)
        ANSWER_CLOSE,
        ANSWER_OPEN,
        JUDGE_MODES,
        JudgeMode,
        judge_prompt,
        lookups,
    )
    from ._judged import (  # noqa: F401 (exported through *_LAZY)
        JUDGED_KEYS,
        judge_decisions,
        judged,
        settle,
    )
    from ._judging import (  # noqa: F401 (exported through *_LAZY)
        CorpusJudgement,
        CorpusReport,
        CorpusRow,
        JudgedSamples,
        Tally,
        corpus_agreement,
        corpus_episode,
        corpus_report,
        corpus_state,
        judge_corpus,
        judge_log,
        log_sample_ids,
    )
    from ._pairwise import (  # noqa: F401 (exported through *_LAZY)
        OVERALL,
        PairVerdict,
        PairwiseJudge,
        judge_logs,
        pairwise_dimensions,
        pairwise_judge,
        pairwise_prompt,
        pairwise_rows,
        position_consistency,
        reconcile,
        write_pairwise,
    )
    from ._scorer import (  # noqa: F401 (exported through *_LAZY)
        JUDGE_SEED,
        PART_DIMENSIONS,
        AnswerJudge,
        Judgement,
        agent_judge,
        answer_judge,
        decide_parts,
        injection_shift,
        judge_metrics,
    )
    from ._tools import (  # noqa: F401 (exported through *_LAZY)
        DEFAULT_TOOL_TURNS,
        READ_ONLY_FUNCTIONS,
        KbTools,
        ToolCallRecord,
        kb_tools,
    )

_LAZY = {  # the judge's scorer, tools, pairwise mode and audit bring Inspect: imported on first use
    **{
        name: "._judging"
        for name in (
            "CorpusJudgement",
            "CorpusReport",
            "CorpusRow",
            "JudgedSamples",
            "Tally",
            "corpus_agreement",
            "corpus_episode",
            "corpus_report",
            "corpus_state",
            "judge_corpus",
            "judge_log",
            "log_sample_ids",
        )
    },
    **{name: "._judged" for name in ("JUDGED_KEYS", "judge_decisions", "judged", "settle")},
    **{
        name: "._scorer"
        for name in (
            "JUDGE_SEED",
            "PART_DIMENSIONS",
            "AnswerJudge",
            "Judgement",
            "agent_judge",
            "answer_judge",
            "decide_parts",
            "injection_shift",
            "judge_metrics",
        )
    },
    **{
        name: "._tools"
        for name in (
            "DEFAULT_TOOL_TURNS",
            "READ_ONLY_FUNCTIONS",
            "KbTools",
            "ToolCallRecord",
            "kb_tools",
        )
    },
    **{
        name: "._pairwise"
        for name in (
            "OVERALL",
            "PairVerdict",
            "PairwiseJudge",
            "judge_logs",
            "pairwise_dimensions",
            "pairwise_judge",
            "pairwise_prompt",
            "pairwise_rows",
            "position_consistency",
            "reconcile",
            "write_pairwise",
        )
    },
    **{
        name: "._audit"
        for name in (
            "FILLER",
            "INJECTIONS",
            "PADDING",
            "AuditAnswer",
            "AuditReport",
            "audit",
            "audit_async",
            "correct_answer",
            "inject",
            "pad",
            "wrong_answer",
        )
    },
    **dict.fromkeys(
        ("ANSWER_CLOSE", "ANSWER_OPEN", "JUDGE_MODES", "JudgeMode", "judge_prompt", "lookups"),
        "._judge_prompt",
    ),
    **dict.fromkeys(("JudgeCache", "JudgeCosts", "cache_key"), "._judge_cache"),
}
__getattr__ = lazy_getattr(__name__, _LAZY)

__all__ = [
    "ALPHA_THRESHOLD",
    "CALIBRATION_FILE",
    "LABEL_CONFIG",
    "METHODS",
    "PREFERENCES",
    "RATING_SCALE",
    "AgreementError",
    "AgreementReport",
    "Calibration",
    "CalibrationError",
    "CalibrationMap",
    "ClaimVerdict",
    "Dimension",
    "DimensionAgreement",
    "DimensionCalibration",
    "DimensionData",
    "JudgeClaim",
    "JudgeOutput",
    "JudgeOutputError",
    "JudgeRating",
    "JudgeScore",
    "KeyEntry",
    "Kind",
    "Label",
    "LabelError",
    "Method",
    "MethodCV",
    "PairItem",
    "PairwiseChoice",
    "PairwiseOutput",
    "PlacedItem",
    "Preference",
    "Rating",
    "RatingData",
    "Rubric",
    "RubricError",
    "Side",
    "StudyError",
    "StudyItem",
    "StudyReport",
    "Vote",
    "VoteAgreement",
    "Winner",
    "accuracy",
    "agreement",
    "analyze_study",
    "as_labels",
    "bootstrap_intervals",
    "calibrate",
    "calibrate_dimension",
    "cohen_kappa",
    "confusion",
    "draw_study",
    "exact_agreement",
    "fit_isotonic",
    "fit_map",
    "fit_thresholds",
    "judge_human_alpha",
    "key_json",
    "krippendorff_alpha",
    "load_calibration",
    "load_rubric",
    "majority",
    "majority_preference",
    "match",
    "mt_bench_labels",
    "pair_samples",
    "parse_judgement",
    "parse_preferences",
    "parse_rating",
    "parse_ratings",
    "parse_side",
    "rating_data",
    "read_judge",
    "read_judge_scores",
    "read_key",
    "read_labels",
    "read_mt_bench",
    "read_mt_bench_votes",
    "read_votes",
    "scores_jsonl",
    "select_method",
    "shown_digest",
    "sign_test",
    "spearman",
    "task_rows",
    "to_scale",
    "vote_agreement",
    "wilson_interval",
    "within_one_agreement",
    *_LAZY,
]
