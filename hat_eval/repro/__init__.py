"""The reference's claims re-tested in one command (``hat_eval.repro``, ``hat-eval repro``).

- Budgets: token-level :class:`Budget` (:data:`BUDGETS`: ``cpu-30m``, ``smoke``) and end-to-end
  :class:`E2EBudget` (:data:`E2E_BUDGETS`: ``gpu``, ``full``, ``smoke-e2e``), :func:`get_budget`
  (which refuses ``gpu`` and ``full`` without CUDA), :func:`resolve_seeds`.
- The teacher-forced probe: :func:`probe_transcripts`, :func:`render`, :func:`score_text`,
  :func:`compare` (tool-name and skill-id token accuracy, assistant-token loss, split by what
  the harness renamed, paired bootstrap intervals of HSA minus fixed).
- Claims: :data:`CLAIMS` as data, :func:`judge` / :func:`judge_all` (supported, contradicted,
  not resolved at this budget).
- The token-level run: :func:`run_repro` (both arms per seed side by side, then the probe) and
  ``results.json`` (:func:`check_out` refuses a folder holding another run's).
- The end-to-end run: :data:`E2E_ARMS` trained by the project's trainers (:func:`train_arm`),
  every model on :data:`E2E_SUITES` through ``hat-eval run``'s library call (:func:`evaluate`, one
  :func:`~hat_eval.runner.run_suites` of :func:`eval_options`), the
  comparison through ``hat-eval report``, :data:`E2E_MEASURES` contrasted between arms with
  paired case intervals (:func:`measure_contrast`), :func:`run_e2e` for the whole.

Nothing heavy loads on import: torch, transformers and TRL load inside the functions.
"""

from ._arms import (
    ARMS,
    arm_progress,
)
from ._budget import (
    BUDGET_NAMES,
    BUDGETS,
    E2E_BUDGETS,
    GPU_BUDGET,
    Budget,
    E2EBudget,
    ReproError,
    budget_spec,
    get_budget,
    resolve_seeds,
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
    Measured,
    Verdict,
    judge,
    judge_all,
)
from ._contrast import (
    E2E_MEASURES,
    E2E_SPLIT,
    ContrastResult,
    arm_estimate,
    contrast_arms,
    contrast_terms,
    measure_contrast,
    seed_spread,
    statistic,
)
from ._e2e import (
    run_e2e,
)
from ._e2e_arms import (
    BASE,
    E2E_ARM_IDS,
    E2E_ARMS,
    arm_folder,
    stage_config,
)
from ._e2e_eval import (
    E2E_SUITES,
    eval_options,
    evaluate,
    model_name,
    suite_limits,
)
from ._e2e_results import (
    E2EResults,
    contrasts,
)
from ._probe import (
    CONTRAST,
    MEASURES,
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
    "BASE",
    "BUDGETS",
    "BUDGET_NAMES",
    "CLAIMS",
    "CONTRADICTED",
    "CONTRAST",
    "E2E_ARMS",
    "E2E_ARM_IDS",
    "E2E_BUDGETS",
    "E2E_MEASURES",
    "E2E_SPLIT",
    "E2E_SUITES",
    "GPU_BUDGET",
    "MEASURES",
    "MIN_PAIRS",
    "RESULTS_FILE",
    "SCHEMA",
    "SCORES_FILE",
    "SUPPORTED",
    "UNRESOLVED",
    "VERDICTS",
    "Budget",
    "Claim",
    "ClaimVerdict",
    "ContrastResult",
    "E2EBudget",
    "E2EResults",
    "MeasureResult",
    "Measured",
    "NameTarget",
    "ProbeText",
    "ReproError",
    "ReproResults",
    "Tally",
    "TranscriptScore",
    "Verdict",
    "arm_estimate",
    "arm_folder",
    "arm_progress",
    "budget_spec",
    "check_base",
    "check_out",
    "compare",
    "contrast_arms",
    "contrast_terms",
    "contrasts",
    "eval_options",
    "evaluate",
    "get_budget",
    "judge",
    "judge_all",
    "load_model",
    "measure_contrast",
    "measure_splits",
    "model_name",
    "probe_transcripts",
    "render",
    "resolve_seeds",
    "run_e2e",
    "run_repro",
    "score_text",
    "score_texts",
    "seed_spread",
    "stage_config",
    "statistic",
    "suite_limits",
    "training_template",
    "write_results",
]
