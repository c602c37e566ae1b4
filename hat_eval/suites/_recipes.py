"""Each case suite's recipe, read from its ``eval.yaml``, and the episodes it draws.

A case suite's ``eval.yaml`` holds a ``recipe:`` mapping (case count, seed, and what each case
runs under: HSA variants, or prompt perturbations crossed with tool faults) which this module
reads into the episode layer's typed :class:`~hat_eval.episode.Recipe`; the episode layer draws
the episodes from it and names no suite. The keys are the fields of
:class:`~hat_eval.episode.Recipe` (and :class:`~hat_eval.episode.FaultRecipe` under ``faults``),
so the record is their one owner. A key the record does not have, a value of the wrong type or
a value the record rejects is one :class:`SuiteFileError` naming the file and the field.

:func:`suite_episodes` and :func:`suite_rows` are ``build_episodes`` / ``build_rows`` by suite
name. Nothing here imports the episode layer until a recipe is read (it is not light).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ._catalog import check_suite, eval_files, suite_names

if TYPE_CHECKING:
    from hat_eval.episode import Episode, FaultRecipe, Recipe


class SuiteFileError(ValueError):
    """A suite's ``eval.yaml`` is invalid; ``str(err)`` is ``FILE: field: what is wrong``."""

    def __init__(self, source: str, field: str, message: str) -> None:
        self.source = source
        self.field = field
        self.message = message
        super().__init__(f"{source}: {field}: {message}")


RECIPE_KEY = "recipe"
"""The ``eval.yaml`` key of a case suite's recipe (suites without one, like IFEval, have none)."""


