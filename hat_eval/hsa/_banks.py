"""Offline paraphrase banks: the vocabulary Harness State Augmentation draws on.

Everything here is plain data, written for this repository. Identifier words map to synonyms a
business might plausibly rename a tool or skill to; phrases map to meaning-preserving rewrites
of descriptions and rules. No entry contains a digit, so numbers in rules are never touched.
"""

from __future__ import annotations

IDENT_WORDS: dict[str, tuple[str, ...]] = {
    # verbs
    "search": ("find", "lookup", "query", "browse", "discover", "scan", "locate", "seek"),
    "get": ("fetch", "read", "load", "retrieve", "obtain", "pull", "show", "view"),
    "check": ("verify", "inspect", "query", "lookup", "probe", "test", "confirm"),
    "calculate": ("compute", "quote", "estimate", "work_out", "price_out", "tally", "figure"),
    "escalate": ("handoff", "transfer", "forward", "route", "hand_over", "refer", "pass"),
    "compare": ("contrast", "versus", "weigh", "match_up"),
    # nouns
    "products": ("items", "goods", "catalog", "listings", "merchandise", "skus", "wares"),
    "product": ("item", "goods", "listing", "sku", "article", "offering"),
    "details": ("info", "spec", "specs", "profile", "data", "facts", "sheet"),
    "stock": ("inventory", "availability", "units", "supply", "onhand", "warehouse"),
    "final": ("net", "total", "checkout", "effective", "payable", "actual"),
    "price": ("cost", "amount", "pricing", "payable", "charge", "tariff"),
    "shipping": ("delivery", "logistics", "dispatch", "postage", "fulfilment", "courier"),
    "policy": ("rules", "terms", "conditions", "guidelines", "info"),
    "claim": ("statement", "wording", "copy", "phrase", "assertion"),
    "human": ("agent", "person", "staff", "support", "operator", "colleague"),
    "live": ("stream", "broadcast", "current", "onair", "realtime"),
    "session": ("show", "context", "status", "state", "room", "broadcast"),
    "qa": ("questions", "faq", "answers", "info", "knowhow"),
    "promotion": ("promo", "deals", "offers", "discounts", "savings"),
    "size": ("fit", "sizing", "measure", "sizes"),
    "returns": ("refunds", "aftersales", "exchanges", "rma"),
    "compliance": ("policy", "safe_claims", "regulatory", "claims", "ad_rules"),
    "guard": ("check", "filter", "shield", "gate", "screen"),
    "comparison": ("compare", "versus", "side_by_side", "matchup", "contrast"),
    "engagement": ("chat", "social", "greeting", "smalltalk", "banter", "community"),
    "escalation": ("handoff", "human_help", "transfer", "referral", "takeover"),
}
"""Synonyms for the words identifiers are made of."""

NAME_PREFIXES: tuple[str, ...] = (
    "", "", "", "", "shop_", "live_", "store_", "mia_", "host_", "cs_", "ls_", "kb_", "x_", "api_",
    "stream_", "mall_",
)
NAME_SUFFIXES: tuple[str, ...] = (
    "", "", "", "", "_v2", "_v3", "_v4", "_pro", "_core", "_tool", "_svc", "_lite", "_plus", "_beta",
    "_new", "_fn",
)
SKILL_PREFIXES: tuple[str, ...] = (
    "", "", "", "skill_", "sk_", "live_", "shop_", "host_", "mia_", "playbook_", "ls_", "guide_",
)
SKILL_SUFFIXES: tuple[str, ...] = (
    "", "", "", "_skill", "_v2", "_v3", "_kit", "_flow", "_mode", "_pack", "_sop", "_rules",
)
CODE_NAMES: tuple[str, ...] = (
    "aurora", "atlas", "beacon", "cedar", "comet", "delta", "ember", "falcon", "garnet", "harbor",
    "indigo", "juniper", "kestrel", "lumen", "maple", "nimbus", "onyx", "pebble", "quartz", "raven",
    "sierra", "tango", "umber", "vesper", "willow", "zephyr", "orbit", "prism", "saffron", "topaz",
)
"""Opaque names: a variant may call a skill or tool something that says nothing of its job."""

