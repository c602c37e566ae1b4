"""A token-level re-test end to end: base, both arms per seed, the probe's intervals, verdicts.

:func:`run_repro` builds the tiny random base once (or takes ``--base``), trains the two arms of
each seed side by side in two worker processes (one core each on 2 cores: the same steps, batch
and trajectory length for both), probes each checkpoint on the same test transcripts, pairs the
arms transcript by transcript (:func:`~hat_eval.repro._probe.compare`), judges every claim
(:func:`~hat_eval.repro._claims.judge_all`) and writes ``results.json`` (and the per-transcript
scores to ``scores.jsonl``). An output folder that holds another run's ``results.json`` is refused
(:func:`check_out`), so a run never overwrites one it is not.
"""

from __future__ import annotations

import json
import os
import platform
import time
from collections.abc import Callable, Sequence
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ._arms import ARMS, ArmResult, ArmSpec, arm_progress, run_arm
from ._budget import Budget, ReproError
from ._claims import ClaimVerdict, judge_all
from ._probe import CONTRAST, PROBE_SUITES, MeasureResult, compare

RESULTS_FILE = "results.json"
"""What a run writes into its output folder (and what :func:`check_out` reads)."""
SCORES_FILE = "scores.jsonl"
"""The probe's per-transcript tallies, one line per (seed, arm, transcript)."""
SCHEMA = "hat-eval/repro/1"
"""The ``schema`` field of ``results.json``."""
CONFIDENCE = 0.95
"""Level of every interval."""


def check_base(base: Path) -> None:
    """Raise :class:`ReproError` unless ``base`` is a Hugging Face checkpoint folder.

    A checkpoint folder has ``config.json`` and a tokenizer (``tokenizer.json`` or
    ``tokenizer_config.json``): both arms start from its weights and the probe reads its
    tokenizer.
    """
    if not base.is_dir():
        raise ReproError(
            f"--base {base}: no such folder, expected a Hugging Face checkpoint folder "
            "(config.json, weights, tokenizer); leave it out to build the budget's tiny base"
        )
    missing = [
        what
        for what, names in (
            ("config.json", ("config.json",)),
            ("a tokenizer", ("tokenizer.json", "tokenizer_config.json")),
        )
        if not any((base / n).is_file() for n in names)
    ]
    if missing:
        raise ReproError(
            f"--base {base}: not a checkpoint folder ({' and '.join(missing)} missing), "
            "expected a Hugging Face checkpoint folder (config.json, weights, tokenizer)"
        )


def run_identity(budget: str, seeds: int) -> dict[str, Any]:
    """What makes two runs the same run: the budget and the training seeds."""
    return {"budget": budget, "seeds": list(range(seeds))}


def results_head(
    budget: str,
    config: dict[str, Any],
    seeds: int,
    *,
    base: str,
    base_built: bool,
    parameters: int | None,
    started_at: str,
    options: str = "",
) -> dict[str, Any]:
    """The head every ``results.json`` starts with: schema, identity, command, config, base.

    ``options``: the command's further options as typed (``" --ifeval-data FILE"``).
    """
    command = f"hat-eval repro --budget {budget} --out DIR --seeds {seeds}"
    if not base_built:
        command += f" --base {base}"
    return {
        "schema": SCHEMA,
        **run_identity(budget, seeds),
        "command": command + options,
        "started_at": started_at,
        "config": config,
        "base": {"path": base, "built": base_built, "parameters": parameters},
    }


def write_results_json(out: Path, content: dict[str, Any]) -> Path:
    """Write ``content`` to ``out/results.json`` through a temporary file; the path."""
    path = out / RESULTS_FILE
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(content, indent=2) + "\n", encoding="utf-8")
    tmp.replace(path)
    return path


def check_out(out: Path, budget: str, seeds: int) -> None:
    """Raise :class:`ReproError` if ``out`` cannot take this run.

    Refused: ``out`` is a file; it holds a ``results.json`` that is not a repro run's; it
    holds another run's (another budget or other seeds). The same run's results are
    overwritten (a rerun).
    """
    if out.exists() and not out.is_dir():
        raise ReproError(f"--out {out}: a file, expected a folder for the run's results")
    path = out / RESULTS_FILE
    if not path.is_file():
        return
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        data = None
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        raise ReproError(
            f"--out {out}: holds a {RESULTS_FILE} that is not a hat-eval repro run's; choose "
            "another folder or remove it"
        )
    theirs = {k: data.get(k) for k in ("budget", "seeds")}
    ours = run_identity(budget, seeds)
    if theirs != ours:
        n = len(theirs["seeds"]) if isinstance(theirs["seeds"], list) else theirs["seeds"]
        raise ReproError(
            f"--out {out}: holds another run's {path.name} (budget {theirs['budget']}, "
            f"seeds {n}), not this one's (budget {budget}, seeds {seeds}); choose another "
            "folder or remove it"
        )


