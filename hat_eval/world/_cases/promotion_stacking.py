"""``promotion_stacking``: what do I pay with these one to three coupon codes?

Gold: the final price with the coupons that stack, and for each rejected coupon why it was
rejected (and its would-be price is forbidden).
"""

from __future__ import annotations

from .._facts import Fact, price_pattern
from .._templates import message_templates
from ._case import Case
from ._draft import Ctx, finish, new_draft, ref_slots, variant_slots
from ._gold import price_gold
from ._phrases import case_phrases
from ._render import render


def build(ctx: Ctx) -> Case:
    """A ``promotion_stacking`` case."""
    product = ctx.product()
    sku = ctx.rng.choice(ctx.kb.skus(product["id"]))
    codes_all = ctx.kb.coupons()
    platform = [c["code"] for c in codes_all if c["issuer"] == "platform"]
    own = [c["code"] for c in codes_all if c["category"] == product["category"]]
    other = [c["code"] for c in codes_all if c["category"] not in (None, product["category"])]
    n = ctx.rng.choices((1, 2, 3), (35, 50, 15))[0]
    bag: list[str] = []
    for _ in range(n):
        r = ctx.rng.random()
        src = platform if r < 0.45 else own if r < 0.85 else other
        if r > 0.96:
            bag.append(ctx.rng.choice(("LIVE99", "SAVE20", "VIP20", "FREESHIP")))
            continue
        code = ctx.rng.choice(src)
        if code not in bag:
            bag.append(code)
    on_screen = ctx.rng.random() < 0.6
    draft = new_draft(ctx, product, on_screen, lookup=True)
    draft.expect("catalog.get_product", {"product_id": product["id"]}, optional=True)
    idx, res = price_gold(draft, {"sku": sku["sku"], "coupon_codes": list(bag)})
    for rej in res["rejected_coupons"]:
        for reject in case_phrases().rejected_coupons:
            if reject.marker in rej["reason"]:
                draft.facts.append(
                    Fact(
                        "text",
                        reject.fact,
                        None,
                        reject.aliases,
                        f"{idx}:rejected_coupons[code={rej['code']}].reason",
                    )
                )
                coupon = ctx.kb.coupon(rej["code"])
                if coupon is not None and coupon["kind"] != "percent":
                    wrong = round(res["final_price"] - coupon["value"], 2)
                    if wrong > 0:
                        draft.forbidden.append(price_pattern(wrong))
                break
    slots = variant_slots(ctx.kb, product, sku, ref_slots(ctx, product, on_screen))
    slots["code"] = bag[0]
    if len(bag) > 1:
        slots["code2"] = bag[1]
    slots["codes"] = " and ".join(bag) if len(bag) < 3 else f"{', '.join(bag[:-1])} and {bag[-1]}"
    slots["codes@zh"] = slots["codes@mix"] = "和".join(bag)
    require = frozenset({2: ("code2",), 3: ("codes",)}.get(len(bag), ()))
    msg, lang = render(ctx, message_templates().stacking, slots, require, on_screen=on_screen)
    draft.details.update(sku=sku["sku"], on_screen=on_screen, codes=list(bag))
    return finish(draft, "promotion_stacking", msg, lang, [product["id"]], coupon_codes=bag)
