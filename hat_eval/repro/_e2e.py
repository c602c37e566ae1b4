"""An end-to-end re-test: every arm trained, every model run on the suites, the claims judged.

:func:`run_e2e` builds the budget's random base once (or takes ``--base``) and runs it on the
suites; then, per training seed, trains each arm of :data:`~hat_eval.repro._e2e_arms.E2E_ARMS` with
the project's own trainers and runs it on the same suites (:mod:`._e2e_eval`). The comparison is
``hat-eval report``'s own (:func:`~hat_eval.reports.build_report` over every model's logs, the
base as its baseline: ``DIR/report/report.html`` and ``report.md``); each claim's contrast is
measured over the cases the models share (:func:`~hat_eval.repro._contrast.measure_contrast`) and
judged (:func:`~hat_eval.repro._claims.judge_all`); ``DIR/results.json`` holds the table (every
model's headline per suite with its interval, and the spread over seeds), the contrasts, the
verdicts, what each stage trained, timings and versions.
"""

from __future__ import annotations

import platform
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

from ._arms import logged_losses
from ._budget import E2EBudget, ReproError, resolve_seeds
from ._claims import judge_all
from ._contrast import CaseValues
from ._e2e_arms import BASE, E2E_ARMS, E2EArm, StageRecord, train_arm
from ._e2e_eval import (
    E2E_SUITES,
    evaluate,
    finished_runs,
    model_name,
    read_scores,
    suite_limits,
    suite_tasks,
)
from ._e2e_results import (
    E2EResults,
    ModelRun,
    contrasts,
    table_cells,
)
from ._run import (
    check_base,
    check_out,
    parameter_count,
    random_base,
    versions,
    write_results_json,
)

REPORT_DIR = "report"
"""The folder of the run's ``hat-eval report`` page (``report.html``, ``report.md``)."""