@dataclass(frozen=True)
class ReproResults:
    """A finished run: what was trained, measured and concluded."""

    budget: Budget
    seeds: int
    base: str
    base_built: bool
    base_parameters: int | None
    arms: tuple[ArmResult, ...]
    measures: tuple[MeasureResult, ...]
    verdicts: tuple[ClaimVerdict, ...]
    timings: dict[str, Any]
    machine: dict[str, Any]
    versions: dict[str, str]
    started_at: str

    def to_dict(self) -> dict[str, Any]:
        """``results.json``'s content."""
        return {
            **results_head(
                self.budget.name,
                self.budget.to_dict(),
                self.seeds,
                base=self.base,
                base_built=self.base_built,
                parameters=self.base_parameters,
                started_at=self.started_at,
            ),
            "arms": [a.to_dict() for a in self.arms],
            "probe": {
                "suites": list(PROBE_SUITES),
                "split": "test",
                "cases_per_suite": self.budget.test_cases,
                "transcripts": len(self.arms[0].scores) if self.arms else 0,
                "contrast": CONTRAST,
                "interval": f"{CONFIDENCE:.0%} paired percentile bootstrap over test "
                f"transcripts, {self.budget.n_boot} resamples",
            },
            "measures": [m.to_dict() for m in self.measures],
            "claims": [v.to_dict() for v in self.verdicts],
            "timings": self.timings,
            "machine": self.machine,
            "versions": self.versions,
        }


def parameter_count(checkpoint: Path) -> int | None:
    """Parameters in a checkpoint's safetensors files (None if it has none)."""
    from safetensors import safe_open

    files = sorted(checkpoint.glob("*.safetensors"))
    if not files:
        return None
    total = 0
    for f in files:
        with safe_open(str(f), framework="pt") as st:
            for name in st.keys():  # noqa: SIM118 (safe_open is not a mapping)
                n = 1
                for d in st.get_slice(name).get_shape():
                    n *= d
                total += n
    return total


def versions() -> dict[str, str]:
    """Versions of what the numbers depend on."""
    from importlib.metadata import PackageNotFoundError, version

    out = {"python": platform.python_version()}
    for name in ("hat-eval", "torch", "transformers", "trl", "datasets", "tokenizers"):
        try:
            out[name] = version(name)
        except PackageNotFoundError:
            continue
    return out


def _cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _train_seed(
    specs: Sequence[ArmSpec],
    budget: Budget,
    echo: Callable[[str], None],
    poll_s: float,
    started: float,
) -> list[ArmResult]:
    """Run the arms of one seed side by side, echoing progress every ``poll_s`` seconds."""
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")  # a fresh interpreter: no forked torch threads
    with ctx.Pool(len(specs), maxtasksperchild=1) as pool:
        pending = [pool.apply_async(run_arm, (spec,)) for spec in specs]
        while not all(p.ready() for p in pending):
            for p in pending:
                if p.ready() and not p.successful():
                    p.get()  # raises the worker's error; leaving the block stops the other
            for p in pending:
                p.wait(timeout=poll_s / len(pending))
            if all(p.ready() for p in pending):
                break
            minutes, seconds = divmod(int(time.monotonic() - started), 60)
            status = " · ".join(f"{s.arm} {arm_progress(s.log, budget)}" for s in specs)
            echo(f"  [{minutes:2d}:{seconds:02d}] seed {specs[0].seed}: {status}")
        return [p.get() for p in pending]


def write_results(out: Path, results: ReproResults) -> Path:
    """Write ``results.json`` and ``scores.jsonl`` into ``out``; the path of the first."""
    scores = out / SCORES_FILE
    with scores.open("w", encoding="utf-8") as f:
        for arm in results.arms:
            for s in arm.scores:
                line = {"seed": arm.seed, "arm": arm.arm, **s.to_dict()}
                f.write(json.dumps(line, sort_keys=True) + "\n")
    return write_results_json(out, results.to_dict())


def random_base(
    out: Path,
    budget: str,
    vocab_size: int,
    hidden_size: int,
    num_hidden_layers: int,
    echo: Callable[[str], None],
) -> Path:
    """A random-init Qwen3 base of the budget's shape in ``out/base`` (its output in base.log)."""
    from hat_eval.trainers import build_tiny_model

    echo(
        f"repro {budget}: building the random base ({num_hidden_layers} layers x "
        f"{hidden_size}, vocabulary {vocab_size})"
    )
    with (
        (out / "base.log").open("w", encoding="utf-8") as log,
        redirect_stdout(log),
        redirect_stderr(log),
    ):
        return build_tiny_model(
            out / "base",
            vocab_size=vocab_size,
            hidden_size=hidden_size,
            num_hidden_layers=num_hidden_layers,
        )


def _seed_specs(
    budget: Budget, seed: int, base_dir: Path, folder: Path, template: str, threads: int
) -> list[ArmSpec]:
    """One seed's arms to train side by side, each with an emptied log in ``folder``."""
    specs = []
    for arm in ARMS:
        log = folder / f"{arm}.log"
        log.write_text("", encoding="utf-8")
        specs.append(
            ArmSpec(
                arm=arm,
                seed=seed,
                budget=budget,
                base=str(base_dir),
                out=str(folder / arm),
                template=template,
                threads=threads,
                log=str(log),
            )
        )
    return specs


