"""The catalogue of function ids a harness tool may bind to.

A tool in a harness has a surface (name, description, JSON schema) and a ``function``: the id of
the implementation it calls. Harness State Augmentation may rename and re-describe a tool, but the
function id never changes, so gold labels written against function ids survive every variant.

Who owns what (one owner per fact):

- the function ids and what each does: :data:`FUNCTIONS`, here, so the harness validator knows
  them without importing the world (the harness is the layer below the world);
- the implementations: ``hat_eval.world``, where each registers itself for one of these ids with
  ``@implementation("catalog.search")`` (an id not listed here is refused);
- each function's parameters (names, types, enums, bounds, which are required): the tool bound
  to it in the default harness file, ``live_commerce.yaml``; the world's argument checker reads
  them from there, adding only the limits the implementation enforces beyond the surface;
- the built-in functions (:data:`BUILTIN_FUNCTIONS`), served by the episode's tool runtime
  from the harness itself rather than by the world: ``skills.load``, the skill loader of a
  harness with ``skill_disclosure: progressive``.
"""

from __future__ import annotations

FUNCTIONS: dict[str, str] = {
    "catalog.search": "Search the product catalogue by keyword and optional category.",
    "catalog.get_product": "Full details of one product: specs, materials, SKUs, list prices.",
    "inventory.check_stock": "Units in stock for one product, per SKU (size or colour).",
    "pricing.final_price": "Final price of a SKU after the promotions and coupons that stack.",
    "policy.shipping_returns": "Shipping times, fees and the returns policy for a product.",
    "compliance.check_claim": "Whether a claim about a product is allowed on a public stream.",
    "handoff.escalate": "Hand the conversation to a human agent, with a reason.",
    "live.session_context": "The product on screen now and the time-limited deals running.",
}
"""Function id -> what the implementation does."""


SKILL_LOADER = "skills.load"
"""The function id of the skill-loading tool: returns a skill's body from the harness."""

BUILTIN_FUNCTIONS: dict[str, str] = {
    SKILL_LOADER: "The full rules of one skill of the harness, by its id.",
}
"""Function id -> what it does, for the functions the tool runtime serves from the harness."""


def is_known_function(function_id: str) -> bool:
    """Whether ``function_id`` names an implementation hat-eval provides (world or built-in)."""
    return function_id in FUNCTIONS or function_id in BUILTIN_FUNCTIONS
