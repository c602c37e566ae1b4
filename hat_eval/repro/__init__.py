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
  every model on :data:`E2E_SUITES` as ``hat-eval run`` runs them (:func:`evaluate`), the
  comparison through ``hat-eval report``, :data:`E2E_MEASURES` contrasted between arms with
  paired case intervals (:func:`measure_contrast`), :func:`run_e2e` for the whole.

Nothing heavy loads on import: torch, transformers and TRL load inside the functions.
"""

__all__: list[str] = []
