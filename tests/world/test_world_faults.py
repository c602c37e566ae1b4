import json
import random

import pytest

from hat_eval import harness
from hat_eval.world import (
    FAULT_KINDS,
    FaultInjector,
    FaultPlan,
    LiveSession,
    ToolFault,
    build_kb,
    call_function,
)
from hat_eval.world._faults import RAISING_KINDS, FaultText, fault_texts, inject_fault

SESSION = LiveSession("P0001", "2026-11-10T20:00:00+08:00")


def _result(function: str = "inventory.check_stock") -> dict | list:
    args = {"query": "hoodie"} if function == "catalog.search" else {"product_id": "P0001"}
    return call_function(build_kb(), SESSION, function, args)


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


@pytest.mark.parametrize("seed", range(12))
def test_raising_faults(seed):
    rng = random.Random(seed)
    with pytest.raises(ToolFault) as err:
        inject_fault("timeout", _result(), rng, function="inventory.check_stock")
    assert err.value.kind == "timeout" and "ms" in err.value.message and err.value.delay_s >= 3
    with pytest.raises(ToolFault) as err:
        inject_fault("server_error", _result(), rng)
    assert err.value.kind == "server_error" and err.value.message[:3] in {"500", "502", "503"}


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("function", ["inventory.check_stock", "catalog.search"])
def test_text_faults_behave_as_documented(seed, function):
    real = _result(function)
    rng = random.Random(seed)
    malformed = inject_fault("malformed", real, rng)
    assert isinstance(malformed, FaultText) and malformed.kind == "malformed"
    assert not _is_json(malformed)
    partial = inject_fault("partial", real, rng)
    if _is_json(partial):
        value = json.loads(partial)
        if isinstance(real, dict):
            assert value.get("truncated") is True and set(value) - {"truncated"} < set(real)
        else:
            assert len(value) < len(real) and value == real[: len(value)]
    else:
        assert json.dumps(real, ensure_ascii=False).startswith(partial)
    empty = inject_fault("empty", real, rng)
    assert json.loads(empty) == ([] if isinstance(real, list) else {})
    drifted = json.loads(inject_fault("schema_drift", real, rng))
    text = json.dumps(drifted)
    assert drifted != real
    assert '"stock"' not in text and '"product_id"' not in text
    assert '"qty_available"' in text or function == "catalog.search"
    slow = inject_fault("slow", real, rng)
    assert isinstance(slow, FaultText) and json.loads(slow) == real and slow.delay_s > 1


def test_drift_renames_documented_examples():
    renames = fault_texts().drift_renames
    assert renames["price"] == "price_cny" and renames["stock"] == "qty_available"
    wrapped = json.loads(inject_fault("schema_drift", {"x": 1}, random.Random(0)))
    assert wrapped == {"data": {"x": 1}}


def test_unknown_kind_rejected():
    with pytest.raises(ValueError, match="expected one of timeout"):
        inject_fault("flaky", {}, random.Random(0))


def test_fault_plan_roundtrip_and_validation():
    plan = FaultPlan("timeout", "pricing.final_price", times=2, after=1)
    assert FaultPlan.from_dict(json.loads(json.dumps(plan.to_dict()))) == plan
    assert FaultPlan.from_dict({"kind": "empty", "function": "catalog.search"}).times == 1
    assert [plan.fails(i) for i in range(4)] == [False, True, True, False]
    with pytest.raises(ValueError, match="expected one of"):
        FaultPlan("boom", "pricing.final_price")
    with pytest.raises(ValueError, match="expected one of"):
        FaultPlan("timeout", "pricing.quote")
    with pytest.raises(ValueError, match="times >= 1"):
        FaultPlan("timeout", "pricing.final_price", times=0)


def test_fault_kinds_are_the_harness_list_and_each_one_is_injected():
    assert FAULT_KINDS is harness.FAULT_KINDS
    assert set(RAISING_KINDS) <= set(FAULT_KINDS)
    rng = random.Random(0)
    for kind in FAULT_KINDS:
        try:
            text = inject_fault(kind, _result(), rng)
        except ToolFault as fault:
            assert (fault.kind, kind in RAISING_KINDS) == (kind, True)
        else:
            assert (text.kind, kind in RAISING_KINDS) == (kind, False)  # type: ignore[attr-defined]


def _call_with_retries(injector: FaultInjector, max_retries: int) -> str | None:
    kb = build_kb()
    for _ in range(max_retries + 1):
        try:
            return injector.call(kb, SESSION, "inventory.check_stock", {"product_id": "P0001"})
        except ToolFault:
            continue
    return None


def test_transient_fault_recovers_with_enough_retries_persistent_does_not():
    transient = [FaultPlan("timeout", "inventory.check_stock", times=2)]
    assert _call_with_retries(FaultInjector(transient), max_retries=1) is None
    out = _call_with_retries(FaultInjector(transient), max_retries=2)
    assert out is not None and out.kind is None and json.loads(out) == _result()
    persistent = [FaultPlan("server_error", "inventory.check_stock", times=99)]
    assert _call_with_retries(FaultInjector(persistent), max_retries=5) is None


def test_injector_only_hits_the_planned_function_and_counts_calls():
    kb = build_kb()
    injector = FaultInjector([FaultPlan("empty", "catalog.search")], seed=3)
    assert injector.call(kb, SESSION, "catalog.search", {"query": "hoodie"}) == "[]"
    again = injector.call(kb, SESSION, "catalog.search", {"query": "hoodie"})
    assert json.loads(again) == _result("catalog.search")
    healthy = injector.call(kb, SESSION, "inventory.check_stock", {"product_id": "P0001"})
    assert healthy.kind is None and injector.calls == {
        "catalog.search": 2,
        "inventory.check_stock": 1,
    }
