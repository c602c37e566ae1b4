"""``run_suites(RunOptions(...))``: what ``hat-eval run`` does, called from Python."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from hat_eval.runner import RunOptionError, RunOptions, RunResult, option_help, run_suites


def test_every_option_has_help_and_the_command_shows_it() -> None:
    from typer.testing import CliRunner

    from hat_eval.cli import app

    for item in dataclasses.fields(RunOptions):
        assert item.metadata["help"].strip(), item.name
    shown = CliRunner().invoke(app, ["run", "--help"], env={"COLUMNS": "300"}).output
    assert " ".join(option_help("limit").split()) in " ".join(shown.split())


@pytest.mark.parametrize(
    ("kwargs", "option", "said"),
    [
        ({"suites": ("nosuch",)}, "suites", "nosuch"),
        ({"suites": ()}, "suites", "no suite to run"),
        ({"agent": "robot"}, "agent", "'robot' is not an agent"),
        ({"engine": "tgi"}, "engine", "'tgi' is not an engine, expected hf or vllm"),
        ({"suites": ("ifeval",), "judge": "hat/reference"}, "judge", "no undecided parts"),
        ({"limit": 0}, "limit", "limit=0: expected 1 or more"),
        ({"epochs": 0}, "epochs", "epochs=0"),
        ({"max_retries": -1}, "max_retries", "max_retries=-1"),
        ({"temperature": -0.5}, "temperature", "temperature=-0.5"),
        # the options repro needs: per-suite overrides, several models, the display
        ({"limit_per_suite": {"nosuch": 3}}, "limit_per_suite", "limit_per_suite['nosuch']: not"),
        (
            {"max_tokens_per_suite": {"livestream": 64}},
            "max_tokens_per_suite",
            "livestream is not run (suites: variant); add it to suites or leave it out",
        ),
        ({"limit_per_suite": {"variant": 0}}, "limit_per_suite", "['variant']=0: expected"),
        ({"limit_per_suite": {"variant": "3"}}, "limit_per_suite", "expected a whole number"),
        ({"max_tokens_per_suite": [("variant", 3)]}, "max_tokens_per_suite", "expected a mapping"),
        ({"model": "hat/reference", "models": ("a/b",)}, "models", "not both"),
        ({"models": ("a/b", "a/b")}, "models", "models[1]='a/b': given twice"),
        ({"display": "fancy"}, "display", "display='fancy': not a display"),
        ({"display": "rich", "output_log": Path("x.log")}, "display", "not a file"),
    ],
)
def test_options_that_cannot_run_are_refused_when_made(
    kwargs: dict[str, object], option: str, said: str
) -> None:
    with pytest.raises(RunOptionError) as caught:
        RunOptions(**kwargs)  # type: ignore[arg-type]
    assert caught.value.option == option
    assert said in str(caught.value)
    assert "\n" not in str(caught.value)


def test_options_are_frozen_and_one_suite_name_is_a_tuple() -> None:
    options = RunOptions(suites="livestream")  # type: ignore[arg-type]
    assert options.suites == ("livestream",)
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.limit = 3  # type: ignore[misc]


def test_disclosure_for_the_evolution_suite_is_refused_before_anything_runs(
    tmp_path: Path,
) -> None:
    options = RunOptions(suites=("evolution",), disclosure="inline", log_dir=tmp_path / "logs")
    with pytest.raises(RunOptionError) as caught:
        run_suites(options, interrupt=False)
    assert caught.value.option == "disclosure"
    assert not (tmp_path / "logs").exists()  # nothing written


def test_run_suites_runs_the_reference_policy_and_resumes(tmp_path: Path) -> None:
    options = RunOptions(suites=("livestream",), limit=2, log_dir=tmp_path / "logs")
    result = run_suites(options, interrupt=False)
    assert isinstance(result, RunResult)
    assert result.status == "success"
    assert result.total == 2 and result.done == 2
    [log] = result.logs
    assert log.status == "success"
    assert result.finished == {log.eval.task: 2}
    assert result.described.startswith("ran: ")
    again = run_suites(options, interrupt=False)  # the same options resume
    assert again.status == "success" and again.done == 2
    assert [x.location for x in again.logs] == [log.location]


@pytest.mark.parametrize(
    ("kwargs", "said"),
    [
        ({"model": "nosuchmodel"}, "--model nosuchmodel: no such directory"),
        ({"model": "nosuchprovider/x"}, "'nosuchprovider' is not an Inspect model provider"),
        ({"harness": Path("missing-harness.yaml")}, "missing-harness.yaml"),
        ({"suites": ("variant",), "changelog": Path("x.yaml")}, "apply to the evolution suite"),
    ],
)
def test_bad_inputs_are_typed_errors_and_nothing_is_printed_or_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kwargs: dict[str, object], said: str
) -> None:
    from hat_eval.runner import RunInputError

    options = RunOptions(log_dir=tmp_path / "logs", **kwargs)  # type: ignore[arg-type]
    with pytest.raises((RunInputError, RunOptionError)) as caught:
        run_suites(options, interrupt=False)
    assert said in str(caught.value)
    assert "\n" not in str(caught.value)
    assert capsys.readouterr().err == ""
    assert not (tmp_path / "logs").exists()


def test_an_unreadable_log_is_set_aside_with_a_warning_to_the_caller(tmp_path: Path) -> None:
    log_dir = tmp_path / "logs"
    log_dir.mkdir()
    (log_dir / "2026-01-01T00-00-00+00-00_livestream_cut.eval").write_bytes(b"not a zip")
    warned: list[str] = []
    options = RunOptions(suites=("livestream",), limit=1, log_dir=log_dir)
    result = run_suites(options, warn=warned.append, interrupt=False)
    assert result.status == "success"
    [line] = warned
    assert "not a readable Inspect eval log" in line and ".unreadable" in line


def test_a_suite_override_wins_over_the_run_wide_value() -> None:
    options = RunOptions(
        suites=("livestream", "variant"),
        limit=4,
        limit_per_suite={"variant": 2},
        max_tokens_per_suite={"livestream": 50},
    )
    assert (options.suite_limit("variant"), options.suite_limit("livestream")) == (2, 4)
    assert (options.suite_max_tokens("livestream"), options.suite_max_tokens("variant")) == (
        50,
        None,
    )
    assert options.all_models == (None,)  # the reference policy, as before
    assert RunOptions(models="hat/reference").all_models == ("hat/reference",)  # type: ignore[arg-type]


def test_models_of_two_providers_are_refused_before_anything_runs(tmp_path: Path) -> None:
    options = RunOptions(models=("hat/reference", "mockllm/model"), log_dir=tmp_path / "logs")
    with pytest.raises(RunOptionError) as caught:
        run_suites(options, interrupt=False)
    assert caught.value.option == "models"
    assert "providers hat, mockllm" in str(caught.value)
    assert not (tmp_path / "logs").exists()


def test_several_models_run_side_by_side_and_are_reported_per_model(tmp_path: Path) -> None:
    models = ("hat/reference", "hat/oracle")  # two models of the hat/ provider
    log = tmp_path / "suites.log"
    options = RunOptions(
        suites=("livestream", "variant"),
        models=models,
        limit=2,
        log_dir=tmp_path / "logs",
        display="plain",
        output_log=log,
    )
    result = run_suites(options, interrupt=False)
    assert result.status == "success"
    assert result.models == models
    assert [(r.model, r.task) for r in result.runs] == [
        (m, t) for m in models for t in ("livestream", "variant")
    ]
    for run in result.runs:  # each run's own log, of its own model
        assert run.log is not None and run.log.eval.model == run.model
        assert (run.expected, run.finished) == (2, 2)
    assert len({r.log.location for r in result.runs if r.log}) == 4
    assert result.expected == {"livestream": 4, "variant": 4}  # summed over the models
    assert result.total == 8 and result.done == 8
    assert result.described.startswith("ran: models hat/reference, hat/oracle")
    assert log.read_text(encoding="utf-8").strip()  # Inspect's output went to the file
    again = run_suites(options, interrupt=False)  # the same options resume (nothing to redo)
    assert again.status == "success"
    assert {r.log.location for r in again.runs if r.log} == {
        r.log.location for r in result.runs if r.log
    }


def test_per_suite_limits_and_token_caps_reach_each_suites_log(tmp_path: Path) -> None:
    from inspect_ai.log import read_eval_log

    options = RunOptions(
        suites=("livestream", "variant"),
        limit=3,
        limit_per_suite={"variant": 1},
        max_tokens=300,
        max_tokens_per_suite={"livestream": 200},
        log_dir=tmp_path / "logs",
    )
    result = run_suites(options, interrupt=False)
    assert result.status == "success"
    assert result.expected == {"livestream": 3, "variant": 1}
    assert result.finished == result.expected and result.total == 4
    caps = {
        log.eval.task: read_eval_log(log.location, header_only=True).plan.config.max_tokens
        for log in result.logs
    }
    assert caps == {"livestream": 200, "variant": 300}
    assert result.run("hat/reference", "variant").finished == 1


def test_an_output_log_that_is_a_folder_is_refused_before_anything_runs(tmp_path: Path) -> None:
    from hat_eval.runner import RunInputError

    options = RunOptions(limit=1, log_dir=tmp_path / "logs", output_log=tmp_path)
    with pytest.raises(RunInputError) as caught:
        run_suites(options, interrupt=False)
    assert f"output_log {tmp_path}: a folder, expected a file path" in str(caught.value)
    assert not (tmp_path / "logs").exists()


def test_a_plain_run_prints_to_its_output_log_after_a_silent_run(tmp_path: Path) -> None:
    """Inspect keeps the first display it makes in a process; a later plain run still prints."""
    run_suites(
        RunOptions(suites=("livestream",), limit=1, log_dir=tmp_path / "a", display="none"),
        interrupt=False,
    )
    log = tmp_path / "out.log"
    options = RunOptions(
        suites=("livestream",),
        limit=1,
        log_dir=tmp_path / "b",
        display="plain",
        output_log=log,
    )
    assert run_suites(options, interrupt=False).status == "success"
    assert log.read_text(encoding="utf-8").strip()
