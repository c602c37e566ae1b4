"""Vocabulary the case generator shares with the shop's compliance rules.

The shop's policies (coupons, shipping, returns, compliance rules and their texts) are records of
the built-in shop, ``hat_eval/world/shop`` (see ``_schema``); what stays here is the generator's:
the verbs of medical claims that compliance-bait cases are drawn with (the shop's ``MEDICAL``
rule spells the same verbs in its first pattern).
"""

from __future__ import annotations

MED_VERBS = (
    r"cures?|cured|curing|treats?|treated|treating|treatment|heals?|healed|healing|fix(?:es)?|"
    r"clears? up|gets? rid of|prevents?|preventing|stops?|eliminates?|reverses?|relieves?|"
    r"helps? with|good for|works? for|remed(?:y|ies)"
)
