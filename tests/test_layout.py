"""The layout's promises: no symlinks, and data flowing one way between the areas."""

from __future__ import annotations

import ast
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "hat_eval"

LOWER = {  # area -> the areas it may import (each layer only the layers below it)
    "stats": set(),  # the statistics every report, judge and load figure uses
    "harness": set(),
    "hsa": {"harness"},
    "world": {"harness"},
    "episode": {"harness", "hsa", "world"},
}
CONSUMERS = (
    "suites",
    "baselines",
    "judge",
    "trainers",
    "loadtest",
    "reports",
    "runner",
    "repro",
    "cli",
)


def _imported_areas(path: Path) -> set[str]:
    areas = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        for name in names:
            parts = name.split(".")
            if parts[0] == "hat_eval" and len(parts) > 1:
                areas.add(parts[1])
    return areas


def test_no_symlinks_are_tracked() -> None:
    out = subprocess.run(
        ["git", "ls-files", "-s"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout
    links = [line.split("\t")[-1] for line in out.splitlines() if line.startswith("120000")]
    assert links == []


@pytest.mark.parametrize("area", sorted(LOWER))
def test_lower_layers_import_no_consumer(area: str) -> None:
    for path in sorted((PACKAGE / area).rglob("*.py")):
        imported = _imported_areas(path) - {
            area,
            "_lazy",
            "_cache",
            "_jsonl",
            "_datafile",
            "_fields",
            "_outputs",
        }
        assert imported <= LOWER[area], f"{path.relative_to(REPO)} imports {imported}"


def test_the_library_is_one_package_tree() -> None:
    """Top-level area folders hold only files a user opens, never library modules."""
    for area in ("suites", "loadtest", "judge", "trainers", "reports"):
        modules = [p.name for p in (REPO / area).glob("_*.py")]
        assert modules == [], f"{area}/ holds library modules {modules}"
        assert (PACKAGE / area / "__init__.py").is_file()


def test_the_episode_layer_branches_on_no_suite() -> None:
    """Suites differ by the recipe in their eval.yaml, never by ``if suite == "..."`` in episode."""
    names = {p.parent.name for p in (PACKAGE / "suites").glob("*/eval.yaml")}
    for path in sorted((PACKAGE / "episode").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare):
                consts = {
                    c.value
                    for c in ast.walk(node)
                    if isinstance(c, ast.Constant) and isinstance(c.value, str)
                }
                assert not consts & names, f"{path.relative_to(REPO)}:{node.lineno}"


def test_the_suites_import_no_baseline() -> None:
    """The hat/ policies sit above the suites: the oracle reads the suites' samples."""
    for path in sorted((PACKAGE / "suites").rglob("*.py")):
        assert "baselines" not in _imported_areas(path), path.relative_to(REPO)


RUNNER_CLI_IMPORTS = {  # what the library runner still borrows from the CLI (to move down)
    "hat_eval.cli._world",  # --shop and --cases checked, the cases written
}


def test_the_runner_imports_the_cli_only_where_listed() -> None:
    """``hat_eval.runner`` sits below the CLI: ``hat-eval run`` calls it, never the reverse."""
    for path in sorted((PACKAGE / "runner").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:  # nothing from the CLI at import time
            if isinstance(node, ast.ImportFrom) and node.module:
                assert not node.module.startswith("hat_eval.cli"), path.relative_to(REPO)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("hat_eval.cli"):
                module = node.module or ""
                names = (
                    [f"{module}.{a.name}" for a in node.names]
                    if module == "hat_eval.cli"
                    else [module]
                )
                assert set(names) <= RUNNER_CLI_IMPORTS, f"{path.relative_to(REPO)}: {names}"
