"""Score a responses file (the reference's ``input_response_data_*.jsonl``) and write results."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from hat_eval._jsonl import JsonlError, read_jsonl, write_jsonl

from ._checks import Verdict, check_all, validate_examples
from ._data import IFEvalError, IFEvalExample


def read_responses(path: Path) -> dict[str, tuple[str, int]]:
    """``prompt -> (response, line number)``; a repeated prompt keeps its last response.

    Raises:
        IFEvalError: Unreadable file, a line that is not a JSON object with string fields
            ``prompt`` and ``response`` (its line number named), or no lines at all.
    """
    out: dict[str, tuple[str, int]] = {}
    try:
        for lineno, row in read_jsonl(path, what="responses (prompt, response)"):
            for name in ("prompt", "response"):
                if not isinstance(row.get(name), str):
                    raise IFEvalError(
                        f"{path}:{lineno}: field {name!r} must be a string, "
                        f"got {row.get(name)!r:.60}"
                    )
            out[row["prompt"]] = (row["response"], lineno)
    except JsonlError as err:
        raise IFEvalError(str(err)) from None
    if not out:
        raise IFEvalError(f"{path}: no responses; expected one JSON object per line")
    return out


def score_responses(
    examples: Sequence[IFEvalExample], path: Path, *, workers: int = 1
) -> list[Verdict]:
    """Score every response in ``path`` against its prompt, in the data's order.

    ``workers`` processes share the work (see :func:`check_all`); the results do not depend
    on it.

    Raises:
        IFEvalError: A malformed line, a prompt that is not in ``examples``, or an
            instruction id no checker knows.
    """
    responses = read_responses(path)
    by_prompt = {ex.prompt: ex for ex in examples}
    for prompt, (_, lineno) in responses.items():
        if prompt not in by_prompt:
            raise IFEvalError(
                f"{path}:{lineno}: prompt {prompt[:60]!r} is not in the IFEval data; expected "
                "the exact prompt text of a dataset row (pass --data for another prompt file)"
            )
    chosen = [ex for ex in examples if ex.prompt in responses]
    validate_examples(chosen)
    return check_all([(ex, responses[ex.prompt][0]) for ex in chosen], workers=workers)


def write_results(verdicts: Sequence[Verdict], path: Path) -> None:
    """One JSON line per prompt: its key (or prompt) and the strict and loose results."""
    write_jsonl(path, (v.to_row() for v in verdicts))
