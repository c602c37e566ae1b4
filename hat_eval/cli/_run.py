"""``hat-eval run`` and ``hat-eval suites``: run the suites on a model, list the suites."""

from __future__ import annotations

import shlex
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from hat_eval.runner import DEFAULT_MAX_RETRIES, DEFAULT_REQUEST_TIMEOUT_S, option_help
from hat_eval.runner._prepare import EVOLUTION
from hat_eval.runner._session import Interrupt, log_path

from ._common import console, err_console, fail
from ._preflight import input_errors

if TYPE_CHECKING:
    from inspect_ai.log import EvalLog

    from hat_eval.runner import RunResult

REQUEST_TIMEOUT_VAR = "HAT_EVAL_TIMEOUT"
MAX_RETRIES_VAR = "HAT_EVAL_MAX_RETRIES"


def parse_model_args(pairs: list[str] | None) -> dict[str, Any]:
    """``-M key=value`` pairs as Inspect model args; values read as YAML (``false``, ``3``).

    Raises:
        typer.BadParameter: a pair without ``=`` or a key, or a value that is not valid YAML.
    """
    import yaml

    args: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, raw = pair.partition("=")
        if not sep or not key.strip():
            raise typer.BadParameter(
                f"{pair!r} is not key=value, expected e.g. -M do_sample=false", param_hint="-M"
            )
        try:
            args[key.strip().replace("-", "_")] = yaml.safe_load(raw) if raw else ""
        except yaml.YAMLError:
            raise typer.BadParameter(
                f"{pair!r}: the value is not valid YAML, expected a number, true/false or text "
                "(quote text with special characters)",
                param_hint="-M",
            ) from None
    return args


# Options `run` and `score` share (one owner each).
RequestTimeoutOption = Annotated[
    int, typer.Option(min=1, envvar=REQUEST_TIMEOUT_VAR, help=option_help("request_timeout"))
]
MaxRetriesOption = Annotated[
    int, typer.Option(min=0, envvar=MAX_RETRIES_VAR, help=option_help("max_retries"))
]
JudgeMaxTokensOption = Annotated[
    int | None, typer.Option(min=1, help=option_help("judge_max_tokens"))
]


def resume_command(ctx: typer.Context) -> str:
    """The ``hat-eval run`` command that resumes this run: its options other than defaults."""
    words = ["hat-eval", "run"]
    for param in ctx.command.params:
        if param.param_type_name != "option" or param.name not in ctx.params:
            continue
        value = ctx.params[param.name]
        if value is None or (value == param.default and param.name not in ("suite", "log_dir")):
            continue
        for item in value if isinstance(value, list | tuple) else [value]:
            words += [max(param.opts, key=len), str(item)]
    return shlex.join(words)


def error_kind(message: str, traceback: str | None) -> str:
    """``Type: first line of the message`` of a logged error.

    The exception's type and first message line are the first unindented line after the last
    frame of its traceback; without a traceback, the first line of Inspect's message
    (``repr(exception)`` or the exception's own ``message``).
    """
    lines = (traceback or "").rstrip().splitlines()
    last_frame = max(
        (i for i, ln in enumerate(lines) if ln.lstrip().startswith('File "')), default=-1
    )
    for ln in lines[last_frame + 1 :]:
        if ln.strip() and not ln[0].isspace():
            return ln.strip()
    return message.strip().split("\n", 1)[0] or "an error without a message"


def error_lines(logs: Iterable[EvalLog]) -> list[str]:
    """One line per kind of error in each log: how many samples, the error, the log to read.

    Errors are grouped by Inspect's message; the traceback of one sample of each kind names the
    exception type. A task that stopped on an error outside any sample gets a line too.
    """
    from inspect_ai.log import read_eval_log_sample, read_eval_log_sample_summaries

    out = []
    for log in logs:
        results = log.results
        if (
            log.status == "success"
            and results
            and results.completed_samples >= results.total_samples
        ):
            continue  # every sample scored: nothing failed
        where = log_path(log.location)
        kinds: dict[str, list[Any]] = {}
        for summary in read_eval_log_sample_summaries(log.location):
            if summary.error is not None and not is_cancelled(summary.error):
                kinds.setdefault(summary.error, []).append(summary)
        for message, failed in sorted(kinds.items(), key=lambda kv: -len(kv[1])):
            first = failed[0]
            sample = read_eval_log_sample(log.location, id=first.id, epoch=first.epoch)
            kind = error_kind(message, sample.error.traceback if sample.error else None)
            n = len(failed)
            out.append(
                f"{n} sample{'s' if n > 1 else ''} of {log.eval.task} failed: {kind} "
                f"(traceback{'s' if n > 1 else ''} in {where})"
            )
        if not kinds and log.status == "error" and log.error is not None:
            kind = error_kind(log.error.message, log.error.traceback)
            out.append(f"{log.eval.task} stopped: {kind} (traceback in {where})")
    return out


def is_cancelled(message: str) -> bool:
    """Whether a sample's logged error is its cancellation by an interrupt, not a failure.

    Inspect logs a sample cancelled as the run stops with the exception's repr as the message
    (``CancelledError(...)`` on asyncio, ``Cancelled(...)`` on trio); it remains to be run.
    """
    return message.lstrip().startswith(("CancelledError", "Cancelled("))


