"""``hat-eval run`` and ``hat-eval suites``: run the suites on a model, list the suites."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import TaskID

from ._common import console, fail, progress

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


def run(
    suite: Annotated[str, typer.Option(help="A suite (see `hat-eval suites`) or all.")] = "variant",
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
    from hat_eval.suites import AGENTS, SUITE_NAMES, RunOptions, check_suite, make_task

    names = list(SUITE_NAMES) if suite == "all" else [suite]
    try:
        for name in names:
            check_suite(name)
    except ValueError as err:
        raise typer.BadParameter(f"{err} (or all)", param_hint="--suite") from None
    if agent not in AGENTS:
        raise typer.BadParameter(
            f"{agent!r} is not an agent, expected one of {', '.join(AGENTS)}", param_hint="--agent"
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
    from hat_eval.reports import summary_rows, summary_table

    options = RunOptions(
        limit=limit, harness=harness_file, seed=seed, agent=agent, ifeval_data=ifeval_data
    )
    try:  # every task is built (and its data read) before any sample runs
        tasks = [make_task(name, options) for name in names]
    except (FileNotFoundError, ValueError) as err:
        fail(str(err))
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
    console.print(summary_table(summary_rows(logs)))
    console.print(
        f"logs: {log_dir}/  (open with `inspect view --log-dir {log_dir}`)",
        markup=False,
        highlight=False,
    )
    if not ok:
        fail("some tasks did not finish; rerun the same command to resume", code=1)


def suites(
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list.")] = False,
    ifeval_data: Annotated[
        Path | None,
        typer.Option("--ifeval-data", help="IFEval input_data.jsonl, to count and hash it."),
    ] = None,
) -> None:
    """List the suites with their case counts and dataset hashes."""
    from dataclasses import asdict

    from hat_eval.suites import IFEVAL, SUITE_NAMES, suite_info

    try:  # first, so a bad --ifeval-data fails before any work
        ifeval = suite_info(IFEVAL, ifeval_data)
    except ValueError as err:  # IFEvalError: the data file is missing or malformed
        fail(str(err))
    out = []
    case_suites = [n for n in SUITE_NAMES if n != IFEVAL]
    with progress("building suite datasets", len(case_suites)) as bar:
        for name in case_suites:
            out.append(suite_info(name))
            bar.advance(TaskID(0))
    out.append(ifeval)
    if as_json:
        typer.echo(json.dumps([asdict(s) for s in out], indent=2))
        return
    for s in out:
        typer.echo(f"{s.name:12} {s.cases:>6}  {s.sha256 or '-':64}  {s.description}")
    typer.echo(f"{sum(s.cases for s in out):,} cases in all")
