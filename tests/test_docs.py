"""The documentation names only what exists: repository paths, links, commands and options.

Every repository path written in README.md, CHANGELOG.md, docs/*.md, the suites' READMEs and
the READMEs of judge/, trainers/, reports/ and loadtest/
must exist, every relative link must reach a file (and a heading, when it names one), and every
``hat-eval ...`` command shown must name real commands and real options of the typer app (read
with ``typer.main.get_command``; nothing is run). The README's install and test commands must be
the ones CI (``.ci/run``) runs.
"""

from __future__ import annotations

import re
import shlex
import subprocess
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import typer

from hat_eval.cli import app

REPO = Path(__file__).resolve().parents[1]
DOCS = sorted(
    [REPO / "README.md", REPO / "CHANGELOG.md"]
    + [REPO / area / "README.md" for area in ("judge", "trainers", "reports", "loadtest")]
    + list((REPO / "docs").glob("*.md"))
    + list((REPO / "hat_eval" / "suites").glob("*/README.md"))
)
FILE_SUFFIXES = (".py", ".yaml", ".yml", ".md", ".jsonl", ".json", ".sh", ".toml", ".xml", ".csv")
FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.S | re.M)
SPAN = re.compile(r"`([^`]+)`")
LINK = re.compile(r"\]\(([^)\s]+)\)")
SEPARATORS = re.compile(r"\s(?:#|\|\||\||&&|;|>|2>)(?:\s|$)")


def _rel(path: Path) -> str:
    return str(path.relative_to(REPO))


@cache
def _top_level() -> frozenset[str]:
    """The first path components the repository tracks (untracked logs/, runs/ are not paths)."""
    try:
        out = subprocess.run(
            ["git", "ls-files"], cwd=REPO, capture_output=True, text=True, check=True
        ).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        out = [p.name for p in REPO.iterdir()]
    return frozenset(name.split("/")[0] for name in out) | {"docs", "CHANGELOG.md"}


def _split(text: str) -> tuple[str, str]:
    """(the prose with code blocks removed, the code blocks' text)."""
    blocks = "\n".join(m.group(1) for m in FENCE.finditer(text))
    return FENCE.sub("", text), blocks


def _code_lines(blocks: str) -> list[str]:
    """Code lines, backslash continuations joined."""
    return blocks.replace("\\\n", " ").splitlines()


def _is_repo_path(token: str, doc: Path) -> Path | None:
    """The path ``token`` names in the repository, or None when it names none.

    A token is a repository path when its first component is tracked at the root, or exists
    beside the document; ``<placeholder>`` and ``*`` become globs.
    """
    token = token.strip().rstrip(".,:;)").split("@")[0].split("#")[0]
    if not token or token.startswith(("..", "/", "~", "http")) or " " in token:
        return None
    if "/" not in token and not token.endswith(FILE_SUFFIXES):
        return None
    first = token.split("/")[0]
    for base in (REPO, doc.parent):
        if (base == REPO and first in _top_level()) or (base != REPO and (base / first).exists()):
            return base / token
    return None


def _exists(path: Path) -> bool:
    pattern = re.sub(r"<[^>]+>", "*", str(path.relative_to(REPO)).replace("…", "*"))
    if "*" in pattern:
        return any(REPO.glob(pattern.rstrip("/")))
    return path.exists()


def _paths(doc: Path) -> list[tuple[str, Path]]:
    prose, blocks = _split(doc.read_text(encoding="utf-8"))
    tokens = [m.group(1) for m in SPAN.finditer(prose)]
    tokens += [w for line in _code_lines(blocks) for w in line.split() if w.endswith(FILE_SUFFIXES)]
    found = []
    for token in tokens:
        path = _is_repo_path(token, doc)
        if path is not None:
            found.append((token, path))
    return found


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    prose, _blocks = _split(path.read_text(encoding="utf-8"))
    return {_slug(m.group(1)) for m in re.finditer(r"^#+ (.+)$", prose, re.M)}


def _commands(doc: Path) -> list[str]:
    """Every ``hat-eval ...`` command the document shows, in code blocks and inline code."""
    prose, blocks = _split(doc.read_text(encoding="utf-8"))
    spans = [" ".join(m.group(1).split()) for m in SPAN.finditer(prose)]
    found = []
    for text in _code_lines(blocks) + spans:
        start = text.find("hat-eval ")
        if start < 0 or (start > 0 and text[start - 1] not in " (=;&"):
            continue
        command = SEPARATORS.split(text[start:])[0]
        found.append(command.strip())
    return found


def _options(cmd: Any) -> dict[str, bool]:
    """Option name -> whether it takes a value."""
    names: dict[str, bool] = {"--help": False}
    for param in cmd.params:
        if param.param_type_name == "option":
            for name in [*param.opts, *param.secondary_opts]:
                names[name] = not (param.is_flag or param.count)
    return names


@cache
def _root() -> Any:
    return typer.main.get_command(app)


