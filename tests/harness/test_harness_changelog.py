"""Harness changelogs: the shipped one validates version by version; bad ones name the field."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from hat_eval.harness import HarnessError, changelog_lines, load_changelog
from hat_eval.harness._changelog import EDIT_KINDS
from hat_eval.suites import suite_recipe

SHIPPED = Path(str(suite_recipe("evolution").changelog))


def test_the_shipped_changelog_validates_version_by_version() -> None:
    log = load_changelog(SHIPPED)
    assert log.ids() == ("v1", "v2", "v3", "v4", "v5", "v6", "v7")
    assert log.versions[0].edit is None and not log.versions[0].diff
    kinds = {v.edit.kind for v in log.versions[1:] if v.edit}
    assert kinds == set(EDIT_KINDS)  # every kind of edit a team makes is there
    for v in log.versions[1:]:
        assert v.diff, v.version  # each version changes its harness
        assert v.harness.version == v.version
    lines = changelog_lines(log)
    assert len(lines) == 7
    assert lines[3].startswith("v4  constraint") and "value 60 -> 35" in lines[3]


def test_versions_select_one_or_a_range() -> None:
    log = load_changelog(SHIPPED)
    assert [v.version for v in log.select("v3")] == ["v3"]
    assert [v.version for v in log.select("v2..v4")] == ["v2", "v3", "v4"]
    assert len(log.select(None)) == 7
    with pytest.raises(HarnessError, match=r"versions: no version 'v9', expected one of v1, v2"):
        log.select("v9")
    with pytest.raises(HarnessError, match="runs backwards"):
        log.select("v4..v2")


def _copy(tmp_path: Path) -> tuple[Path, dict]:
    for f in SHIPPED.parent.glob("*.yaml"):
        shutil.copy(f, tmp_path / f.name)
    path = tmp_path / "CHANGELOG.yaml"
    return path, yaml.safe_load(path.read_text(encoding="utf-8"))


def _expect(tmp_path: Path, data: dict, field: str, words: str) -> None:
    path = tmp_path / "CHANGELOG.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with pytest.raises(HarnessError) as err:
        load_changelog(path)
    message = str(err.value)
    assert "\n" not in message
    assert message.startswith(f"{path}: {field}: "), message
    assert words in message, message


def test_bad_changelogs_name_the_file_and_field(tmp_path: Path) -> None:
    _, data = _copy(tmp_path)
    bad = yaml.safe_load(yaml.safe_dump(data))
    bad["versions"][2]["version"] = "v2"
    _expect(tmp_path, bad, "versions.2.version", "duplicated version 'v2'")

    bad = yaml.safe_load(yaml.safe_dump(data))
    bad["versions"][0]["edit"] = {"kind": "skill_rule"}
    _expect(tmp_path, bad, "versions.0.edit", "baseline")

    bad = yaml.safe_load(yaml.safe_dump(data))
    del bad["versions"][3]["edit"]
    _expect(tmp_path, bad, "versions.3.edit", "missing")

    bad = yaml.safe_load(yaml.safe_dump(data))
    bad["versions"][3]["edit"]["kind"] = "rewrite"
    _expect(tmp_path, bad, "versions.3.edit.kind", "unknown edit kind 'rewrite'")

    bad = yaml.safe_load(yaml.safe_dump(data))
    bad["versions"][3]["edit"]["kind"] = "new_skill"  # v4 moves a constraint
    _expect(tmp_path, bad, "versions.3.edit.kind", "constraint_changed")

    bad = yaml.safe_load(yaml.safe_dump(data))
    bad["versions"][2]["harness"] = "v2.yaml"  # the same harness as v2
    _expect(tmp_path, bad, "versions.2.harness", "same harness as v2")

    bad = yaml.safe_load(yaml.safe_dump(data))
    bad["versions"][4]["edit"]["requires"]["target"] = "coupon_helper"
    _expect(tmp_path, bad, "versions.4.edit.requires.target", "'coupon_helper' is not in")

    bad = yaml.safe_load(yaml.safe_dump(data))
    bad["versions"][1]["edit"]["requires"]["check"] = "mentions"
    _expect(tmp_path, bad, "versions.1.edit.requires.check", "unknown check 'mentions'")

    bad = yaml.safe_load(yaml.safe_dump(data))
    bad["versions"][1]["reason"] = "two\nlines"
    _expect(tmp_path, bad, "versions.1.reason", "one-line reason")


def test_a_version_that_does_not_validate_names_its_own_file(tmp_path: Path) -> None:
    path, _ = _copy(tmp_path)
    v3 = tmp_path / "v3.yaml"
    text = v3.read_text(encoding="utf-8")
    v3.write_text(
        text.replace("function: inventory.check_stock", "function: x.y"), encoding="utf-8"
    )
    with pytest.raises(HarnessError) as err:
        load_changelog(path)
    assert str(err.value).startswith(f"{v3}: tools.2.function: unknown function id 'x.y'")


def test_a_missing_changelog_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(HarnessError, match=r"<file>: no such file"):
        load_changelog(tmp_path / "nope.yaml")
