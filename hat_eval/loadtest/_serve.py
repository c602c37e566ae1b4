"""``python -m hat_eval.loadtest._serve``: run the fake server (``_server``) in the foreground."""

from ._server import main

if __name__ == "__main__":
    main()