DISPLAY_JOINERS: tuple[str, ...] = (" and ", " & ", " / ", " + ", ", ")
DISPLAY_TAILS: tuple[str, ...] = (
    "", "", "", " Helper", " Desk", " Assistant", " Playbook", " Guide", " Module", " Flow",
    " Corner", " Support",
)

PHRASES: dict[str, tuple[str, ...]] = {
    # verbs and verb phrases
    "search": ("look through", "query", "search through"),
    "get": ("fetch", "retrieve", "look up", "obtain"),
    "check": ("verify", "look up", "confirm"),
    "calculate": ("compute", "work out", "determine"),
    "look up": ("check", "fetch", "retrieve"),
    "look it up": ("check it", "retrieve it", "fetch it"),
    "hand": ("pass", "transfer", "route"),
    "explains": ("describes", "covers", "sets out"),
    "answers": ("responds to", "handles", "addresses"),
    "handles": ("deals with", "takes care of", "manages"),
    "works out": ("figures out", "calculates", "determines"),
    "compares": ("contrasts", "weighs", "sets side by side"),
    "greets": ("welcomes", "says hello to"),
    "keeps": ("maintains", "holds"),
    "mention": ("point out", "note", "bring up"),
    "quote": ("state", "give", "cite"),
    "state": ("give", "say", "quote"),
    "say": ("state", "tell the viewer"),
    "say so": ("tell the viewer", "point that out"),
    "tell": ("inform", "let"),
    "offer": ("suggest", "propose"),
    "recommend": ("suggest", "advise"),
    "suggest": ("recommend", "propose"),
    "describe": ("present", "explain"),
    "escalate": ("hand off", "transfer", "refer"),
    "reply": ("respond", "answer"),
    "returns": ("gives back", "responds with", "outputs"),
    "return": ("give back", "output"),
    "promise": ("guarantee", "commit to"),
    "combine": ("stack", "put together", "use together"),
    "compute": ("calculate", "work out"),
    # qualifiers
    "always": ("in every case", "every time", "without exception"),
    "never": ("under no circumstances", "at no point", "not ever"),
    "only": ("solely", "just", "exclusively"),
    "before": ("prior to",),
    "exactly": ("precisely", "word for word", "verbatim"),
    "plainly": ("clearly", "directly", "honestly"),
    "politely": ("courteously", "kindly", "respectfully"),
    "warmly": ("kindly", "in a friendly way", "cheerfully"),
    "optionally": ("if needed", "where useful", "if you like"),
    "rather than": ("instead of",),
    "instead": ("in its place", "rather"),
    "such as": ("like", "for example", "for instance"),
    "for example": ("for instance", "e.g.", "such as"),
    "right now": ("at the moment", "currently", "at this moment"),
    "actually": ("really", "in the end"),
    "any": ("every",),
    # nouns
    "viewer": ("audience member", "shopper", "customer", "watcher"),
    "viewers": ("audience members", "shoppers", "customers", "watchers"),
    "catalogue": ("catalog", "product range", "assortment"),
    "product": ("item", "article"),
    "products": ("items", "articles"),
    "knowledge base": ("product database", "catalogue data", "product records"),
    "listing": ("product page", "product listing", "product entry"),
    "specifications": ("specs", "technical details", "product specs"),
    "materials": ("fabrics and materials", "composition"),
    "units": ("pieces", "items"),
    "deals": ("offers", "promotions", "discounts"),
    "coupons": ("vouchers", "coupon codes", "discount codes"),
    "coupon": ("voucher", "coupon code", "discount code"),
    "delivery times": ("delivery windows", "shipping times", "transit times"),
    "shipping fees": ("delivery fees", "postage costs", "shipping costs"),
    "returns policy": ("return policy", "returns rules", "refund policy"),
    "reason": ("explanation", "justification", "note"),
    "conversation": ("chat", "exchange", "thread"),
    "claim": ("statement", "assertion"),
    "disease": ("illness", "medical condition"),
    "doctor": ("physician", "medical professional"),
    "chat": ("conversation", "comments", "chat room"),
    "tool": ("function",),
    "questions": ("queries", "asks"),
    "facts": ("data", "details", "recorded facts"),
    "shop": ("store", "retailer"),
    "public stream": ("public broadcast", "live broadcast", "open stream"),
    "human agent": ("human colleague", "live agent", "customer-service person"),
    "customer-service agent": ("support agent", "service representative", "human colleague"),
    "short": ("brief", "concise"),
    "full": ("complete", "entire"),
    "matching": ("relevant", "fitting", "corresponding"),
}
"""Phrase -> meaning-preserving alternatives (matched as whole words, case-adapted)."""