def _arm_timings(done: Sequence[ArmResult]) -> dict[str, float]:
    """``<arm>_train_s`` and ``<arm>_probe_s`` of one seed's arms, in the arms' order."""
    entry: dict[str, float] = {}
    for a in done:
        entry[f"{a.arm}_train_s"] = round(a.train_s, 1)
        entry[f"{a.arm}_probe_s"] = round(a.probe_s, 1)
    return entry


def _start(
    budget: Budget, out: Path, seeds: int, base: Path | None, echo: Callable[[str], None]
) -> tuple[float, str, dict[str, Any], Path, int | None]:
    """Check the inputs and build (or take) the base.

    Returns the start clock, the start time, the timings so far, the base and its parameters.
    """
    if seeds < 1:
        raise ReproError(f"--seeds ({seeds}) must be >= 1: the number of training seeds")
    check_out(out, budget.name, seeds)
    if base is not None:
        check_base(base)
    started = time.monotonic()
    started_at = datetime.now(UTC).isoformat(timespec="seconds")
    out.mkdir(parents=True, exist_ok=True)
    timings: dict[str, Any] = {}
    base_dir = base or random_base(
        out, budget.name, budget.vocab_size, budget.hidden_size, budget.num_hidden_layers, echo
    )
    timings["base_s"] = round(time.monotonic() - started, 1)
    return started, started_at, timings, base_dir, parameter_count(base_dir)


def _probe_setup(base_dir: Path) -> tuple[str, int, int]:
    """The base's training template, the machine's CPUs and the threads each arm gets."""
    from transformers import AutoTokenizer

    from ._probe import training_template

    template = training_template(AutoTokenizer.from_pretrained(str(base_dir)))
    cpus = _cpus()
    return template, cpus, max(1, cpus // len(ARMS))


def run_repro(
    budget: Budget,
    out: Path,
    *,
    seeds: int = 1,
    base: Path | None = None,
    echo: Callable[[str], None] = print,
    poll_s: float = 30.0,
) -> ReproResults:
    """Run ``budget``'s token-level re-test into ``out`` and write its results.

    Args:
        budget: a runnable budget (:func:`~hat_eval.repro._budget.get_budget`).
        out: the output folder (checked with :func:`check_out` first).
        seeds: training seeds ``0..seeds-1``; each trains both arms again.
        base: a checkpoint folder both arms start from; None builds the budget's tiny random
            Qwen3 into ``out/base``.
        echo: where progress lines go.
        poll_s: seconds between progress lines while the arms train.

    Raises:
        ReproError: bad ``out``, ``base`` or ``seeds``, or the probe cannot read the base's
            template.
        TrainError: the trainer refused the run.
    """
    started, started_at, timings, base_dir, parameters = _start(budget, out, seeds, base, echo)
    template, cpus, threads = _probe_setup(base_dir)
    echo(
        f"repro {budget.name}: base {base_dir} ({parameters or '?'} parameters); each seed "
        f"trains {' and '.join(ARMS)} side by side ({budget.max_steps} steps x "
        f"{budget.batch_size} trajectories, {threads} thread(s) each), then probes "
        f"{len(PROBE_SUITES) * budget.test_cases} test transcripts"
    )
    arms: list[ArmResult] = []
    timings["seeds"] = []
    for seed in range(seeds):
        seed_start = time.monotonic()
        folder = out / f"seed-{seed}"
        folder.mkdir(exist_ok=True)
        specs = _seed_specs(budget, seed, base_dir, folder, template, threads)
        done = _train_seed(specs, budget, echo, poll_s, started)
        arms.extend(done)
        wall = round(time.monotonic() - seed_start, 1)
        entry: dict[str, Any] = {"seed": seed, "wall_s": wall}
        entry.update(_arm_timings(done))
        timings["seeds"].append(entry)
        echo(f"seed {seed}: both arms trained and probed in {wall:.0f} s")
    by_arm = {a: [r.scores for r in arms if r.arm == a] for a in ARMS}
    measures = compare(
        by_arm["fixed"], by_arm["hsa"], n_boot=budget.n_boot, seed=0, confidence=CONFIDENCE
    )
    verdicts = judge_all(measures, budget=budget.name)
    timings["total_s"] = round(time.monotonic() - started, 1)
    results = ReproResults(
        budget=budget,
        seeds=seeds,
        base=str(base_dir),
        base_built=base is None,
        base_parameters=parameters,
        arms=tuple(arms),
        measures=tuple(measures),
        verdicts=tuple(verdicts),
        timings=timings,
        machine={"cpus": cpus, "threads_per_arm": threads, "platform": platform.platform()},
        versions=versions(),
        started_at=started_at,
    )
    write_results(out, results)
    return results