def print_evolution(logs: list[Any]) -> None:
    """The evolution report of each evolution log (after the summary; ``logs`` are headers)."""
    from inspect_ai.log import read_eval_log

    from hat_eval.reports import evolution_table, log_evolution_report

    for header in logs:
        if header.eval.task == EVOLUTION:
            log = read_eval_log(header.location)
            if log.samples:
                console.print(evolution_table(log_evolution_report(log)))


def _opt(name: str, *decls: str, **kwargs: Any) -> Any:
    """A typer option whose help is the :class:`~hat_eval.runner.RunOptions` field's (one owner)."""
    return typer.Option(*decls, help=option_help(name), **kwargs)


def run(
    ctx: typer.Context,
    suite: Annotated[str, typer.Option(help="A suite (see `hat-eval suites`) or all.")] = "variant",
    model: Annotated[str | None, _opt("model")] = None,
    limit: Annotated[int | None, _opt("limit", min=1)] = None,
    harness: Annotated[Path | None, _opt("harness")] = None,
    seed: Annotated[int | None, _opt("seed")] = None,
    log_dir: Annotated[Path, _opt("log_dir")] = Path("logs"),
    max_connections: Annotated[int | None, _opt("max_connections", min=1)] = None,
    engine: Annotated[str, _opt("engine")] = "hf",
    agent: Annotated[str, _opt("agent")] = "harness",
    ifeval_data: Annotated[Path | None, _opt("ifeval_data", "--ifeval-data")] = None,
    max_tokens: Annotated[int | None, _opt("max_tokens", min=1)] = None,
    request_timeout: RequestTimeoutOption = DEFAULT_REQUEST_TIMEOUT_S,
    max_retries: MaxRetriesOption = DEFAULT_MAX_RETRIES,
    temperature: Annotated[float | None, _opt("temperature", min=0.0)] = None,
    model_arg: Annotated[list[str] | None, _opt("model_args", "--model-arg", "-M")] = None,
    judge: Annotated[str | None, _opt("judge")] = None,
    judge_max_tokens: JudgeMaxTokensOption = None,
    disclosure: Annotated[str | None, _opt("disclosure")] = None,
    harness_version: Annotated[str | None, _opt("harness_version")] = None,
    changelog: Annotated[Path | None, _opt("changelog")] = None,
    epochs: Annotated[int, _opt("epochs", min=1)] = 1,
    no_hub_kernels: Annotated[bool, _opt("no_hub_kernels", "--no-hub-kernels")] = False,
    shop: Annotated[Path | None, _opt("shop")] = None,
    cases: Annotated[Path | None, _opt("cases")] = None,
) -> None:
    """Run suites on a model; print a summary and write Inspect logs (`inspect view` opens them).

    Rerun the same command with the same --log-dir to resume: finished samples are not redone.
    Exit codes: 0 every sample finished, 1 some failed (the last line says how many remain and
    how to resume), 2 bad input (nothing ran), 130 Ctrl-C, 143 SIGTERM (both after the summary
    and the resume line; the logs are marked cancelled).
    """
    from hat_eval.runner import RunError, RunOptions, run_suites
    from hat_eval.suites import suite_names

    # Every other option is the RunOptions field of its name (the field owns its help).
    fields = {k: v for k, v in ctx.params.items() if k not in ("suite", "model_arg")}
    with input_errors():
        try:
            options = RunOptions(
                suites=tuple(suite_names()) if suite == "all" else (suite,),
                model_args=parse_model_args(model_arg),
                **fields,
            )
            result = run_suites(options, progress=_line, warn=_warning)
        except RunError as err:
            fail(str(err))
    print_summary(ctx, log_dir, result)


def _line(line: str) -> None:  # a progress line, beside Inspect's plain status lines
    console.print(line, markup=False, highlight=False, soft_wrap=True)


def _warning(line: str) -> None:
    err_console.print(line, markup=False, highlight=False)


def print_summary(ctx: typer.Context, log_dir: Path, result: RunResult) -> None:
    """The end of a run, however it ended: the table, what ran, the logs, the errors, the verdict.

    One count of finished samples (:attr:`~hat_eval.runner.RunResult.finished`) is used in the
    table and the last line; one line per kind of error (a sample cancelled by the interrupt is
    not an error: it remains); the last line says what finished, what remains and the command
    that resumes, and exits 1, or 130 / 143 when a signal stopped the run.
    """
    from hat_eval.reports import instrument_lines, summary_rows, summary_table

    logs = list(result.logs)
    console.print(summary_table(summary_rows(logs)))
    print_evolution(logs)
    suites = [log.eval.task.rsplit("/", 1)[-1] for log in logs]
    for line in instrument_lines(s for s in dict.fromkeys(suites) if s != "ifeval"):
        console.print(line, markup=False, highlight=False, soft_wrap=True)
    console.print(result.described, markup=False)
    where = str(log_dir.resolve())
    console.print(
        f"logs: {where}/  (open with `{shlex.join(['inspect', 'view', '--log-dir', where])}`)",
        markup=False,
        highlight=False,
        soft_wrap=True,  # a command to copy: never broken over lines
    )
    for line in error_lines(logs):
        err_console.print(line, markup=False, highlight=False, soft_wrap=True)
    if result.status != "success":
        stop = Interrupt(result.signum)
        total, finished = result.total, result.done
        fail(
            f"{stop.what + ': ' if stop.signum is not None else ''}{finished} of {total} "
            f"samples finished, {total - finished} remain; resume with: {resume_command(ctx)}",
            code=stop.code if stop.signum is not None else 1,
        )
