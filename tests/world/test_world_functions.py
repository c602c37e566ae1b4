import json
import re
from dataclasses import replace

import pytest

from hat_eval.harness import FUNCTIONS, Harness, load_harness
from hat_eval.harness._load import harness_to_dict, parse_harness
from hat_eval.world import (
    IMPLEMENTATIONS,
    PARAMETERS,
    KnowledgeBase,
    LiveSession,
    ToolInputError,
    build_kb,
    call_function,
    generate_pack,
    kb_from_pack,
)
from hat_eval.world._function_registry import (
    implementation,
    parameters_of,
)
from hat_eval.world._schema import Product, Promotion, Sku
from hat_eval.world._vocab import CATEGORIES

NOW = "2026-11-10T20:00:00+08:00"


def _product(pid: str, category: str, price: float, *, custom: bool = False) -> tuple:
    """A hand-made product with one SKU (``<pid>-STD``)."""
    product = Product(
        id=pid,
        category=category,
        type_key="test",
        type_name="Test Item",
        type_zh="测试",
        brand="Testco",
        line=pid,
        name=f"Testco {pid} Test Item",
        name_zh=f"Testco {pid} 测试",
        description="a test item",
        material_label="material",
        material="100% cotton",
        specs={"weight": "100 g"},
        variant_axis="single",
        custom=custom,
        ships_from="Hangzhou",
    )
    sku = Sku(
        sku=f"{pid}-STD",
        product_id=pid,
        position=0,
        option="Standard",
        option_zh="标准版",
        colour=None,
        colour_zh=None,
        list_price=price,
        stock=20,
    )
    return product, sku


def _promo(
    pid: str,
    promo_id: str,
    kind: str,
    value: float,
    start: str = "2026-11-01T00:00:00+08:00",
    end: str = "2026-11-30T23:59:59+08:00",
) -> Promotion:
    """A live deal on ``pid`` (all of November unless told)."""
    return Promotion(
        id=promo_id,
        product_id=pid,
        kind=kind,
        value=value,
        label=f"Live deal {promo_id}",
        live_only=True,
        starts_at=start,
        ends_at=end,
    )


def _shop(*deals: Promotion) -> KnowledgeBase:
    """Seed 2024's shop with four hand-made products, two deals and ``deals``."""
    pack = generate_pack(2024)
    made = [
        _product("P9001", "beauty", 300.0),
        _product("P9002", "apparel", 129.9),
        _product("P9003", "electronics", 1200.0),
        _product("P9004", "jewellery", 500.0, custom=True),
    ]
    promos = (
        _promo("P9001", "PR9001", "percent", 10),
        _promo("P9002", "PR9002", "fixed", 15),
        *deals,
    )
    return kb_from_pack(
        replace(
            pack,
            products=pack.products + tuple(p for p, _ in made),
            skus=pack.skus + tuple(s for _, s in made),
            promotions=pack.promotions + promos,
        )
    )


@pytest.fixture()
def kb() -> KnowledgeBase:
    return _shop()


def _price(
    kb: KnowledgeBase, sku: str, codes: list[str] | None = None, qty: int = 1, now: str = NOW
) -> dict:
    args: dict = {"sku": sku, "quantity": qty}
    if codes is not None:
        args["coupon_codes"] = codes
    result = call_function(kb, LiveSession("P9001", now), "pricing.final_price", args)
    assert isinstance(result, dict)
    json.dumps(result)
    return result


def test_every_function_id_registers_one_implementation():
    assert list(IMPLEMENTATIONS) == list(FUNCTIONS)
    with pytest.raises(ValueError, match="'pricing.quote' is unknown, expected one of"):
        implementation("pricing.quote")
    with pytest.raises(ValueError, match="already has an implementation"):
        implementation("catalog.search")(lambda kb, session, args: [])
    assert IMPLEMENTATIONS["catalog.search"].__name__ == "catalog_search"


def test_parameters_derive_from_the_default_harness_tools():
    harness = load_harness(None)
    assert list(PARAMETERS) == list(FUNCTIONS)
    for tool in harness.tools:
        props = tool.parameters.get("properties", {})
        spec = PARAMETERS[tool.function]
        assert list(spec) == list(props), tool.name
        assert {n for n, p in spec.items() if p.required} == set(
            tool.parameters.get("required", [])
        )
        for name, p in spec.items():
            assert p.enum == tuple(props[name].get("enum", ())), (tool.name, name)
            assert p.minimum == props[name].get("minimum"), (tool.name, name)
    search = PARAMETERS["catalog.search"]
    assert (search["max_results"].minimum, search["max_results"].maximum) == (1, 10)
    # The harness surface offers the world's categories (the file cannot import them).
    assert search["category"].enum == CATEGORIES
    assert PARAMETERS["pricing.final_price"]["coupon_codes"].type == "string_array"


