"""The frozen test and dev splits: each case suite's episodes as a versioned JSONL file.

A case suite's folder holds ``test.jsonl`` and ``dev.jsonl``: its episode rows
(:meth:`~hat_eval.episode.Episode.to_row`, one a line, the canonical bytes
:func:`~hat_eval.episode.rows_jsonl` writes), so a file's sha256 is the ``dataset_sha256`` an
eval log records. Its ``eval.yaml`` names each file with its sha256 and the ``DATASET_VERSION``
it was written under::

    splits:
      test: {file: test.jsonl, sha256: 1a5e52..., dataset_version: '5'}

The suites read these files (:func:`frozen_episodes`) whenever a run asks for what they hold:
the default harness, knowledge base and case seed, and at most the file's cases; anything else
(another seed, harness or changelog, the train split) is generated as before.
:func:`write_split_files` regenerates every file and its hash (``hat-eval world build --splits``).
"""

from __future__ import annotations

import hashlib
import inspect
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hat_eval._outputs import write_bytes_atomic

from ._catalog import eval_files
from ._recipes import SuiteFileError, case_suites, suite_recipe

if TYPE_CHECKING:
    from hat_eval.episode import Episode

SPLITS_KEY = "splits"
"""The ``eval.yaml`` key naming a case suite's frozen split files."""
FROZEN_SPLITS = ("test", "dev")
"""The splits shipped as files; the train split (larger, for training) is generated."""
REGENERATE = "hat-eval world build --splits"
"""The one command that rewrites every split file and its hash."""


class SplitFileError(ValueError):
    """A frozen split file that is missing, edited or stale; ``str(err)`` names it and the fix."""


@dataclass(frozen=True)
class SplitFile:
    """One frozen split of a case suite, as its ``eval.yaml`` names it."""

    suite: str
    split: str
    path: Path
    sha256: str
    dataset_version: str


def split_files(name: str) -> dict[str, SplitFile]:
    """Split -> the frozen file of case suite ``name`` (empty when its ``eval.yaml`` has none).

    Raises:
        SuiteFileError: the ``splits`` entry is not ``{split: {file, sha256, dataset_version}}``.
    """
    source, data = eval_files()[name]
    value = data.get(SPLITS_KEY)
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise SuiteFileError(
            source, SPLITS_KEY, f"expected {{split: {{file, sha256, ...}}}}, got {value!r}"
        )
    out = {}
    for split, entry in value.items():
        field = f"{SPLITS_KEY}.{split}"
        if split not in FROZEN_SPLITS:
            raise SuiteFileError(source, field, f"expected one of {', '.join(FROZEN_SPLITS)}")
        if not isinstance(entry, Mapping) or set(entry) != {"file", "sha256", "dataset_version"}:
            raise SuiteFileError(
                source, field, f"expected {{file, sha256, dataset_version}}, got {entry!r}"
            )
        sha = str(entry["sha256"])
        if not re.fullmatch(r"[0-9a-f]{64}", sha):
            raise SuiteFileError(source, f"{field}.sha256", f"expected 64 hex digits, got {sha!r}")
        path = Path(source).parent / str(entry["file"])
        out[split] = SplitFile(name, split, path, sha, str(entry["dataset_version"]))
    return out


_FIX = f"regenerate the split files with: {REGENERATE}"


def split_bytes(name: str, split: str) -> bytes | None:
    """The bytes of a frozen split file, checked against its ``eval.yaml`` (None: not frozen).

    Raises:
        SplitFileError: the file is missing, its sha256 is not the pinned one, or it was written
            under another ``DATASET_VERSION`` than the code's.
    """
    from hat_eval.episode import DATASET_VERSION

    entry = split_files(name).get(split)
    if entry is None:
        return None
    if entry.dataset_version != DATASET_VERSION:
        raise SplitFileError(
            f"{entry.path}: written under dataset version {entry.dataset_version}, but the case "
            f"generator is at version {DATASET_VERSION}; {_FIX}"
        )
    return _pinned_bytes(name, split)


@cache
def _pinned_bytes(name: str, split: str) -> bytes | None:
    """The bytes of a frozen split file whose sha256 is the one its ``eval.yaml`` pins.

    The version is not checked (that needs the episode layer, which :func:`split_count` and
    ``hat-eval suites`` do not load): the listing shows the files as shipped.
    """
    entry = split_files(name).get(split)
    if entry is None:
        return None
    try:
        data = entry.path.read_bytes()
    except OSError as err:
        raise SplitFileError(
            f"{entry.path}: cannot be read ({err.strerror}), expected the {split} split of "
            f"{name}; {_FIX}"
        ) from None
    actual = hashlib.sha256(data).hexdigest()
    if actual != entry.sha256:
        raise SplitFileError(
            f"{entry.path}: sha256 {actual[:12]}... but eval.yaml pins {entry.sha256[:12]}...; "
            f"the file was edited by hand or not regenerated: {_FIX}"
        )
    return data


