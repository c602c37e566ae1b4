"""``hat-eval train sft|opd|rl``: the three HAT stages on TRL, each from a YAML config.

Each command checks the ``train`` extra first (:mod:`hat_eval._extras`); this module imports no
TRL.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from hat_eval.cli._common import console, extra_help, fail, need_extra, output_dir

train_app = typer.Typer(
    help="Train a HAT candidate with TRL: sft (HSA-SFT), opd (general on-policy distillation), "
    "rl (HSA-RL with GRPO). " + extra_help("trainers"),
    no_args_is_help=True,
)

ConfigOpt = Annotated[
    Path,
    typer.Option("--config", help="The stage's YAML config (trainers/<name>.yaml): field: value."),
]
ModelOpt = Annotated[
    str | None,
    typer.Option(
        "--model",
        help="Base checkpoint folder (overrides model_name_or_path; builtin:tiny-qwen3 builds "
        "a tiny random model).",
    ),
]
OutOpt = Annotated[Path, typer.Option("--out", help="Folder the trained checkpoint is written to.")]
StepsOpt = Annotated[
    int | None, typer.Option("--max-steps", help="Overrides the config's max_steps.")
]
SeedOpt = Annotated[int | None, typer.Option("--seed", help="Overrides the config's seed.")]
NoHubKernelsOpt = Annotated[
    bool,
    typer.Option(
        "--no-hub-kernels",
        help="Load models without transformers' kernels from the Hugging Face Hub (always so "
        "while the Hub is offline, HF_HUB_OFFLINE=1, unless USE_HUB_KERNELS=YES).",
    ),
]


def _train(
    stage: str,
    config: Path,
    model: str | None,
    out: Path,
    no_hub_kernels: bool = False,
    **overrides: object,
) -> None:
    need_extra("trainers")
    from hat_eval._hub import hub_kernel_setting, kernel_error_line

    from . import TrainError
    from ._common import RUN_FILE, load_config
    from ._stages import run_stage, stage_config

    if (out / RUN_FILE).is_file():
        fail(
            f"--out {out}: already holds a trained checkpoint ({RUN_FILE}); choose another "
            "folder or remove it"
        )
    if not config.is_file():
        fail(f"--config {config}: no such file, expected a YAML file (e.g. trainers/{stage}.yaml)")
    output_dir(out, inputs=[("--config", config)])  # before any model loads
    try:
        cls = stage_config(stage)
        cfg = load_config(cls, config, model_name_or_path=model, output_dir=str(out), **overrides)
        with hub_kernel_setting(False if no_hub_kernels else None):
            result = run_stage(stage, cfg)
    except TrainError as e:
        fail(str(e))
    except ValueError as e:  # the kernels library's own error for a kernel nobody cached
        line = kernel_error_line(e)
        if line is None:
            raise
        fail(line)
    console.print(f"[bold]{stage}[/bold]: {result.global_step} steps, checkpoint in {out}")
    shown = {k: round(v, 4) for k, v in result.metrics.items() if not k.startswith("train_")}
    if shown:
        console.print(json.dumps(shown, sort_keys=True), markup=False, highlight=False)
    if result.info:
        console.print(json.dumps(result.info, sort_keys=True, default=str), markup=False)
    console.print(f"evaluate it: hat-eval run --suite variant --model {out}", markup=False)


@train_app.command("sft")
def sft(
    config: ConfigOpt,
    out: OutOpt,
    model: ModelOpt = None,
    fixed_harness: Annotated[
        bool | None,
        typer.Option(
            "--fixed-harness/--hsa",
            help="Train on the default harness only (the fixed-harness baseline); default: the "
            "config's fixed_harness.",
        ),
    ] = None,
    max_steps: StepsOpt = None,
    seed: SeedOpt = None,
    no_hub_kernels: NoHubKernelsOpt = False,
) -> None:
    """HSA-SFT: SFTTrainer on verified trajectories, a fresh harness variant per draw."""
    _train(
        "sft",
        config,
        model,
        out,
        no_hub_kernels,
        fixed_harness=fixed_harness,
        max_steps=max_steps,
        seed=seed,
    )


def _stage_command(stage: str, doc: str) -> None:
    """Register ``hat-eval train <stage>`` with the options every stage has."""

    def command(
        config: ConfigOpt,
        out: OutOpt,
        model: ModelOpt = None,
        max_steps: StepsOpt = None,
        seed: SeedOpt = None,
        no_hub_kernels: NoHubKernelsOpt = False,
    ) -> None:
        _train(stage, config, model, out, no_hub_kernels, max_steps=max_steps, seed=seed)

    command.__doc__ = doc
    train_app.command(stage)(command)


_stage_command(
    "opd", "General on-policy distillation: reverse KL to the frozen base on the student's samples."
)
_stage_command(
    "rl", "HSA-RL: GRPO in the live-stream simulator, rewards from the episode's checks."
)
