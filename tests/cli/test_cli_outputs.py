"""Every command's --out is checked before its work: one line, exit 2, nothing overwritten.

And results that cannot be written after the work are kept in a fallback file (exit 1).
``hat-eval run --log-dir`` is in test_cli_run_outputs.py, ``hat-eval report`` in
test_cli_report.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from hat_eval.cli import app
from tests._cli import one_error_line

runner = CliRunner()
DEAD = "http://127.0.0.1:9"  # nothing listens: a command that got past its check would fail


def _commands(tmp_path: Path) -> dict[str, list[str]]:
    """Each command with its inputs in place (a dummy file where only existence is checked)."""
    for name in ("labels.csv", "scores.csv", "a.eval", "b.eval", "key.json", "c.yaml"):
        (tmp_path / name).write_text("x", encoding="utf-8")
    t = {name: str(tmp_path / name) for name in ("labels.csv", "scores.csv", "a.eval")}
    t |= {name: str(tmp_path / name) for name in ("b.eval", "key.json", "c.yaml")}
    return {
        "loadtest": ["loadtest", "--host", DEAD, "--model", "m"],
        "loadtest mtp": [
            "loadtest",
            "mtp",
            "--baseline",
            DEAD,
            "--candidate",
            DEAD,
            "--model",
            "m",
        ],
        "harness augment": ["harness", "augment", "--n", "2"],
        "judge agreement": [
            "judge",
            "agreement",
            "--labels",
            t["labels.csv"],
            "--scores",
            t["scores.csv"],
        ],
        "judge calibrate": [
            "judge",
            "calibrate",
            "--labels",
            t["labels.csv"],
            "--scores",
            t["scores.csv"],
        ],
        "judge corpus": [
            "judge",
            "corpus",
            "--judge",
            "mockllm/model",
            "--corpus",
            t["labels.csv"],
        ],
        "judge audit": ["judge", "audit", "--judge", "mockllm/model", "--n", "1"],
        "study export": ["study", "export", "--a", t["a.eval"], "--b", t["b.eval"]],
        "study analyze": ["study", "analyze", "--labels", t["labels.csv"], "--key", t["key.json"]],
        "train sft": ["train", "sft", "--config", t["c.yaml"]],
    }


COMMANDS = [
    "loadtest",
    "loadtest mtp",
    "harness augment",
    "judge agreement",
    "judge calibrate",
    "judge corpus",
    "judge audit",
    "study export",
    "study analyze",
    "train sft",
]


@pytest.mark.parametrize("command", COMMANDS)
def test_an_out_that_is_a_file_is_refused_before_the_work(tmp_path: Path, command: str) -> None:
    taken = tmp_path / "results"
    taken.write_text("earlier results", encoding="utf-8")
    res = runner.invoke(app, [*_commands(tmp_path)[command], "--out", str(taken)])
    one_error_line(res, f"error: --out {taken}: a file, expected a folder; choose another --out")
    assert taken.read_text(encoding="utf-8") == "earlier results"


@pytest.mark.parametrize("command", ["loadtest", "harness augment", "judge audit", "train sft"])
def test_an_out_in_an_unwritable_place_is_refused(tmp_path: Path, command: str) -> None:
    res = runner.invoke(app, [*_commands(tmp_path)[command], "--out", "/proc/hat-eval/out"])
    one_error_line(res, "error: --out /proc/hat-eval/out: cannot create the folder")


def test_harness_augment_never_writes_onto_its_own_input(tmp_path: Path) -> None:
    from hat_eval.harness import default_harness_path

    harness = tmp_path / "h.yaml"
    harness.write_bytes(default_harness_path("inline").read_bytes())
    res = runner.invoke(app, ["harness", "augment", str(harness), "--out", str(harness)])
    one_error_line(res, f"error: --out {harness}: the same file as the harness file")
    variant = tmp_path / "variant-00001.yaml"  # augmenting a variant into its own folder
    variant.write_bytes(harness.read_bytes())
    res = runner.invoke(
        app, ["harness", "augment", str(variant), "--n", "3", "--out", str(tmp_path)]
    )
    one_error_line(
        res, f"error: --out {tmp_path}: writing 3 variants there would replace {variant}"
    )
    assert variant.read_bytes() == harness.read_bytes()
    res = runner.invoke(
        app, ["harness", "augment", str(variant), "--n", "1", "--out", str(tmp_path)]
    )
    assert res.exit_code == 0, res.output  # variant-00000 only: the input is left alone
    assert variant.read_bytes() == harness.read_bytes()


def test_ifeval_out_may_not_be_the_responses_or_a_folder(tmp_path: Path) -> None:
    responses = tmp_path / "responses.jsonl"
    responses.write_text('{"prompt": "p", "response": "r"}\n', encoding="utf-8")
    res = runner.invoke(
        app, ["ifeval", "score", "--responses", str(responses), "--out", str(responses)]
    )
    one_error_line(res, f"error: --out {responses}: the same file as --responses")
    assert responses.read_text(encoding="utf-8") == '{"prompt": "p", "response": "r"}\n'
    res = runner.invoke(
        app, ["ifeval", "score", "--responses", str(responses), "--out", str(tmp_path)]
    )
    one_error_line(res, f"error: --out {tmp_path}: a folder, expected a file path")


def test_a_report_that_cannot_be_written_after_the_work_is_kept_in_a_fallback_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import hat_eval.judge as judge

    labels = tmp_path / "labels.csv"
    rows = [f"s{i},accuracy,{1 + i % 5},{who}" for i in range(6) for who in ("ann1", "ann2")]
    labels.write_text("sample_id,dimension,rating,annotator\n" + "\n".join(rows) + "\n")
    scores = tmp_path / "scores.csv"
    lines = [f"s{i},accuracy,{1 + i % 5}" for i in range(6)]
    scores.write_text("sample_id,dimension,rating\n" + "\n".join(lines) + "\n")
    out = tmp_path / "out"
    compute = judge.agreement

    def compute_then_lose_the_folder(*args, **kwargs):  # type: ignore[no-untyped-def]
        report = compute(*args, **kwargs)
        out.write_text("a file took the folder's place", encoding="utf-8")
        return report

    monkeypatch.setattr(judge, "agreement", compute_then_lose_the_folder)
    args = ["judge", "agreement", "--labels", str(labels), "--scores", str(scores)]
    res = runner.invoke(app, [*args, "--out", str(out), "--n-boot", "0"])
    assert res.exit_code == 1, res.output
    (line,) = [ln for ln in res.stderr.splitlines() if ln.startswith("error: ")]
    assert line.startswith(f"error: --out {out.resolve() / 'agreement.json'}: could not be written")
    fallback = Path(line.rsplit("saved to ", 1)[1].removesuffix(" instead"))
    try:
        assert '"dimensions"' in fallback.read_text(encoding="utf-8")
    finally:
        fallback.unlink()
