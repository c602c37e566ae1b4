"""General instruction prompts for on-policy distillation: a local file or folder, or the Hub.

General OPD needs prompts only (the student writes its own completions), so every layout is
reduced to a conversation that ends where the model should answer:

- ``messages`` (the Tulu 3 SFT mixture, ``allenai/tulu-3-sft-mixture``, and any chat SFT set): the
  conversation up to, not including, its last assistant turn (all of it when it has none);
- ``prompt`` (TRL's prompt-only layout): a string (one user turn) or a list of turns, cut the same
  way;
- ``instruction`` with ``input`` (Alpaca) or ``instances[*].input`` (Self-Instruct's seed tasks,
  the set in ``shared/data/general_instructions/``): the instruction, then a blank line and the
  input when it is not empty; one prompt per distinct input.

A local source is a ``.jsonl``, ``.json`` (an array of rows, or JSON Lines) or ``.parquet`` file,
or a folder of them (searched recursively, as a Hub snapshot is laid out). Any other source is a
Hub dataset id, loaded through ``datasets`` (imported only then).

Splits: a file belongs to split ``S`` when its name is ``S`` or starts with ``S`` and ``-``, ``_``
or ``.`` (``train-00000-of-00006.parquet``), or when a folder on its path is named ``S``; when no
file names a split, everything is the ``train`` split.
"""

from __future__ import annotations

import json
import os
import random
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypedDict, cast

from hat_eval._jsonl import JsonlError, read_jsonl
from hat_eval.trainers._common import TrainError

TULU3_SFT_MIXTURE = "allenai/tulu-3-sft-mixture"
"""The Hub id of the Tulu 3 SFT mixture (``messages`` column, split ``train``)."""

SUFFIXES = (".jsonl", ".json", ".parquet")
"""File types a local source may hold."""

ROLES = ("system", "user", "assistant")
"""Roles a prompt turn may have."""

_LAYOUT = (
    "expected a 'messages' list of {'role', 'content'} turns (Tulu 3), a 'prompt' "
    "(string or turns), or an 'instruction' (with 'input' or 'instances')"
)
_LOCAL_HINT = (
    "pass a local path instead (a .jsonl/.json/.parquet file or a folder of them, e.g. a "
    "downloaded copy of allenai/tulu-3-sft-mixture)"
)


class ChatTurn(TypedDict):
    """One turn of a prompt, as chat templates and TRL's conversational prompts take it."""

    role: Literal["system", "user", "assistant"]
    content: str


@dataclass(frozen=True)
class GeneralPrompt:
    """One general-instruction prompt.

    Attributes:
        id: Where it came from: the row's own ``id`` when it has one, else ``file:line`` or
            ``source[index]``.
        messages: The conversation the student answers (at least one user turn; never ends on
            an assistant turn).
    """

    id: str
    messages: tuple[ChatTurn, ...]

    def chat(self) -> list[dict[str, str]]:
        """The turns as plain dicts (a fresh list: the ``prompt`` column of TRL's trainers)."""
        return [{"role": turn["role"], "content": turn["content"]} for turn in self.messages]


def load_general_instructions(
    source: str | Path,
    *,
    split: str = "train",
    limit: int | None = None,
    seed: int | None = None,
    revision: str | None = None,
) -> list[GeneralPrompt]:
    """Load general-instruction prompts in chat form.

    Args:
        source: A local file or folder (see the module docstring), or a Hub dataset id such as
            :data:`TULU3_SFT_MIXTURE`.
        split: Which split to read.
        limit: Keep at most this many prompts (after shuffling, when ``seed`` is given). On the
            Hub the split is then streamed, so only what is needed is downloaded, and the shuffle
            is the streaming one (a 10,000-row buffer), not a full permutation.
        seed: Shuffle with this seed; ``None`` keeps the source's order.
        revision: A Hub revision (commit or tag); ignored for local sources.

    Returns:
        The prompts, in file order or shuffled.

    Raises:
        TrainError: The file is missing or unreadable, a row has no user turn or an unknown
            layout, the split is empty, ``limit`` is below 1, or the Hub is out of reach. The
            message is one line naming the file or row.
    """
    if limit is not None and limit < 1:
        raise TrainError(
            f"general_limit ({limit}) must be at least 1, or unset to use every prompt"
        )
    path = Path(source)
    if path.exists():
        prompts = _read_local(path, split)
    elif path.suffix in SUFFIXES or not _looks_like_hub_id(str(source)):
        raise TrainError(
            f"{source}: no such file or folder; expected a .jsonl/.json/.parquet file, a folder of "
            f"them, or a Hub dataset id such as {TULU3_SFT_MIXTURE}"
        )
    else:
        return _read_hub(str(source), split, limit, seed, revision)
    if not prompts:
        raise TrainError(f"{source}: split {split!r} has no prompts; {_LAYOUT}")
    if seed is not None:
        random.Random(seed).shuffle(prompts)
    return prompts[:limit] if limit is not None else prompts


