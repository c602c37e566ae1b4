from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from hat_eval.cli import app

runner = CliRunner()


@pytest.fixture(scope="module")
def logs(tmp_path_factory) -> dict[str, Path]:
    from inspect_ai import eval as inspect_eval

    import hat_eval._registry  # noqa: F401
    from hat_eval.suites import suite_task

    out = {}
    for suite in ("livestream", "variant", "robustness"):
        d = tmp_path_factory.mktemp(suite)
        (log,) = inspect_eval(
            suite_task(suite, n=12), model="hat/reference", log_dir=str(d), display="none"
        )
        out[suite] = Path(log.location)
    return out


@pytest.mark.slow
def test_variant_and_livestream_pair_case_by_case(logs) -> None:
    res = runner.invoke(app, ["report", "paired", str(logs["variant"]), str(logs["livestream"])])
    assert res.exit_code == 0, res.output
    # a case pairs where both logs decided its aggregate (an undecided one is NaN, left out)
    decided = [_decided(logs[suite]) for suite in ("variant", "livestream")]
    n = len(decided[0] & decided[1])
    assert n >= 8, decided
    assert f"over {n} paired cases" in res.output and "95% CI" in res.output


def _decided(log: Path) -> set[str]:
    """The cases of ``log`` whose aggregate is decided."""
    import math

    from inspect_ai.log import read_eval_log

    out = set()
    for sample in read_eval_log(str(log)).samples or []:
        (score,) = (sample.scores or {}).values()
        if isinstance(score.value, dict) and not math.isnan(score.value["aggregate"]):
            out.add(str(sample.id).split("-", 1)[1])
    return out


@pytest.mark.slow
def test_logs_of_different_cases_do_not_pair(logs, tmp_path: Path) -> None:
    res = runner.invoke(app, ["report", "paired", str(logs["robustness"]), str(logs["livestream"])])
    assert res.exit_code == 2 and "share no case" in res.output
    junk = tmp_path / "junk.eval"
    junk.write_text("not a log")
    for args in ([str(tmp_path / "missing.eval"), str(logs["variant"])], [str(junk), str(junk)]):
        res = runner.invoke(app, ["report", "paired", *args])
        assert res.exit_code == 2
        assert len([x for x in res.output.splitlines() if x.strip()]) == 1, res.output
