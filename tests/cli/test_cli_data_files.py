"""A shipped data file that fails its schema ends any command in one line, exit 2."""

from __future__ import annotations

import pytest

from hat_eval._datafile import DataFileError
from hat_eval.cli import _app


def test_a_broken_data_file_is_one_line_and_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken() -> None:
        raise DataFileError("world/templates/en.yaml", "price[0]", "unknown slot {prise}")

    monkeypatch.setattr(_app, "app", broken)
    with pytest.raises(SystemExit) as info:
        _app.main()
    assert info.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: world/templates/en.yaml: price[0]: unknown slot {prise}")
    assert "\n" not in err
