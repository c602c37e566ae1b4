"""``hat-eval shop`` and ``run/score --shop``: a team's own shop through the suites.

The example shop (``examples/shop``, 32 products) validates, says what the case generators can
ask about it, imports from CSV, and runs through every case suite; bad input is one line naming
the file, row or record and field, exit 2, nothing written.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest
from inspect_ai.log import list_eval_logs, read_eval_log
from typer.testing import CliRunner

from hat_eval.cli import app
from hat_eval.world._schema import MANIFEST_FILE, POLICY_FILE, RECORD_FILES
from tests._cli import one_error_line

runner = CliRunner()
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "shop"


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    """A copy of the example shop to break."""
    return Path(shutil.copytree(EXAMPLE, tmp_path / "shop"))


def _lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


def _write(path: Path, rows: list[dict]) -> None:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")


def _edit(shop: Path, file: str, index: int, **fields: object) -> None:
    rows = _lines(shop / file)
    rows[index].update(fields)
    _write(shop / file, rows)


def test_validate_and_show_the_example_shop() -> None:
    res = runner.invoke(app, ["shop", "validate", str(EXAMPLE)])
    assert res.exit_code == 0, res.output
    assert "valid: Tea & Home live room v1, 32 products" in res.output
    res = runner.invoke(app, ["shop", "show", str(EXAMPLE)])
    assert res.exit_code == 0, res.output
    for category in ("electronics", "food", "home", "jewellery"):
        assert f"\n{category} " in res.output
    assert "cannot" not in res.output
    assert "final_price" in res.output and "shipping.delivery_days" in res.output


def test_show_says_which_cases_cannot_be_made_and_why(shop: Path) -> None:
    (shop / "promotions.jsonl").write_text("")
    (shop / "coupons.jsonl").write_text("")
    res = runner.invoke(app, ["shop", "show", str(shop)])
    assert res.exit_code == 0, res.output
    line = next(x for x in res.output.splitlines() if "promotion_stacking" in x)
    assert "cannot" in line and "no promotions" in line and "no coupons" in line
    res = runner.invoke(app, ["run", "--shop", str(shop), "--suite", "livestream", "--limit", "2"])
    one_error_line(res, "error: --shop", "promotion_stacking cases cannot be made", "shop show")


def test_show_refuses_a_product_type_the_generators_do_not_know(shop: Path) -> None:
    _edit(shop, "products.jsonl", 0, type_key="kombucha")
    res = runner.invoke(app, ["shop", "show", str(shop)])
    assert res.exit_code == 2
    assert "type_key: 'kombucha' is not a food product type" in res.output


@pytest.mark.parametrize("name", [MANIFEST_FILE, POLICY_FILE, *RECORD_FILES])
def test_a_shop_missing_a_record_kind_is_refused_with_its_line(shop: Path, name: str) -> None:
    (shop / name).unlink()
    res = runner.invoke(app, ["shop", "validate", str(shop)])
    one_error_line(res, f"error: {shop / name}: missing, expected every record kind")
    res = runner.invoke(app, ["run", "--shop", str(shop), "--suite", "variant", "--limit", "2"])
    one_error_line(res, f"error: --shop {shop / name}: missing", "hat-eval shop validate")


@pytest.mark.parametrize(
    ("file", "index", "fields", "says"),
    [
        ("skus.jsonl", 2, {"product_id": "T999"}, "product_id: 'T999' is not a product"),
        (
            "promotions.jsonl",
            0,
            {"ends_at": "2026-10-01T00:00:00+08:00"},
            "ends_at: 2026-10-01T00:00:00+08:00 is before starts_at",
        ),
        ("coupons.jsonl", 0, {"stacks_with": ["LEAF10", "NOPE"]}, "stacks_with.1: 'NOPE' is not"),
        ("regions.jsonl", 2, {"regions": ["Tibet", "Beijing"]}, "regions.1: 'Beijing' is already"),
    ],
)
def test_bad_records_are_one_line_naming_file_line_record_and_field(
    shop: Path, file: str, index: int, fields: dict, says: str
) -> None:
    _edit(shop, file, index, **fields)
    res = runner.invoke(app, ["shop", "validate", str(shop)])
    line = one_error_line(res, f"error: {shop / file}:{index + 1} (", says)
    assert "expected" in line


def test_malformed_json_line(shop: Path) -> None:
    with (shop / "coupons.jsonl").open("a") as fh:
        fh.write('{"code": "BROKEN",\n')
    res = runner.invoke(app, ["shop", "validate", str(shop)])
    one_error_line(res, f"error: {shop / 'coupons.jsonl'}:7 (row 7): not valid JSON")


# -- CSV --------------------------------------------------------------------------------------
@pytest.fixture
def csvs(tmp_path: Path) -> Path:
    out = tmp_path / "csv"
    res = runner.invoke(app, ["shop", "export-csv", str(EXAMPLE), "--out", str(out)])
    assert res.exit_code == 0, res.output
    return out


def _import(csvs: Path, out: Path, *more: str) -> object:
    args = ["shop", "import-csv", str(csvs / "products.csv"), str(csvs / "skus.csv")]
    return runner.invoke(app, [*args, "--base", str(EXAMPLE), "--out", str(out), *more])


def test_csv_round_trip_gives_the_same_shop(csvs: Path, tmp_path: Path) -> None:
    header = (csvs / "products.csv").read_text(encoding="utf-8").splitlines()[0]
    assert header.startswith("id,category,type_key,type_name,")
    res = _import(csvs, tmp_path / "imported", "--promotions", str(csvs / "promotions.csv"))
    assert res.exit_code == 0, res.output  # type: ignore[attr-defined]
    for name in (MANIFEST_FILE, POLICY_FILE, *RECORD_FILES):
        assert (tmp_path / "imported" / name).read_bytes() == (EXAMPLE / name).read_bytes()


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize(
    ("file", "old", "new", "where", "says"),
    [
        ("skus.csv", "T001-250G,T001,", "T001-250G,T099,", "skus.csv:3 (T001-250G)", "product_id"),
        (
            "products.csv",
            '"{""origin""',
            '"{origin',
            "products.csv:2 (T001)",
            "specs: not valid JSON",
        ),
        (
            "products.csv",
            ",false,Hangzhou\nT002",
            ",maybe,Hangzhou\nT002",
            "products.csv:2 (T001)",
            "custom",
        ),
        (
            "skus.csv",
            "list_price,stock",
            "price,stock",
            "skus.csv:1: header",
            "missing columns list_price",
        ),
        ("skus.csv", "T001-100G,T001,0,", 'T001-100G,"T001"x,0,', "skus.csv:2", "not valid CSV"),
        (
            "skus.csv",
            "T001-100G,T001,0,",
            "T001-100G,T001,",
            "skus.csv:2 (row 2)",
            "8 cells, expected 9",
        ),
        (
            "promotions.csv",
            "2026-11-11T23:59:59+08:00",
            "2026-10-01T00:00:00+08:00",
            "promotions.csv:",
            "is before starts_at",
        ),
    ],
)
def test_bad_csv_is_one_line_and_nothing_is_written(
    csvs: Path, tmp_path: Path, file: str, old: str, new: str, where: str, says: str
) -> None:
    _replace(csvs / file, old, new)
    out = tmp_path / "imported"
    res = _import(csvs, out, "--promotions", str(csvs / "promotions.csv"))
    one_error_line(res, f"error: {csvs / where}", says, "expected")
    assert not out.exists()


# -- the suites on the shop --------------------------------------------------------------------
@pytest.mark.parametrize("suite", ["livestream", "variant", "robustness", "evolution"])
def test_the_example_shop_runs_through_every_suite(tmp_path: Path, suite: str) -> None:
    logs = tmp_path / "logs"
    args = ["run", "--shop", str(EXAMPLE), "--suite", suite, "--limit", "3"]
    res = runner.invoke(app, [*args, "--model", "hat/oracle", "--log-dir", str(logs)])
    assert res.exit_code == 0, res.output
    cases = logs / "cases" / f"{suite}.jsonl"
    rows = _lines(cases)
    assert rows and all(r["metadata"]["shop"] == EXAMPLE.as_posix() for r in rows)
    products = {p for r in rows for p in r["metadata"]["case"]["product_ids"]}
    assert products and all(p.startswith("T") for p in products)  # the example shop's ids
    log = read_eval_log(list_eval_logs(str(logs))[0])
    sha = hashlib.sha256(cases.read_bytes()).hexdigest()
    assert log.eval.metadata["dataset_sha256"] == sha and f"sha256 {sha}" in res.output
    assert log.samples
    for sample in log.samples:  # the oracle answers the case, not the changelog's later edits
        if suite != "evolution" or str(sample.id).startswith("evolution-v1-"):
            assert sample.scores and next(iter(sample.scores.values())).value["aggregate"] >= 99


def test_score_and_report_on_the_shop(tmp_path: Path) -> None:
    from hat_eval.episode import knowledge_base
    from hat_eval.world import reference_answer

    logs = tmp_path / "logs"
    args = ["run", "--shop", str(EXAMPLE), "--suite", "livestream", "--limit", "4"]
    assert runner.invoke(app, [*args, "--log-dir", str(logs)]).exit_code == 0
    kb = knowledge_base(0, EXAMPLE.as_posix())
    from hat_eval.episode import Episode

    episodes = [
        Episode.from_row(r, {"path": None, "sha256": ""})
        for r in _lines(logs / "cases" / "livestream.jsonl")
    ]
    answers = tmp_path / "answers.jsonl"
    answers.write_text(
        "".join(
            json.dumps({"id": e.id, "answer": reference_answer(e.case, kb), "tool_calls": []})
            + "\n"
            for e in episodes
        )
    )
    out = tmp_path / "scored.jsonl"
    base = ["score", "--suite", "livestream", "--answers", str(answers), "--out", str(out)]
    res = runner.invoke(app, [*base, "--shop", str(EXAMPLE)])
    assert res.exit_code == 0, res.output
    scored = _lines(out)
    assert [s["id"] for s in scored] == [e.id for e in episodes]
    assert all(s["accuracy"] in (1.0, None) for s in scored)  # the shop's own facts
    res = runner.invoke(
        app, ["report", str(logs), "--out", str(tmp_path / "page"), "--n-boot", "50"]
    )
    assert res.exit_code == 0, res.output


def test_run_shop_refuses_a_suite_without_cases(tmp_path: Path) -> None:
    res = runner.invoke(app, ["run", "--shop", str(EXAMPLE), "--suite", "ifeval", "--limit", "1"])
    assert res.exit_code == 2
    said = " ".join(res.output.replace("│", " ").split())
    assert "--shop applies to the case suites" in said


# -- a team's own cases --------------------------------------------------------------------------
def _team_cases(tmp_path: Path, n: int = 4) -> Path:
    from hat_eval.suites import suite_episodes

    path = tmp_path / "cases.jsonl"
    lines = []
    for i, e in enumerate(suite_episodes("livestream", n=n, shop=EXAMPLE.as_posix())):
        case = e.case.to_dict()
        case.pop("split")
        case["id"] = f"team-{i}"
        lines.append(json.dumps(case, ensure_ascii=False) + "\n")
    path.write_text("".join(lines), encoding="utf-8")
    return path


def test_a_teams_cases_file_runs_under_the_suites_variants(tmp_path: Path) -> None:
    cases = _team_cases(tmp_path)
    logs = tmp_path / "logs"
    args = ["run", "--shop", str(EXAMPLE), "--cases", str(cases), "--suite", "variant"]
    res = runner.invoke(app, [*args, "--model", "hat/oracle", "--log-dir", str(logs)])
    assert res.exit_code == 0, res.output
    rows = _lines(logs / "cases" / "variant.jsonl")
    assert [r["id"] for r in rows] == [f"variant-team-{i}" for i in range(4)]
    assert all(r["metadata"]["variant"] for r in rows)  # each under its held-out variant
    log = read_eval_log(list_eval_logs(str(logs))[0])
    assert log.samples and all(
        next(iter(s.scores.values())).value["aggregate"] >= 99 for s in log.samples if s.scores
    )


@pytest.mark.parametrize(
    ("edit", "says"),
    [
        ({"reviewed": False}, "reviewed: false, a drafted gold not yet reviewed"),
        (
            {"session": {"product_on_screen": "P0001", "now": "2026-11-11T20:00:00+08:00"}},
            "'P0001' is not",
        ),
        ({"intent": "haggling"}, "intent: 'haggling' is unknown"),
        ({"expected_calls": [{"function": "catalog.nope"}]}, "expected_calls.0.function"),
    ],
)
def test_a_bad_case_is_one_line_naming_file_line_and_field(
    tmp_path: Path, edit: dict, says: str
) -> None:
    cases = _team_cases(tmp_path, 2)
    rows = _lines(cases)
    rows[1].update(edit)
    _write(cases, rows)
    args = ["run", "--shop", str(EXAMPLE), "--cases", str(cases), "--suite", "livestream"]
    res = runner.invoke(app, [*args, "--log-dir", str(tmp_path / "logs")])
    one_error_line(res, f"error: --cases {cases}:2 (team-1): ", says, "expected")
    assert not (tmp_path / "logs").exists()