def prompts_from_row(row: Mapping[str, Any], where: str) -> list[GeneralPrompt]:
    """The prompts in one row of any supported layout (``where`` names it in errors).

    Raises:
        TrainError: The row has no known layout, a malformed turn, or no user turn.
    """
    ident = str(row["id"]) if isinstance(row.get("id"), str | int) else where
    if row.get("messages") is not None:
        return [GeneralPrompt(ident, _cut_conversation(row["messages"], where, "messages"))]
    if row.get("prompt") is not None:
        prompt = row["prompt"]
        if isinstance(prompt, str):
            return [GeneralPrompt(ident, (_user_turn(prompt, where, "prompt"),))]
        return [GeneralPrompt(ident, _cut_conversation(prompt, where, "prompt"))]
    if row.get("instruction") is not None:
        instruction = row["instruction"]
        if not isinstance(instruction, str) or not instruction.strip():
            raise TrainError(f"{where}: 'instruction' is empty; expected the task's text")
        inputs = _instance_inputs(row, where)
        texts = [f"{instruction}\n\n{text}" if text.strip() else instruction for text in inputs]
        names = [ident] if len(texts) == 1 else [f"{ident}#{i}" for i in range(len(texts))]
        return [
            GeneralPrompt(name, (_user_turn(text, where, "instruction"),))
            for name, text in zip(names, texts, strict=True)
        ]
    raise TrainError(f"{where}: no user turn; {_LAYOUT}")


def _instance_inputs(row: Mapping[str, Any], where: str) -> list[str]:
    """The distinct non-duplicate inputs of an instruction row (``[""]`` when it has none)."""
    raw: list[Any]
    if isinstance(row.get("instances"), list) and row["instances"]:
        raw = [
            inst.get("input", "") if isinstance(inst, dict) else inst for inst in row["instances"]
        ]
    else:
        raw = [row.get("input") or ""]
    inputs: list[str] = []
    for value in raw:
        if not isinstance(value, str):
            raise TrainError(
                f"{where}: an instance 'input' is {type(value).__name__}; expected text"
            )
        if value not in inputs:
            inputs.append(value)
    return inputs


def _user_turn(text: Any, where: str, field: str) -> ChatTurn:
    if not isinstance(text, str) or not text.strip():
        raise TrainError(f"{where}: '{field}' is empty; expected the user's text")
    return {"role": "user", "content": text}


def _cut_conversation(turns: Any, where: str, field: str) -> tuple[ChatTurn, ...]:
    """Validate a list of turns and keep what precedes the last assistant turn."""
    if not isinstance(turns, list | tuple) or not turns:
        raise TrainError(f"{where}: '{field}' is empty or not a list; expected chat turns")
    checked: list[ChatTurn] = []
    for i, turn in enumerate(turns):
        role = turn.get("role") if isinstance(turn, Mapping) else None
        content = turn.get("content") if isinstance(turn, Mapping) else None
        if role not in ROLES or not isinstance(content, str):
            raise TrainError(
                f"{where}: {field}[{i}] is not a {{'role', 'content'}} turn with role in "
                f"{', '.join(ROLES)} and text content"
            )
        checked.append(cast(ChatTurn, {"role": role, "content": content}))
    last_assistant = max(
        (i for i, turn in enumerate(checked) if turn["role"] == "assistant"), default=len(checked)
    )
    prompt = checked[:last_assistant]
    if not any(turn["role"] == "user" and turn["content"].strip() for turn in prompt):
        raise TrainError(
            f"{where}: no user turn before the last assistant turn; expected at least one "
            "non-empty {'role': 'user', ...} turn to prompt the student with"
        )
    return tuple(prompt)


# --- local files --------------------------------------------------------------------------------


def _read_local(path: Path, split: str) -> list[GeneralPrompt]:
    if path.is_dir():
        files = sorted(
            p
            for p in path.rglob("*")
            if p.is_file()
            and p.suffix in SUFFIXES
            and not any(part.startswith(".") for part in p.relative_to(path).parts)
        )
        if not files:
            raise TrainError(f"{path}: the folder holds no {'/'.join(SUFFIXES)} file")
        base = path
    elif path.suffix in SUFFIXES:
        files, base = [path], path.parent
    else:
        raise TrainError(f"{path}: unsupported file type; expected one of {', '.join(SUFFIXES)}")
    named = [f for f in files if _names_a_split(f.relative_to(base))]
    if named:
        chosen = [f for f in named if _in_split(f.relative_to(base), split)]
    else:
        chosen = files if split == "train" else []
    if not chosen:
        found = sorted({s for f in named for s in _splits_of(f.relative_to(base))}) or ["train"]
        raise TrainError(
            f"{path}: no file of split {split!r}; the splits there are {', '.join(found)} "
            "(a file or folder that names no split is the train split)"
        )
    prompts: list[GeneralPrompt] = []
    for file in chosen:
        for row, where in _rows(file):
            prompts.extend(prompts_from_row(row, where))
    return prompts