def split_count(name: str, split: str) -> int | None:
    """How many rows a frozen split file holds (None: not frozen); no JSON is parsed.

    Light: the file's sha256 is checked, but not its dataset version (see :func:`split_bytes`).
    """
    data = _pinned_bytes(name, split)
    return None if data is None else data.count(b"\n")


def _bases(name: str) -> dict[str | None, dict[str, Any]]:
    """Version label (None: no changelog) -> the base harness reference of the suite's rows."""
    from hat_eval.episode import harness_ref

    recipe = suite_recipe(name)
    if recipe.changelog is None:
        return {None: harness_ref(None).base_dict()}
    from hat_eval.harness import load_changelog

    log = load_changelog(recipe.changelog)
    return {v.version: harness_ref(str(v.path)).base_dict() for v in log.versions}


def frozen_episodes(
    name: str, *, split: str = "test", n: int | None = None, seed: int | None = None, **others: Any
) -> list[Episode] | None:
    """Suite ``name``'s episodes read from its frozen split file, or None to generate them.

    The arguments are :func:`~hat_eval.episode.build_episodes`'s; the file answers when they
    ask for what it holds (the suite's own case seed, at most its number of cases, the others at
    their defaults: the default harness, changelog, versions, knowledge base and built-in shop,
    generated cases): the same episodes, in the same order, as generating them.

    Raises:
        SplitFileError: the file is missing, edited or stale (:func:`split_bytes`).
    """
    from hat_eval.episode import Episode, build_episodes

    recipe = suite_recipe(name)
    defaults = {k: p.default for k, p in inspect.signature(build_episodes).parameters.items()}
    if any(v != defaults.get(k) for k, v in others.items()):
        return None
    if seed is not None and seed != recipe.seed:
        return None
    if (n is not None and n > recipe.cases) or split not in split_files(name):
        return None
    data = split_bytes(name, split)
    if data is None:
        return None
    lines = data.splitlines()
    if n is not None:  # each block of the suite's cases (one per changelog version), cut to n
        size = recipe.cases
        lines = [x for b in range(len(lines) // size) for x in lines[b * size : b * size + n]]
    rows = [json.loads(x) for x in lines]  # only the rows asked for are parsed
    bases = _bases(name)
    return [Episode.from_row(r, bases[r["metadata"].get("version")]) for r in rows]


def generated_split(name: str, split: str) -> bytes:
    """The canonical JSONL the generator gives for suite ``name``'s ``split`` (files unread)."""
    from hat_eval.episode import build_rows, rows_jsonl

    return rows_jsonl(build_rows(suite_recipe(name), split=split))


_HEADER = (
    "# The frozen cases of each split (episode rows, one a line; the suite reads these files).\n"
    f"# `{REGENERATE}` rewrites them and these hashes; the train split is generated.\n"
    f"{SPLITS_KEY}:\n"
)


def write_split_files(names: tuple[str, ...] | None = None) -> list[SplitFile]:
    """Regenerate the frozen split files of case suites ``names`` (all when None).

    Each suite's ``test.jsonl`` and ``dev.jsonl`` are written from the generator (atomically),
    and its ``eval.yaml``'s ``splits:`` block (the file's last block) is rewritten with their
    sha256 and the current ``DATASET_VERSION``; the rest of the ``eval.yaml`` is kept as it is.
    """
    from hat_eval.episode import DATASET_VERSION

    out = []
    for name in names or case_suites():
        source, _ = eval_files()[name]
        yaml_path = Path(source)
        entries = []
        for split in FROZEN_SPLITS:
            file = f"{split}.jsonl"
            data = generated_split(name, split)
            write_bytes_atomic(yaml_path.parent / file, data)
            sha = hashlib.sha256(data).hexdigest()
            entries.append(
                f"  {split}: {{file: {file}, sha256: {sha}, "
                f"dataset_version: '{DATASET_VERSION}'}}\n"
            )
            out.append(SplitFile(name, split, yaml_path.parent / file, sha, DATASET_VERSION))
        text = yaml_path.read_text(encoding="utf-8")
        cut = text.find(_HEADER.splitlines()[0])
        head = (text if cut < 0 else text[:cut]).rstrip("\n") + "\n"
        write_bytes_atomic(yaml_path, (head + _HEADER + "".join(entries)).encode("utf-8"))
    eval_files.cache_clear()
    _pinned_bytes.cache_clear()
    return out
