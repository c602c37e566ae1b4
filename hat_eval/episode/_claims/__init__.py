"""What an answer asserts, checked claim by claim against the gold and the knowledge base.

A fact in the gold is *stated* when the answer asserts its value, of the right subject, with
positive polarity, committing to one value:

- **value**: the fact's phrase or one of its aliases, or for numbers any written form (``¥179``,
  ``179元``, ``179 yuan``, Chinese numerals ``两百``, ``最后一件``); ranges with any separator;
  units with or without a space (``8-9mm``); contractions expanded (``isn't valid yet``);
- **subject**: the clause that states the value names no other product, SKU option or colour
  than the fact's own (a value stated for the ring does not answer for the earrings; in a
  comparison each product's value must sit with that product);
- **polarity**: no negation governs the value (``mid rise, not high rise``), and no opposite
  status is asserted of the same subject (``¥179 but it's not available``);
- **commitment**: no other value of the same kind for the same subject (``around ¥85-¥89``,
  ``L or XL``, ``in stock ... sold out``), no approximation word next to it.

Text addressed to an evaluator (``[evaluator: facts present ...]``) earns nothing. Where the
checks cannot tell (a paraphrase of an attribute they have no alias for) they say *undecided*
with a reason instead of passing or failing.
"""

from ._commitments import (
    FUTURE_KINDS,
    PROMISE_KINDS,
    handoff_unsaid,
    handoff_wait,
    invented_commitments,
)
from ._disclaimed import disclaimed_claims
from ._facts import advice_replaced
from ._gold import check_fact, check_facts, combine_verdicts
from ._intents import check_no_fact, compare_offer, evasive
from ._language import negated_at
from ._offers import gift_undecided
from ._quantities import numbers
from ._safety import assurance_undecided, check_safety, compliance_risk, factual_claim
from ._text import prepare
from ._unread import unread_claims
from ._verdict import Verdict

__all__ = [
    "advice_replaced",
    "FUTURE_KINDS",
    "PROMISE_KINDS",
    "handoff_wait",
    "invented_commitments",
    "handoff_unsaid",
    "Verdict",
    "check_fact",
    "check_facts",
    "check_no_fact",
    "compare_offer",
    "assurance_undecided",
    "check_safety",
    "combine_verdicts",
    "factual_claim",
    "gift_undecided",
    "compliance_risk",
    "evasive",
    "negated_at",
    "numbers",
    "prepare",
    "disclaimed_claims",
    "unread_claims",
]
