"""Every suite has one shape: a folder with eval.yaml and task.py, read by the catalogue."""

from __future__ import annotations

import dataclasses
import inspect
from importlib.resources import files

import pytest

from hat_eval.suites import TaskOptions, case_suites, disclosure_harness, make_task, suite_names
from hat_eval.suites._catalog import suite_meta, task_function
from hat_eval.suites._task import CaseTaskSpec


def test_the_suites_are_the_folders_with_an_eval_yaml() -> None:
    folders = sorted(
        p.name for p in files("hat_eval.suites").iterdir() if (p / "eval.yaml").is_file()
    )
    assert sorted(suite_names()) == folders
    assert folders == ["evolution", "ifeval", "livestream", "robustness", "variant"]
    assert suite_names()[:4] == case_suites()  # the case suites (with a recipe) first
    for name in suite_names():
        meta = suite_meta(name)
        assert meta.name == name and meta.title and meta.description
        assert (files("hat_eval.suites") / name / "task.py").is_file()
        assert callable(task_function(name))


def test_task_options_reach_each_suite_as_its_own_arguments(shared_dir) -> None:
    data = shared_dir / "data" / "ifeval" / "input_data.jsonl"
    options = TaskOptions(limit=3, seed=5, agent="react", ifeval_data=data)
    for name in suite_names():
        task = make_task(name, options)
        versions = 7 if name == "evolution" else 1  # each case under each harness version
        assert len(task.dataset) == 3 * versions, name
        if name != "ifeval":
            assert task.metadata["case_seed"] == 5 and task.metadata["agent"] == "react"


def test_an_unknown_suite_is_one_clear_error() -> None:
    with pytest.raises(ValueError, match="'nope' is not a suite, expected one of livestream"):
        suite_meta("nope")


def test_disclosure_chooses_the_default_harness_of_that_form() -> None:
    from hat_eval.harness import default_harness_path

    progressive = str(default_harness_path("progressive"))
    assert disclosure_harness(None, None) is None
    assert disclosure_harness(None, "inline") is None  # the pinned default, untouched
    assert disclosure_harness(None, "progressive") == progressive
    assert disclosure_harness(progressive, "progressive") == progressive
    assert disclosure_harness(progressive, None) == progressive
    with pytest.raises(ValueError, match="disclosure 'lazy' is unknown, expected one of inline"):
        disclosure_harness(None, "lazy")
    with pytest.raises(ValueError, match="skill_disclosure is progressive, but disclosure inline"):
        disclosure_harness(progressive, "inline")
    for name in case_suites():
        if "disclosure" not in suite_meta(name).run_options:
            continue  # evolution runs its changelog's harnesses, in their own form
        task = make_task(name, TaskOptions(limit=2, disclosure="progressive"))
        assert task.metadata["disclosure"] == "progressive", name
        assert task.metadata["harness"] == progressive, name
        assert make_task(name, TaskOptions(limit=2)).metadata["disclosure"] == "inline", name


def test_every_suite_is_registered_for_inspect() -> None:
    """``inspect eval hat_eval/<suite>`` finds every suite through the entry point module."""
    import hat_eval._registry as registry

    for name in suite_names():
        assert getattr(registry, suite_meta(name).task, None) is task_function(name), name


@pytest.mark.parametrize("name", ["livestream", "variant", "robustness", "evolution"])
def test_a_case_suite_task_takes_and_documents_the_spec_fields(name: str) -> None:
    fn = task_function(name)
    params = inspect.signature(fn).parameters
    fields = [f for f in dataclasses.fields(CaseTaskSpec) if f.name != "suite"]
    assert [(p.name, p.default) for p in params.values()] == [(f.name, f.default) for f in fields]
    doc = inspect.getdoc(fn) or ""
    assert doc.startswith(suite_meta(name).title) and "suite:" not in doc
    for p in params:
        assert f"\n    {p}: " in doc, p
    assert fn(n=2, seed=3).metadata["case_seed"] == 3  # keyword arguments reach the spec
