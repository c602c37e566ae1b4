"""Skills as documents (SKILL.md) and progressive skill disclosure in the harness."""

from __future__ import annotations

import shutil
from importlib.resources import files
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from hat_eval.cli import app
from hat_eval.harness import (
    SKILL_LOADER,
    Harness,
    HarnessError,
    default_harness_path,
    diff_harness,
    dump_harness,
    load_harness,
    render,
    skill_body,
)
from hat_eval.harness._load import harness_to_dict, parse_harness
from hat_eval.harness._skills import parse_skill_text, read_skill_file

runner = CliRunner()
PROGRESSIVE = default_harness_path("progressive")
SHIPPED_SKILLS = Path(str(files("hat_eval.harness").joinpath("skills")))

SKILL = """---
id: price_promotion
name: Price and Promotion
description: Works out what a viewer pays.
type: {type}
triggers: [price, how much]
intents: [price]
essential: [r1]
---
# Rules

- Always compute the final price with the pricing tool
  and state it with the currency.
- Only combine coupons that stack.

1. Mention when a deal ends.

A closing paragraph is a rule too.
"""


def loader(name: str = "load_skill", **params: dict) -> dict:
    return {
        "name": name,
        "function": SKILL_LOADER,
        "description": "Load one skill's rules by id.",
        "parameters": {
            "type": "object",
            "properties": params or {"skill_id": {"type": "string"}},
            "required": list(params or {"skill_id": None}),
        },
    }


@pytest.fixture(scope="module")
def progressive() -> Harness:
    return load_harness(PROGRESSIVE)


# -- SKILL.md -------------------------------------------------------------------------------------
def test_skill_file_front_matter_and_rules() -> None:
    s = parse_skill_text(SKILL.format(type="strategy"), "x/SKILL.md")
    assert (s.id, s.name, s.type) == ("price_promotion", "Price and Promotion", "strategy")
    assert s.triggers == ("price", "how much") and s.intents == ("price",)
    assert [(r.id, r.text, r.essential) for r in s.rules] == [
        ("r1", "Always compute the final price with the pricing tool and state it with the "
         "currency.", True),
        ("r2", "Only combine coupons that stack.", False),
        ("r3", "Mention when a deal ends.", False),
        ("r4", "A closing paragraph is a rule too.", False),
    ]  # fmt: skip


def test_name_alone_is_the_id_and_type_defaults_to_reply() -> None:
    s = parse_skill_text("---\nname: greet\ndescription: Say hi.\n---\nBe warm.\n")
    assert (s.id, s.name, s.type, [r.text for r in s.rules]) == (
        "greet",
        "greet",
        "reply",
        ["Be warm."],
    )


@pytest.mark.parametrize(
    ("text", "field", "words"),
    [
        ("id: x\ndescription: d\n- a rule\n", "<front matter>", "no YAML front matter"),
        ("", "<front matter>", "no YAML front matter"),
        ("---\nid: x\ndescription: d\n- a rule\n", "<front matter>", "not closed"),
        ("---\n- a\n- b\n---\nrule\n", "<front matter>", "expected a mapping"),
        (SKILL.format(type="advice"), "type", "'reply' or 'strategy'"),
        ("---\ndescription: d\n---\nrule\n", "id", "id (or name)"),
        ("---\nid: x\n---\nrule\n", "description", "field required"),
        ("---\nid: x\ndescription: d\n---\n\n# only a heading\n", "<body>", "no rules"),
        ("---\nid: x\ndescription: d\nessential: [r3]\n---\n- a\n", "essential", "'r3'"),
        ("---\nid: x\ndescription: d\ncolour: red\n---\n- a\n", "colour", "unknown field"),
    ],
)
def test_bad_skill_file_names_file_and_field(text: str, field: str, words: str) -> None:
    with pytest.raises(HarnessError) as err:
        parse_skill_text(text, "skills/x/SKILL.md")
    assert err.value.source == "skills/x/SKILL.md" and err.value.field == field
    assert words in err.value.message and "\n" not in str(err.value)


