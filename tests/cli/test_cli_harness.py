from __future__ import annotations

import json
from pathlib import Path

import yaml
from typer.testing import CliRunner

from hat_eval.cli import app
from hat_eval.harness import default_harness_path, load_harness
from hat_eval.harness._load import harness_to_dict

runner = CliRunner()
DEFAULT = str(default_harness_path())


def test_validate_ok() -> None:
    res = runner.invoke(app, ["harness", "validate", DEFAULT])
    assert res.exit_code == 0, res.output
    assert "ok: 6 prompt blocks, 8 skills, 8 tools, 4 constraints" in res.output


def test_validate_bad_file_is_one_line_exit_2(tmp_path: Path, default_harness) -> None:
    data = harness_to_dict(default_harness)
    data["tools"][2]["function"] = "warehouse.teleport"
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(data), encoding="utf-8")
    res = runner.invoke(app, ["harness", "validate", str(bad)])
    assert res.exit_code == 2
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert lines == [lines[0]] and lines[0].startswith(f"error: {bad}: tools.2.function: ")
    assert "Traceback" not in res.output


def test_render_prints_prompt_and_schemas() -> None:
    res = runner.invoke(app, ["harness", "render", DEFAULT, "--json"])
    assert res.exit_code == 0
    out = json.loads(res.stdout)
    assert "at most 60 words" in out["system_prompt"]
    assert len(out["tools"]) == 8
    plain = runner.invoke(app, ["harness", "render"])
    assert "=== system prompt ===" in plain.stdout and "search_products" in plain.stdout


def test_augment_is_reproducible_and_diff_reads_it(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    for out in (a, b):
        res = runner.invoke(
            app, ["harness", "augment", DEFAULT, "--n", "12", "--seed", "7", "--out", str(out)]
        )
        assert res.exit_code == 0, res.output
    files = sorted(p.name for p in a.iterdir())
    assert len(files) == 12 * 2 + 1
    for name in files:
        assert (a / name).read_bytes() == (b / name).read_bytes()
    rows = [json.loads(x) for x in (a / "manifest.jsonl").read_text().splitlines()]
    assert [r["index"] for r in rows] == list(range(12))
    for r in rows:
        load_harness(a / r["harness"])  # every written variant validates
    res = runner.invoke(app, ["harness", "diff", DEFAULT, str(a / rows[0]["harness"]), "--json"])
    assert res.exit_code == 0
    changes = json.loads(res.stdout)
    mapping = json.loads((a / rows[0]["mapping"]).read_text())
    renamed = {c["path"].split(".")[1] for c in changes if c["kind"] == "tool_renamed"}
    assert renamed == set(mapping["tools"])


def test_augment_only_given_dims(tmp_path: Path) -> None:
    res = runner.invoke(
        app, ["harness", "augment", "--n", "5", "--dims", "hooks", "--out", str(tmp_path)]
    )
    assert res.exit_code == 0
    for r in (tmp_path / "manifest.jsonl").read_text().splitlines():
        assert json.loads(r)["dims"] == ["hooks"]


def test_augment_bad_dims_and_format(tmp_path: Path) -> None:
    res = runner.invoke(
        app, ["harness", "augment", "--dims", "tools,colour", "--out", str(tmp_path)]
    )
    assert res.exit_code == 2
    assert "colour" in res.output
    res = runner.invoke(app, ["harness", "augment", "--format", "toml", "--out", str(tmp_path)])
    assert res.exit_code == 2


def test_diff_identical_and_missing_file(tmp_path: Path) -> None:
    res = runner.invoke(app, ["harness", "diff", DEFAULT, DEFAULT])
    assert res.exit_code == 0 and "no differences" in res.stdout
    res = runner.invoke(app, ["harness", "diff", DEFAULT, str(tmp_path / "missing.yaml")])
    assert res.exit_code == 2
    assert "no such file" in res.stderr


def test_augment_with_a_rewrite_model(tmp_path: Path) -> None:
    res = runner.invoke(
        app,
        [
            "harness",
            "augment",
            "--n",
            "2",
            "--dims",
            "hooks",
            "--rewrite-model",
            "mockllm/model",
            "--out",
            str(tmp_path),
        ],
    )
    assert res.exit_code == 0, res.output
    h = load_harness(tmp_path / "variant-00000.yaml")
    # mockllm answers "Default output from mockllm/model" to every rewrite request; none of the
    # default descriptions has a number, so every rewrite is accepted and recorded
    assert {t.description for t in h.tools} == {"Default output from mockllm/model"}
    mapping = json.loads((tmp_path / "variant-00000.mapping.json").read_text())
    assert set(mapping["tool_descriptions"]) == {t.name for t in load_harness().tools}


def test_validate_a_hook_with_an_unknown_trigger_is_one_line_exit_2(
    tmp_path: Path, default_harness
) -> None:
    data = harness_to_dict(default_harness)
    data["hooks"]["checks"] = [{"trigger": "tool_arguments"}, {"trigger": "mood_check"}]
    bad = tmp_path / "hooks.yaml"
    bad.write_text(yaml.safe_dump(data), encoding="utf-8")
    res = runner.invoke(app, ["harness", "validate", str(bad)])
    assert res.exit_code == 2
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert lines == [
        f"error: {bad}: hooks.checks.1.trigger: unknown trigger 'mood_check', expected one of "
        "tool_arguments, skill_load, reply_format, factual_risk"
    ]


def test_validate_names_the_checking_hooks_on(tmp_path: Path, default_harness) -> None:
    data = harness_to_dict(default_harness)
    data["hooks"]["checks"] = [
        {"trigger": "tool_arguments"},
        {"trigger": "factual_risk", "enabled": False},
    ]
    good = tmp_path / "hooks.yaml"
    good.write_text(yaml.safe_dump(data), encoding="utf-8")
    res = runner.invoke(app, ["harness", "validate", str(good)])
    assert res.exit_code == 0, res.output
    assert res.output.strip().endswith("checking hooks on: tool_arguments")
