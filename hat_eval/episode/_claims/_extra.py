"""Every checkable claim of an answer, beyond the gold facts, verified against the world.

An answer that states the asked price right and adds a free gift, a coupon code, an extra
percentage off, free or same-day shipping, a certification or "fireproof" has invented a claim
a viewer will act on. :func:`unsupported_claims` finds the claims of each kind the world can
verify and fails those the knowledge base and the live session do not support (:mod:`._support`):

- **money**: every amount in yuan is a price, discount, threshold, cap, fee or subtotal the
  world gives for a product in scope (or a difference between two of them);
- **discount**: a percentage off is a promotion's, a coupon's or the one the final price gives;
- **coupon code**: a code the knowledge base has;
- **gift or bundle**: the world has no gift promotions, so a free gift is always invented;
- **shipping**: free shipping where the product ships free, same-day or next-day delivery where
  the fastest delivery is that fast; delivery and returns day counts the policy gives;
- **returns**: free returns only where the seller pays return shipping; no refund promises
  (a full refund, a refund within a day), which no policy gives;
- **stock count**: a number left that is a SKU's or the product's stock;
- **region class**: a place said to be in a class the vocabulary does not put it in;
- **shelf life, run time**: a term said of a shelf life, or hours said of a run time, is one the
  products' specs give;
- **spec, material, certification, origin** (the lexicon's ``claim_words``): a claim word
  ("organic", "fireproof", "BPA-free", 防水, 进口, "made in Italy") the product's own text
  supports; a material the catalogue uses elsewhere ("stainless steel" for a Tritan bottle)
  that none of the products in scope is made of.

A negated claim ("no free gift", "not waterproof") claims nothing. Each unsupported claim is a
failed :class:`Verdict` whose reason names it. The kinds are read in :mod:`._amounts`,
:mod:`._offers`, :mod:`._deals`, :mod:`._deal_dates` and :mod:`._claim_words`;
:data:`CHECKERS` lists them all.
"""

from __future__ import annotations

from collections.abc import Callable

from ._amounts import _codes, _counts, _differences, _money, _percents
from ._answer import Claims
from ._claim_words import _run_time, _shelf_life, _warranty, _words
from ._deal_dates import _deadlines, _end_dates, _end_times, _weekday_ends
from ._deals import (
    _deal_coming,
    _deal_now,
    _down_from,
    _list_price_as_price,
    _live_only,
    _start_dates,
)
from ._offers import _shipping, _ships_from, _waived_conditions
from ._regions import misplaced_places
from ._support import Support
from ._verdict import Verdict

CHECKERS: tuple[Callable[[Claims, Support], list[Verdict]], ...] = (
    _money,
    _percents,
    _codes,
    _shipping,
    _counts,
    _words,
    _list_price_as_price,
    _down_from,
    _end_dates,
    _start_dates,
    _end_times,
    _warranty,
    _shelf_life,
    _run_time,
    _deadlines,
    _weekday_ends,
    _deal_now,
    _deal_coming,
    _live_only,
    _ships_from,
    _waived_conditions,
    _differences,
    misplaced_places,
)
"""One verifier per kind of claim, each ``(claims, support) -> failed verdicts``."""


def unsupported_claims(claims: Claims, world: Support) -> list[Verdict]:
    """A failed verdict for every claim of the answer the world does not support."""
    return [v for check in CHECKERS for v in check(claims, world)]
