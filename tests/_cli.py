"""What the CLI tests share: reading the one line a command's bad input gives."""

from __future__ import annotations

from typing import Any


def one_error_line(res: Any, starts: str = "", *says: str) -> str:
    """The one error line of a CliRunner result: exit 2, one non-empty stderr line, no traceback.

    The line must start with ``starts`` and hold each of ``says``; it is returned.
    """
    assert res.exit_code == 2, res.output
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, res.stderr
    assert lines[0].startswith(starts), lines[0]
    for s in says:
        assert s in lines[0], lines[0]
    assert "Traceback" not in res.output
    return str(lines[0])
