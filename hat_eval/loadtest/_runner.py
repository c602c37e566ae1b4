"""Concurrency sweeps: one headless Locust run per level, each in its own child process.

Locust runs as ``python -m locust -f hat_eval/loadtest/_locustfile.py ...`` (the module inside the
package, so it runs from a source checkout and an installed wheel alike) so that its gevent
monkey-patching never touches the calling process. The sweep writes its config and its built
prompts once into the output folder (``config.json``, ``prompts.jsonl``); each Locust process gets
only the config's path (``--hat-config``) and where to write its raw records (``--raw-dir``). With
``workers > 0`` it runs distributed (``--processes N``: one master and N local worker processes),
each worker writing its own raw file.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from ._config import API_KEY_ENV, SweepConfig
from ._episode import read_episode_records
from ._prompts import PromptSet, prompts_for, write_prompt_set
from ._records import raw_files, read_records
from ._stats import summarize
from ._summary import LevelSummary, write_summary

LOCUSTFILE = Path(__file__).resolve().parent / "_locustfile.py"
"""The locustfile the sweep starts Locust with (``loadtest/locustfile.py`` imports it)."""
_STARTUP_SLACK_S = 120.0

ProgressFn = Callable[[int, float, int, int], None]
"""Called about twice a second with (users, elapsed seconds, successes, failures)."""


class LoadTestError(RuntimeError):
    """A Locust run that could not be carried out (it failed to start or ran past its limit)."""


def write_run_files(cfg: SweepConfig, prompts: PromptSet | None = None) -> Path:
    """Write ``config.json`` and ``prompts.jsonl`` into ``cfg.out``; return the config's path.

    Args:
        cfg: The sweep.
        prompts: The prompts to send; built from ``cfg`` (:func:`prompts_for`) when ``None``.
    """
    write_prompt_set(cfg.prompts_path, prompts if prompts is not None else prompts_for(cfg))
    return cfg.write()


def locust_command(cfg: SweepConfig, users: int) -> list[str]:
    """The Locust command line of one level: Locust's own options and the config's path."""
    d = cfg.level_dir(users)
    rate = cfg.spawn_rate if cfg.spawn_rate else float(users)
    cmd = [
        sys.executable,
        "-m",
        "locust",
        "-f",
        str(LOCUSTFILE),
        "--headless",
        "-u",
        str(users),
        "-r",
        f"{rate:g}",
        "-t",
        f"{max(1, round(cfg.duration_s))}s",
        "--host",
        cfg.client.host,
        "--csv",
        str(d / "locust"),
        "--html",
        str(d / "locust.html"),
        "--json-file",
        str(d / "locust"),
        "--only-summary",
        "--exit-code-on-error",
        "0",
        "-s",
        f"{cfg.stop_timeout_s:g}",
        "--hat-config",
        str(cfg.config_path),
        "--raw-dir",
        str(cfg.raw_dir(users)),
    ]
    if cfg.workers:
        cmd += ["--processes", str(cfg.workers)]
    return cmd


def locust_percentile(response_times: dict[str, int], q: float) -> float | None:
    """Locust's percentile of its bucketed response times (ms), the way Locust computes it.

    Locust keeps a count per rounded response time and returns the smallest bucket at or above
    which at most ``(1 - q) * N`` requests lie, so its P50 of 3.407 s is 3.4 s.
    """
    counts = {float(k): v for k, v in response_times.items()}
    total = sum(counts.values())
    if not total:
        return None
    below = int(total * q)
    seen = 0
    for rt in sorted(counts, reverse=True):
        seen += counts[rt]
        if total - seen <= below:
            return rt
    return min(counts)


def read_locust_percentiles(stats_json: Path) -> dict[str, float | None]:
    """Locust's own (bucketed) P50/P95 of E2E and TTFT from its ``--json-file``, in seconds.

    In episode mode also of the episodes' end-to-end time and answer TTFT
    (``locust_episode_e2e_p50_s``, ..., ``locust_answer_ttft_p95_s``).
    """
    out: dict[str, float | None] = {
        "locust_e2e_p50_s": None,
        "locust_e2e_p95_s": None,
        "locust_ttft_p50_s": None,
        "locust_ttft_p95_s": None,
    }
    if not stats_json.exists():
        return out
    kinds = {
        ("POST", "chat"): "e2e",
        ("TTFT", "chat"): "ttft",
        ("EPISODE", "episode"): "episode_e2e",
        ("ANSWER_TTFT", "episode"): "answer_ttft",
    }
    for entry in json.loads(stats_json.read_text(encoding="utf-8")):
        kind = kinds.get((entry.get("method", ""), entry.get("name")))
        if kind is None:
            continue
        for q in (50, 95):
            ms = locust_percentile(entry.get("response_times", {}), q / 100)
            out[f"locust_{kind}_p{q}_s"] = None if ms is None else ms / 1000.0
    return out


class _Tail:
    """Counts the records the workers have written so far, reading only new bytes."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.offsets: dict[Path, int] = {}
        self.ok = self.failed = 0

    def poll(self) -> tuple[int, int]:
        for path in raw_files(self.folder):
            with path.open("rb") as f:
                f.seek(self.offsets.get(path, 0))
                data = f.read()
            cut = data.rfind(b"\n") + 1
            self.offsets[path] = self.offsets.get(path, 0) + cut
            chunk = data[:cut]
            self.ok += chunk.count(b'"outcome": "ok"')
            self.failed += chunk.count(b'"outcome": "failure"')
        return self.ok, self.failed


