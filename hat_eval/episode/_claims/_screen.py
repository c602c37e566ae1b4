"""Another product called the one on screen ("the charger I'm showing right now")."""

from __future__ import annotations

import re

from ._answer import _Answer
from ._subjects import named_spans
from ._verdict import Verdict

_SHOWN_AFTER = re.compile(
    r"\s?(?:that |which )?(?:i am|we are|i m|we re) showing(?: you)? right now\b"
)
"""Words after a product's name that call it the one on screen ("the charger I'm showing right
now")."""
_SHOWN_BEFORE = re.compile(r"(?:现在|正在)讲的(?:是)?(?:这款)?$")
"""Words before a product's name that call it the one on screen (现在讲的Kinetiq Edge智能手表)."""


def wrong_screen(a: _Answer) -> list[Verdict]:
    """A failed verdict for another product called the one on screen.

    "Any questions about the Kinetiq Prime GaN Charger I'm showing right now" while the water
    bottle is on screen, 现在讲的<another product>: the product named right beside the words is
    not the one shown. A clause that denies it ("it isn't the item on screen") says nothing.
    """
    screen = a.case.session.product_on_screen
    if a.kb is None or not screen:
        return []
    for name, ids, start, end in named_spans(a.kb, a.text):
        if len(ids) != 1 or screen in ids:
            continue
        if _SHOWN_AFTER.match(a.text, end) or _SHOWN_BEFORE.search(a.text, 0, start):
            if a.negated(start):
                continue
            shown = a.kb.product(screen)
            said = f"calls the {name} the product on screen; it is the "
            return [Verdict(0.0, said + str(shown["name"] if shown else screen))]
    return []
