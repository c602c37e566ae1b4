"""``hat-eval world``: the shop (a data pack) and the suites' frozen splits, checked and rebuilt."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ._common import err_console, fail

world_app = typer.Typer(
    help="The shop (a data pack folder) and the suites' frozen test/dev splits: validate, build.",
    no_args_is_help=True,
)


@world_app.command()
def validate(
    folder: Annotated[
        Path | None,
        typer.Argument(help="A shop folder (shop.yaml + one JSONL per record kind); the built-in."),
    ] = None,
) -> None:
    """Check a shop folder: one line per problem (file, record, field, what was expected).

    Exit code 2 when there is any problem.
    """
    from hat_eval.world import builtin_pack_dir, check_pack

    target = folder if folder is not None else builtin_pack_dir()
    problems = check_pack(target)
    for line in problems:
        err_console.print(f"error: {line}", markup=False)
    if problems:
        raise typer.Exit(2)
    from hat_eval.world import read_pack

    pack = read_pack(target)
    typer.echo(
        f"{target}: valid: {pack.manifest.name} v{pack.manifest.version}, "
        f"{len(pack.products)} products, {len(pack.skus)} SKUs, {len(pack.promotions)} "
        f"promotions, {len(pack.coupons)} coupons, {len(pack.shipping)} shipping rows, "
        f"{len(pack.returns)} returns policies, {len(pack.rules)} compliance rules"
    )


@world_app.command()
def build(
    seed: Annotated[int, typer.Option(help="Generator seed of the catalogue (0: built-in).")] = 0,
    out: Annotated[
        Path | None, typer.Option(help="Write the generated shop into this folder.")
    ] = None,
    splits: Annotated[
        bool,
        typer.Option(
            "--splits",
            help="Regenerate every case suite's frozen test/dev split file and its eval.yaml hash.",
        ),
    ] = False,
) -> None:
    """Generate a shop folder (--out) and/or the suites' frozen split files (--splits).

    `hat-eval world build --out hat_eval/world/shop` rewrites the built-in shop;
    `hat-eval world build --splits` rewrites the split files after the case generator changed.
    """
    if out is None and not splits:
        raise typer.BadParameter(
            "nothing to build: give --out DIR (a shop folder to write) and/or --splits "
            "(the suites' frozen split files)",
            param_hint="--out",
        )
    if splits and seed != 0:
        raise typer.BadParameter(
            f"--splits is built on the built-in shop (seed 0), not seed {seed}: drop --seed, or "
            "build the shop alone with --out",
            param_hint="--seed",
        )
    from hat_eval._outputs import OutputError, check_output_dir

    target = None
    if out is not None:
        try:
            target = check_output_dir(out)
        except OutputError as err:
            fail(str(err))
    if target is not None:
        from hat_eval.world import generate_pack, write_pack

        pack = generate_pack(seed)
        write_pack(pack, target)
        typer.echo(
            f"wrote {target}: seed {seed}, {len(pack.products)} products, {len(pack.skus)} SKUs, "
            f"{len(pack.promotions)} promotions"
        )
    if splits:
        from hat_eval.suites import write_split_files

        for f in write_split_files():
            size = f.path.stat().st_size / 1e6
            typer.echo(f"wrote {f.path} ({size:.1f} MB, sha256 {f.sha256})")
