"""Viewer questions with gold labels, generated from the knowledge base.

- ``_generate``: :func:`generate_cases`, the driver that draws intents and styles;
- ``_intents``: the intents and styles and their weights; ``_skills``: each intent's gold skill,
  read from the default harness;
- one module per intent (``price``, ``stock_size``, ..., ``multi_intent``), each a ``build(ctx)``;
  the alias and regex tables of the gold are data, ``phrases.yaml``, read by ``_phrases``;
- ``_draft`` (the case under construction, and how a message names a product so that the name
  resolves to it alone), ``_render`` (templates to messages), ``_chat`` (slots and openers of
  messages not about a product), ``_gold`` (the facts, with their Chinese forms, and wrong-claim
  patterns several intents share), ``_case`` (the :class:`Case` record).
"""

from ._asked import mark_unasked
from ._case import Case
from ._draft import ABSOLUTE_FORBIDDEN
from ._generate import generate_cases
from ._gold import stock_state_fact
from ._intents import INTENTS, SINGLE_INTENTS, STYLES
from ._skills import RULE_SOURCE, SKILL_OF, skill_of
from .shipping_returns import return_window_fact

__all__ = [
    "ABSOLUTE_FORBIDDEN",
    "INTENTS",
    "RULE_SOURCE",
    "SINGLE_INTENTS",
    "SKILL_OF",
    "STYLES",
    "Case",
    "mark_unasked",
    "generate_cases",
    "return_window_fact",
    "stock_state_fact",
    "skill_of",
]
