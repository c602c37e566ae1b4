"""The suites hat-eval has, read from their folders: one shape for every suite.

Each suite is a folder of this package (``livestream/``, ``variant/``, ``robustness/``,
``ifeval/``) with an ``eval.yaml`` (name, title, description, version, the task to run and which
run options it takes; a case suite's ``recipe``: :func:`~hat_eval.suites.suite_recipe`) and a
``task.py`` holding its registered ``@task``. ``hat-eval run`` and ``hat-eval suites`` derive
everything from here; nothing else keeps a list of suites.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

if TYPE_CHECKING:
    from inspect_ai import Task

IFEVAL = "ifeval"


@dataclass(frozen=True)
class TaskOptions:
    """What a user chooses for a run; each suite takes the options its ``eval.yaml`` names.

    ``limit`` is the cases per suite (all if None), ``ifeval_data`` a local IFEval
    ``input_data.jsonl`` (the Hub's if None), and ``harness`` also IFEval's (it puts the
    harness's system prompt first); the others are the case suites' task arguments of the same
    names, documented on :class:`~hat_eval.suites._task.CaseTaskSpec`.
    """

    limit: int | None = None
    harness: str | None = None
    seed: int | None = None
    agent: str = "harness"
    ifeval_data: Path | None = None
    disclosure: str | None = None
    harness_version: str | None = None
    changelog: str | None = None
    shop: str | None = None
    cases: str | None = None


@dataclass(frozen=True)
class SuiteMeta:
    """A suite's ``eval.yaml``."""

    name: str
    title: str
    description: str
    version: str
    order: int
    task: str
    run_options: Mapping[str, str]
    """TaskOptions field -> the task argument it sets."""


@dataclass(frozen=True)
class SuiteInfo:
    """One row of ``hat-eval suites``."""

    name: str
    cases: int
    sha256: str | None
    description: str


@lru_cache(maxsize=1)
def eval_files() -> dict[str, tuple[str, dict[str, Any]]]:
    """Folder name -> (path, parsed content) of every suite's ``eval.yaml``."""
    out = {}
    for entry in files(__package__ or "hat_eval.suites").iterdir():
        meta_file = entry / "eval.yaml"
        if meta_file.is_file():
            data = yaml.safe_load(meta_file.read_text(encoding="utf-8"))
            out[entry.name] = (str(meta_file), data)
    return out


@lru_cache(maxsize=1)
def _metas() -> dict[str, SuiteMeta]:
    out = {}
    for _, data in eval_files().values():
        fields = {k: data[k] for k in SuiteMeta.__dataclass_fields__}
        meta = SuiteMeta(**{**fields, "version": str(data["version"])})
        out[meta.name] = meta
    return dict(sorted(out.items(), key=lambda kv: kv[1].order))


def suite_names() -> tuple[str, ...]:
    """Every suite, in the order ``--suite all`` runs them."""
    return tuple(_metas())


def check_suite(name: str) -> None:
    """Raise ``ValueError`` unless ``name`` is a suite."""
    if name not in _metas():
        raise ValueError(f"{name!r} is not a suite, expected one of {', '.join(_metas())}")


def suite_meta(name: str) -> SuiteMeta:
    """The ``eval.yaml`` of suite ``name``."""
    check_suite(name)
    return _metas()[name]


def task_function(name: str) -> Callable[..., Task]:
    """The registered ``@task`` suite ``name`` runs (from its ``task.py``)."""
    meta = suite_meta(name)
    module = importlib.import_module(f"{__package__}.{name}.task")
    fn: Callable[..., Task] = getattr(module, meta.task)
    return fn


def suite_task(name: str, **task_args: Any) -> Task:
    """Suite ``name``'s task with ``task_args`` (as ``inspect eval hat_eval/NAME -T ...``)."""
    return task_function(name)(**task_args)


def make_task(name: str, options: TaskOptions) -> Task:
    """The Inspect task of suite ``name`` under ``options``.

    Raises:
        ValueError: an unknown suite or agent, a harness missing a needed tool, or IFEval data
            that cannot be read (:class:`~hat_eval.suites.ifeval.IFEvalError`).
    """
    meta = suite_meta(name)
    args = {
        arg: getattr(options, field)
        for field, arg in meta.run_options.items()
        if getattr(options, field) is not None
    }
    return suite_task(name, **args)


def disclosure_harness(harness: str | None, disclosure: str | None) -> str | None:
    """The harness file a case suite runs under when ``disclosure`` is asked for.

    ``disclosure`` is a :data:`~hat_eval.harness.SkillDisclosure`. Without a harness file,
    ``inline`` is the default harness (None, as when nothing is asked, so the suites' datasets
    and their pinned hashes do not move) and ``progressive`` the default progressive harness
    (its path, which each episode's harness reference then carries with its sha256). A harness
    file says its own disclosure: ``disclosure`` may only repeat it. None leaves ``harness``
    as it is.

    Raises:
        ValueError: an unknown disclosure, or one that contradicts the harness file's.
    """
    from typing import get_args

    from hat_eval.harness import SkillDisclosure, default_harness_path, load_harness

    if disclosure is None:
        return harness
    forms = get_args(SkillDisclosure)
    if disclosure not in forms:
        raise ValueError(
            f"disclosure {disclosure!r} is unknown, expected one of {', '.join(forms)}"
        )
    if harness is None:
        return None if disclosure == "inline" else str(default_harness_path("progressive"))
    own = load_harness(harness).skill_disclosure
    if own != disclosure:
        raise ValueError(
            f"{harness}: skill_disclosure is {own}, but disclosure {disclosure} was asked for; "
            f"a harness file sets its own disclosure: drop the disclosure, or give a harness "
            f"with skill_disclosure: {disclosure}"
        )
    return harness


def suite_info(name: str, ifeval_data: Path | None = None) -> SuiteInfo:
    """Case count and dataset sha256 of suite ``name`` (IFEval's hash needs ``ifeval_data``)."""
    meta = suite_meta(name)
    if name == IFEVAL:
        from .ifeval._data import suite_entry

        return SuiteInfo(name, *suite_entry(ifeval_data), meta.description)
    from ._frozen import split_count, split_files

    frozen = split_files(name).get("test")
    count = split_count(name, "test")
    if frozen is not None and count is not None:  # the file's bytes are the canonical rows
        return SuiteInfo(name, count, frozen.sha256, meta.description)
    from hat_eval.episode import dataset_sha256

    from ._recipes import suite_rows

    rows = suite_rows(name)
    return SuiteInfo(name, len(rows), dataset_sha256(rows), meta.description)