TOOL_FRAMES: tuple[str, ...] = (
    "{}", "{}", "{}", "Use this tool to {lc}", "Purpose: {}", "What it does: {}", "Tool - {}",
    "Call this to {lc}", "Lets you {lc}", "When needed, {lc}", "Function: {}", "Use it to {lc}",
    "Summary: {}", "This function will {lc}", "Helps you {lc}", "Description: {}",
    "Use when you must {lc}", "Good for when you need to {lc}", "Action: {}", "In brief: {}",
)
"""Frames a rewritten tool description may be put in; ``{lc}`` starts lower-case."""

SKILL_FRAMES: tuple[str, ...] = (
    "{}", "{}", "{}", "This skill {lc}", "Purpose: {}", "Scope: {}", "In short: {}",
    "Skill for when the host {lc}", "Covers: {}", "Role: {}", "Use case: {}", "Summary: {}",
)

TOOL_TAILS: tuple[str, ...] = (
    "", "", "", "", " Data comes from the shop's live knowledge base.",
    " Only call it when the question needs it.", " Results are up to date for this stream.",
    " Call it again only if the inputs change.", " Read-only; it changes nothing.",
    " Pass the ids exactly as other tools return them.", " Answers are in the shop's currency.",
    " Use the values it returns verbatim.", " Fast to call.", " Safe to call during the stream.",
    " It may fail; then tell the viewer you are checking.", " No side effects.",
    " Prefer it over answering from memory.", " Ids come from the search results.",
    " Quote its numbers exactly.", " Keep the call minimal.", " Works for every category.",
)
SKILL_TAILS: tuple[str, ...] = (
    "", "", "", "", " Apply its rules in order.", " Follow every rule below.",
    " Pick it only when it fits the message.", " It applies to every product category.",
    " Stay within the answer limits of the system prompt.", " Keep answers short and factual.",
    " The rules below are binding.", " Use the tools it names.", " One skill per answer.",
    " Check facts with the tools first.", " Mind the compliance rules too.",
)

RULE_FRAMES: tuple[str, ...] = (
    "{}", "{}", "{}", "{}", "Rule: {}", "Remember: {}", "Important: {}", "Always keep in mind: {}",
    "Note: {}", "Policy: {}", "{} No exceptions.", "{} This is required.",
)

RESULT_PREFIXES: tuple[str, ...] = (
    "", "Tool result:", "[tool output]", "Observation:", "Result:", "Data returned:",
    "<<tool>>", "Function response:",
)
ERROR_TEMPLATES: tuple[str, ...] = (
    "Tool error ({kind}): {message}",
    "ERROR [{kind}] {message}",
    "The tool failed: {message} ({kind})",
    "{kind}: {message}",
    "Call failed with {kind}. Details: {message}",
    "[error] {message}",
)
