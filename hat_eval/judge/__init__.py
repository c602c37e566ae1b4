"""The human-calibrated Agent-as-Judge (``hat_eval.judge``): for now, its agreement with humans.

``read_labels`` reads human labels and judge scores (CSV, JSONL, Label Studio JSON exports);
``agreement`` computes, per dimension, Krippendorff's alpha, Cohen's kappa, Spearman's rho,
accuracy and exact agreement with bootstrap intervals (``hat-eval judge agreement``).
``agent_judge`` is the judge as an Inspect scorer (``mode="agent"``: the grader calls read-only
knowledge-base tools and checks each claim; ``mode="lookups"``: it is shown the
expected lookups); ``judged`` wraps a suite scorer so the judge decides the parts its checks
left undecided; ``pairwise_judge`` compares two answers in both orders; ``audit`` measures
position, verbosity and injection bias (``hat-eval judge audit``).
"""

from typing import TYPE_CHECKING

from hat_eval._lazy import lazy_getattr

from ._agreement import AgreementReport, agreement
from ._calibrate import (
    Calibration,
    as_labels,
    calibrate,
    load_calibration,
    rating_data,
    read_judge_scores,
    scores_jsonl,
)
from ._calibration_map import CalibrationError
from ._labels import RATING_SCALE, JudgeScore, Label, LabelError, read_labels
from ._published import (
    mt_bench_labels,
    read_mt_bench,
    read_mt_bench_votes,
    vote_agreement,
)
from ._rubric import Rubric, RubricError, load_rubric
from ._statistics import AgreementError
from ._study import LABEL_CONFIG, StudyReport, analyze_study, read_judge, read_key, read_votes
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
    from ._audit import audit  # noqa: F401 (exported through *_LAZY)
    from ._judge_prompt import JUDGE_MODES  # noqa: F401 (exported through *_LAZY)
    from ._judged import judged, settle  # noqa: F401 (exported through *_LAZY)
    from ._judging import (  # noqa: F401 (exported through *_LAZY)
        CorpusReport,
        Tally,
        corpus_agreement,
        judge_log,
        log_sample_ids,
    )
    from ._pairwise import judge_logs, pairwise_judge, write_pairwise  # noqa: F401 (exported through *_LAZY)
    from ._scorer import PART_DIMENSIONS, agent_judge, decide_parts  # noqa: F401 (exported through *_LAZY)

_LAZY = {  # the judge's scorer, tools, pairwise mode and audit bring Inspect: imported on first use
    **dict.fromkeys(("Judgement", "answer_judge"), "._answer_judge"),
    **dict.fromkeys(("audit",), "._audit"),
    **dict.fromkeys(("JUDGE_MODES",), "._judge_prompt"),
    **dict.fromkeys(("judged", "settle"), "._judged"),
    **dict.fromkeys(
        ("CorpusReport", "Tally", "corpus_agreement", "judge_log", "log_sample_ids"), "._judging"
    ),
    **dict.fromkeys(("judge_logs", "pairwise_judge", "write_pairwise"), "._pairwise"),
    **dict.fromkeys(("PART_DIMENSIONS", "agent_judge", "decide_parts"), "._scorer"),
}
__getattr__ = lazy_getattr(__name__, _LAZY)

__all__ = [
    "LABEL_CONFIG",
    "RATING_SCALE",
    "AgreementError",
    "AgreementReport",
    "Calibration",
    "CalibrationError",
    "JudgeScore",
    "Label",
    "LabelError",
    "Rubric",
    "RubricError",
    "StudyError",
    "StudyReport",
    "agreement",
    "analyze_study",
    "as_labels",
    "calibrate",
    "draw_study",
    "key_json",
    "load_calibration",
    "load_rubric",
    "mt_bench_labels",
    "pair_samples",
    "rating_data",
    "read_judge",
    "read_judge_scores",
    "read_key",
    "read_labels",
    "read_mt_bench",
    "read_mt_bench_votes",
    "read_votes",
    "scores_jsonl",
    "task_rows",
    "vote_agreement",
    *_LAZY,
]
