"""``hat-eval run`` and ``hat-eval suites``: run the suites on a model, list the suites."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import TaskID

from ._common import console, fail, progress

SUITE_CHOICES = ("livestream", "variant", "robustness", "ifeval", "all")
REFERENCE_MODEL = "hat/reference"
"""The embedded default model: the reference policy (see the README)."""


def resolve_model(model: str | None, engine: str) -> str:
    """Turn ``--model`` into an Inspect model string, checking local checkpoints.

    None is the reference policy; an existing directory is a Hugging Face checkpoint (``hf/``,
    or ``vllm/`` with ``--engine vllm``); anything else passes through to Inspect unchanged.
    """
    if engine not in ("hf", "vllm"):
        raise typer.BadParameter(
            f"{engine!r} is not an engine, expected hf or vllm", param_hint="--engine"
        )
    if model is None:
        return REFERENCE_MODEL
    path = Path(model).expanduser()
    looks_like_path = model.startswith((".", "/", "~")) or path.exists()
    if not looks_like_path:
        return model
    if not path.is_dir():
        fail(
            f"--model {model}: no such checkpoint directory, expected a folder with "
            "config.json, tokenizer files and a chat template (or an Inspect model string)"
        )
    check_checkpoint(path)
    if engine == "vllm":
        if not os.environ.get("VLLM_BASE_URL"):
            fail(
                f"--engine vllm: VLLM_BASE_URL is not set; start `vllm serve {path} "
                "--enable-auto-tool-choice --tool-call-parser hermes` and export "
                "VLLM_BASE_URL=http://127.0.0.1:8000/v1"
            )
        return f"vllm/{path.resolve()}"
    return f"hf/{path.resolve()}"


def check_checkpoint(path: Path) -> None:
    """Fail with one line unless ``path`` holds a model config, a tokenizer and a chat template."""
    if not (path / "config.json").is_file():
        fail(f"{path}: config.json is missing, expected a Hugging Face checkpoint directory")
    tok_cfg = path / "tokenizer_config.json"
    if not ((path / "tokenizer.json").is_file() or tok_cfg.is_file()):
        fail(
            f"{path}: no tokenizer (tokenizer.json or tokenizer_config.json), expected the "
            "tokenizer saved beside the weights (tokenizer.save_pretrained)"
        )
    template = (path / "chat_template.jinja").is_file() or (path / "chat_template.json").is_file()
    if not template and tok_cfg.is_file():
        try:
            template = bool(json.loads(tok_cfg.read_text(encoding="utf-8")).get("chat_template"))
        except ValueError:
            fail(f"{tok_cfg}: not valid JSON, expected the tokenizer config")
    if not template:
        fail(
            f"{path}: the tokenizer has no chat template, expected chat_template.jinja or a "
            "chat_template entry in tokenizer_config.json"
        )


def _tasks(
    suite: str,
    limit: int | None,
    harness: str | None,
    seed: int | None,
    agent: str,
    ifeval_data: Path | None,
) -> list[Any]:
    from hat_eval.suites._task import suite_task

    names = ["livestream", "variant", "robustness", "ifeval"] if suite == "all" else [suite]
    tasks = []
    for name in names:
        if name == "ifeval":
            tasks.append(_ifeval_task(ifeval_data, harness, limit))
        else:
            tasks.append(
                suite_task(
                    name,
                    harness=harness,
                    agent=agent,  # type: ignore[arg-type]
                    n=limit,
                    seed=seed,
                )
            )
    return tasks


def _ifeval_task(data: Path | None, harness: str | None, limit: int | None) -> Any:
    from hat_eval.suites import ifeval as ifeval_suite

    return ifeval_suite.ifeval_task(data=data, harness=harness, limit=limit)


HEADLINE = (
    "aggregate",
    "accuracy",
    "safety",
    "tools",
    "skill",
    "constraints",
    "recovery",
    "prompt_level_strict_acc",
    "inst_level_strict_acc",
    "prompt_level_loose_acc",
    "inst_level_loose_acc",
)
"""The metrics the summary table shows (each suite reports the ones it has)."""


def summary_rows(logs: list[Any]) -> list[dict[str, Any]]:
    """One row per eval log: task, status, samples and the mean of each headline metric."""
    rows = []
    for log in logs:
        row: dict[str, Any] = {
            "task": log.eval.task,
            "status": log.status,
            "samples": log.results.completed_samples if log.results else 0,
            "log": log.location,
        }
        for s in log.results.scores if log.results else []:
            for name, m in s.metrics.items():
                if s.name in HEADLINE and name == "mean":
                    row[s.name] = m.value
                elif name in HEADLINE:
                    row[name] = m.value
        rows.append(row)
    return rows


def run(
    suite: Annotated[
        str, typer.Option(help="livestream, variant, robustness, ifeval or all.")
    ] = "variant",
    model: Annotated[
        str | None,
        typer.Option(
            help="Checkpoint directory or Inspect model string (openai-api/..., vllm/..., "
            "mockllm/model). Default: the embedded reference policy."
        ),
    ] = None,
    limit: Annotated[int | None, typer.Option(min=1, help="Cases per suite.")] = None,
    harness: Annotated[Path | None, typer.Option(help="Harness file to run under.")] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            help="Case seed (the suite's fixed seed if omitted); also the generation seed."
        ),
    ] = None,
    log_dir: Annotated[Path, typer.Option(help="Where the .eval logs go (reruns resume).")] = Path(
        "logs"
    ),
    max_connections: Annotated[int, typer.Option(min=1, help="Concurrent model calls.")] = 16,
    engine: Annotated[str, typer.Option(help="hf or vllm, for a checkpoint directory.")] = "hf",
    agent: Annotated[
        str, typer.Option(help="harness (harness-driven agent) or react.")
    ] = "harness",
    ifeval_data: Annotated[
        Path | None,
        typer.Option("--ifeval-data", help="IFEval input_data.jsonl (offline runs need it)."),
    ] = None,
    max_tokens: Annotated[
        int | None,
        typer.Option(min=1, help="Most tokens per model reply (the model's default if omitted)."),
    ] = None,
) -> None:
    """Run suites on a model; print a summary and write Inspect logs (`inspect view` opens them).

    Rerunning the same command with the same --log-dir resumes an interrupted run without
    redoing finished samples.
    """
    if suite not in SUITE_CHOICES:
        raise typer.BadParameter(
            f"{suite!r} is not a suite, expected one of {', '.join(SUITE_CHOICES)}",
            param_hint="--suite",
        )
    if agent not in ("harness", "react"):
        raise typer.BadParameter(
            f"{agent!r} is not an agent, expected harness or react", param_hint="--agent"
        )
    harness_file = None
    if harness is not None:
        from hat_eval.harness import HarnessError, load_harness

        try:
            load_harness(harness)
        except HarnessError as err:
            fail(str(err))
        harness_file = str(harness.resolve())
    model_name = resolve_model(model, engine)
    from inspect_ai import eval_set

    import hat_eval._registry  # noqa: F401  (registers the reference policy model)

    offline = any(os.environ.get(v) == "1" for v in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE"))
    if suite in ("ifeval", "all") and ifeval_data is None and offline:
        fail(
            "--suite ifeval: the Hugging Face Hub is offline (HF_HUB_OFFLINE=1); pass "
            "--ifeval-data PATH to a local IFEval input_data.jsonl"
        )
    try:
        tasks = _tasks(suite, limit, harness_file, seed, agent, ifeval_data)
    except (FileNotFoundError, ValueError) as err:
        fail(str(err).replace("pass --data PATH", "pass --ifeval-data PATH"))
    ok, logs = eval_set(
        tasks,
        model=model_name,
        log_dir=str(log_dir),
        max_connections=max_connections,
        seed=seed,
        max_tokens=max_tokens,
        log_format="eval",
        retry_attempts=1,
        display="rich" if os.isatty(2) else "plain",
    )
    _print_summary(summary_rows(logs))
    console.print(
        f"logs: {log_dir}/  (open with `inspect view --log-dir {log_dir}`)",
        markup=False,
        highlight=False,
    )
    if not ok:
        fail("some tasks did not finish; rerun the same command to resume", code=1)


def _print_summary(rows: list[dict[str, Any]]) -> None:
    from rich.table import Table

    keys = [k for k in HEADLINE if any(k in r for r in rows)]
    table = Table(title="hat-eval results")
    for col in ("task", "status", "samples", *keys):
        table.add_column(col.replace("_acc", "").replace("_level", ""))
    for r in rows:
        table.add_row(
            str(r["task"]),
            str(r["status"]),
            str(r["samples"]),
            *(f"{r[k]:.3f}" if isinstance(r.get(k), int | float) else "-" for k in keys),
        )
    console.print(table)


def suites(
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list.")] = False,
    ifeval_data: Annotated[
        Path | None,
        typer.Option("--ifeval-data", help="IFEval input_data.jsonl, to count and hash it."),
    ] = None,
) -> None:
    """List the suites with their case counts and dataset hashes."""
    from hat_eval.suites._dataset import SPECS, build_rows, dataset_sha256

    try:  # first, so a bad --ifeval-data fails before any work
        ifeval_entry = _ifeval_entry(ifeval_data)
    except ValueError as err:  # IFEvalError: the data file is missing or malformed
        fail(str(err))
    out: list[dict[str, Any]] = []
    with progress("building suite datasets", len(SPECS)) as bar:
        for name, spec in SPECS.items():
            rows = build_rows(name)
            out.append(
                {
                    "name": name,
                    "cases": len(rows),
                    "sha256": dataset_sha256(rows),
                    "description": spec.description,
                }
            )
            bar.advance(TaskID(0))
    out.append(ifeval_entry)
    if as_json:
        typer.echo(json.dumps(out, indent=2))
        return
    for s in out:
        typer.echo(f"{s['name']:12} {s['cases']:>6}  {s['sha256'] or '-':64}  {s['description']}")
    typer.echo(f"{sum(s['cases'] for s in out):,} cases in all")


def _ifeval_entry(data: Path | None) -> dict[str, Any]:
    from hat_eval.suites import ifeval as ifeval_suite

    return ifeval_suite.suite_entry(data)
