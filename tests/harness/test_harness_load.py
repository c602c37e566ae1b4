from __future__ import annotations

from pathlib import Path
from typing import get_args

import pytest
import yaml

from hat_eval.harness import (
    FAULT_KINDS,
    FUNCTIONS,
    FaultKind,
    HarnessError,
    RetryPolicy,
    dump_harness,
    load_harness,
    render,
)
from hat_eval.harness._load import harness_to_dict, parse_harness


def write(tmp_path: Path, data: dict, name: str = "h.yaml") -> Path:
    p = tmp_path / name
    p.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return p


def test_default_harness_is_realistic(default_harness) -> None:
    h = default_harness
    assert len(h.skills) >= 8
    assert len(h.tools) >= 6
    assert len(h.system_prompt.blocks) >= 5
    assert len(h.constraints()) >= 3
    ids = {s.id for s in h.skills}
    for needed in (
        "product_qa",
        "price_promotion",
        "stock_size",
        "shipping_returns",
        "compliance_guard",
        "comparison",
        "engagement",
        "escalation",
    ):
        assert needed in ids
    assert {t.function for t in h.tools} <= set(FUNCTIONS)


def test_render_fills_constraints_and_lists_skills_and_tools(default_harness) -> None:
    r = render(default_harness)
    words = default_harness.constraint_value("max_words")
    assert f"at most {words} words" in r.system_prompt
    assert "{" not in r.system_prompt.split("## Skills")[0]
    for s in default_harness.skills:
        assert f"`{s.id}`" in r.system_prompt
    assert [t["function"]["name"] for t in r.tools] == [t.name for t in default_harness.tools]
    assert all(t["function"]["parameters"]["type"] == "object" for t in r.tools)


def test_round_trip_yaml_and_json(default_harness, tmp_path: Path) -> None:
    for fmt in ("yaml", "json"):
        p = tmp_path / f"h.{fmt}"
        p.write_text(dump_harness(default_harness, fmt), encoding="utf-8")
        assert load_harness(p) == default_harness


def test_rules_may_be_plain_strings(default_harness) -> None:
    data = harness_to_dict(default_harness)
    data["skills"][0]["rules"] = ["first rule", "second rule"]
    h = parse_harness(data)
    assert [r.id for r in h.skills[0].rules] == ["r1", "r2"]


def _broken(default_harness, mutate) -> dict:  # type: ignore[no-untyped-def]
    data = harness_to_dict(default_harness)
    mutate(data)
    return data


@pytest.mark.parametrize(
    ("mutate", "field", "words"),
    [
        (
            lambda d: d["tools"][1].update(name=d["tools"][0]["name"]),
            "tools.1.name",
            "duplicated tool name",
        ),
        (
            lambda d: d["skills"][2].update(id=d["skills"][0]["id"]),
            "skills.2.id",
            "duplicated skill id",
        ),
        (
            lambda d: d["tools"][3].update(function="pricing.magic"),
            "tools.3.function",
            "unknown function id 'pricing.magic'",
        ),
        (
            lambda d: d["system_prompt"]["blocks"][1]["constraints"][0].update(value=500),
            "system_prompt.blocks.1.constraints.0.value",
            "500 is outside the allowed range",
        ),
        (
            lambda d: d["system_prompt"]["blocks"][1].update(text="Answer in {max_chars} chars."),
            "system_prompt.blocks.1.text",
            "placeholder {max_chars}",
        ),
        (lambda d: d["tools"][0].pop("description"), "tools.0.description", "field required"),
        (
            lambda d: d["tools"][0]["parameters"].update(required=["nope"]),
            "tools.0.parameters.required",
            "'nope' is required",
        ),
        (  # what an unquoted "description: The id, for example P0042." in {...} parses to
            lambda d: d["tools"][1]["parameters"]["properties"]["product_id"].update(
                {"for example P0042.": None}
            ),
            "tools.1.parameters.properties.product_id",
            "unknown JSON schema keyword 'for example P0042.'",
        ),
    ],
)
def test_bad_harness_gives_one_line_with_file_and_field(
    default_harness, tmp_path: Path, mutate, field: str, words: str
) -> None:
    p = write(tmp_path, _broken(default_harness, mutate))
    with pytest.raises(HarnessError) as info:
        load_harness(p)
    msg = str(info.value)
    assert msg.startswith(f"{p}: {field}: ")
    assert words in msg
    assert "expected" in msg
    assert "\n" not in msg


def test_bad_yaml_names_the_line(tmp_path: Path) -> None:
    p = tmp_path / "bad.yaml"
    p.write_text("name: x\nskills: [a, b\ntools: 3\n", encoding="utf-8")
    with pytest.raises(HarnessError) as info:
        load_harness(p)
    assert str(info.value).startswith(f"{p}: <line ")
    assert "invalid YAML" in str(info.value)


def test_missing_file_and_non_mapping(tmp_path: Path) -> None:
    with pytest.raises(HarnessError, match="no such file"):
        load_harness(tmp_path / "nope.yaml")
    p = tmp_path / "list.yaml"
    p.write_text("- 1\n- 2\n", encoding="utf-8")
    with pytest.raises(HarnessError, match="expected a mapping"):
        load_harness(p)


def test_retry_on_accepts_every_fault_kind_and_keeps_its_default(default_harness) -> None:
    assert FAULT_KINDS == get_args(FaultKind)
    assert "partial" in FAULT_KINDS
    assert RetryPolicy().retry_on == ("timeout", "server_error")
    assert default_harness.hooks.retry.retry_on == ("timeout", "server_error")
    data = harness_to_dict(default_harness)
    data["hooks"]["retry"]["retry_on"] = list(FAULT_KINDS)
    assert parse_harness(data).hooks.retry.retry_on == FAULT_KINDS
    data["hooks"]["retry"]["retry_on"] = ["timeout", "boom"]
    with pytest.raises(HarnessError, match=r"hooks\.retry\.retry_on\.1"):
        parse_harness(data)
