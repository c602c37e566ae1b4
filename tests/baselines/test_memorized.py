"""``hat/memorized``, the variant suite's positive control, against ``hat/reference``.

The memorizing policy is the reference policy frozen to the default harness. Under the default
harness (``livestream``) the two must be the same policy; under HSA variants (``variant``) the
one that reads the harness must win clearly, or the suite no longer tells memorization from
adaptation. Only large paired gaps are asserted, never exact scores, so the test holds while
the checks evolve.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessageSystem, ChatMessageUser, get_model

import hat_eval._registry  # noqa: F401  (registers the hat/ models)
from hat_eval.baselines._compose import compose
from hat_eval.baselines._read import PromptFacts, Turn, read_turn
from hat_eval.baselines._reference_policy import MODELS, ReferencePolicy
from hat_eval.stats import paired_bootstrap
from hat_eval.suites import suite_task

N = 120


def _per_sample(log: EvalLog) -> dict[str, dict[str, Any]]:
    assert log.status == "success"
    return {str(s.id): next(iter(s.scores.values())).value for s in log.samples or []}


def _run(suite: str, log_dir: Path) -> tuple[dict[str, dict[str, Any]], ...]:
    """Per-sample scores of hat/reference and hat/memorized (one eval, run side by side)."""
    logs = inspect_eval(
        suite_task(suite, n=N),
        model=["hat/reference", "hat/memorized"],
        display="none",
        log_dir=str(log_dir),
    )
    assert [log.eval.model for log in logs] == ["hat/reference", "hat/memorized"]
    return tuple(_per_sample(log) for log in logs)


def _same(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or a == b


@pytest.mark.slow
def test_memorized_equals_reference_under_the_default_harness(tmp_path: Path) -> None:
    ref, mem = _run("livestream", tmp_path)
    assert ref.keys() == mem.keys() and len(ref) == N
    for sid in ref:
        assert ref[sid].keys() == mem[sid].keys()
        assert all(_same(ref[sid][k], mem[sid][k]) for k in ref[sid]), sid


@pytest.mark.slow
def test_reference_beats_memorized_on_variants(tmp_path: Path) -> None:
    ref, mem = _run("variant", tmp_path)
    ids = sorted(ref)
    assert ids == sorted(mem) and len(ids) == N
    # an undecided aggregate (NaN) is left out, not counted as 0: pair the cases both decided
    both = [i for i in ids if not math.isnan(ref[i]["aggregate"] + mem[i]["aggregate"])]
    assert len(both) >= 0.8 * N, len(both)
    diff, low, high = paired_bootstrap(
        [ref[i]["aggregate"] for i in both], [mem[i]["aggregate"] for i in both]
    )
    assert low > 0, (diff, low, high)
    assert diff >= 5.0, (diff, low, high)  # several points on the 0-100 aggregate
    # the gap comes from the surface forms: tool names and skill ids
    for part in ("tools", "skill"):
        r = sum(ref[i][part] for i in ids) / N
        m = sum(mem[i][part] for i in ids) / N
        assert r - m >= 0.05, (part, r, m)


def test_the_hat_models_are_known_by_name() -> None:
    assert MODELS == {"reference": "prompt", "memorized": "default"}
    assert isinstance(get_model("hat/memorized").api, ReferencePolicy)
    with pytest.raises(ValueError, match="hat/reference, hat/memorized"):
        ReferencePolicy("gpt")


def test_memorized_reads_the_default_surface_and_the_live_screen() -> None:
    system = ChatMessageSystem(
        content="Answer in at most 33 words.\n\n## Skills\n\n### Skill `zz_price`: Prices\n"
        "Use when: price\nRules:\n1. Be exact.\n\n## Live now\n"
        "On screen: Test Mug (product id P0042). Current time: now."
    )
    messages = [system, ChatMessageUser(content="how much is this?")]
    read = read_turn(messages, [])
    frozen = read_turn(messages, [], surface="default")
    assert read.facts.max_words == 33 and list(read.facts.skills) == ["zz_price"]
    assert read.tools == {}
    assert frozen.facts.max_words != 33 and "zz_price" not in frozen.facts.skills
    assert "price_promotion" in frozen.facts.skills
    assert frozen.tools["inventory.check_stock"] == "check_stock"
    assert (frozen.facts.product_id, frozen.facts.product_name) == ("P0042", "Test Mug")


_STOCK = {
    "product_id": "P0007",
    "name": "Linea Hoodie",
    "skus": [
        {"sku": "S1", "option": "M", "colour": "White", "stock": 40, "status": "in_stock"},
        {"sku": "S2", "option": "L", "colour": "White", "stock": 3, "status": "low_stock"},
        {"sku": "S3", "option": "L", "colour": "Sage Green", "stock": 0, "status": "out_of_stock"},
    ],
}


def _stock_turn(message: str) -> Turn:
    facts = PromptFacts(skills={}, product_id="P0007", product_name="Linea Hoodie")
    return Turn(facts, message, {}, {"inventory.check_stock": [_STOCK]}, 1)


@pytest.mark.parametrize(
    ("message", "status"),
    [
        ("the hoodie in size L, white still in stock?", "only 3 left"),
        ("L 灰绿 还有吗?", "sold out"),
        ("do you have it in M, white?", "in stock"),
    ],
)
def test_one_stock_status_for_the_sku_asked(message: str, status: str) -> None:
    answer = compose(_stock_turn(message), ["stock_size"])
    stated = [s for s in ("in stock", "only 3 left", "sold out") if s in answer]
    assert stated == [status], answer


def test_no_stock_status_when_the_sku_is_not_named_and_statuses_differ() -> None:
    answer = compose(_stock_turn("is this hoodie in stock?"), ["stock_size"])
    assert not any(s in answer for s in ("in stock", "left", "sold out")), answer
