"""The pre-flight of ``hat-eval run`` and ``score`` (:mod:`hat_eval.runner._preflight`), as CLI.

A problem is one line on stderr and exit 2 (a usage error for an option used wrongly), as
everywhere in the CLI; the library raises it as :class:`~hat_eval.runner.RunInputError`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import typer

from hat_eval.runner import RunInputError, RunOptionError

from ._common import fail


@contextmanager
def input_errors() -> Iterator[None]:
    """The library's one-line errors as the CLI's: a usage error, or one line and exit 2."""
    try:
        yield
    except RunOptionError as err:  # a usage error naming ``run``'s flag
        if err.option == "suites":
            raise typer.BadParameter(f"{err} (or all)", param_hint="--suite") from None
        flag = "--model-arg" if err.option == "model_args" else "--" + err.option.replace("_", "-")
        raise typer.BadParameter(str(err), param_hint=flag) from None
    except RunInputError as err:
        fail(str(err))
