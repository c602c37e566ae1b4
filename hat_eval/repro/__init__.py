"""The reference's claims re-tested in one command (``hat_eval.repro``, ``hat-eval repro``).

- Budgets: :class:`Budget`, :data:`BUDGETS` (``cpu-30m``, ``smoke``), :func:`get_budget` (which
  also says what ``gpu`` and ``full`` need).
- The teacher-forced probe: :func:`probe_transcripts`, :func:`render`, :func:`score_text`,
  :func:`compare` (tool-name and skill-id token accuracy, assistant-token loss, split by what
  the harness renamed, paired bootstrap intervals of HSA minus fixed).
- Claims: :data:`CLAIMS` as data, :func:`judge` / :func:`judge_all` (supported, contradicted,
  not resolved at this budget).
- The run: :func:`run_repro` (both arms per seed side by side, then the probe) and
  ``results.json`` (:func:`check_out` refuses a folder holding another run's).

Nothing heavy loads on import: torch, transformers and TRL load inside the functions.
"""

from ._arms import ARMS, ArmResult, ArmSpec, arm_progress, run_arm
from ._budget import (
    BUDGET_NAMES,
    BUDGETS,
    PLANNED,
    Budget,
    ReproError,
    check_budget_name,
    get_budget,
)
from ._claims import (
    CLAIMS,
    CONTRADICTED,
    MIN_PAIRS,
    SUPPORTED,
    UNRESOLVED,
    VERDICTS,
    Claim,
    ClaimVerdict,
    Verdict,
    judge,
    judge_all,
)
from ._probe import (
    CONTRAST,
    LOSS_SPLITS,
    MEASURES,
    NAME_SPLITS,
    PROBE_SUITES,
    LogitsModel,
    MeasureResult,
    NameTarget,
    ProbeText,
    Tally,
    TranscriptScore,
    compare,
    load_model,
    measure_splits,
    probe_transcripts,
    render,
    score_text,
    score_texts,
    training_template,
)
from ._run import (
    RESULTS_FILE,
    SCHEMA,
    SCORES_FILE,
    ReproResults,
    check_base,
    check_out,
    run_repro,
    write_results,
)

__all__ = [
    "ARMS",
    "BUDGETS",
    "BUDGET_NAMES",
    "CLAIMS",
    "CONTRADICTED",
    "CONTRAST",
    "LOSS_SPLITS",
    "MEASURES",
    "MIN_PAIRS",
    "NAME_SPLITS",
    "PLANNED",
    "PROBE_SUITES",
    "RESULTS_FILE",
    "SCHEMA",
    "SCORES_FILE",
    "SUPPORTED",
    "UNRESOLVED",
    "VERDICTS",
    "ArmResult",
    "ArmSpec",
    "Budget",
    "Claim",
    "ClaimVerdict",
    "LogitsModel",
    "MeasureResult",
    "NameTarget",
    "ProbeText",
    "ReproError",
    "ReproResults",
    "Tally",
    "TranscriptScore",
    "Verdict",
    "arm_progress",
    "check_base",
    "check_budget_name",
    "check_out",
    "compare",
    "get_budget",
    "judge",
    "judge_all",
    "load_model",
    "measure_splits",
    "probe_transcripts",
    "render",
    "run_arm",
    "run_repro",
    "score_text",
    "score_texts",
    "training_template",
    "write_results",
]
