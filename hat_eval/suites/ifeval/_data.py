"""The IFEval prompts: the reference's ``input_data.jsonl`` format, from a file or the Hub."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hat_eval._jsonl import JsonlError, read_jsonl

HF_DATASET = "google/IFEval"
"""The public dataset the reference publishes (541 prompts, split ``train``)."""

HF_SPLIT = "train"

NUM_PROMPTS = 541
"""Prompts in the reference's ``input_data.jsonl`` and in ``google/IFEval``."""


class IFEvalError(ValueError):
    """Bad IFEval input: a data or responses file, a line, a field, an instruction id."""


@dataclass(frozen=True)
class IFEvalExample:
    """One prompt and the verifiable instructions it carries.

    Attributes:
        key: The reference's integer id (``None`` for a local file without keys).
        prompt: The prompt text, exactly as given to the model.
        instruction_id_list: Instruction ids such as ``punctuation:no_comma``.
        kwargs: One argument dict per instruction (``None`` values already dropped).
        where: Where it was read (``file:line`` or ``dataset[index]``), for error messages.
    """

    key: int | None
    prompt: str
    instruction_id_list: tuple[str, ...]
    kwargs: tuple[dict[str, Any], ...]
    where: str = field(default="", compare=False)

    @property
    def ident(self) -> dict[str, Any]:
        """``{"key": key}``, or ``{"prompt": prompt}`` where there is no key."""
        return {"key": self.key} if self.key is not None else {"prompt": self.prompt}


def parse_example(row: Any, where: str) -> IFEvalExample:
    """Validate one record (a JSONL line or a dataset row); ``where`` names it in errors."""
    if not isinstance(row, dict):
        raise IFEvalError(f"{where}: expected a JSON object, got {type(row).__name__}")
    prompt = row.get("prompt")
    if not isinstance(prompt, str):
        raise IFEvalError(f"{where}: field 'prompt' must be a string, got {prompt!r:.60}")
    key = row.get("key")
    if key is not None and (isinstance(key, bool) or not isinstance(key, int)):
        raise IFEvalError(f"{where}: field 'key' must be an integer, got {key!r:.60}")
    ids = row.get("instruction_id_list")
    if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
        raise IFEvalError(f"{where}: field 'instruction_id_list' must be a list of strings")
    kwargs = row.get("kwargs", [{} for _ in ids])
    if not isinstance(kwargs, list) or not all(isinstance(k, dict) for k in kwargs):
        raise IFEvalError(f"{where}: field 'kwargs' must be a list of objects")
    if len(kwargs) != len(ids):
        raise IFEvalError(
            f"{where}: 'kwargs' has {len(kwargs)} entries but 'instruction_id_list' has "
            f"{len(ids)}; expected one argument object per instruction"
        )
    # The Hub's Arrow schema gives every row every argument, None where unused; the
    # reference file carries only the used ones. Dropping None makes the two identical.
    clean = tuple({k: v for k, v in kw.items() if v is not None} for kw in kwargs)
    return IFEvalExample(key, prompt, tuple(ids), clean, where)


def read_examples(path: Path) -> list[IFEvalExample]:
    """Read a local ``input_data.jsonl``, streaming it; errors name the file and line number."""
    try:
        examples = [
            parse_example(row, f"{path}:{lineno}")
            for lineno, row in read_jsonl(path, what="IFEval prompts (input_data.jsonl)")
        ]
    except JsonlError as err:
        raise IFEvalError(str(err)) from None
    if not examples:
        raise IFEvalError(f"{path}: no prompts; expected one JSON object per line")
    return examples


DATA_HINT = (
    "give a local IFEval input_data.jsonl instead (hat-eval run --ifeval-data PATH, "
    "inspect eval ... -T data=PATH, hat-eval ifeval score --data PATH)"
)
"""How to point any entry point at local data; every data error ends with it."""


def load_hub_examples(revision: str | None = None) -> list[IFEvalExample]:
    """Load ``google/IFEval`` through ``datasets`` (lazily imported).

    Fails at once, before importing ``datasets``, when the Hub is switched off
    (``HF_HUB_OFFLINE=1`` or ``HF_DATASETS_OFFLINE=1``).
    """
    offline = [v for v in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE") if os.environ.get(v) == "1"]
    if offline:
        raise IFEvalError(f"the Hugging Face Hub is offline ({offline[0]}=1): {DATA_HINT}")
    try:
        import datasets
    except ImportError as err:
        raise IFEvalError(
            "loading google/IFEval needs the 'datasets' package (pip install hat-eval[train]); "
            + DATA_HINT
        ) from err
    try:
        ds = datasets.load_dataset(HF_DATASET, split=HF_SPLIT, revision=revision)
    except Exception as err:  # offline, no cache, hub errors: all end the same way
        raise IFEvalError(
            f"cannot load {HF_DATASET} from the Hugging Face Hub ({type(err).__name__}); "
            + DATA_HINT
        ) from err
    return [parse_example(dict(row), f"{HF_DATASET}[{i}]") for i, row in enumerate(ds)]


def load_ifeval(
    path: str | Path | None = None, *, revision: str | None = None
) -> list[IFEvalExample]:
    """The IFEval prompts: a local JSONL when ``path`` is given, else ``google/IFEval``.

    Args:
        path: A file in the reference's ``input_data.jsonl`` format.
        revision: A Hub revision (commit) of ``google/IFEval``; the latest when ``None``.

    Raises:
        IFEvalError: Unreadable or malformed data, or the Hub is out of reach.
    """
    if path is not None:
        return read_examples(Path(path))
    return load_hub_examples(revision)


def suite_entry(path: str | Path | None = None) -> tuple[int, str | None]:
    """The ``hat-eval suites`` row's prompt count and the sha256 of the data file.

    Without ``path`` nothing is loaded: the count is the reference's and the hash is ``None``.
    """
    if path is None:
        return NUM_PROMPTS, None
    return len(read_examples(Path(path))), hashlib.sha256(Path(path).read_bytes()).hexdigest()
