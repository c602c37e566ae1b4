"""Write variants and their mappings to a folder, byte-for-byte reproducibly."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from hat_eval._jsonl import jsonl_text
from hat_eval._outputs import write_text_atomic
from hat_eval.harness import dump_harness

from ._policy import Variant


def write_variants(
    variants: Iterable[Variant],
    out_dir: str | Path,
    *,
    fmt: str = "yaml",
    on_written: Callable[[Variant], None] | None = None,
) -> list[dict[str, Any]]:
    """Write ``variant-NNNNN.{yaml,json}``, its ``.mapping.json`` and ``manifest.jsonl``.

    Returns the manifest rows: index, seed, dims, file names and the sha256 of the harness file.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    rows: list[dict[str, Any]] = []
    for v in variants:
        stem = f"variant-{v.index:05d}"
        text = dump_harness(v.harness, fmt)
        harness_file = f"{stem}.{fmt}"
        write_text_atomic(out / harness_file, text)
        mapping_file = f"{stem}.mapping.json"
        write_text_atomic(
            out / mapping_file,
            json.dumps(v.mapping.to_dict(), ensure_ascii=False, indent=2) + "\n",
        )
        rows.append(
            {
                "index": v.index,
                "seed": v.seed,
                "dims": list(v.mapping.dims),
                "harness": harness_file,
                "mapping": mapping_file,
                "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest(),
            }
        )
        if on_written is not None:
            on_written(v)
    write_text_atomic(out / "manifest.jsonl", jsonl_text(rows))
    return rows