_SPLIT_WORDS = ("train", "test", "validation", "valid", "dev", "eval")


def _splits_of(rel: Path) -> list[str]:
    words = [part for part in rel.parts[:-1] if part in _SPLIT_WORDS]
    match = re.match(r"([A-Za-z]+)(?:[-_.]|$)", rel.name.removesuffix(rel.suffix))
    if match and match.group(1) in _SPLIT_WORDS:
        words.append(match.group(1))
    return words


def _names_a_split(rel: Path) -> bool:
    return bool(_splits_of(rel))


def _in_split(rel: Path, split: str) -> bool:
    if split in rel.parts[:-1]:
        return True
    return (
        re.match(rf"{re.escape(split)}(?:[-_.]|$)", rel.name.removesuffix(rel.suffix)) is not None
    )


def _rows(file: Path) -> Iterator[tuple[dict[str, Any], str]]:
    """The rows of one file, each with where it is (``file:line`` or ``file[index]``)."""
    if file.suffix == ".parquet":
        yield from _parquet_rows(file)
        return
    if file.suffix == ".json":
        try:
            text = file.read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as err:
            raise TrainError(f"{file}: cannot read it ({err}); expected UTF-8 JSON") from err
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            data = None  # JSON Lines under a .json name: read below
        if data is not None:
            if not isinstance(data, list):
                raise TrainError(f"{file}: a JSON {type(data).__name__}; expected an array of rows")
            for i, row in enumerate(data):
                yield _as_row(row, f"{file}[{i}]"), f"{file}[{i}]"
            return
    try:
        for lineno, row in read_jsonl(file, what="prompt rows"):
            yield row, f"{file}:{lineno}"
    except JsonlError as err:
        raise TrainError(str(err)) from None


def _parquet_rows(file: Path) -> Iterator[tuple[dict[str, Any], str]]:
    try:
        import pyarrow.parquet as pq  # type: ignore[import-untyped]
    except ImportError as err:
        raise TrainError(
            f"{file}: reading parquet needs pyarrow (pip install hat-eval[train])"
        ) from err
    try:
        table = pq.read_table(file)
    except (OSError, ValueError) as err:
        raise TrainError(f"{file}: cannot read it as parquet ({err})") from err
    for i, row in enumerate(table.to_pylist()):
        yield row, f"{file}[{i}]"


def _as_row(row: Any, where: str) -> dict[str, Any]:
    if not isinstance(row, dict):
        raise TrainError(f"{where}: a JSON {type(row).__name__}; expected an object; {_LAYOUT}")
    return row


# --- the Hub ------------------------------------------------------------------------------------


def _looks_like_hub_id(source: str) -> bool:
    return re.fullmatch(r"[A-Za-z0-9][\w.-]*/[\w.-]+", source) is not None


def _read_hub(
    source: str, split: str, limit: int | None, seed: int | None, revision: str | None
) -> list[GeneralPrompt]:
    """Load a Hub dataset through ``datasets``; offline or unreachable, one line says what to do."""
    offline = [v for v in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE") if os.environ.get(v) == "1"]
    if offline:
        raise TrainError(
            f"{source}: not a local path, and the Hugging Face Hub is offline ({offline[0]}=1); "
            + _LOCAL_HINT
        )
    try:
        import datasets
    except ImportError as err:
        raise TrainError(
            f"{source}: loading from the Hugging Face Hub needs the 'datasets' package "
            "(pip install hat-eval[train]); " + _LOCAL_HINT
        ) from err
    try:
        rows: Iterable[Any]
        if limit is not None:
            stream = datasets.load_dataset(source, split=split, revision=revision, streaming=True)
            if seed is not None:
                stream = stream.shuffle(seed=seed, buffer_size=10_000)
            rows = stream.take(limit)
        else:
            table = datasets.load_dataset(source, split=split, revision=revision)
            rows = table.shuffle(seed=seed) if seed is not None else table
        prompts: list[GeneralPrompt] = []
        for i, row in enumerate(rows):
            prompts.extend(prompts_from_row(dict(row), f"{source}[{split}][{i}]"))
    except TrainError:
        raise
    except Exception as err:  # offline, no cache, unknown split, hub errors: all end the same way
        raise TrainError(
            f"{source}: cannot load split {split!r} from the Hugging Face Hub "
            f"({type(err).__name__}); " + _LOCAL_HINT
        ) from err
    if not prompts:
        raise TrainError(f"{source}: split {split!r} has no prompts; {_LAYOUT}")
    return prompts[:limit] if limit is not None else prompts
