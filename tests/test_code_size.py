"""bench/code_size.py measures files, functions and exports as it says."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[1]


def _code_size() -> ModuleType:
    spec = importlib.util.spec_from_file_location("code_size", REPO / "bench" / "code_size.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["code_size"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_long_files_functions_and_exports_are_found(tmp_path: Path) -> None:
    pkg = tmp_path / "sizepkg"
    (pkg / "area").mkdir(parents=True)
    (pkg / "__init__.py").write_text('__all__ = ["a", "b"]\n')
    (pkg / "area" / "__init__.py").write_text("")
    body = "".join(f"    x{i} = {i}\n" for i in range(12))
    (pkg / "area" / "_long.py").write_text(
        "def short():\n    return 1\n\n\ndef long(\n    a: int,\n    b: int,\n) -> None:\n" + body
    )
    m = _code_size().measure(pkg, max_file=15, max_function=10)
    assert m["total"] == 1 + 0 + 20
    assert m["per_area"] == {"(root)": 1, "area": 20}
    assert m["long_files"] == [("sizepkg/area/_long.py", 20)]
    [fn] = m["long_functions"]
    assert (fn.name, fn.lines, fn.params) == ("long", 16, 3)
    assert m["exports"] == {"sizepkg/__init__.py": 2}


def test_the_core_package_leaves_out_the_extras_areas(tmp_path: Path, monkeypatch) -> None:
    pkg = tmp_path / "xpkg"
    for area in ("core", "heavy"):
        (pkg / area).mkdir(parents=True)
        (pkg / area / "__init__.py").write_text("x = 1\ny = 2\n")
    (pkg / "__init__.py").write_text("")
    (pkg / "_extras.py").write_text(
        "from types import SimpleNamespace\nEXTRAS = {'heavy': SimpleNamespace(name='big')}\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    size = _code_size()
    extras = size.extra_areas(pkg)
    assert extras == {"heavy": "big"}
    m = size.measure(pkg, max_file=500, max_function=80, extras=extras)
    assert (m["total"], m["core"]) == (2 + 2 + 2, 2 + 2)


def test_hat_evals_extra_areas_come_from_its_one_declaration(monkeypatch) -> None:
    from hat_eval._extras import EXTRAS

    monkeypatch.syspath_prepend(str(REPO))
    areas = _code_size().extra_areas(REPO / "hat_eval")
    assert areas == {area: extra.name for area, extra in EXTRAS.items()}
    assert areas == {"trainers": "train", "loadtest": "load", "repro": "repro"}