def run_level(cfg: SweepConfig, users: int, on_progress: ProgressFn | None = None) -> LevelSummary:
    """Run one level and return its summary (see :func:`hat_eval.loadtest._stats.summarize`).

    The run files must be written first (:func:`write_run_files`; :func:`run_sweep` does).

    Raises:
        LoadTestError: The run files are missing, or Locust exited with an error or overran its
            time limit.
    """
    if not (cfg.config_path.exists() and cfg.prompts_path.exists()):
        raise LoadTestError(
            f"{cfg.config_path} or {cfg.prompts_path} is missing; write them with "
            "write_run_files(cfg) before run_level"
        )
    d, raw = cfg.level_dir(users), cfg.raw_dir(users)
    if d.exists():
        shutil.rmtree(d)
    raw.mkdir(parents=True)
    limit = cfg.duration_s + cfg.stop_timeout_s + _STARTUP_SLACK_S
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.pop(API_KEY_ENV, None)
    if cfg.client.api_key:
        env[API_KEY_ENV] = cfg.client.api_key  # never written into config.json
    tail = _Tail(raw)
    start = time.monotonic()
    with (d / "locust.log").open("w", encoding="utf-8") as log:
        proc = subprocess.Popen(
            locust_command(cfg, users),
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=env,
        )
        try:
            while proc.poll() is None:
                if time.monotonic() - start > limit:
                    proc.kill()
                    proc.wait()
                    raise LoadTestError(
                        f"locust ran past {limit:.0f} s at users={users}; see {d / 'locust.log'}"
                    )
                time.sleep(0.5)
                if on_progress is not None:
                    on_progress(users, time.monotonic() - start, *tail.poll())
        except BaseException:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            raise
    if proc.returncode != 0:
        lines = (d / "locust.log").read_text(encoding="utf-8", errors="replace").splitlines()
        last = next((ln for ln in reversed(lines) if ln.strip()), "no output")
        raise LoadTestError(
            f"locust exited with code {proc.returncode} at users={users}: "
            f"{last.strip()[:300]} (log: {d / 'locust.log'})"
        )
    if on_progress is not None:
        on_progress(users, time.monotonic() - start, *tail.poll())
    episodes = (
        read_episode_records(sorted(raw.glob("episodes-*.jsonl")))
        if cfg.mode == "episode"
        else None
    )
    return summarize(
        read_records(raw_files(raw)),
        users=users,
        slo_p95_s=cfg.slo_p95_s,
        locust=read_locust_percentiles(d / "locust.json"),
        warmup_s=(users - 1) / cfg.spawn_rate if cfg.spawn_rate else 0.0,
        episodes=episodes,
    )


def run_sweep(
    cfg: SweepConfig,
    prompts: PromptSet | None = None,
    on_progress: ProgressFn | None = None,
    on_level: Callable[[LevelSummary], None] | None = None,
) -> list[LevelSummary]:
    """Run every level in turn, rewriting ``out/summary.json`` after each; return the list.

    Args:
        cfg: The sweep.
        prompts: The prompts to send; built from ``cfg`` when ``None``. Written once, with the
            config, into ``cfg.out`` (:func:`write_run_files`) for the Locust processes.
        on_progress: See :data:`ProgressFn`.
        on_level: Called with each level's summary when it ends.
    """
    write_run_files(cfg, prompts)
    levels: list[LevelSummary] = []
    for users in cfg.users:
        levels.append(run_level(cfg, users, on_progress))
        write_summary(cfg.out, levels)
        if on_level is not None:
            on_level(levels[-1])
    return levels