def test_an_implementation_cap_tightens_the_schema_bound():
    # The surface states no maximum; were it to state 99, the implementation's cap would be a copy.
    tool = load_harness(None).tool_for("pricing.final_price")
    assert tool is not None and "maximum" not in tool.parameters["properties"]["quantity"]
    quantity = PARAMETERS["pricing.final_price"]["quantity"]
    assert (quantity.minimum, quantity.maximum) == (1, 99)


def _edited(edit) -> Harness:  # type: ignore[no-untyped-def]
    data = harness_to_dict(load_harness(None))
    edit({t["function"]: t for t in data["tools"]}, data)
    return parse_harness(data)


def test_parameters_follow_an_edited_harness():
    def edit(tools, data):  # type: ignore[no-untyped-def]
        props = tools["catalog.search"]["parameters"]["properties"]
        props["max_results"]["maximum"] = 5
        props["category"]["enum"] = ["beauty", "food"]
        tools["pricing.final_price"]["parameters"]["properties"]["quantity"]["maximum"] = 500

    params = parameters_of(_edited(edit))
    assert params["catalog.search"]["max_results"].maximum == 5
    assert params["catalog.search"]["category"].enum == ("beauty", "food")
    assert params["pricing.final_price"]["quantity"].maximum == 99


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            lambda tools, data: data["tools"].remove(tools["live.session_context"]),
            "binds no tool to function 'live.session_context'",
        ),
        (
            lambda tools, data: tools["catalog.search"]["parameters"]["properties"].update(
                max_results={"type": "number"}
            ),
            "parameter 'max_results': JSON schema {'type': 'number'} is not supported",
        ),
        (
            lambda tools, data: tools["pricing.final_price"]["parameters"]["properties"].pop(
                "quantity"
            ),
            "has no parameter(s) quantity that the implementation caps",
        ),
    ],
)
def test_parameters_of_a_harness_the_checker_cannot_follow(edit, message):  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match=re.escape(message)):
        parameters_of(_edited(edit))


def test_live_deal_only(kb):
    r = _price(kb, "P9001-STD")
    assert (r["list_price"], r["final_price"], r["currency"]) == (300.0, 270.0, "CNY")
    assert r["discounts"] == [
        {
            "type": "promotion",
            "id": "PR9001",
            "label": "Live deal PR9001",
            "amount": 30.0,
            "ends_at": "2026-11-30T23:59:59+08:00",
        }
    ]


def test_platform_and_shop_coupons_stack_with_the_deal(kb):
    # 300 - 10% = 270; BEAUTY20 (shop, over 159) -> 250; LIVE20 (platform, over 199) -> 230
    r = _price(kb, "P9001-STD", ["live20", "BEAUTY20"])
    assert r["final_price"] == 230.0
    assert [d.get("code") for d in r["discounts"]] == [None, "BEAUTY20", "LIVE20"]
    assert r["rejected_coupons"] == []
    assert r["total_discount"] == 70.0


def test_expired_not_yet_valid_unknown_and_repeated_coupons_are_rejected(kb):
    r = _price(kb, "P9001-STD", ["EARLY15", "DOUBLE12", "NOPE1", "BEAUTY20", "beauty20"])
    reasons = {x["code"]: x["reason"] for x in r["rejected_coupons"]}
    assert reasons["EARLY15"].startswith("expired on 2026-11-07")
    assert reasons["DOUBLE12"].startswith("not valid yet")
    assert reasons["NOPE1"] == "unknown coupon code"
    assert "already given" in reasons["BEAUTY20"]
    assert r["final_price"] == 250.0  # 270 - BEAUTY20


def test_threshold_not_met_and_no_stacking_with_deal(kb):
    r = _price(kb, "P9001-STD", ["LIVE50", "GLOW10"])
    reasons = {x["code"]: x["reason"] for x in r["rejected_coupons"]}
    assert reasons["LIVE50"] == (
        "threshold not met: needs ¥499.00 after the live deal, this order is ¥270.00"
    )
    assert reasons["GLOW10"].startswith("cannot be combined with the live deal")
    assert r["final_price"] == 270.0
    # two units: 600 - 60 = 540 reaches LIVE50's threshold -> 490
    assert _price(kb, "P9001-STD", ["LIVE50"], qty=2)["final_price"] == 490.0


