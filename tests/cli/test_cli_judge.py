"""``--judge MODEL`` on ``hat-eval run`` and ``hat-eval score``: undecided parts decided, marked.

The grader is Inspect's ``mockllm/model`` scripted to rate every dimension 5: Inspect's mock
model takes its replies only in code, so ``get_model("mockllm/model")`` (what ``--judge
mockllm/model`` resolves to) is pointed at the scripted one.
"""

from __future__ import annotations

import json
import math
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.log import list_eval_logs, read_eval_log
from typer.testing import CliRunner

from hat_eval.cli import app
from tests.judge._helpers import grader, output, ratings_json

runner = CliRunner()


class Grader:
    """Replies rating every dimension ``rating``; counts the calls."""

    def __init__(self, rating: int) -> None:
        self.rating = rating
        self.calls = 0

    def __call__(self, *_args: Any) -> Any:
        self.calls += 1
        return output(ratings_json(self.rating))


@pytest.fixture
def scripted_judge(monkeypatch: pytest.MonkeyPatch) -> Iterator[Grader]:
    """``--judge mockllm/model`` gets a grader rating 5 on every dimension."""
    import inspect_ai.model

    real = inspect_ai.model.get_model
    replies = Grader(5)

    def get_model(model: Any = None, *args: Any, **kwargs: Any) -> Any:
        if model == "mockllm/model" and not args and not kwargs:
            return grader(replies)
        return real(model, *args, **kwargs)

    monkeypatch.setattr(inspect_ai.model, "get_model", get_model)
    yield replies


def _one_error_line(res) -> str:  # type: ignore[no-untyped-def]
    assert "Traceback" not in res.output
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, res.stderr
    return lines[0]


def _scores(log_dir: Path) -> list[tuple[dict[str, float], dict[str, Any]]]:
    (info,) = list_eval_logs(str(log_dir))
    log = read_eval_log(info.name)
    assert log.status == "success"
    out = []
    for sample in log.samples or []:
        (score,) = (sample.scores or {}).values()
        assert isinstance(score.value, dict)
        out.append((score.value, score.metadata or {}))
    return out


def test_run_without_a_judge_shows_the_undecided_share_beside_each_mean(tmp_path: Path) -> None:
    args = ["run", "--suite", "livestream", "--limit", "20", "--log-dir", str(tmp_path)]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    scores = _scores(tmp_path)
    undecided = [v for v, _ in scores if v["undecided_accuracy"] == 1.0]
    assert undecided, "no undecided accuracy among the first 20 cases: raise --limit"
    share = len(undecided) / len(scores)
    assert f"({100 * share:.0f}% und.)" in res.output
    decided = [v["accuracy"] for v, _ in scores if not math.isnan(v["accuracy"])]
    assert f"{sum(decided) / len(decided):.3f} ({100 * share:.0f}% und.)" in res.output
    assert "share left undecided, not counted as 0" in res.output
    assert "judged" not in res.output  # no judge ran


def test_run_with_a_judge_decides_the_undecided_parts_and_marks_them(
    tmp_path: Path, scripted_judge: Grader
) -> None:
    args = ["run", "--suite", "livestream", "--limit", "20", "--log-dir", str(tmp_path)]
    res = runner.invoke(app, [*args, "--judge", "mockllm/model"])
    assert res.exit_code == 0, res.output
    assert "judge mockllm/model for undecided parts" in res.output
    scores = _scores(tmp_path)
    judged = [(v, md) for v, md in scores if md.get("judged")]
    assert judged, "no undecided part among the first 20 cases: raise --limit"
    assert scripted_judge.calls == len(judged)  # a decided sample costs no grader call
    for value, md in judged:
        assert md["judged"] == {"accuracy": 5.0}  # the rating that decided it
        assert value["accuracy"] == 1.0 and value["undecided_accuracy"] == 0.0
        assert "accuracy" not in md["undecided"]
        assert not math.isnan(value["aggregate"]) and value["undecided_aggregate"] == 0.0
    assert all(v["undecided_accuracy"] == 0.0 for v, _ in scores)
    # the summary: a judged column with the count, nothing left undecided
    header = next(ln for ln in res.output.splitlines() if "judged" in ln and "task" in ln)
    assert header
    row = next(ln for ln in res.output.splitlines() if ln.startswith("│ livestream"))
    assert row.rstrip(" │").split("│")[-1].strip() == str(len(judged))
    assert "und.)" not in row
    (info,) = list_eval_logs(str(tmp_path))
    log = read_eval_log(info.name, header_only=True)
    assert log.results is not None
    metrics = {k: m.value for s in log.results.scores for k, m in s.metrics.items()}
    assert metrics["judged"] == len(judged) and metrics["judge_failed"] == 0.0
    assert metrics["undecided_accuracy"] == 0.0
    assert "grader" in (log.eval.model_roles or {})