@contextmanager
def heartbeat(
    echo: Callable[[str], None], what: str, status: Callable[[], str], every_s: float, t0: float
) -> Iterator[None]:
    """While the block runs, echo ``what: status()`` every ``every_s`` seconds (a thread)."""
    stop = threading.Event()

    def beat() -> None:
        while not stop.wait(every_s):
            echo(f"  [{_clock(t0)}] {what}: {status()}")

    thread = threading.Thread(target=beat, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


def _clock(t0: float) -> str:
    minutes, seconds = divmod(int(time.monotonic() - t0), 60)
    return f"{minutes:2d}:{seconds:02d}"


def _train_status(log: Path, steps: int, logging_steps: int) -> Callable[[], str]:
    def status() -> str:
        logged, loss = logged_losses(log)
        shown = f" loss {loss:.3f}" if loss is not None else ""
        return f"step {min(logged * logging_steps, steps)}/{steps}{shown}"

    return status


def _stage_steps(arm: E2EArm, budget: E2EBudget) -> int:
    if arm.stage == "sft":
        return budget.sft.max_steps
    return budget.opd.max_steps if arm.stage == "opd" else budget.rl.max_steps


def check_data(budget: E2EBudget, ifeval_data: Path | None, general_data: str | None) -> None:
    """Read every suite's and OPD's data before anything is built or trained.

    Raises:
        ReproError: a suite's data or OPD's general prompts cannot be read (the message names
            the option and the trainer's or suite's reason).
    """
    suite_tasks(budget.eval, ifeval_data)
    from hat_eval.trainers import TULU3_SFT_MIXTURE, TrainError, load_general_instructions

    try:
        load_general_instructions(
            general_data or TULU3_SFT_MIXTURE, limit=budget.opd.general_limit, seed=0
        )
    except TrainError as err:
        raise ReproError(f"OPD's general prompts (--general-data): {err}") from None


@dataclass(frozen=True)
class _E2ERun:
    """What every stage of one end-to-end re-test shares: the budget, the base, progress."""

    budget: E2EBudget
    echo: Callable[[str], None]
    t0: float
    poll_s: float
    base_dir: Path
    pretrained: bool
    ifeval_data: Path | None
    general_data: str | None

    def run_seed(
        self, seed: int, folder: Path
    ) -> tuple[list[StageRecord], list[ModelRun], dict[str, Any]]:
        """Train every arm for ``seed`` and run them (and, for seed 0, the base) on the suites."""
        seed_start = time.monotonic()
        folder.mkdir(exist_ok=True)
        stages = self.train_arms(seed, folder)
        train_s = round(time.monotonic() - seed_start, 1)
        # the base runs once, beside the first seed's arms
        models = [(a.id, folder / a.folder) for a in E2E_ARMS]
        runs = self.run_models(
            [(BASE, self.base_dir), *models] if seed == 0 else models, seed, folder
        )
        wall = round(time.monotonic() - seed_start, 1)
        timings = {
            "seed": seed,
            "train_s": train_s,
            "suites_s": round(runs[0].seconds, 1),
            "wall_s": wall,
        }
        return stages, runs, timings

    def train_arms(self, seed: int, folder: Path) -> list[StageRecord]:
        """Train every arm of :data:`E2E_ARMS` for ``seed`` into ``folder``, each from its start."""
        echo, t0, budget = self.echo, self.t0, self.budget
        trained = {BASE: self.base_dir}
        stages: list[StageRecord] = []
        for arm in E2E_ARMS:
            steps = _stage_steps(arm, budget)
            log = folder / f"{arm.folder}.train.log"
            log.write_text("", encoding="utf-8")
            echo(
                f"  [{_clock(t0)}] seed {seed}: training {arm.id} ({arm.stage}, {steps} "
                f"steps, from {arm.start})"
            )
            status = _train_status(log, steps, budget.logging_steps)
            with heartbeat(echo, f"seed {seed} {arm.id}", status, self.poll_s, t0):
                record = train_arm(
                    arm,
                    budget,
                    start=trained[arm.start],
                    out=folder / arm.folder,
                    seed=seed,
                    pretrained=self.pretrained,
                    general_data=self.general_data,
                    log=log,
                )
            stages.append(record)
            trained[arm.id] = folder / arm.folder
            echo(
                f"  [{_clock(t0)}] seed {seed}: {arm.id} trained, {record.steps} steps in "
                f"{record.seconds:.0f} s"
            )
        return stages

    def run_models(
        self, models: Sequence[tuple[str, Path]], seed: int, folder: Path
    ) -> list[ModelRun]:
        """Run the suites on ``(arm, checkpoint)`` models side by side; a record of each."""
        echo, t0 = self.echo, self.t0
        log_dir = folder / "logs"
        names = ", ".join(arm for arm, _ in models)
        echo(
            f"  [{_clock(t0)}] seed {seed}: running {names} on {', '.join(E2E_SUITES)} "
            f"(one eval set)"
        )
        total = len(models) * len(E2E_SUITES)

        def status() -> str:
            return f"{finished_runs(log_dir)} of {total} suite runs finished"

        with heartbeat(echo, f"seed {seed} suites", status, self.poll_s, t0):
            seconds = evaluate(
                [c for _, c in models],
                log_dir,
                self.budget,
                ifeval_data=self.ifeval_data,
                log=folder / "suites.log",
            )
        echo(f"  [{_clock(t0)}] seed {seed}: {total} suite runs finished in {seconds:.0f} s")
        return [
            ModelRun(arm, None if arm == BASE else seed, str(c), str(log_dir), seconds)
            for arm, c in models
        ]

    def compare(
        self, runs: list[ModelRun], out: Path, seeds: int
    ) -> tuple[Any, Any, list[dict[str, dict[str, CaseValues]]]]:
        """``hat-eval report`` over every run's logs, and each seed's per-case scores."""
        budget, base_dir = self.budget, self.base_dir
        when = _clock(self.t0)
        self.echo(f"  [{when}] comparing {len(runs)} runs (hat-eval report, baseline: the base)")
        from hat_eval.reports import ReportError, build_report

        try:
            page, files = build_report(
                list(dict.fromkeys(r.log_dir for r in runs)),
                out / REPORT_DIR,
                baseline=model_name(base_dir),
                n_boot=budget.n_boot,
                title=f"hat-eval repro --budget {budget.name}: the base and every arm",
            )
        except ReportError as err:
            raise ReproError(f"the report over the run's logs: {err}") from None
        log_dirs = list(dict.fromkeys(Path(r.log_dir) for r in runs))
        base_scores = read_scores(log_dirs, {model_name(base_dir): BASE})[BASE]
        scores = []
        for seed in range(seeds):
            arms = {model_name(Path(r.checkpoint)): r.arm for r in runs if r.seed == seed}
            scores.append({BASE: base_scores, **read_scores(log_dirs, arms)})
        return page, files, scores


def _start(
    budget: E2EBudget,
    out: Path,
    seeds: int,
    base: Path | None,
    ifeval_data: Path | None,
    general_data: str | None,
    echo: Callable[[str], None],
) -> tuple[float, str, dict[str, Any], Path, int | None]:
    """Check the inputs and the data, build (or take) the base and say what will run.

    Returns the start clock, the start time, the timings so far, the base and its parameters.
    """
    resolve_seeds(budget, seeds)
    check_out(out, budget.name, seeds)
    if base is not None:
        check_base(base)
    t0 = time.monotonic()
    started_at = datetime.now(UTC).isoformat(timespec="seconds")
    check_data(budget, ifeval_data, general_data)
    out.mkdir(parents=True, exist_ok=True)
    timings: dict[str, Any] = {"data_s": round(time.monotonic() - t0, 1)}
    shape = budget.base
    base_dir = base or random_base(
        out, budget.name, shape.vocab_size, shape.hidden_size, shape.num_hidden_layers, echo
    )
    timings["base_s"] = round(time.monotonic() - t0, 1)
    parameters = parameter_count(base_dir)
    limits = ", ".join(f"{s} ({n})" for s, n in suite_limits(budget.eval).items())
    echo(
        f"repro {budget.name}: base {base_dir} ({parameters or '?'} parameters); "
        f"{len(E2E_ARMS)} arms x {seeds} seed(s), each model on {limits}"
    )
    return t0, started_at, timings, base_dir, parameters


def run_e2e(
    budget: E2EBudget,
    out: Path,
    *,
    seeds: int = 1,
    base: Path | None = None,
    ifeval_data: Path | None = None,
    general_data: str | None = None,
    echo: Callable[[str], None] | None = None,
    poll_s: float = 60.0,
) -> E2EResults:
    """Run ``budget``'s end-to-end re-test into ``out`` and write its results.

    Args:
        budget: an end-to-end budget (:func:`~hat_eval.repro._budget.get_budget`).
        out: the output folder (checked with :func:`~hat_eval.repro._run.check_out` first).
        seeds: training seeds ``0..seeds-1``; each trains every arm again.
        base: a checkpoint folder every arm descends from; None builds the budget's random
            Qwen3 into ``out/base``.
        ifeval_data: a local IFEval ``input_data.jsonl`` (None: ``google/IFEval`` from the Hub).
        general_data: OPD's general prompts, a local file or folder (None: the trainer's
            default, the Hub's Tulu 3 mixture).
        echo: where progress lines go (default: the standard output the call starts with; the
            trainers' and Inspect's output is redirected to log files while they run, so a
            progress sink must not read ``sys.stdout`` or ``sys.stderr`` when it writes).
        poll_s: seconds between progress lines while a stage trains or a model runs.

    Raises:
        ReproError: bad ``out``, ``base`` or ``seeds``; a suite's or OPD's data that cannot be
            read; a model whose suite run stopped.
        TrainError: a trainer refused its run.
    """
    if echo is None:
        echo = _printer(sys.stdout)
    t0, started_at, timings, base_dir, parameters = _start(
        budget, out, seeds, base, ifeval_data, general_data, echo
    )
    run = _E2ERun(budget, echo, t0, poll_s, base_dir, base is not None, ifeval_data, general_data)
    runs: list[ModelRun] = []
    stages: list[StageRecord] = []
    timings["seeds"] = []
    for seed in range(seeds):
        seed_stages, seed_runs, seed_timings = run.run_seed(seed, out / f"seed-{seed}")
        stages.extend(seed_stages)
        runs.extend(seed_runs)
        timings["seeds"].append(seed_timings)

    report_start = time.monotonic()
    page, files, scores = run.compare(runs, out, seeds)
    measures = contrasts(scores, n_boot=budget.n_boot)
    verdicts = judge_all(measures, budget=budget.name)
    timings["report_s"] = round(time.monotonic() - report_start, 1)
    timings["total_s"] = round(time.monotonic() - t0, 1)
    results = E2EResults(
        budget=budget,
        seeds=seeds,
        base=str(base_dir),
        base_built=base is None,
        base_parameters=parameters,
        stages=tuple(stages),
        runs=tuple(runs),
        table=tuple(table_cells(page.rows, runs, scores, n_boot=budget.n_boot)),
        measures=tuple(measures),
        verdicts=tuple(verdicts),
        report={"html": str(files.html), "markdown": str(files.markdown)},
        timings=timings,
        machine=_machine(),
        versions=versions(),
        started_at=started_at,
        data={
            "ifeval": str(ifeval_data) if ifeval_data else None,
            "general": general_data,
        },
    )
    write_e2e_results(out, results)
    return results


def _printer(stream: TextIO) -> Callable[[str], None]:
    """Progress lines to ``stream`` (bound now, whatever ``sys.stdout`` is later)."""

    def echo(line: str) -> None:
        print(line, file=stream, flush=True)

    return echo


def _machine() -> dict[str, Any]:
    import torch

    out: dict[str, Any] = {"platform": platform.platform(), "cuda": torch.cuda.is_available()}
    if torch.cuda.is_available():
        out["gpu"] = torch.cuda.get_device_name(0)
    return out


def write_e2e_results(out: Path, results: E2EResults) -> Path:
    """Write ``results.json`` into ``out``; its path."""
    return write_results_json(out, results.to_dict())
