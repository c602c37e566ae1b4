"""``hat-eval run``'s log folder and stop signals: checked before work, never a traceback.

A --log-dir that cannot hold logs is refused before anything runs; a log cut short is set
aside so the run resumes; a folder of another run is refused the hat-eval way; SIGTERM stops
a run as Ctrl-C does (the end-to-end runs are in test_cli_run_e2e.py).
"""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hat_eval.cli import app
from hat_eval.runner._session import stop_signals
from tests._cli import one_error_line

runner = CliRunner()
RUN = ["run", "--suite", "livestream", "--limit", "2"]


def test_a_log_dir_that_is_a_file_is_refused_before_anything_runs(tmp_path: Path) -> None:
    taken = tmp_path / "logs"
    taken.write_text("notes", encoding="utf-8")
    res = runner.invoke(app, [*RUN, "--log-dir", str(taken)])
    one_error_line(res, f"error: --log-dir {taken}: a file, expected a folder")
    assert "Running" not in res.stdout and taken.read_text(encoding="utf-8") == "notes"


def test_a_log_dir_in_an_unwritable_place_is_refused() -> None:
    res = runner.invoke(app, [*RUN, "--log-dir", "/proc/hat-eval-logs"])
    one_error_line(res, "error: --log-dir /proc/hat-eval-logs: cannot create the folder")


def test_a_truncated_log_is_set_aside_and_the_run_resumes(tmp_path: Path) -> None:
    res = runner.invoke(app, [*RUN, "--log-dir", str(tmp_path)])
    assert res.exit_code == 0, res.output
    (log,) = tmp_path.glob("*.eval")
    data = log.read_bytes()
    log.write_bytes(data[: len(data) // 2])  # a run killed while writing its log
    res = runner.invoke(app, [*RUN, "--log-dir", str(tmp_path)])
    assert res.exit_code == 0, res.output
    warning = f"warning: {log}: not a readable Inspect eval log (truncated or not a zip archive"
    (line,) = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert line.startswith(warning), line
    assert line.endswith(
        f"moved aside to {log.name}.unreadable so this run can resume from the others"
    )
    assert (tmp_path / f"{log.name}.unreadable").read_bytes() == data[: len(data) // 2]
    assert len(list(tmp_path.glob("*.eval"))) == 1  # the run was redone into a new log
    assert "Traceback" not in res.output and "EOCD" not in res.stdout


def test_a_log_dir_of_another_run_is_refused_the_hat_eval_way(tmp_path: Path) -> None:
    assert runner.invoke(app, [*RUN, "--log-dir", str(tmp_path)]).exit_code == 0
    res = runner.invoke(
        app, ["run", "--suite", "variant", "--limit", "2", "--log-dir", str(tmp_path)]
    )
    line = one_error_line(
        res,
        f"error: --log-dir {tmp_path}: holds ",
        "a log of another run",
        "resume that run with its own command, or give this run a new --log-dir",
    )
    assert "allow-dirty" not in line


def test_mockllm_without_its_token_data_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    import tiktoken

    def offline(name: str) -> None:
        raise ConnectionError("Name or service not known")

    monkeypatch.setattr(tiktoken, "get_encoding", offline)
    res = runner.invoke(app, [*RUN, "--model", "mockllm/model"])
    one_error_line(
        res,
        "error: --model mockllm/model: Inspect's mock model counts tokens with tiktoken's",
        "(ConnectionError)",
        "leave --model out to run the embedded reference policy",
    )
    assert "mockllm" not in runner.invoke(app, ["run", "--help"]).stdout


@pytest.mark.usefixtures("default_sigint")
def test_sigterm_stops_the_event_loop_as_ctrl_c_does() -> None:
    async def main() -> None:
        os.kill(os.getpid(), signal.SIGTERM)
        await asyncio.Event().wait()  # only the stop ends it

    before = signal.getsignal(signal.SIGTERM)
    with stop_signals() as stop:
        with pytest.raises(KeyboardInterrupt):  # asyncio.Runner's answer to Ctrl-C
            asyncio.run(main())
    assert (stop.signum, stop.code, stop.what) == (signal.SIGTERM, 143, "stopped by SIGTERM")
    assert signal.getsignal(signal.SIGTERM) is before


@pytest.mark.usefixtures("default_sigint")
def test_a_ctrl_c_whose_cancellation_is_absorbed_is_still_recorded() -> None:
    """Under load the cancellation can land where it is absorbed and the run ends normally."""

    async def main() -> str:
        os.kill(os.getpid(), signal.SIGINT)
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            asyncio.current_task().uncancel()  # type: ignore[union-attr]
        return "finished"

    with stop_signals() as stop:
        assert asyncio.run(main()) == "finished"
    assert (stop.signum, stop.code, stop.what) == (signal.SIGINT, 130, "interrupted")