class _Reader:
    """Converts one recipe mapping's values to the record's field types, naming what fails."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, field: str, message: str) -> SuiteFileError:
        return SuiteFileError(self.source, f"{RECIPE_KEY}.{field}".rstrip("."), message)

    def integer(self, value: Any, field: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(field, f"expected an integer, got {value!r}")
        return value

    def boolean(self, value: Any, field: str) -> bool:
        if not isinstance(value, bool):
            raise self.fail(field, f"expected true or false, got {value!r}")
        return value

    def strings(self, value: Any, field: str) -> tuple[str, ...]:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.fail(field, f"expected a list of names, got {value!r}")
        return tuple(value)

    def dim_sets(self, value: Any, field: str) -> tuple[tuple[str, ...], ...]:
        if not isinstance(value, list):
            raise self.fail(field, f"expected a list of HSA dimension lists, got {value!r}")
        return tuple(self.strings(v, f"{field}.{i}") for i, v in enumerate(value))

    def times(self, value: Any, field: str) -> tuple[tuple[int, float], ...]:
        if not isinstance(value, Mapping):
            raise self.fail(field, f"expected {{failing calls: probability}}, got {value!r}")
        out = []
        for k, p in value.items():
            n = self.integer(k, f"{field}.{k}")
            if isinstance(p, bool) or not isinstance(p, int | float):
                raise self.fail(f"{field}.{k}", f"expected a probability, got {p!r}")
            out.append((n, float(p)))
        return tuple(out)

    def path(self, value: Any, field: str) -> str | None:
        """A file named relative to the ``eval.yaml`` (resolved against its folder)."""
        if value is None:
            return None
        if not isinstance(value, str) or not value.strip():
            raise self.fail(field, f"expected a file path, got {value!r}")
        return str((Path(self.source).parent / value).resolve())

    def faults(self, value: Any, field: str) -> FaultRecipe | None:
        from hat_eval.episode import FaultRecipe

        if value is None:
            return None
        return FaultRecipe(**self.mapping(FaultRecipe, value, field))

    def mapping(self, record: type, value: Any, prefix: str) -> dict[str, Any]:
        """The keyword arguments of ``record`` that ``value`` (a YAML mapping) gives."""
        fields = {f.name: f for f in dataclasses.fields(record) if f.name != "name"}
        if not isinstance(value, Mapping):
            raise self.fail(prefix, f"expected a mapping of {', '.join(fields)}, got {value!r}")
        kwargs = {}
        for key, item in value.items():
            path = f"{prefix}.{key}" if prefix else str(key)
            if key not in fields:
                raise self.fail(path, f"unknown field, expected one of {', '.join(fields)}")
            kwargs[key] = self.convert(fields[key].type, item, path)
        for key, f in fields.items():
            required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
            if key not in kwargs and required:
                path = f"{prefix}.{key}" if prefix else key
                raise self.fail(path, "field required, expected it to be present")
        return kwargs

    def convert(self, annotation: Any, value: Any, field: str) -> Any:
        converters: dict[str, Callable[[Any, str], Any]] = {
            "int": self.integer,
            "bool": self.boolean,
            "tuple[str, ...]": self.strings,
            "tuple[tuple[str, ...], ...]": self.dim_sets,
            "tuple[tuple[int, float], ...]": self.times,
            "FaultRecipe | None": self.faults,
            "str | None": self.path,
        }
        return converters[str(annotation)](value, field)


def read_recipe(name: str, value: Any, source: str) -> Recipe:
    """The recipe of suite ``name`` from the ``recipe:`` value of its ``eval.yaml`` at ``source``.

    Raises:
        SuiteFileError: an unknown key, a missing or mistyped value, or a value the recipe
            rejects (an unknown fault kind or HSA dimension, probabilities not summing to 1).
    """
    from hat_eval.episode import Recipe, RecipeError

    reader = _Reader(source)
    try:
        return Recipe(name=name, **reader.mapping(Recipe, value, ""))
    except RecipeError as err:
        raise reader.fail(err.field, err.message) from None


def case_suites() -> tuple[str, ...]:
    """The suites whose ``eval.yaml`` has a recipe (their cases are episodes), in run order."""
    files = eval_files()
    return tuple(n for n in suite_names() if RECIPE_KEY in files[n][1])


@cache
def suite_recipe(name: str) -> Recipe:
    """The recipe of case suite ``name``, read from its ``eval.yaml``.

    Raises:
        ValueError: ``name`` is not a suite, or not a case suite (IFEval).
        SuiteFileError: its recipe is invalid.
    """
    check_suite(name)
    if name not in case_suites():
        raise ValueError(
            f"{name!r} is not a case suite, expected one of {', '.join(case_suites())}"
        )
    source, data = eval_files()[name]
    return read_recipe(name, data[RECIPE_KEY], source)


def suite_episodes(name: str, **kwargs: Any) -> list[Episode]:
    """The episodes of case suite ``name``: ``build_episodes`` of its recipe.

    The keyword arguments are :func:`~hat_eval.episode.build_episodes`'s. What the suite's
    frozen split files hold (the test and dev splits under the default harness and seeds) is
    read from them (:func:`~hat_eval.suites._frozen.frozen_episodes`), not rebuilt.

    Raises:
        SplitFileError: a frozen split file is missing, edited or stale.
    """
    from hat_eval.episode import build_episodes

    from ._frozen import frozen_episodes

    frozen = frozen_episodes(name, **kwargs)
    if frozen is not None:
        return frozen
    return build_episodes(suite_recipe(name), **kwargs)


def suite_rows(name: str, **kwargs: Any) -> list[dict[str, Any]]:
    """The dataset rows of :func:`suite_episodes` (same arguments), as plain JSON."""
    return [e.to_row() for e in suite_episodes(name, **kwargs)]


def viewer_messages(n: int, suite: str = "livestream", split: str = "test") -> list[str]:
    """The first ``n`` viewer messages of ``suite`` on ``split``, in dataset order.

    What the load harness (``hat-eval loadtest``) sends by default: the viewer questions the
    suites score. Deterministic: the same arguments always give the same list. When ``n`` is
    larger than the suite (e.g. 1500 livestream test cases), the messages repeat from the start.

    Args:
        n: How many messages; at least 1.
        suite: a case suite (only the user turn is taken, not the variant harness or fault a
            row runs under).
        split: ``train``, ``dev`` or ``test``.

    Raises:
        ValueError: ``n`` is below 1, or the suite or split is unknown.
    """
    if n < 1:
        raise ValueError(f"n ({n}) must be at least 1")
    recipe = suite_recipe(suite)
    episodes = suite_episodes(suite, split=split, n=min(n, recipe.cases))
    messages = [e.case.message for e in episodes]
    if not messages:
        raise ValueError(f"suite {suite!r} has no cases on split {split!r}")
    return [messages[i % len(messages)] for i in range(n)]
