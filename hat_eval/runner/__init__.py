"""Run the suites from Python: ``run_suites(RunOptions(...))`` is what ``hat-eval run`` does.

    from hat_eval.runner import RunOptions, run_suites
    options = RunOptions(suites=("variant",), limit=5, log_dir=Path("logs/v"))
    result = run_suites(options, progress=print)  # progress: the notes and progress lines
    result.status, result.done, result.total  # "success", 5, 5; the same call resumes

``hat-eval run`` is this call plus its summary table and exit code. ``models=(a, b)`` runs
several models side by side in one eval set (``result.runs``: one ``TaskRun`` record per model
and task); ``limit_per_suite`` and ``max_tokens_per_suite`` give a suite its own case limit and
reply cap; ``display`` and ``output_log`` choose Inspect's display and where its output goes.

:class:`RunOptions` is checked when made (:class:`RunOptionError`); :func:`run_suites` checks
what needs a file or the machine before any sample runs and returns a :class:`RunResult`. A shop
or cases file that does not read raises :class:`InputFileError` (one line, and each typed
problem: file, line, record, field, what is wrong, what was expected); :func:`check_shop` and
:func:`read_cases` are those checks alone.
"""

from ._inputs import check_shop, read_cases
from ._options import (
    DEFAULT_MAX_RETRIES,
    DEFAULT_REQUEST_TIMEOUT_S,
    InputFileError,
    RunInputError,
    RunOptionError,
    RunOptions,
    option_help,
)
from ._prepare import checkpoint_model
from ._run import RunError, RunResult, run_suites

__all__ = [
    "DEFAULT_MAX_RETRIES",
    "DEFAULT_REQUEST_TIMEOUT_S",
    "InputFileError",
    "RunError",
    "RunInputError",
    "RunOptionError",
    "RunOptions",
    "RunResult",
    "check_shop",
    "checkpoint_model",
    "option_help",
    "read_cases",
    "run_suites",
]
