"""``hat-eval world`` and ``hat-eval shop``: shops (data packs) and the frozen splits.

``shop`` is for a team's own shop (validate, show, CSV import and export); ``world`` builds
the generator's shops and the suites' frozen split files (``world validate`` = ``shop validate``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

from ._common import err_console, fail, output_dir, output_file, save

if TYPE_CHECKING:
    from hat_eval.world import ShopPack

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
    from hat_eval.world import builtin_pack_dir

    target = folder if folder is not None else builtin_pack_dir()
    pack = _read_shop(target)
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
    if out is not None:
        from hat_eval.world import generate_pack, write_pack

        target = output_dir(out, create=True)
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


shop_app = typer.Typer(
    help="A team's own shop (a data pack folder): validate, show what the suites can ask about "
    "it, import its catalogue from CSV. Run the suites on it with `hat-eval run --shop DIR`.",
    no_args_is_help=True,
)
shop_app.command("validate")(validate)


def _problem_lines(problems: Sequence[object]) -> NoReturn:
    for line in problems:
        err_console.print(f"error: {line}", markup=False, soft_wrap=True)
    raise typer.Exit(2)


def _read_shop(folder: Path) -> ShopPack:
    from hat_eval.world import check_pack, read_pack

    problems = check_pack(folder)
    if problems:
        _problem_lines(problems)
    return read_pack(folder)


@shop_app.command()
def show(
    folder: Annotated[
        Path | None,
        typer.Argument(help="A shop folder (the built-in shop if omitted)."),
    ] = None,
    split: Annotated[str, typer.Option(help="The product split the cases are drawn from.")] = (
        "test"
    ),
) -> None:
    """What a shop holds and what the case generators can ask about it, and cannot and why.

    Counts per category (listings, SKUs, in stock, promotions, made to order) and per split;
    per intent the kinds of facts its cases ask for, or why none can be made (e.g. no
    promotions or coupons: no promotion_stacking cases). Exit 2 when the shop does not validate.
    """
    from hat_eval.world import SPLITS, builtin_pack_dir, kb_from_pack, shop_coverage

    if split not in SPLITS:
        raise typer.BadParameter(
            f"{split!r} is not a split, expected one of {', '.join(SPLITS)}", param_hint="--split"
        )
    target = folder if folder is not None else builtin_pack_dir()
    pack = _read_shop(target)
    cover = shop_coverage(kb_from_pack(pack), split=split)
    m = pack.manifest
    typer.echo(
        f"{m.name} v{m.version} ({target}): {len(pack.products)} products, {len(pack.skus)} "
        f"SKUs, {len(pack.promotions)} promotions, {len(pack.coupons)} coupons, "
        f"{len(pack.rules)} compliance rules; season {m.season_start} .. {m.season_end}"
    )
    typer.echo("category      products  SKUs  in stock  promotions  made to order")
    for c in cover.categories:
        typer.echo(
            f"{c.category:<13} {c.products:>8} {c.skus:>5} {c.in_stock:>9} {c.promotions:>11} "
            f"{c.custom:>14}"
        )
    if cover.problems:
        typer.echo("the case generators cannot run on this shop:")
        for line in cover.problems:
            typer.echo(f"  {line}")
        raise typer.Exit(2)
    typer.echo("products per split: " + ", ".join(f"{k} {v}" for k, v in cover.splits.items()))
    typer.echo(f"what the case generators ask on the {split} split:")
    for i in cover.intents:
        if i.reason is not None:
            typer.echo(f"  {i.intent:<19} cannot: {i.reason}")
            continue
        facts = ", ".join(i.facts) or "no facts (a decline or a reply in kind)"
        note = f"  [{'; '.join(i.notes)}]" if i.notes else ""
        typer.echo(f"  {i.intent:<19} {facts} ({'/'.join(i.languages)}){note}")


@shop_app.command("import-csv")
def import_csv_command(
    products: Annotated[Path, typer.Argument(help="products.csv: one product a row.")],
    skus: Annotated[Path, typer.Argument(help="skus.csv: one SKU a row.")],
    out: Annotated[Path, typer.Option(help="The shop folder to write.")],
    base: Annotated[
        Path,
        typer.Option(
            help="The shop whose manifest, policy, coupons, regions, shipping, returns and "
            "compliance rules are kept (e.g. examples/shop, or the team's own folder).",
        ),
    ],
    promotions: Annotated[
        Path | None, typer.Option(help="promotions.csv (the base shop's promotions if omitted).")
    ] = None,
) -> None:
    """Build a shop folder from a catalogue kept in a spreadsheet (CSV, one record a row).

    The columns are the record's fields in docs/shop.md (`hat-eval shop export-csv` writes
    them); a `specs` cell is a JSON object, an empty nullable cell null. The whole shop is
    checked before anything is written: one line per problem (file, row, record, field, what
    was expected) and exit 2.
    """
    from hat_eval.world import PackError, import_csv, write_pack

    output_dir(out, inputs=[("products", products), ("skus", skus)])
    tables: dict[str, Path] = {"products.jsonl": products, "skus.jsonl": skus}
    if promotions is not None:
        tables["promotions.jsonl"] = promotions
    for path in tables.values():
        if not path.is_file():
            fail(f"{path}: no such file, expected a CSV file")
    _read_shop(base)
    try:
        pack = import_csv(tables, base)
    except PackError as err:
        _problem_lines(err.problems)
    target = write_pack(pack, out)
    typer.echo(
        f"wrote {target}: {len(pack.products)} products, {len(pack.skus)} SKUs, "
        f"{len(pack.promotions)} promotions (the rest from {base})"
    )


@shop_app.command("export-csv")
def export_csv(
    folder: Annotated[Path, typer.Argument(help="A shop folder.")],
    out: Annotated[Path, typer.Option(help="The folder the CSV files go into.")],
) -> None:
    """Write a shop's products, SKUs and promotions as CSV (the columns import-csv reads)."""
    from hat_eval._outputs import write_text_atomic
    from hat_eval.world import CSV_TABLES, csv_text

    pack = _read_shop(folder)
    target = output_dir(out, create=True)
    for name, model in CSV_TABLES.items():
        path = target / name.replace(".jsonl", ".csv")
        write_text_atomic(path, csv_text(pack.records(name), model))
        typer.echo(f"wrote {path}")