def test_only_one_platform_coupon_the_larger_wins(kb):
    # 16 Nov: FLASH5 (5% of 270 = 13.50) and LIVE20 (20) are both valid platform coupons
    r = _price(kb, "P9001-STD", ["FLASH5", "LIVE20"], now="2026-11-16T20:00:00+08:00")
    assert r["final_price"] == 250.0
    assert r["rejected_coupons"] == [
        {"code": "FLASH5", "reason": "only one platform coupon per order; LIVE20 saves more"}
    ]


def test_wrong_category_shop_coupon_rejected(kb):
    r = _price(kb, "P9001-STD", ["TECH100"])
    assert r["rejected_coupons"][0]["reason"] == "shop coupon for electronics only"


def test_fixed_deal_per_unit_then_threshold_coupon(kb):
    # 3 x 129.90 = 389.70, deal ¥15 per unit -> 344.70, STYLE30 (over 299) -> 314.70;
    # VIP8 cannot be combined with a live deal
    r = _price(kb, "P9002-STD", ["STYLE30", "VIP8"], qty=3)
    assert r["list_price"] == 389.7
    assert r["final_price"] == 314.7
    assert [x["code"] for x in r["rejected_coupons"]] == ["VIP8"]


def test_percentage_coupon_cap_applies_after_the_shop_coupon(kb):
    # no deal: 1200 - TECH100 = 1100; VIP8 8% = 88 capped at 80 -> 1020
    assert _price(kb, "P9003-STD", ["VIP8", "TECH100"])["final_price"] == 1020.0
    assert _price(kb, "P9003-STD", ["VIP8"])["final_price"] == 1120.0


def test_overlapping_deals_best_one_applies():
    evening = ("2026-11-10T19:00:00+08:00", "2026-11-10T23:00:00+08:00")
    kb = _shop(_promo("P9001", "PR9005", "percent", 25, *evening))
    r = _price(kb, "P9001-STD")
    assert r["final_price"] == 225.0
    assert r["promotions_not_applied"][0]["promotion_id"] == "PR9001"
    assert _price(kb, "P9001-STD", now="2026-11-10T23:30:00+08:00")["final_price"] == 270.0


@pytest.mark.parametrize(
    ("function", "args", "message"),
    [
        ("catalog.get_product", {"product_id": "P9999"}, "product_id 'P9999' is unknown"),
        ("catalog.get_product", {"product_id": "hoodie"}, "ids look like 'P0042'"),
        ("catalog.get_product", {}, "missing required argument 'product_id'"),
        ("catalog.get_product", {"product_id": 42}, "expected a non-empty string"),
        ("catalog.get_product", {"product_id": "P9001", "lang": "en"}, "unknown argument(s) lang"),
        ("pricing.final_price", {"sku": "P9001-XL"}, "expected one of P9001-STD"),
        ("pricing.final_price", {"sku": "P9001-STD", "quantity": 0}, "out of range"),
        ("pricing.final_price", {"sku": "P9001-STD", "quantity": "2"}, "expected an integer"),
        ("pricing.final_price", {"sku": "P9001-STD", "coupon_codes": "LIVE20"}, "list of strings"),
        (
            "inventory.check_stock",
            {"product_id": "P9001", "sku": "P9002-STD"},
            "belongs to product",
        ),
        ("catalog.search", {"query": "cream", "category": "cosmetics"}, "expected one of apparel"),
        ("catalog.search", {"query": "cream", "max_results": 50}, "out of range"),
        ("handoff.escalate", {"reason": "x", "urgency": "asap"}, "expected one of low"),
        ("compliance.check_claim", {"product_id": "P9001"}, "missing required argument 'claim'"),
        ("live.session_context", {"x": 1}, "expected only: none"),
        ("catalog.buy", {}, "function 'catalog.buy' is unknown"),
    ],
)
def test_bad_arguments_raise_tool_input_error(kb, function, args, message):
    with pytest.raises(ToolInputError) as err:
        call_function(kb, LiveSession("P9001", NOW), function, args)
    assert message in err.value.message