# -- harnesses that name skill files --------------------------------------------------------------
def write_skills(root: Path, default_harness: Harness) -> None:
    """The shipped ``skills/<id>/SKILL.md`` of the progressive harness: the default's skills."""
    shutil.copytree(SHIPPED_SKILLS, root / "skills")


def test_skills_from_a_folder_a_list_of_files_or_mixed(tmp_path: Path, default_harness) -> None:
    write_skills(tmp_path, default_harness)
    data = harness_to_dict(default_harness)
    inline = list(data["skills"])
    by_folder = load_harness(write(tmp_path, {**data, "skills": "skills"}))
    assert sorted(by_folder.skills, key=lambda s: s.id) == sorted(
        default_harness.skills, key=lambda s: s.id
    )  # a folder: every */SKILL.md, by folder name
    assert [s.id for s in by_folder.skills] == sorted(s.id for s in default_harness.skills)
    listed = [f"skills/{s['id']}" for s in inline]
    listed[1] = f"skills/{inline[1]['id']}/SKILL.md"  # a file or its folder
    listed[2] = inline[2]  # inline and file skills mix
    h = load_harness(write(tmp_path, {**data, "skills": listed}))
    assert h == default_harness  # same skills, same order
    assert dump_harness(h) == dump_harness(default_harness)


def write(tmp_path: Path, data: dict, name: str = "h.yaml") -> Path:
    p = tmp_path / name
    p.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return p


def test_missing_skill_file_names_the_item(tmp_path: Path, default_harness) -> None:
    data = {**harness_to_dict(default_harness), "skills": ["skills/nope"]}
    with pytest.raises(HarnessError) as err:
        load_harness(write(tmp_path, data))
    assert err.value.field == "skills.0" and "skills/nope" in err.value.message
    with pytest.raises(HarnessError) as err:
        load_harness(write(tmp_path, {**data, "skills": "empty"}))
    assert err.value.field == "skills" and "not a folder of skills" in err.value.message


def test_validate_bad_skill_file_is_one_line_exit_2(tmp_path: Path, default_harness) -> None:
    write_skills(tmp_path, default_harness)
    bad = tmp_path / "skills" / "stock_size" / "SKILL.md"
    harness = write(tmp_path, {**harness_to_dict(default_harness), "skills": "skills"})
    for text, field in (
        ("Check stock first.\n", "<front matter>"),
        (bad.read_text().replace("type: reply", "type: upsell"), "type"),
    ):
        bad.write_text(text, encoding="utf-8")
        res = runner.invoke(app, ["harness", "validate", str(harness)])
        assert res.exit_code == 2, res.output
        lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
        assert len(lines) == 1 and lines[0].startswith(f"error: {bad}: {field}: ")
        assert "Traceback" not in res.output


# -- progressive disclosure -----------------------------------------------------------------------
def test_default_progressive_harness_is_the_default_with_skills_loaded(
    progressive: Harness, default_harness
) -> None:
    assert progressive.skill_disclosure == "progressive" and default_harness.skill_disclosure == (
        "inline"
    )
    assert progressive.skills == default_harness.skills  # the world labels gold from the ids
    assert (PROGRESSIVE.parent / "skills" / "price_promotion" / "SKILL.md").is_file()
    d = diff_harness(default_harness, progressive)
    assert {(c.kind, c.path) for c in d.changes} == {
        ("block_text_changed", "system_prompt.skill_protocol.text"),
        ("skill_disclosure_changed", "skill_disclosure"),
        ("tool_added", "tools.load_skill"),
    }
    loader_tool = progressive.skill_loader()
    assert loader_tool is not None and loader_tool.name == "load_skill"
    assert default_harness.skill_loader() is None


