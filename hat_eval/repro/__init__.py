"""The reference's claims re-tested in one command (``hat_eval.repro``, ``hat-eval repro``).

The command is the interface: this package exports nothing, and its modules are private.

- Budgets (``_budget``): token-level ``BUDGETS`` (``cpu-30m``, ``smoke``) and end-to-end
  ``E2E_BUDGETS`` (``gpu``, ``full``, ``smoke-e2e``); ``get_budget`` refuses ``gpu`` and
  ``full`` without CUDA.
- The teacher-forced probe (``_probe``): tool-name and skill-id token accuracy, assistant-token
  loss, split by what the harness renamed, paired bootstrap intervals of HSA minus fixed.
- Claims (``_claims``): the claims as data, each judged supported, contradicted or not resolved
  at this budget.
- The token-level run (``_run``): both arms per seed side by side, then the probe, into
  ``results.json`` (a folder holding another run's is refused).
- The end-to-end run (``_e2e``): the arms trained by the project's trainers (``_e2e_arms``),
  every model on the suites as ``hat-eval run`` runs them (``_e2e_eval``), the comparison
  through ``hat-eval report``, the measures contrasted between arms with paired case
  intervals (``_contrast``).

Nothing heavy loads on import: torch, transformers and TRL load inside the functions.
"""

__all__: list[str] = []
