"""The Inspect tasks end to end with ``mockllm/model``: metrics in the log."""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ChatMessageSystem, ModelOutput, get_model

from hat_eval.suites.ifeval import load_ifeval, summarize
from hat_eval.suites.ifeval._checks import check_response
from hat_eval.suites.ifeval._report import METRICS
from hat_eval.suites.ifeval._task import DEFAULT_HARNESS, build_ifeval

REPO = Path(__file__).resolve().parents[2]
N = 6


@pytest.fixture(scope="module")
def data_file(shared_dir: Path) -> Path:
    return shared_dir / "data" / "ifeval" / "input_data.jsonl"


def scripted(n: int) -> list[str]:
    return [
        "Hello world no commas here",
        "Sure, here you go:\n*one* *two* *three*",
        "",
        "ALL CAPS ANSWER WITH NOTHING ELSE",
        '"quoted, answer"',
        "plain lowercase text about the product",
    ][:n]


def test_ifeval_task_end_to_end_metrics(tmp_path: Path, data_file: Path) -> None:
    responses = scripted(N)
    model = get_model(
        "mockllm/model",
        custom_outputs=[
            ModelOutput.from_content(model="mockllm/model", content=r) for r in responses
        ],
    )
    [log] = inspect_eval(
        build_ifeval(data=data_file, limit=N), model=model, log_dir=str(tmp_path), display="none"
    )
    assert log.status == "success"
    assert log.results is not None
    metrics = {k: m.value for s in log.results.scores for k, m in s.metrics.items()}
    examples = load_ifeval(data_file)[:N]
    expected = summarize(check_response(e, r) for e, r in zip(examples, responses, strict=True))
    for name in METRICS:
        assert metrics[name] == pytest.approx(expected.metrics[name])
        assert metrics[f"{name}_stderr"] == pytest.approx(expected.stderr[name])
    for iid, acc in expected.by_instruction.items():
        assert metrics[f"strict/{iid}"] == pytest.approx(acc.strict_acc)
        assert metrics[f"loose/{iid}"] == pytest.approx(acc.loose_acc)
    assert log.samples is not None and len(log.samples) == N
    assert sorted(s.id for s in log.samples) == sorted(e.key for e in examples)


def test_task_file_runs_through_inspect(tmp_path: Path, data_file: Path) -> None:
    [log] = inspect_eval(
        f"{REPO}/suites/ifeval.py@ifeval",
        model="mockllm/model",
        task_args={"data": str(data_file)},
        limit=2,
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success" and log.eval.task.endswith("ifeval")
    assert log.results is not None
    names = set(log.results.scores[0].metrics)
    assert set(METRICS) <= names


def test_harness_conditioned_variant_puts_the_system_prompt_first(
    data_file: Path, default_harness
) -> None:  # type: ignore[no-untyped-def]
    from hat_eval.harness import render

    expected = render(default_harness).system_prompt
    task = build_ifeval(data=data_file, harness=DEFAULT_HARNESS, limit=3)
    assert task.name == "ifeval_harness"
    samples = list(task.dataset)
    assert len(samples) == 3
    for s in samples:
        assert isinstance(s.input, list) and isinstance(s.input[0], ChatMessageSystem)
        assert s.input[0].content == expected
        assert s.input[1].content == s.metadata["prompt"]
    plain = list(build_ifeval(data=data_file, limit=3).dataset)
    assert [s.input for s in plain] == [s.metadata["prompt"] for s in samples]


def test_bad_limit_and_bad_harness_are_refused(tmp_path: Path, data_file: Path) -> None:
    from hat_eval.suites.ifeval import IFEvalError

    with pytest.raises(IFEvalError, match=r"limit \(0\) must be at least 1"):
        build_ifeval(data=data_file, limit=0)
    bad = tmp_path / "h.yaml"
    bad.write_text("name: [unclosed\n")
    with pytest.raises(IFEvalError):
        build_ifeval(data=data_file, harness=bad, limit=1)
