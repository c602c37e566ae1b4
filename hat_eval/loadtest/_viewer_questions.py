"""A small built-in set of realistic viewer questions, used until a world generator is plugged in.

They cover the default harness's skills (product Q&A, price, stock and size, shipping, compliance,
comparison, chit-chat, escalation) in English, Chinese and a mix of both, with the typos and slang
of a live chat.
"""

from __future__ import annotations

VIEWER_QUESTIONS: tuple[str, ...] = (
    "what is this jacket made of? is it really waterproof",
    "How much is the down jacket after the live coupon?",
    "这件外套多少钱？有优惠吗",
    "do u have the black one in size M??",
    "I'm 168cm and 55kg, which size should I get",
    "尺码偏大还是偏小？我平时穿S",
    "can I stack the 20 off coupon with the member discount",
    "when does this deal end",
    "does the serum help with acne? my skin is really bad rn",
    "这个面霜能治湿疹吗",
    "how long does shipping take to Chengdu",
    "can I return it if it doesn't fit? who pays the return shipping",
    "7天无理由退货吗？",
    "which one is better for running, the blue shoes or the white ones?",
    "compare the two air fryers pls, which is bigger",
    "hi Mia!! love the stream today",
    "is the red colour still in stock? it said sold out a sec ago",
    "my order from last week never arrived, I want to talk to a real person",
    "what are the ingredients of the lip balm, I'm allergic to lanolin",
    "how do I wash the wool sweater without shrinking it",
    "this blender 多少瓦? is it loud",
    "are there any cheaper options under 200 yuan",
    "does the price include shipping to Xinjiang",
    "is this 100% cotton",
    "有没有适合送妈妈的，预算300左右",
    "the kids' size chart plz, my son is 7",
    "can I pay in installments?",
    "why is it more expensive than yesterday's stream",
    "how many mAh is the power bank and can I take it on a plane",
    "is the coupon for new followers still valid",
    "which of the three moisturizers is best for dry skin",
    "什么时候发货？今天下单明天能到上海吗",
)
