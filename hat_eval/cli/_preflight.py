"""The pre-flight of ``hat-eval run`` and ``score`` (:mod:`hat_eval.runner._preflight`), as CLI.

A problem is one line on stderr and exit 2 (a usage error for an option used wrongly), as
everywhere in the CLI; the library raises it as :class:`~hat_eval.runner.RunInputError`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import typer

from hat_eval.runner import PROBE_TIMEOUT_S, RunInputError, RunOptionError
from hat_eval.runner import _preflight as _library
from hat_eval.runner._preflight import Server, completion_problem

from ._common import fail

__all__ = ["PROBE_TIMEOUT_S", "Server", "check_server", "completion_problem", "model_server"]


def bad_parameter(err: RunOptionError) -> typer.BadParameter:
    """A :class:`~hat_eval.runner.RunOptionError` as the usage error naming ``run``'s flag."""
    if err.option == "suites":
        return typer.BadParameter(f"{err} (or all)", param_hint="--suite")
    flag = "--model-arg" if err.option == "model_args" else "--" + err.option.replace("_", "-")
    return typer.BadParameter(str(err), param_hint=flag)


@contextmanager
def input_errors() -> Iterator[None]:
    """The library's one-line errors as the CLI's: a usage error, or one line and exit 2."""
    try:
        yield
    except RunOptionError as err:
        raise bad_parameter(err) from None
    except RunInputError as err:
        fail(str(err))


def model_server(
    model_name: str, model_args: Mapping[str, Any], option: str = "--model"
) -> Server | None:
    """:func:`hat_eval.runner._preflight.model_server`, failing as a command does."""
    with input_errors():
        return _library.model_server(model_name, model_args, option=option)


def check_server(
    model_name: str,
    server: Server,
    timeout_s: float = PROBE_TIMEOUT_S,
    option: str = "--model",
) -> None:
    """:func:`hat_eval.runner._preflight.check_server`, failing as a command does."""
    with input_errors():
        _library.check_server(model_name, server, timeout_s=timeout_s, option=option)