def test_progressive_prompt_lists_ids_and_descriptions_only(progressive: Harness) -> None:
    r = render(progressive)
    skills = r.system_prompt.split("## Skills", 1)[1]
    for s in progressive.skills:
        assert f"`{s.id}` (reply): {s.description}" in skills
        assert not any(rule.text in r.system_prompt for rule in s.rules)
        assert r.skills[s.id] == skill_body(s) and all(x.text in r.skills[s.id] for x in s.rules)
    assert "`load_skill`" in skills
    assert [t["function"]["name"] for t in r.tools][-1] == "load_skill"
    assert render(load_harness()).skills == {}  # inline: every rule is in the prompt already


def test_dump_is_unchanged_for_inline_and_round_trips_progressive(
    progressive: Harness, default_harness, tmp_path: Path
) -> None:
    plain = harness_to_dict(default_harness)
    assert "skill_disclosure" not in plain and all("type" not in s for s in plain["skills"])
    data = harness_to_dict(progressive)
    assert data["skill_disclosure"] == "progressive"
    assert parse_harness(data) == progressive  # a dump holds its skills inline
    strategy = {**data["skills"][0], "type": "strategy"}
    assert harness_to_dict(parse_harness({**data, "skills": [strategy]}))["skills"][0]["type"] == (
        "strategy"
    )


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"skill_disclosure": "progressive", "tools": "no loader"}, "tools", "no tool is bound"),
        ({"skill_disclosure": "inline"}, "tools.1.function", "only a harness with"),
        ({"skill_disclosure": "sometimes"}, "skill_disclosure", "'inline' or 'progressive'"),
        (
            {"loader": loader(skill={"type": "string"}, extra={"type": "string"})},
            "tools.1.parameters",
            "exactly one required string",
        ),
        ({"loader": loader(skill={"type": "integer"})}, "tools.1.parameters", "string"),
        (
            {"loader": loader(skill={"type": "string", "enum": ["a"]})},
            "tools.1.parameters",
            "without an enum",
        ),
    ],
)
def test_bad_progressive_harness(default_harness, change: dict, field: str, words: str) -> None:
    data = harness_to_dict(default_harness)
    tools = [data["tools"][0], change.pop("loader", loader())]
    if change.pop("tools", None):
        tools = tools[:1]
    data = {**data, "skill_disclosure": "progressive", "tools": tools, **change}
    with pytest.raises(HarnessError) as err:
        parse_harness(data, "p.yaml")
    assert err.value.field == field and words in err.value.message, err.value


def test_cli_validate_render_diff_handle_progressive(progressive: Harness) -> None:
    res = runner.invoke(app, ["harness", "validate", str(PROGRESSIVE)])
    assert res.exit_code == 0, res.output
    assert "8 skills, 9 tools, 4 constraints, skills loaded on demand with load_skill" in res.output
    res = runner.invoke(app, ["harness", "render", str(PROGRESSIVE), "--json"])
    assert res.exit_code == 0
    out = yaml.safe_load(res.stdout)
    assert set(out["skills"]) == {s.id for s in progressive.skills}
    assert (
        "=== skills (what loading each returns) ==="
        in runner.invoke(app, ["harness", "render", str(PROGRESSIVE)]).stdout
    )
    inline = runner.invoke(app, ["harness", "render", "--json"])
    assert "skills" not in yaml.safe_load(inline.stdout)
    res = runner.invoke(app, ["harness", "diff", str(default_harness_path()), str(PROGRESSIVE)])
    assert res.exit_code == 0 and "skill_disclosure_changed" in res.stdout
    assert "'inline' -> 'progressive'" in res.stdout


def test_skill_type_change_is_a_diff(progressive: Harness) -> None:
    data = harness_to_dict(progressive)
    data["skills"][3]["type"] = "strategy"
    d = diff_harness(progressive, parse_harness(data))
    assert [(c.kind, c.path) for c in d.changes] == [
        ("skill_type_changed", "skills.shipping_returns.type")
    ]


def test_read_skill_file_takes_a_folder() -> None:
    folder = PROGRESSIVE.parent / "skills" / "engagement"
    assert read_skill_file(folder) == read_skill_file(folder / "SKILL.md")