def test_search_finds_every_product_by_its_name_first():
    kb = build_kb()
    session = LiveSession("P0001", NOW)
    for p in kb.products()[::4]:  # every type, a quarter of its listings (a search scans all)
        hits = call_function(kb, session, "catalog.search", {"query": p["name"]})
        assert hits[0]["product_id"] == p["id"]
        short = call_function(
            kb,
            session,
            "catalog.search",
            {"query": f"{p['brand']} {p['type_name']}", "max_results": 3},
        )
        assert short[0]["product_id"] == p["id"]
    zh = call_function(kb, session, "catalog.search", {"query": "卫衣", "category": "apparel"})
    assert zh and all("卫衣" in h["name_zh"] for h in zh)
    assert call_function(kb, session, "catalog.search", {"query": "spaceship"}) == []


def test_stock_shipping_returns_and_context_shapes(kb):
    session = LiveSession(
        "P9001",
        NOW,
        [{"product_id": "P9001", "promotion_id": "PR9001", "ends_at": "2026-11-30T23:59:59+08:00"}],
    )  # type: ignore[list-item]
    stock = call_function(kb, session, "inventory.check_stock", {"product_id": "P9001"})
    assert stock["skus"][0]["status"] == "in_stock" and stock["total_stock"] == 20
    policy = call_function(kb, session, "policy.shipping_returns", {"product_id": "P9001"})
    assert policy["returns"]["window_days"] == 7 and "unopened" in policy["returns"]["conditions"]
    metro = policy["shipping"][0]
    assert metro["region_class"] == "metro" and "Beijing" in metro["regions"]
    custom = call_function(kb, session, "policy.shipping_returns", {"product_id": "P9004"})
    assert custom["returns"]["returnable"] is False
    food = kb.product_ids("food")[0]
    hk = call_function(kb, session, "policy.shipping_returns", {"product_id": food})["shipping"][3]
    assert hk["available"] is False and hk["delivery_days"] is None
    ctx = call_function(kb, session, "live.session_context", {})
    assert ctx["product_on_screen"]["product_id"] == "P9001"
    assert ctx["deals"][0]["promotion_id"] == "PR9001"
    ticket = call_function(kb, session, "handoff.escalate", {"reason": "broken item"})
    assert ticket["status"] == "queued" and ticket["ticket_id"].startswith("HT-")
    assert ticket == call_function(kb, session, "handoff.escalate", {"reason": "broken item"})
    product = call_function(kb, session, "catalog.get_product", {"product_id": "p9001"})
    assert product["specs"]["material"] == "100% cotton"


@pytest.mark.parametrize(
    ("claim", "rule"),
    [
        ("This cream will cure your eczema", "MED-CLAIM"),
        ("It treats acne in a week", "MED-CLAIM"),
        ("The best face cream in China", "ABS-SUPERLATIVE"),
        ("No.1 bestseller", "ABS-SUPERLATIVE"),
        ("100% safe for everyone", "ABS-GUARANTEE"),
        ("Results guaranteed!", "ABS-GUARANTEE"),
        ("Better than any other brand", "CMP-DISPARAGE"),
        ("这款面霜能治疗湿疹", "MED-CLAIM"),
        ("Permanently removes wrinkles", "MED-PERMANENT"),
    ],
)
def test_compliance_catches_banned_claims(kb, claim, rule):
    r = call_function(
        kb,
        LiveSession("P9001", NOW),
        "compliance.check_claim",
        {"product_id": "P9001", "claim": claim},
    )
    assert r["allowed"] is False
    assert rule in {v["rule_id"] for v in r["violations"]}
    assert all(v["reason"] for v in r["violations"])
    again = call_function(
        kb,
        LiveSession("P9001", NOW),
        "compliance.check_claim",
        {"product_id": "P9001", "claim": r["suggestion"]},
    )
    assert again["allowed"] is True, r["suggestion"]


def test_compliance_rules_are_per_category(kb):
    session = LiveSession("P9001", NOW)
    claim = {"claim": "It heals your skin overnight"}
    assert not call_function(
        kb, session, "compliance.check_claim", {"product_id": "P9001", **claim}
    )["allowed"]
    assert call_function(kb, session, "compliance.check_claim", {"product_id": "P9003", **claim})[
        "allowed"
    ]
    ok = call_function(
        kb,
        session,
        "compliance.check_claim",
        {"product_id": "P9001", "claim": "A rich moisturising cream for dry skin"},
    )
    assert ok == {
        **ok,
        "allowed": True,
        "violations": [],
        "suggestion": "A rich moisturising cream for dry skin",
    }
    jewel = call_function(
        kb,
        session,
        "compliance.check_claim",
        {"product_id": "P9004", "claim": "A great investment, it holds its value"},
    )
    assert {v["rule_id"] for v in jewel["violations"]} == {"INVESTMENT"}