@shop_app.command("draft-gold")
def draft_gold_command(
    messages: Annotated[
        Path,
        typer.Argument(
            help="Logged viewer messages, one JSON object a line: message, session "
            "(product_on_screen, now), id optional."
        ),
    ],
    shop: Annotated[Path, typer.Option(help="The shop folder the messages are about.")],
    out: Annotated[Path, typer.Option(help="The drafted cases file to write (JSONL).")],
    label_studio: Annotated[
        Path | None,
        typer.Option(
            "--label-studio",
            help="Also write Label Studio tasks (JSON) to review the drafts in; read the "
            "export back with `hat-eval shop import-gold`.",
        ),
    ] = None,
) -> None:
    """Propose each logged message's gold from the shop, for a person to review.

    The intent its words read, the lookups that intent needs run on the shop, the facts read
    off them (docs/shop.md). Every line is written `"reviewed": false`; `run --cases` refuses
    it until a person has checked it and set `"reviewed": true`.
    """
    from hat_eval._jsonl import jsonl_text
    from hat_eval.episode import knowledge_base
    from hat_eval.world import CaseFileError, draft_gold, label_studio_tasks

    output_file(out, inputs=[("messages", messages)])
    if label_studio is not None:
        output_file(label_studio, option="--label-studio")
    _read_shop(shop)
    kb = knowledge_base(0, shop.as_posix())
    try:
        from hat_eval.baselines import read_intent

        drafts = draft_gold(messages, kb, read_intent=read_intent)
    except CaseFileError as err:
        fail(str(err))
    save(out, jsonl_text(drafts))
    empty = sum(1 for d in drafts if not d["facts"])
    typer.echo(
        f"wrote {out}: {len(drafts)} drafts, {len(drafts) - empty} with facts, all "
        '"reviewed": false; check each against the shop and set "reviewed": true'
    )
    if label_studio is not None:
        import json

        from hat_eval.world import LABEL_CONFIG

        tasks = json.dumps(label_studio_tasks(drafts, kb), ensure_ascii=False, indent=1)
        save(label_studio, tasks, option="--label-studio")
        typer.echo(f"wrote {label_studio}: {len(drafts)} Label Studio tasks; labelling config:")
        typer.echo(LABEL_CONFIG)


@shop_app.command("import-gold")
def import_gold_command(
    export: Annotated[
        Path, typer.Argument(help="Label Studio's JSON export of the draft-gold tasks.")
    ],
    out: Annotated[Path, typer.Option(help="The reviewed cases file to write (JSONL).")],
) -> None:
    """Read reviewed drafts back from a Label Studio export as a cases file (`run --cases`).

    Each annotated task's edited line is written `"reviewed": true`; tasks nobody annotated
    are left out and counted.
    """
    from hat_eval._jsonl import jsonl_text
    from hat_eval.world import CaseFileError, read_reviewed

    output_file(out, inputs=[("export", export)])
    try:
        rows = read_reviewed(export)
    except CaseFileError as err:
        fail(str(err))
    if not rows:
        fail(f"{export}: no annotated task, expected the export of reviewed draft-gold tasks")
    save(out, jsonl_text(rows))
    typer.echo(f"wrote {out}: {len(rows)} reviewed cases")
