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
    agreement,
    match,
)
from ._calibrate import (
    Calibration,
    JudgeScore,
    MethodCV,
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
    CalibrationError,
    CalibrationMap,
    fit_isotonic,
    fit_thresholds,
    to_scale,
)
from ._labels import (
    PREFERENCES,
    RATING_SCALE,
    Label,
    LabelError,
    Rating,
    parse_rating,
    read_labels,
)
from ._published import (
    mt_bench_labels,
    read_mt_bench,
    read_mt_bench_votes,
    vote_agreement,
)
from ._rubric import (
    ClaimVerdict,
    Dimension,
    JudgeOutputError,
    Rubric,
    RubricError,
    load_rubric,
    parse_judgement,
    parse_ratings,
)
from ._statistics import (
    AgreementError,
    accuracy,
    bootstrap_intervals,
    cohen_kappa,
    confusion,
    exact_agreement,
    krippendorff_alpha,
    majority,
    spearman,
)
from ._study import (
    LABEL_CONFIG,
    StudyReport,
    Vote,
    analyze_study,
    majority_preference,
    read_judge,
    read_key,
    read_votes,
)
from ._study_export import (
    StudyError,
    draw_study,
    key_json,
    pair_samples,
    task_rows,
)

if TYPE_CHECKING:
    from ._answer_judge import (  # noqa: F401 (exported through *_LAZY)
        Judgement,
        answer_judge,
    )
    from ._audit import (  # noqa: F401 (exported through *_LAZY)
        INJECTIONS,
        AuditReport,
        audit,
        correct_answer,
        inject,
        pad,
        wrong_answer,
    )
    from ._grader import (  # noqa: F401 (exported through *_LAZY)
        JUDGE_SEED,
        judge_max_tokens,
    )
    from ._judge_cache import (  # noqa: F401 (exported through *_LAZY)
        cache_key,
    )
    from ._judge_prompt import (  # noqa: F401 (exported through *_LAZY)
        ANSWER_CLOSE,
        ANSWER_OPEN,
        JUDGE_MODES,
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
        CorpusReport,
        Tally,
        corpus_agreement,
        judge_log,
        log_sample_ids,
    )
    from ._pairwise import (  # noqa: F401 (exported through *_LAZY)
        OVERALL,
        PairVerdict,
        judge_logs,
        pairwise_judge,
        position_consistency,
        reconcile,
        write_pairwise,
    )
    from ._scorer import (  # noqa: F401 (exported through *_LAZY)
        PART_DIMENSIONS,
        agent_judge,
        decide_parts,
        injection_shift,
        judge_metrics,
    )
    from ._tools import (  # noqa: F401 (exported through *_LAZY)
        READ_ONLY_FUNCTIONS,
        kb_tools,
    )

_LAZY = {  # the judge's scorer, tools, pairwise mode and audit bring Inspect: imported on first use
    **{
        name: "._judging"
        for name in ("CorpusReport", "Tally", "corpus_agreement", "judge_log", "log_sample_ids")
    },
    **{name: "._judged" for name in ("JUDGED_KEYS", "judge_decisions", "judged", "settle")},
    **dict.fromkeys(("Judgement", "answer_judge"), "._answer_judge"),
    **dict.fromkeys(("JUDGE_SEED", "judge_max_tokens"), "._grader"),
    **{
        name: "._scorer"
        for name in (
            "PART_DIMENSIONS",
            "agent_judge",
            "decide_parts",
            "injection_shift",
            "judge_metrics",
        )
    },
    **{name: "._tools" for name in ("READ_ONLY_FUNCTIONS", "kb_tools")},
    **{
        name: "._pairwise"
        for name in (
            "OVERALL",
            "PairVerdict",
            "judge_logs",
            "pairwise_judge",
            "position_consistency",
            "reconcile",
            "write_pairwise",
        )
    },
    **{
        name: "._audit"
        for name in (
            "INJECTIONS",
            "AuditReport",
            "audit",
            "correct_answer",
            "inject",
            "pad",
            "wrong_answer",
        )
    },
    **dict.fromkeys(
        ("ANSWER_CLOSE", "ANSWER_OPEN", "JUDGE_MODES", "judge_prompt", "lookups"),
        "._judge_prompt",
    ),
    **dict.fromkeys(("cache_key",), "._judge_cache"),
}
__getattr__ = lazy_getattr(__name__, _LAZY)

__all__ = [
    "LABEL_CONFIG",
    "PREFERENCES",
    "RATING_SCALE",
    "AgreementError",
    "AgreementReport",
    "Calibration",
    "CalibrationError",
    "CalibrationMap",
    "ClaimVerdict",
    "Dimension",
    "JudgeOutputError",
    "JudgeScore",
    "Label",
    "LabelError",
    "MethodCV",
    "Rating",
    "Rubric",
    "RubricError",
    "StudyError",
    "StudyReport",
    "Vote",
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
    "fit_thresholds",
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
    "parse_rating",
    "parse_ratings",
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
    "sign_test",
    "spearman",
    "task_rows",
    "to_scale",
    "vote_agreement",
    "wilson_interval",
    *_LAZY,
]
