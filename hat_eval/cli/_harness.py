"""``hat-eval harness validate|render|diff|augment``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.progress import TaskID

from ._common import fail, output_dir, progress

if TYPE_CHECKING:
    from hat_eval.hsa import Variant

harness_app = typer.Typer(
    help="Validate, render, compare and augment harness files; show a harness changelog.",
    no_args_is_help=True,
)

FileArg = Annotated[Path, typer.Argument(help="Harness file (YAML or JSON).")]


def _load(path: Path | None):  # type: ignore[no-untyped-def]
    from hat_eval.harness import HarnessError, load_harness

    try:
        return load_harness(path)
    except HarnessError as err:
        fail(str(err))


@harness_app.command()
def validate(file: FileArg) -> None:
    """Check a harness file; print a summary, or one error line and exit 2."""
    h = _load(file)
    loader = h.skill_loader()
    disclosure = f", skills loaded on demand with {loader.name}" if loader is not None else ""
    on = [c.name for c in h.hooks.checks if c.enabled]
    checks = f", checking hooks on: {', '.join(on) or 'none'}" if h.hooks.checks else ""
    typer.echo(
        f"{file}: ok: {len(h.system_prompt.blocks)} prompt blocks, {len(h.skills)} skills, "
        f"{len(h.tools)} tools, {len(h.constraints())} constraints{disclosure}{checks}"
    )


@harness_app.command()
def render(
    file: Annotated[
        Path | None, typer.Argument(help="Harness file; the default when omitted.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Print the exact system prompt and tool schemas a model sees.

    Under progressive skill disclosure, also what loading each skill returns (JSON: ``skills``,
    skill id -> text).
    """
    from hat_eval.harness import render as render_harness

    r = render_harness(_load(file))
    if as_json:
        data: dict[str, object] = {"system_prompt": r.system_prompt, "tools": r.tools}
        if r.skills:
            data["skills"] = r.skills
        typer.echo(json.dumps(data, ensure_ascii=False, indent=2))
        return
    typer.echo("=== system prompt ===")
    typer.echo(r.system_prompt)
    typer.echo("\n=== tools ===")
    typer.echo(json.dumps(r.tools, ensure_ascii=False, indent=2))
    if r.skills:
        typer.echo("\n=== skills (what loading each returns) ===")
        typer.echo("\n\n".join(r.skills.values()))


@harness_app.command()
def diff(
    a: Annotated[Path, typer.Argument(help="The original harness.")],
    b: Annotated[Path, typer.Argument(help="The changed harness.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list of changes.")] = False,
) -> None:
    """List renamed tools and skills, changed rules, moved blocks and changed constraints."""
    from hat_eval.harness import diff_harness

    d = diff_harness(_load(a), _load(b))
    if as_json:
        typer.echo(json.dumps(d.to_dict(), ensure_ascii=False, indent=2))
        return
    if not d:
        typer.echo("no differences")
        return
    for c in d.changes:
        typer.echo(f"{c.kind:28} {c.path:50} {c.detail}")
    typer.echo(f"{len(d.changes)} changes")


