"""How big the core package is, and where it is too big for a newcomer to read.

Run: ``python bench/code_size.py [--root hat_eval] [--max-file 500] [--max-function 80]``.

The core package is what ``pip install hat-eval`` imports without extras: ``hat_eval/`` minus
the areas an optional extra serves (``hat_eval/trainers`` for ``[train]``, ``hat_eval/loadtest``
for ``[load]``, ``hat_eval/repro`` for ``[repro]``), read from the one declaration of them,
``hat_eval._extras.EXTRAS`` (a ``--root`` package without ``_extras.py`` has no extra areas).

Prints, for the ``.py`` files under the package:

- the core package's lines and its lines per top-level area (``hat_eval/judge``,
  ``hat_eval/cli``, ...; modules at the package root count as ``(root)``); then each extra
  area's lines labelled with its extra, and all of the package;
- files over ``--max-file`` lines;
- functions over ``--max-function`` lines (from the ``def`` line to the last line of the body,
  decorators excluded), with the share that is the parameter block (a typer command restates
  its options there), and whether the file is a data loader (named in ``DATA_LOADERS``, which
  may keep a long literal-reading function);
- the number of names in ``__all__`` of each package ``__init__.py`` and their sum.

Numbers are printed, not asserted: the targets are no file over 500 lines and no function over
80 lines outside data loaders.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

# Functions that read a data file into records; a long one is a table, not logic.
DATA_LOADERS = frozenset({("hat_eval/world/_vocab.py", "vocabulary")})


@dataclass(frozen=True)
class LongFunction:
    """One function over the limit: where it is and how its lines split."""

    path: str
    name: str
    lines: int
    params: int

    @property
    def data_loader(self) -> bool:
        return (self.path, self.name.rsplit(".", 1)[-1]) in DATA_LOADERS


def _functions(tree: ast.Module) -> list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    found: list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found.append((prefix + child.name, child))
                visit(child, prefix + child.name + ".")
            elif isinstance(child, ast.ClassDef):
                visit(child, prefix + child.name + ".")

    visit(tree, "")
    return found


def _param_lines(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """Lines of the signature after the ``def`` line (a typer command's option block)."""
    return max(0, fn.body[0].lineno - fn.lineno - 1)


def _all_names(tree: ast.Module, module: str) -> int | None:
    """How many names ``__all__`` lists: the imported package's own (a package may build it
    from a lazy table), else the literal list's length."""
    try:
        return len(importlib.import_module(module).__all__)
    except Exception:  # noqa: BLE001 - a package that cannot be imported is counted from its text
        pass
    for node in tree.body:
        targets = (
            node.targets
            if isinstance(node, ast.Assign)
            else [node.target]
            if isinstance(node, ast.AnnAssign)
            else []
        )
        for target in targets:
            if isinstance(target, ast.Name) and target.id == "__all__":
                value = node.value
                if isinstance(value, (ast.List, ast.Tuple)):
                    return len(value.elts)
                return None
    return None


def extra_areas(root: Path) -> dict[str, str]:
    """Area -> extra name, from ``<root>._extras.EXTRAS`` (none if the package has no such module).

    ``root``'s parent must be on ``sys.path``.
    """
    if not (root / "_extras.py").is_file():
        return {}
    extras = importlib.import_module(f"{root.name}._extras").EXTRAS
    return {area: extra.name for area, extra in extras.items()}


def measure(
    root: Path, max_file: int, max_function: int, extras: dict[str, str] | None = None
) -> dict[str, object]:
    """The numbers this script prints, for ``root`` (a package folder).

    ``extras`` (area -> extra name) are the areas left out of the core package's ``core``
    count; ``total`` counts every file.
    """
    extras = extras or {}
    base = root.parent
    per_area: Counter[str] = Counter()
    long_files: list[tuple[str, int]] = []
    long_functions: list[LongFunction] = []
    exports: dict[str, int] = {}
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(base).as_posix()
        text = path.read_text(encoding="utf-8")
        n = len(text.splitlines())
        parts = path.relative_to(root).parts
        per_area[parts[0] if len(parts) > 1 else "(root)"] += n
        if n > max_file:
            long_files.append((rel, n))
        tree = ast.parse(text, filename=rel)
        for name, fn in _functions(tree):
            length = (fn.end_lineno or fn.lineno) - fn.lineno + 1
            if length > max_function:
                long_functions.append(LongFunction(rel, name, length, _param_lines(fn)))
        if path.name == "__init__.py":
            module = ".".join(path.relative_to(base).with_suffix("").parts[:-1])
            count = _all_names(tree, module)
            if count is not None:
                exports[rel] = count
    return {
        "total": sum(per_area.values()),
        "core": sum(n for area, n in per_area.items() if area not in extras),
        "extras": extras,
        "per_area": per_area,
        "long_files": long_files,
        "long_functions": long_functions,
        "exports": exports,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).parents[1] / "hat_eval")
    parser.add_argument("--max-file", type=int, default=500)
    parser.add_argument("--max-function", type=int, default=80)
    args = parser.parse_args()
    sys.path.insert(0, str(args.root.resolve().parent))
    extras = extra_areas(args.root)
    m = measure(args.root, args.max_file, args.max_function, extras)
    per_area: Counter[str] = m["per_area"]  # type: ignore[assignment]
    by_size = sorted(per_area.items(), key=lambda kv: -kv[1])
    print(f"core package lines: {m['core']}")
    for area, n in by_size:
        if area not in extras:
            print(f"  {area:<12} {n:>6}")
    print("\nextra areas' lines (outside the core package):")
    for area, n in by_size:
        if area in extras:
            print(f"  {area:<12} {n:>6}  [{extras[area]}]")
    print(f"\nall of {args.root.name}/: {m['total']}")
    long_files: list[tuple[str, int]] = m["long_files"]  # type: ignore[assignment]
    print(f"\nfiles over {args.max_file} lines: {len(long_files)}")
    for rel, n in sorted(long_files, key=lambda x: -x[1]):
        print(f"  {n:>5}  {rel}")
    fns: list[LongFunction] = m["long_functions"]  # type: ignore[assignment]
    logic = [f for f in fns if not f.data_loader]
    print(
        f"\nfunctions over {args.max_function} lines: {len(fns)} "
        f"({len(logic)} outside data loaders)"
    )
    print(f"  {'lines':>5} {'params':>6} {'body':>5}  function")
    for f in sorted(fns, key=lambda f: -f.lines):
        note = "  [data loader]" if f.data_loader else ""
        print(f"  {f.lines:>5} {f.params:>6} {f.lines - f.params:>5}  {f.path}:{f.name}{note}")
    exports: dict[str, int] = m["exports"]  # type: ignore[assignment]
    print(f"\nnames in __all__ of package __init__ files: {sum(exports.values())}")
    for rel, n in sorted(exports.items(), key=lambda kv: -kv[1]):
        print(f"  {n:>4}  {rel}")


if __name__ == "__main__":
    main()
