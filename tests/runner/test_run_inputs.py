"""A run's shop and cases file, checked by the library: typed errors, no CLI needed."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hat_eval.runner import (
    InputFileError,
    RunInputError,
    RunOptionError,
    RunOptions,
    check_shop,
    read_cases,
    run_suites,
)

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "shop"
NOW = "2026-11-11T20:00:00+08:00"


def _write(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    return path


def _message() -> dict:
    return {"message": "how much is this?", "session": {"product_on_screen": "T001", "now": NOW}}


def test_a_bad_case_line_is_a_typed_error_naming_file_line_record_and_field(
    tmp_path: Path,
) -> None:
    cases = _write(
        tmp_path / "cases.jsonl",
        [{**_message(), "id": "a"}, {**_message(), "id": "b", "intent": "haggling"}],
    )
    options = RunOptions(
        suites=("livestream",), shop=EXAMPLE, cases=cases, log_dir=tmp_path / "logs"
    )
    with pytest.raises(InputFileError) as caught:
        run_suites(options, interrupt=False)
    err = caught.value
    assert isinstance(err, RunInputError)  # what `hat-eval run` prints as one line, exit 2
    assert (err.option, err.file, err.line, err.record, err.field) == (
        "cases",
        str(cases),
        2,
        "b",
        "intent",
    )
    assert err.what == "'haggling' is unknown"
    assert err.expected.startswith("one of price, ")
    assert str(err) == f"--cases {err.problem}"
    assert not (tmp_path / "logs").exists()  # nothing ran, nothing written


def test_cases_without_gold_need_a_judge(tmp_path: Path) -> None:
    cases = _write(tmp_path / "logged.jsonl", [_message(), _message()])
    with pytest.raises(InputFileError) as caught:
        read_cases(cases, ["livestream"], EXAMPLE.as_posix())
    err = caught.value
    assert (err.file, err.record) == (str(cases), "line-1")
    assert err.what.startswith("2 of its 2 cases have no gold")
    assert "--judge MODEL" in err.expected and "--judge MODEL" in str(err)
    text = read_cases(cases, ["livestream"], EXAMPLE.as_posix(), judge="mockllm/model")
    assert [json.loads(x)["id"] for x in text.splitlines()] == ["line-1", "line-2"]


def test_a_broken_shop_carries_every_problem(tmp_path: Path) -> None:
    shop = Path(shutil.copytree(EXAMPLE, tmp_path / "shop"))
    rows = [json.loads(x) for x in (shop / "skus.jsonl").read_text("utf-8").splitlines()]
    rows[0]["product_id"] = "P9999"
    rows[1]["product_id"] = "P9998"
    _write(shop / "skus.jsonl", rows)
    with pytest.raises(InputFileError) as caught:
        check_shop(shop, ["livestream"])
    err = caught.value
    assert [(p.file, p.line, p.field) for p in err.problems] == [
        (str(shop / "skus.jsonl"), 1, "product_id"),
        (str(shop / "skus.jsonl"), 2, "product_id"),
    ]
    assert err.what == "'P9999' is not a product"
    assert err.expected == "the id of a record in products.jsonl"
    assert str(err).endswith(f"(and 1 more); list them with: hat-eval shop validate {shop}")


def test_a_shop_the_suites_cannot_ask_every_intent_about(tmp_path: Path) -> None:
    shop = Path(shutil.copytree(EXAMPLE, tmp_path / "shop"))
    (shop / "promotions.jsonl").write_text("")
    (shop / "coupons.jsonl").write_text("")
    with pytest.raises(InputFileError) as caught:
        check_shop(shop, ["livestream"])
    err = caught.value
    assert (err.file, err.record) == (str(shop), "promotion_stacking")
    assert err.what.startswith("no promotions (promotions.jsonl), no coupons (coupons.jsonl)")
    assert err.expected == "a shop the suites can ask every intent about"


@pytest.mark.parametrize(("option", "call"), [("shop", "check_shop"), ("cases", "read_cases")])
def test_a_shop_or_cases_for_suites_without_cases_is_an_option_error(
    option: str, call: str
) -> None:
    with pytest.raises(RunOptionError) as caught:
        if call == "check_shop":
            check_shop(EXAMPLE, ["ifeval"])
        else:
            read_cases(EXAMPLE / "products.jsonl", ["ifeval"], None)
    assert caught.value.option == option
    assert f"--{option} applies to the case suites" in str(caught.value)


def test_the_library_runs_its_input_checks_without_importing_the_cli(tmp_path: Path) -> None:
    cases = _write(tmp_path / "cases.jsonl", [{**_message(), "intent": "haggling"}])
    script = (
        "import sys\n"
        "from pathlib import Path\n"
        "from hat_eval.runner import InputFileError, RunOptions, run_suites\n"
        f"options = RunOptions(suites=('livestream',), shop=Path({str(EXAMPLE)!r}), "
        f"cases=Path({str(cases)!r}), log_dir=Path({str(tmp_path / 'logs')!r}))\n"
        "try:\n"
        "    run_suites(options, interrupt=False)\n"
        "except InputFileError as err:\n"
        "    print(err.field)\n"
        "print(sorted(m for m in sys.modules if m.startswith('hat_eval.cli')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=300
    )
    assert done.stdout.splitlines() == ["intent", "[]"], done.stderr
