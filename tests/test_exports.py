"""A package ``__init__`` exports only what a user imports (issue 32).

A name stays in a package's ``__all__`` when code in another top-level area of ``hat_eval``, a
file a user runs (``bench/``, ``scripts/``, the entry folders), an entry point of
``pyproject.toml`` or a user document (README files, ``docs/*.md``, a data file's comment) imports
or names it. Everything else is imported from its private module, by the package's own code and
by the tests. A private sub-package (``episode/_claims``, ``world/_cases``) exports what the rest
of its parent area imports.
"""

from __future__ import annotations

import ast
import importlib
import re
import subprocess
from collections import defaultdict
from functools import cache
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
NAMED_WITHOUT_PATH = {  # names a document shows without the package's dotted path
    "hat_eval.judge": {"pairwise_judge", "judge_logs", "write_pairwise"},  # docs/judge.md
    "hat_eval.loadtest": {"MtpConfig"},  # loadtest/README.md: "`MtpConfig` in `hat_eval.loadtest`"
}


def _tracked(*patterns: str) -> list[Path]:
    out = subprocess.run(
        ["git", "ls-files", *patterns], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout
    return [REPO / p for p in out.split()]


def _module(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _packages() -> list[str]:
    inits = _tracked("hat_eval/**/__init__.py", "hat_eval/__init__.py")
    return sorted(m for m in map(_module, inits) if m != "hat_eval")


def _imported_from(path: Path, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = _module(path).split(".")
    if path.name != "__init__.py":
        base = base[:-1]
    base = base[: len(base) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


@cache
def _users() -> dict[tuple[str, str], set[Path]]:
    """(package, name) -> the files outside ``tests/`` that import it or reach it by attribute."""
    packages = set(_packages())
    users: dict[tuple[str, str], set[Path]] = defaultdict(set)
    for path in _tracked("*.py"):
        if path.relative_to(REPO).parts[0] == "tests":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        bound: dict[str, str] = {}  # a local name bound to a package
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                module = _imported_from(path, node)
                for alias in node.names:
                    users[module, alias.name].add(path)
                    if f"{module}.{alias.name}" in packages:
                        bound[alias.asname or alias.name] = f"{module}.{alias.name}"
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname and alias.name in packages:
                        bound[alias.asname] = alias.name
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                if node.value.id in bound:
                    users[bound[node.value.id], node.attr].add(path)
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute):
                users[ast.unparse(node.value), node.attr].add(path)
    return users


@cache
def _documents() -> str:
    docs = _tracked("*.md", "*.yaml", "*.yml", "pyproject.toml")
    return "\n".join(
        p.read_text(encoding="utf-8")
        for p in docs
        if p.relative_to(REPO).parts[0] != "tests" and p.name != "CHANGELOG.md"
    )


def _area(module: str) -> str:
    """Where an importer's code counts as the package's own: its area, or a private sub-package."""
    parts = module.split(".")
    private = next((i for i, p in enumerate(parts) if i > 1 and p.startswith("_")), None)
    return ".".join(parts[: private + 1] if private is not None else parts[:2])


def _used_outside(package: str, name: str) -> bool:
    own = _area(package)
    for path in _users().get((package, name), ()):
        importer = _module(path)
        if not (importer == own or importer.startswith(own + ".")):
            return True
    docs = _documents()
    return bool(
        re.search(rf"\b{re.escape(package)}[.:]{name}\b", docs)
        or re.search(rf"from {re.escape(package)} import[^\n]*\b{name}\b", docs)
        or name in NAMED_WITHOUT_PATH.get(package, ())
    )


@pytest.mark.parametrize("package", _packages())
def test_every_export_is_imported_outside_its_area(package: str) -> None:
    exported = getattr(importlib.import_module(package), "__all__", [])
    unused = [n for n in exported if not _used_outside(package, n)]
    assert unused == [], (
        f"{package} exports {unused}, which only its own area and the tests import: drop them "
        "from its __init__ and import them from their private module"
    )