def _check_command(command: str) -> list[str]:
    """What is wrong with ``command`` (empty when every command and option is real)."""
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    words = [w.strip("[]") for w in words[1:]]
    cmd: Any = _root()
    suites = {p.parent.name for p in (REPO / "hat_eval" / "suites").glob("*/eval.yaml")}
    problems, i, positional = [], 0, False
    while i < len(words):
        word = words[i]
        subcommands = getattr(cmd, "commands", None) or {}
        if word.startswith("-") and word not in ("-", "--"):
            name, _, inline = word.partition("=")
            options = _options(cmd)
            if name not in options:
                problems.append(f"{cmd.name}: no option {name}")
            elif options[name] and not inline:
                value = words[i + 1] if i + 1 < len(words) else ""
                if name == "--suite" and value.islower() and value not in suites | {"all"}:
                    problems.append(f"{cmd.name}: no suite {value!r}")
                i += 1
        elif subcommands and not positional:
            if word in subcommands:
                cmd = subcommands[word]
            elif "build" in subcommands:  # `hat-eval report LOG_DIR ...` runs `report build`
                cmd, positional = subcommands["build"], True
            elif word.isupper() or word.startswith("<"):  # `hat-eval COMMAND`, `train <stage>`
                break
            else:
                problems.append(f"{cmd.name}: no command {word!r}")
                break
        else:
            positional = True
        i += 1
    return problems


@pytest.mark.parametrize("doc", DOCS, ids=_rel)
def test_every_repository_path_exists(doc: Path) -> None:
    missing = [token for token, path in _paths(doc) if not _exists(path)]
    assert missing == [], f"{_rel(doc)} names paths that do not exist: {missing}"


@pytest.mark.parametrize("doc", DOCS, ids=_rel)
def test_every_link_reaches_a_file_and_heading(doc: Path) -> None:
    prose, _ = _split(doc.read_text(encoding="utf-8"))
    broken = []
    for target in LINK.findall(prose):
        if target.startswith(("http://", "https://", "mailto:")):
            continue
        file, _, anchor = target.partition("#")
        path = (doc.parent / file).resolve() if file else doc
        if not path.exists() or REPO not in path.parents:
            broken.append(target)
        elif anchor and path.suffix == ".md" and anchor not in _anchors(path):
            broken.append(target)
    assert broken == [], f"{_rel(doc)} has broken links: {broken}"


@pytest.mark.parametrize("doc", DOCS, ids=_rel)
def test_every_command_shown_is_real(doc: Path) -> None:
    problems = [f"`{c}`: {p}" for c in _commands(doc) for p in _check_command(c)]
    assert problems == [], f"{_rel(doc)}:\n" + "\n".join(problems)


def test_the_docs_show_commands() -> None:
    """The command check reads something: the README shows the main job and its options."""
    commands = _commands(REPO / "README.md")
    assert "hat-eval run --suite variant" in commands
    assert _check_command("hat-eval run --suite nosuch") == ["run: no suite 'nosuch'"]
    assert _check_command("hat-eval run --no-such-option") == ["run: no option --no-such-option"]
    assert _check_command("hat-eval nosuch") == ["hat-eval: no command 'nosuch'"]
    assert _check_command("hat-eval report logs/a --gate logs/b --margin 0.02") == []


def test_a_stale_path_or_link_is_caught() -> None:
    readme = REPO / "README.md"
    stale = _is_repo_path("suites/harnesses/", readme)
    assert stale is not None and not _exists(stale)
    found = _is_repo_path("judge/corpus/answers_*.jsonl", readme)
    assert found is not None and _exists(found)
    assert _is_repo_path("runs/cal/calibration.json", readme) is None  # an output, not ours
    assert "the-suites" in _anchors(REPO / "docs" / "suites-and-scoring.md")


def test_the_readme_install_and_test_commands_are_what_ci_runs() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    first_block = FENCE.search(readme)
    assert first_block is not None and "bash scripts/install-and-run.sh" in first_block.group(1)
    assert "bash scripts/install-and-run.sh" in ci
    steps = ["ruff check .", "ruff format --check .", "mypy hat_eval", "python -m pytest -q"]
    test_line = next(line for line in readme.splitlines() if "python -m pytest" in line)
    assert test_line == ". .venv/bin/activate && " + " && ".join(steps)
    ci_lines = [line.strip() for line in ci.splitlines()]
    assert all(step in ci_lines for step in steps)


@pytest.mark.parametrize("suite", ["livestream", "variant", "robustness", "evolution"])
def test_each_suite_readme_states_the_pinned_test_split_hash(suite: str) -> None:
    from tests.test_pinned_behaviour import DATASETS

    text = (REPO / "hat_eval" / "suites" / suite / "README.md").read_text(encoding="utf-8")
    stated = set(re.findall(r"`([0-9a-f]{64})`", text))
    assert stated == {DATASETS[f"{suite}/test"]}, "update the README's Dataset section"
