"""``python -m hat_eval.cli``: the ``hat-eval`` command (e.g. under ``accelerate launch -m``)."""

from . import main

main()