@pytest.mark.parametrize(
    ("judge", "says"),
    [
        ("nope_dir", "--judge nope_dir: no such directory and not an Inspect model string"),
        ("nope/x", "--judge nope/x: no such directory and 'nope' is not an Inspect model"),
        ("openai-api/local/x", "--judge openai-api/local/x: LOCAL_BASE_URL and LOCAL_API_KEY"),
    ],
)
def test_an_unresolvable_judge_is_one_line_before_any_sample(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, judge: str, says: str
) -> None:
    for var in ("LOCAL_BASE_URL", "LOCAL_API_KEY", "INSPECT_EVAL_MODEL_BASE_URL"):
        monkeypatch.delenv(var, raising=False)
    args = ["run", "--suite", "livestream", "--limit", "1", "--log-dir", str(tmp_path)]
    res = runner.invoke(app, [*args, "--judge", judge])
    assert res.exit_code == 2
    assert says in _one_error_line(res)
    assert not list(tmp_path.glob("*.eval"))  # no sample started


def test_a_judge_server_that_is_down_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setenv("LOCAL_BASE_URL", f"http://127.0.0.1:{port}/v1")
    monkeypatch.setenv("LOCAL_API_KEY", "none")
    args = ["run", "--suite", "livestream", "--limit", "1", "--log-dir", str(tmp_path)]
    res = runner.invoke(app, [*args, "--judge", "openai-api/local/grader"])
    assert res.exit_code == 2
    assert "--judge openai-api/local/grader: cannot reach" in _one_error_line(res)
    assert not list(tmp_path.glob("*.eval"))


def test_ifeval_alone_has_nothing_to_judge(tmp_path: Path) -> None:
    args = ["run", "--suite", "ifeval", "--judge", "mockllm/model", "--log-dir", str(tmp_path)]
    res = runner.invoke(app, args)
    assert res.exit_code == 2
    assert "ifeval has no undecided parts to judge" in res.output


def _undecided_answers(tmp_path: Path) -> tuple[Path, list[str]]:
    """The reference policy's answers to 20 livestream cases, as ``hat-eval score`` reads them."""
    res = runner.invoke(
        app, ["run", "--suite", "livestream", "--limit", "20", "--log-dir", str(tmp_path / "l")]
    )
    assert res.exit_code == 0, res.output
    (info,) = list_eval_logs(str(tmp_path / "l"))
    log = read_eval_log(info.name)
    lines, undecided = [], []
    for sample in log.samples or []:
        (score,) = (sample.scores or {}).values()
        lines.append({"id": str(sample.id), "answer": sample.output.completion})
        if (score.metadata or {}).get("undecided"):
            undecided.append(str(sample.id))
    path = tmp_path / "answers.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return path, undecided


def test_score_leaves_undecided_aggregates_out_and_the_judge_decides_them(
    tmp_path: Path, scripted_judge: Grader
) -> None:
    answers, undecided = _undecided_answers(tmp_path)
    assert undecided, "no undecided answer among the first 20 cases: raise the limit"
    out = tmp_path / "scored.jsonl"
    args = ["score", "--suite", "livestream", "--answers", str(answers), "--out", str(out)]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    plain = [json.loads(x) for x in out.read_text().splitlines()]
    assert all((x["aggregate"] is None) == (x["id"] in undecided) for x in plain)
    decided = [x["aggregate"] for x in plain if x["aggregate"] is not None]
    last = res.output.strip().splitlines()[-1]
    assert last == (
        f"aggregate {sum(decided) / len(decided):.2f} over {len(decided)} answers "
        f"({len(undecided)} undecided, left out)"
    )
    res = runner.invoke(app, [*args, "--judge", "mockllm/model"])
    assert res.exit_code == 0, res.output
    judged = [json.loads(x) for x in out.read_text().splitlines()]
    assert scripted_judge.calls == len(undecided)
    for x in judged:
        if x["id"] in undecided:
            assert x["judged"] == {"accuracy": 5.0} and x["undecided"] == []
            assert x["accuracy"] == 1.0 and x["aggregate"] is not None
        else:
            assert "judged" not in x
    n = len(undecided)
    assert f"judge mockllm/model: decided {n} of {n} undecided parts ({n} answers judged)" in (
        res.output
    )
    assert res.output.strip().splitlines()[-1].endswith(f"over {len(judged)} answers")