@harness_app.command()
def augment(
    file: Annotated[
        Path | None, typer.Argument(help="Harness file; the default when omitted.")
    ] = None,
    n: Annotated[int, typer.Option("--n", min=1, help="How many variants to write.")] = 100,
    seed: Annotated[int, typer.Option(help="Seed; the same seed writes the same bytes.")] = 0,
    dims: Annotated[
        str | None,
        typer.Option(
            help="Comma-separated dimensions (skill_ids,skill_content,tools,system_prompt,hooks); "
            "all when omitted."
        ),
    ] = None,
    strength: Annotated[
        float, typer.Option(min=0.0, max=1.0, help="Share of elements each dimension touches.")
    ] = 0.5,
    probability: Annotated[
        float, typer.Option(min=0.0, max=1.0, help="Chance each dimension is applied.")
    ] = 0.7,
    fmt: Annotated[str, typer.Option("--format", help="yaml or json.")] = "yaml",
    out: Annotated[Path, typer.Option(help="Output folder.")] = Path("variants"),
    rewrite_model: Annotated[
        str | None,
        typer.Option(
            help="Inspect model that rewrites tool and skill descriptions on top of the offline "
            "banks (e.g. openai/gpt-4o-mini); rewrites that change a number are rejected."
        ),
    ] = None,
) -> None:
    """Write N task-preserving variants of a harness and their mappings to --out."""
    from hat_eval.hsa import DIMENSIONS, AugmentationPolicy, write_variants

    if fmt not in ("yaml", "json"):
        raise typer.BadParameter(
            f"{fmt!r} is not a format, expected yaml or json", param_hint="--format"
        )
    chosen = tuple(d.strip() for d in dims.split(",") if d.strip()) if dims else DIMENSIONS
    bad = [d for d in chosen if d not in DIMENSIONS]
    if bad or not chosen:
        raise typer.BadParameter(
            f"unknown dimension(s) {bad}, expected some of {','.join(DIMENSIONS)}",
            param_hint="--dims",
        )
    policy = AugmentationPolicy(
        dims=chosen, default_strength=strength, default_probability=probability
    )
    h = _load(file)
    check_augment_out(out, file, n, fmt)
    variants = policy.variants(h, n, seed)
    if rewrite_model is not None:
        variants = _rewritten(variants, rewrite_model)
    with progress("augmenting", n) as bar:
        rows = write_variants(variants, out, fmt=fmt, on_written=lambda _: bar.advance(TaskID(0)))
    typer.echo(f"wrote {len(rows)} variants and mappings to {out}/ (manifest.jsonl)")


def check_augment_out(out: Path, file: Path | None, n: int, fmt: str) -> Path:
    """``--out`` checked before any variant is made: a folder that does not hold the input.

    One line and exit 2 when it is the harness file itself, a file, a place that cannot be
    written, or a folder where a variant about to be written (``variant-NNNNN.FMT``, its
    mapping, ``manifest.jsonl``) would replace the harness being augmented.
    """
    inputs = [("the harness file", file)] if file is not None else []
    folder = output_dir(out, inputs=inputs)
    if file is not None and file.resolve().parent == folder:
        stems = [f"variant-{i:05d}" for i in range(n)]
        written = {"manifest.jsonl", *(f"{s}.{fmt}" for s in stems)}
        written |= {f"{s}.mapping.json" for s in stems}
        if file.name in written:
            fail(
                f"--out {out}: writing {n} variants there would replace {file}, the harness "
                "being augmented; choose another --out (or copy the harness out of it first)"
            )
    return folder


@harness_app.command()
def log(
    changelog: Annotated[
        Path | None,
        typer.Argument(
            help="A harness changelog (YAML; default: the evolution suite's own).",
            show_default=False,
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Each version of a harness changelog in one line: its edit, what changed and why.

    Every version is validated as it is read (its harness loads, differs from the one before in
    the way its edit kind says, and names a target the harness has): one error line naming the
    file and field, exit 2, otherwise.
    """
    from hat_eval.episode import check_changelog
    from hat_eval.harness import HarnessError, changelog_lines, load_changelog
    from hat_eval.suites import suite_recipe

    path = changelog or Path(suite_recipe("evolution").changelog or "")  # its eval.yaml names it
    try:
        loaded = load_changelog(path)
        check_changelog(loaded)
    except HarnessError as err:
        fail(str(err))
    if as_json:
        data = [
            {
                "version": v.version,
                "harness": str(v.path),
                "reason": v.reason,
                "edit": v.edit.model_dump(mode="json") if v.edit else None,
                "changes": v.diff.to_dict(),
            }
            for v in loaded.versions
        ]
        typer.echo(json.dumps(data, ensure_ascii=False, indent=2))
        return
    typer.echo(f"{loaded.name}: {len(loaded.versions)} versions ({path})")
    for line in changelog_lines(loaded):
        typer.echo(line)


def _rewritten(variants: Iterator[Variant], model: str) -> Iterator[Variant]:
    """Each variant with its descriptions rewritten by ``model`` (one event loop for all)."""
    import asyncio

    from hat_eval._hub import hub_kernel_setting
    from hat_eval.hsa import ModelRewriter, rewrite_with_model

    rewriter = ModelRewriter(model)
    loop = asyncio.new_event_loop()
    try:
        with hub_kernel_setting():  # a local hf/ rewriter loads at the first rewrite
            for v in variants:
                yield loop.run_until_complete(rewrite_with_model(v, rewriter))
    finally:
        loop.close()
