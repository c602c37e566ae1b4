"""The reference policy: a rule-based agent registered as the Inspect model ``hat/reference``.

It is the embedded default of ``hat-eval run``: it runs offline, in milliseconds, and exercises
every part of a suite. It reads everything from what a model is given, never from the gold: the
skills and the word limit from the rendered system prompt, the tools from their *descriptions*
(names change under HSA), the product on screen from the live-context line, and facts from the
tool results in whatever format the hooks wrap them. Its intent detection is keyword based, so
it misses slang, typos and mixed-language messages some of the time: its scores are real,
not perfect, and they move when the harness changes in ways keyword reading cannot follow.

Under either skill disclosure it chooses the skill whose text best fits the viewer's intent.
Inline, that text is each skill whole, and the answer starts with its ``[skill: id]`` tag.
Progressive, it is each listed skill's id and description (the reply skills only): the policy
finds the skill-loading tool by the name the prompt's skills section gives it (else by the
description that says it loads skills), loads the skill it picked in its first turn, alongside
its first world calls, and answers untagged. Loads do not count against the tool-call limit.

``hat/memorized`` is the same policy frozen to the default harness, the positive control of the
``variant`` suite: it uses the default harness's tool names, skill ids and limits whatever the
prompt says, and takes only the viewer's message, the product on screen and the tool results from
its input -- what a fine-tune that memorized one harness's surface forms does. Under a variant
harness its calls go to default tool names (the runtime answers ``unknown_tool``) and its skill
tags are the default ids. hat-eval ships a default harness in each disclosure form, and the
memorizing fine-tune is taken to have learnt both: it tells them apart by the one thing that
differs at a glance (skills given whole, or listed to load) and plays that default's surface.
Under a progressive variant it therefore loads the default skill id with the default loader
name (``load_skill``): a renamed loader is an ``unknown_tool``, a renamed skill an unknown id,
and either way it loads no skill in force. Under the default harness of each form it is the
reference policy. Which of the two reads the harness is the :data:`Surface` of the model.

Answers commit to one value per fact: one status per SKU, the one spec asked about, one delivery
row; never several values of one thing in the hope that one of them is the right one.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Literal

from inspect_ai.model import (
    ChatCompletionChoice,
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageTool,
    ChatMessageUser,
    GenerateConfig,
    ModelAPI,
    ModelOutput,
    ModelUsage,
)
from inspect_ai.tool import ToolCall, ToolChoice, ToolInfo

from hat_eval.harness import SKILL_LOADER

# -- reading tools from their descriptions -------------------------------------------------------

_TOOL_WORDS: dict[str, tuple[str, ...]] = {
    "catalog.search": (
        "search",
        "catalog",
        "keyword",
        "matching",
        "query",
        "look through",
        "assortment",
        "product range",
    ),
    "catalog.get_product": (
        "full",
        "listing",
        "details",
        "specification",
        "specs",
        "materials",
        "product page",
        "product entry",
        "complete",
        "technical",
    ),
    "inventory.check_stock": ("stock", "units", "in stock", "pieces", "inventory"),
    "pricing.final_price": (
        "pays",
        "final price",
        "coupon",
        "voucher",
        "stack",
        "deals",
        "calculate",
        "compute",
        "work out",
        "determine",
    ),
    "policy.shipping_returns": (
        "delivery",
        "shipping",
        "returns",
        "return policy",
        "refund",
        "postage",
        "transit",
    ),
    "compliance.check_claim": (
        "claim",
        "said on",
        "public stream",
        "broadcast",
        "statement",
        "assertion",
        "rules",
    ),
    "handoff.escalate": (
        "human",
        "hand the conversation",
        "customer-service",
        "agent",
        "colleague",
        "person",
        "transfer",
        "route",
    ),
    "live.session_context": (
        "on screen",
        "live session",
        "right now",
        "time-limited",
        "at the moment",
        "currently",
    ),
}


def find_loader(tools: list[ToolInfo], named: str | None) -> ToolInfo | None:
    """The skill-loading tool: the one the prompt names, else the one that says it loads skills.

    Names change under HSA, so a name the prompt gives that no tool has falls back to the
    descriptions ("skill" and "load"); None when no tool mentions skills.
    """
    for t in tools:
        if t.name == named:
            return t
    scored = [
        (text.count("skill") * 2 + text.count("load"), i)
        for i, t in enumerate(tools)
        if "skill" in (text := f"{t.description} {t.name.replace('_', ' ')}".casefold())
    ]
    return tools[max(scored)[1]] if scored else None


def identify_tools(tools: list[ToolInfo]) -> dict[str, str]:
    """Function id -> tool name, by the words of each tool's description (greedy, one-to-one)."""
    scores = []
    for t in tools:
        text = f"{t.description} {t.name.replace('_', ' ')}".casefold()
        for fn, words in _TOOL_WORDS.items():
            scores.append((sum(text.count(w) for w in words), fn, t.name))
    out: dict[str, str] = {}
    used: set[str] = set()
    for score, fn, name in sorted(scores, key=lambda s: -s[0]):
        if score and fn not in out and name not in used:
            out[fn] = name
            used.add(name)
    return out


# -- reading the system prompt -------------------------------------------------------------------

_SKILL_RE = re.compile(r"^### Skill `([^`]+)`: (.*)$", re.MULTILINE)
_INDEX_RE = re.compile(r"^- `([^`]+)` \((\w+)\): (.*)$", re.MULTILINE)
"""A skill of a progressive prompt's list: ``- `id` (type): description``."""
_LOADER_RE = re.compile(r"loaded with the tool `([^`]+)`")
"""The line of a progressive prompt's skills section that names the skill-loading tool."""
_SKILLS_HEADING = "## Skills"


@dataclass
class PromptFacts:
    """What the policy reads off the system prompt."""

    skills: dict[str, str] = field(default_factory=dict)
    """Skill id -> its rendered text (name, description, triggers, rules), or under
    progressive disclosure its id and description (the rules come with loading)."""
    disclosure: Literal["inline", "progressive"] = "inline"
    """``progressive`` when the prompt lists the skills to load instead of giving them whole."""
    skill_types: dict[str, str] = field(default_factory=dict)
    """Progressive disclosure: skill id -> its type (``reply`` or ``strategy``)."""
    loader: str | None = None
    """Progressive disclosure: the skill-loading tool's name, as the prompt names it."""
    max_words: int = 60
    max_calls: int = 4
    product_id: str | None = None
    product_name: str = "this product"


def read_prompt(system: str) -> PromptFacts:
    """Skills, word and call limits, and the product on screen.

    Inline skills are ``### Skill`` headings with their text; a progressive prompt lists each
    skill as ``- `id` (type): description`` under its skills heading, beside a line naming
    the tool that loads them.
    """
    facts = PromptFacts()
    heads = list(_SKILL_RE.finditer(system))
    for i, head in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(system)
        facts.skills[head.group(1)] = system[head.start() : end].split("\n## ")[0].casefold()
    if not heads and _SKILLS_HEADING in system:
        section = system.split(_SKILLS_HEADING, 1)[1].split("\n## ")[0]
        for item in _INDEX_RE.finditer(section):
            facts.disclosure = "progressive"
            facts.skills[item.group(1)] = f"{item.group(1)} {item.group(3)}".casefold()
            facts.skill_types[item.group(1)] = item.group(2)
        if facts.disclosure == "progressive" and (loader := _LOADER_RE.search(section)):
            facts.loader = loader.group(1)
    if words := re.search(r"at most (\d+) words", system):
        facts.max_words = int(words.group(1))
    if calls := re.search(r"at most (\d+) tool calls", system):
        facts.max_calls = int(calls.group(1))
    if screen := re.search(r"On screen: (.*) \(product id (P\d+)\)", system):
        facts.product_name, facts.product_id = screen.group(1), screen.group(2)
    return facts


_SKILL_WORDS: dict[str, tuple[str, ...]] = {
    "price": ("price", "pay", "coupon", "promotion", "deal", "discount", "cost"),
    "promotion_stacking": ("coupon", "promotion", "deal", "stack", "price", "voucher"),
    "stock_size": ("stock", "size", "availab", "sold out", "colour"),
    "material_spec": ("material", "specification", "ingredient", "spec", "q&a", "made of"),
    "shipping_returns": ("shipping", "delivery", "return", "refund", "exchange"),
    "compliance_bait": ("compliance", "medical", "claim", "cure", "absolute", "doctor"),
    "comparison": ("compar", "versus", "difference", "which one"),
    "chit_chat": ("greet", "chit-chat", "thank", "friendly", "hello", "welcome"),
    "escalation": ("human", "escalat", "complaint", "hand", "safety issue", "order problem"),
    "out_of_scope": ("outside shopping", "out of scope", "human", "escalat"),
}


def pick_skill(skills: dict[str, str], intent: str) -> str | None:
    """The skill whose text best matches the intent's words (None without skills).

    The text is what the prompt gives: a skill whole under inline disclosure, its id and
    description under progressive disclosure (:attr:`PromptFacts.skills`).
    """
    words = _SKILL_WORDS.get(intent, ())
    best = max(skills.items(), key=lambda kv: sum(kv[1].count(w) for w in words), default=None)
    return best[0] if best else None


# -- reading the viewer ------------------------------------------------------------------------

_INTENT_WORDS: list[tuple[str, tuple[str, ...]]] = [
    (
        "escalation",
        (
            "my order",
            "order",
            "complain",
            "broken",
            "allerg",
            "rash",
            "reaction",
            "talk to",
            "real person",
            "human",
            "投诉",
            "过敏",
            "订单",
            "坏了",
            "人工",
            "never arrived",
            "refund not",
            "damaged",
        ),
    ),
    (
        "compliance_bait",
        (
            "cure",
            "treat",
            "heal",
            "eczema",
            "acne",
            "lose weight",
            "slim",
            "cancer",
            "disease",
            "medical",
            "best",
            "100%",
            "no.1",
            "number one",
            "guarantee",
            "治",
            "减肥",
            "药",
            "最好",
            "保证",
            "better than",
        ),
    ),
    (
        "comparison",
        ("compare", " vs", "versus", "difference", "which one", "which is", "哪个", "区别", "对比"),
    ),
    ("promotion_stacking", ("coupon", "stack", "code", "voucher", "券", "叠加", "combine")),
    (
        "price",
        (
            "price",
            "how much",
            "cost",
            "how mch",
            "hw much",
            "多少钱",
            "价格",
            "价",
            "cheap",
            "discount",
            "deal",
            "$",
            "¥",
            "rn??",
        ),
    ),
    (
        "stock_size",
        (
            "stock",
            "size",
            "available",
            "sold out",
            "left",
            " xl",
            " l ",
            "有货",
            "尺码",
            "码",
            "库存",
            "colour",
            "color",
            "still have",
            "have it in",
            "any left",
            "还有",
            "没货",
        ),
    ),
    (
        "material_spec",
        (
            "material",
            "made of",
            "fabric",
            "ingredient",
            "spec",
            "cotton",
            "材质",
            "成分",
            "面料",
            "battery",
            "weight",
            "capacity",
            "wash",
            "height",
            "how big",
            "dimension",
            "texture",
            "storage",
            "fit",
            "length",
            "width",
            "how long",
            "size chart",
            "多大",
            "多重",
            "怎么用",
        ),
    ),
    (
        "shipping_returns",
        (
            "ship",
            "deliver",
            "arrive",
            "return",
            "refund",
            "exchange",
            "包邮",
            "退",
            "发货",
            "快递",
            "几天",
            "post",
        ),
    ),
    (
        "chit_chat",
        (
            "hi ",
            "hello",
            "love",
            "thank",
            "哈哈",
            "主播",
            "lol",
            "beautiful",
            "hey",
            "good evening",
            "好看",
            "晚上好",
            "大家好",
            "早上好",
            "谢谢",
            "good night",
            "first time",
            "miss you",
        ),
    ),
]


def detect_intents(message: str) -> list[str]:
    """Intents whose words occur in the message, most specific first; out_of_scope if none."""
    text = f" {message.casefold()} "
    found = [intent for intent, words in _INTENT_WORDS if any(w in text for w in words)]
    if "promotion_stacking" in found and "price" in found:
        found.remove("price")
    return found[:2] or ["out_of_scope"]


_COUPON = re.compile(r"\b[A-Z]{2,}[0-9]{0,4}\b")


def coupon_codes(message: str) -> list[str]:
    """Upper-case codes such as LIVE20 in the message (not sizes or plain words)."""
    return [
        c
        for c in _COUPON.findall(message)
        if any(ch.isdigit() for ch in c) or c.startswith(("LIVE", "VIP", "NEW", "FANS"))
    ]


# -- reading tool results ----------------------------------------------------------------------


def parse_result(text: str) -> Any:
    """A tool result in any hook format (json, text, xml, prefixed) -> JSON, or None."""
    start = min((i for i in (text.find("{"), text.find("[")) if i >= 0), default=-1)
    if start >= 0:
        end = max(text.rfind("}"), text.rfind("]"))
        try:
            return json.loads(text[start : end + 1])
        except ValueError:
            pass
    pairs = dict(re.findall(r"^\s*(\w+): (.+)$", text, re.MULTILINE))
    return pairs or None


def _find(value: Any, *keys: str) -> Any:
    """The first value under any of ``keys`` (or a key starting with one), depth first."""
    if isinstance(value, dict):
        for k, v in value.items():
            if any(k == key or k.startswith(key + "_") for key in keys):
                return v
        for v in value.values():
            found = _find(v, *keys)
            if found is not None:
                return found
    elif isinstance(value, list):
        for v in value:
            found = _find(v, *keys)
            if found is not None:
                return found
    return None


def _money(value: Any) -> str:
    try:
        return f"¥{float(value):.2f}".replace(".00", "")
    except (TypeError, ValueError):
        return str(value)


# -- the policy ----------------------------------------------------------------------------------


@dataclass
class Turn:
    """The conversation so far, as the policy reads it."""

    facts: PromptFacts
    message: str
    tools: dict[str, str]
    results: dict[str, list[Any]]
    """Function id -> parsed results, in call order (None for errors and garbage)."""
    calls: int
    """World calls made so far (skill loads are not counted, as the checks do not count them)."""
    loads: int = 0
    """Skill-loading calls made so far."""
    load_param: str = "skill_id"
    """The skill loader's one parameter (the skill id), under progressive disclosure."""
    loaded: list[str] = field(default_factory=list)
    """The text of each skill loaded (progressive disclosure), in order."""
    tool_texts: dict[str, str] = field(default_factory=dict)
    """Function id -> its tool's description, as given."""
    rules: frozenset[str] = frozenset()
    """What the rules of the skills in use ask beyond the defaults (:func:`read_rules`)."""


Surface = Literal["prompt", "default"]
"""Where the policy reads the harness's surface forms (skills, limits, tool names) from: the
rendered ``prompt`` and tool list it is given, or the ``default`` harness it memorized (of the
disclosure form the prompt has: see the module docstring)."""

MODELS: dict[str, Surface] = {"reference": "prompt", "memorized": "default"}
"""The ``hat/`` model names and the surface each reads."""


@cache
def _default_surface(
    disclosure: Literal["inline", "progressive"] = "inline",
) -> tuple[str, tuple[ToolInfo, ...]]:
    """The default harness's rendered system prompt and tools, in one disclosure form.

    Each form is loaded once, on first use.
    """
    from hat_eval.harness import default_harness_path, load_harness, render_system_prompt
    from hat_eval.suites import tool_infos

    harness = load_harness(default_harness_path(disclosure))
    return render_system_prompt(harness), tuple(tool_infos(harness))


def read_turn(
    input: list[ChatMessage], tools: list[ToolInfo], *, surface: Surface = "prompt"
) -> Turn:
    """Parse the conversation: prompt facts, the viewer's message, tool results by function.

    With ``surface="default"`` the skills, limits and tool names are the default harness's
    (of the disclosure form the prompt has), whatever the prompt and tool list say; the product
    on screen still comes from the prompt. Under progressive disclosure the skill loader is
    found first (:func:`find_loader`) and the world's tools among the others; it is
    ``tools[SKILL_LOADER]``.
    """
    system = next((m.text for m in input if isinstance(m, ChatMessageSystem)), "")
    message = next((m.text for m in input if isinstance(m, ChatMessageUser)), "")
    facts = read_prompt(system)
    if surface == "default":
        default_system, default_tools = _default_surface(facts.disclosure)
        screen = facts
        facts = read_prompt(default_system)
        facts.product_id, facts.product_name = screen.product_id, screen.product_name
        tools = list(default_tools)
    loader = find_loader(tools, facts.loader) if facts.disclosure == "progressive" else None
    by_name = identify_tools([t for t in tools if t is not loader])
    load_param = "skill_id"
    if loader is not None:
        by_name[SKILL_LOADER] = loader.name
        load_param = next(iter(loader.parameters.properties), load_param)
    fn_of = {name: fn for fn, name in by_name.items()}
    results: dict[str, list[Any]] = {}
    loaded: list[str] = []
    calls = loads = 0
    pending: list[str] = []
    for m in input:
        if isinstance(m, ChatMessageAssistant) and m.tool_calls:
            n_loads = sum(fn_of.get(c.function) == SKILL_LOADER for c in m.tool_calls)
            loads += n_loads
            calls += len(m.tool_calls) - n_loads
        elif isinstance(m, ChatMessageTool):
            fn = fn_of.get(m.function or "", "")
            if m.text == "(result in the next message)":
                pending.append(fn)
            elif fn == SKILL_LOADER:
                loaded.append(m.text)
            else:
                results.setdefault(fn, []).append(parse_result(m.text))
        elif isinstance(m, ChatMessageUser) and pending:
            chunks = m.text.split("\n\n")
            for fn, chunk in zip(pending, chunks, strict=False):
                results.setdefault(fn, []).append(parse_result(chunk.split(": ", 1)[-1]))
            pending = []
    by_tool = {t.name: t.description for t in tools}
    texts = {fn: by_tool.get(name, "") for fn, name in by_name.items()}
    return Turn(facts, message, by_name, results, calls, loads, load_param, loaded, texts)


# -- reading what the harness asks beyond the defaults -------------------------------------------

_ALSO_RETURNS = re.compile(r"\balso (?:say|state|give|mention|tell)\b[^.;]*\breturn")
"""A rule asking for the returns window besides what the skill answers."""
_NO_COUNT = re.compile(r"\bnever (?:give|say|state|tell|quote)\b[^.;]*\bnumber of units")
"""A rule forbidding exact stock counts."""
_CALL_FIRST = re.compile(
    r"\bcall (?:it|this tool) (?:first|before) (?:you )?(?:quote|quoting|give|giving|state|"
    r"stating|answer|answering)? ?(?:any |a |the )?(\w+)"
)
"""A tool description saying when to call the tool: before answering about a topic."""


def read_rules(turn: Turn, intents: list[str]) -> frozenset[str]:
    """What the rules of the skills in use ask beyond the defaults the policy always does.

    The rules read are those of the skill the policy picks for each intent (inline), or of the
    skills it loaded (progressive). ``returns_with_price``: price answers also give the returns
    window; ``no_count``: no exact stock counts. Keyword reading of rule texts, like the rest of
    the policy: a rule written another way is not followed.
    """
    if turn.facts.disclosure == "progressive":
        text = " ".join(turn.loaded).casefold()
    else:
        picked = {pick_skill(turn.facts.skills, i) for i in intents}
        text = " ".join(turn.facts.skills.get(s or "", "") for s in picked)
    found = set()
    if _ALSO_RETURNS.search(text):
        found.add("returns_with_price")
    if _NO_COUNT.search(text):
        found.add("no_count")
    return frozenset(found)


def calls_first(turn: Turn, intents: list[str]) -> list[str]:
    """Functions whose tool description says to call them first for one of the ``intents``.

    The description's topic word ("call it before you quote any *price*") must be among the
    words the policy reads an intent's skill by.
    """
    out = []
    for fn, description in turn.tool_texts.items():
        m = _CALL_FIRST.search(description.casefold())
        if m and any(m.group(1) in _SKILL_WORDS.get(i, ()) for i in intents):
            out.append(fn)
    return out


def _ok(turn: Turn, fn: str) -> Any:
    """The last usable result of ``fn`` (a dict or list that is not an error), or None."""
    for r in reversed(turn.results.get(fn, [])):
        if (
            isinstance(r, dict | list)
            and r
            and not (isinstance(r, dict) and "kind" in r and "message" in r)
        ):
            return r
    return None


_ZH_COLOURS = (
    ("灰绿", "sage green"),
    ("天蓝", "sky blue"),
    ("藏青", "navy"),
    ("黑色", "black"),
    ("白色", "white"),
    ("灰色", "grey"),
    ("米色", "beige"),
    ("粉色", "pink"),
    ("红色", "red"),
    ("棕色", "brown"),
    ("绿色", "green"),
    ("蓝色", "blue"),
    ("gray", "grey"),
)
"""Colour words a viewer may use, as the English a listing writes (longest first)."""


def _names(label: str, text: str) -> bool:
    """Whether ``text`` names ``label`` as a whole term (``EU 38``, ``size M``, ``38码``)."""
    keys = {label, label.split(" (")[0], re.sub(r"^(?:eu|us|uk) ", "", label)}
    spaced = (r"\s*".join(map(re.escape, k.split())) for k in keys if k.strip())
    return any(re.search(rf"(?<![a-z0-9']){k}(?![a-z0-9'])", text) for k in spaced)


def matching_skus(skus: list[dict[str, Any]], message: str) -> tuple[list[dict[str, Any]], bool]:
    """The SKUs the message names best (by option and colour), and whether it named any.

    Without a match every SKU is returned: the policy then cannot tell which one is meant.
    """
    text = message.casefold()
    for zh, en in _ZH_COLOURS:
        text = text.replace(zh, f" {en} ")
    scored = []
    for s in skus:
        option = str(s.get("option") or "").casefold()
        colour = str(s.get("colour") or "").casefold()
        score = (bool(option) and _names(option, text)) + (bool(colour) and _names(colour, text))
        scored.append((score, s))
    best = max((score for score, _ in scored), default=0)
    return [s for score, s in scored if score == best], best > 0


def _pick_sku(product: dict[str, Any], message: str) -> str | None:
    """The SKU the message names, else the first one (what a listing shows by default)."""
    skus = product.get("skus") or []
    chosen, _ = matching_skus(skus, message)
    return str(chosen[0]["sku"]) if chosen else None


def _sku_label(sku: dict[str, Any]) -> str:
    return ", ".join(str(sku[k]) for k in ("option", "colour") if sku.get(k)) or str(sku["sku"])


_ON_SCREEN = ("this", "on screen", "these", "it ", "这个", "这款", "这件", "showing", "that one")


def _named_product(turn: Turn) -> str | None:
    """A product the message names instead of the one on screen (found by a search)."""
    found = _ok(turn, "catalog.search")
    if not isinstance(found, list):
        return None
    text = turn.message.casefold()
    for p in found:
        name = str(p.get("name") or p.get("title") or "").casefold()
        words = [w for w in re.findall(r"[a-z]{4,}", name)]
        if words and sum(w in text for w in words) >= 2:
            return str(p.get("product_id") or p.get("productId"))
    return None


def wants_search(turn: Turn, intents: list[str]) -> bool:
    """Whether the message names another product (or asks for a comparison)."""
    text = f" {turn.message.casefold()} "
    return "comparison" in intents or not any(w in text for w in _ON_SCREEN)


def next_calls(turn: Turn, intents: list[str]) -> list[tuple[str, dict[str, Any]]]:
    """The calls still needed for the intents (empty when the policy can answer)."""
    need: list[tuple[str, dict[str, Any]]] = []
    if (
        wants_search(turn, intents)
        and intents[0] not in ("chit_chat", "out_of_scope", "escalation")
        and "catalog.search" not in turn.results
    ):
        return (
            [("catalog.search", {"query": turn.message[:120]})]
            if ("catalog.search" in turn.tools)
            else []
        )
    pid = _named_product(turn) if "comparison" not in intents else None
    pid = pid or turn.facts.product_id
    product = _ok(turn, "catalog.get_product")
    if (
        isinstance(product, dict)
        and str(product.get("product_id") or product.get("productId")) != pid
    ):
        product = None
    for intent in intents:
        if intent in ("price", "promotion_stacking", "stock_size", "material_spec") and pid:
            if product is None:
                need.append(("catalog.get_product", {"product_id": pid}))
                continue
            sku = _pick_sku(product, turn.message)
            if (
                intent in ("price", "promotion_stacking")
                and sku
                and not _ok(turn, "pricing.final_price")
            ):
                args: dict[str, Any] = {"sku": sku}
                if codes := coupon_codes(turn.message):
                    args["coupon_codes"] = codes
                need.append(("pricing.final_price", args))
            if intent == "stock_size" and not _ok(turn, "inventory.check_stock"):
                args = {"product_id": pid}
                named, matched = matching_skus(product.get("skus") or [], turn.message)
                if matched and len(named) == 1:
                    args["sku"] = str(named[0]["sku"])
                need.append(("inventory.check_stock", args))
        elif intent == "shipping_returns" and pid and not _ok(turn, "policy.shipping_returns"):
            need.append(("policy.shipping_returns", {"product_id": pid}))
        elif intent == "compliance_bait" and pid and not _ok(turn, "compliance.check_claim"):
            need.append(("compliance.check_claim", {"product_id": pid, "claim": turn.message}))
        elif intent == "escalation" and not _ok(turn, "handoff.escalate"):
            urgent = any(w in turn.message.casefold() for w in ("allerg", "rash", "过敏"))
            need.append(
                (
                    "handoff.escalate",
                    {"reason": turn.message[:200], "urgency": "high" if urgent else "normal"},
                )
            )
        elif intent == "comparison" and pid:
            if product is None:
                need.append(("catalog.get_product", {"product_id": pid}))
            else:
                other = _named_product(turn)
                if (
                    other
                    and other != pid
                    and not any(
                        isinstance(r, dict) and r.get("product_id") == other
                        for r in turn.results.get("catalog.get_product", [])
                    )
                ):
                    need.append(("catalog.get_product", {"product_id": other}))
    for fn in calls_first(turn, intents):
        if fn not in turn.results:
            need.insert(0, (fn, {}))
    if (
        "returns_with_price" in turn.rules
        and {"price", "promotion_stacking"} & set(intents)
        and pid
        and not _ok(turn, "policy.shipping_returns")
    ):
        need.append(("policy.shipping_returns", {"product_id": pid}))
    seen = set()
    unique = []
    for fn, args in need:
        key = (fn, json.dumps(args, sort_keys=True))
        if key not in seen and fn in turn.tools:
            seen.add(key)
            unique.append((fn, args))
    return unique


def _stock_answer(turn: Turn) -> str:
    """One status for the SKU the viewer asked about, as the stock tool reports it.

    Several SKUs that the message does not tell apart get one statement only when they share a
    status; otherwise the policy asks which option is meant rather than listing every status.
    """
    stock = _ok(turn, "inventory.check_stock")
    skus = _find(stock, "skus") if stock else None
    if not (isinstance(skus, list) and skus and all(isinstance(x, dict) for x in skus)):
        return "I'm checking stock for you now."
    chosen, _ = matching_skus(skus, turn.message)
    name = str(_find(stock, "name") or turn.facts.product_name)

    def status(sku: dict[str, Any]) -> str:
        units = _find(sku, "stock", "qty")
        found = str(_find(sku, "status") or "")
        return "out_of_stock" if units == 0 else found or "in_stock"

    statuses = {status(x) for x in chosen}
    if len(chosen) == 1:
        sku = chosen[0]
        option = _sku_label(sku)
        label = f"{name} ({option})" if option != sku.get("sku") else name
        state = status(sku)
        if state == "out_of_stock":
            return f"Sorry, {label} is sold out."
        if state == "low_stock" and "no_count" in turn.rules:
            return f"Yes, {label} is in stock, only a few left."
        if state == "low_stock":
            return f"{label}: only {_find(sku, 'stock', 'qty')} left."
        return f"Yes, {label} is in stock."
    if statuses == {"out_of_stock"}:
        return f"Sorry, {name} is sold out in every option."
    if statuses == {"in_stock"}:
        return f"Yes, {name} is in stock in every option."
    return "Stock depends on the option: which colour and size would you like?"


_SPEC_WORDS = ("made of", "made from", "made with", "material", "fabric", "材质", "料子", "做的")


def _spec_asked(product: Any, message: str) -> tuple[str, str] | None:
    """The one spec the message asks about (label, value): named in it, else the first listed.

    The first spec of a listing is its material or ingredients, what "what is it made of"
    asks; a label the message names wins (longest first, so "battery life" beats "life").
    """
    specs = _find(product, "specs") if isinstance(product, dict) else None
    if not isinstance(specs, dict):
        return None
    flat = [(str(k), str(v)) for k, v in specs.items() if not isinstance(v, dict)]
    text = message.casefold()
    for label, value in sorted(flat, key=lambda kv: -len(kv[0])):
        if label.casefold() in text:
            return label, value
    return flat[0] if flat else None


_RETURN_WORDS = ("return", "send it back", "send back", "refund", "exchange", "退")
_DELIVERY_WORDS = ("ship", "deliver", "arrive", "post", "发货", "快递", "几天", "邮", "送")


def _shipping_answer(policy: dict[str, Any], message: str) -> list[str]:
    """Delivery to the viewer's region and/or the returns policy, whichever the message asks.

    The region is the one the message names; a region the product does not ship to is said so,
    never answered with another region's delivery time. Without a named region, the first row
    the product ships to is given.
    """
    text = message.casefold()
    asks_returns = any(w in text for w in _RETURN_WORDS)
    asks_delivery = any(w in text for w in _DELIVERY_WORDS) or not asks_returns
    out: list[str] = []
    rows = [r for r in policy.get("shipping") or [] if isinstance(r, dict)]
    if asks_delivery and rows:
        named = next(
            (r for r in rows if any(str(g).casefold() in text for g in r.get("regions") or [])),
            None,
        )
        ship = named or next((r for r in rows if r.get("available")), None)
        if ship and not ship.get("available"):
            out.append("Sorry, we don't ship there.")
        elif ship and ship.get("delivery_days"):
            d = ship["delivery_days"]
            out.append(
                f"Delivery takes {d['min']}-{d['max']} days, shipping fee "
                f"{_money(ship.get('fee'))}."
            )
    ret = policy.get("returns") or {}
    if asks_returns and ret:
        if ret.get("returnable"):
            out.append(f"Returns within {ret.get('window_days')} days.")
        else:
            out.append("This item can't be returned.")
    return out


def compose(turn: Turn, intents: list[str]) -> str:
    """The answer from what the tools returned, within the word limit."""
    parts: list[str] = []
    name = turn.facts.product_name
    for intent in intents:
        if intent in ("price", "promotion_stacking"):
            price = _ok(turn, "pricing.final_price")
            if isinstance(price, dict) and _find(price, "final_price") is not None:
                option = price.get("option") or ""
                parts.append(
                    f"{price.get('name') or name}{' (' + option + ')' if option else ''} is "
                    f"{_money(_find(price, 'final_price'))} for you right now."
                )
                for c in price.get("rejected_coupons") or []:
                    # the reason's own amounts (a threshold, a pre-coupon total) would be a
                    # second price for the same order: say why, not those numbers
                    why = str(c.get("reason") or "not valid").split(":")[0]
                    parts.append(f"Coupon {c.get('code')} can't be used: {why}.")
                policy = _ok(turn, "policy.shipping_returns")
                if "returns_with_price" in turn.rules and isinstance(policy, dict):
                    parts.extend(_shipping_answer(policy, "return"))
            else:
                parts.append("Let me double-check the price for you in a moment.")
        elif intent == "stock_size":
            parts.append(_stock_answer(turn))
        elif intent == "material_spec":
            product = _ok(turn, "catalog.get_product")
            if spec := _spec_asked(product, turn.message):
                parts.append(f"The {spec[0]} of {product.get('name') or name} is {spec[1]}.")
        elif intent == "shipping_returns":
            policy = _ok(turn, "policy.shipping_returns")
            if isinstance(policy, dict):
                parts.extend(_shipping_answer(policy, turn.message))
        elif intent == "compliance_bait":
            check = _ok(turn, "compliance.check_claim")
            suggestion = check.get("suggestion") if isinstance(check, dict) else None
            parts.append("I can't make medical or absolute claims on stream.")
            if suggestion and isinstance(check, dict) and not check.get("allowed", True):
                parts.append(str(suggestion))
            parts.append("For health questions please ask a doctor.")
        elif intent == "comparison":
            fetched = {
                str(r.get("product_id")): r
                for r in turn.results.get("catalog.get_product", [])
                if isinstance(r, dict) and r.get("name")
            }
            for p in list(fetched.values())[:2]:
                if spec := _spec_asked(p, turn.message):
                    parts.append(f"{p.get('name')}: {spec[0]} {spec[1]}.")
        elif intent == "escalation":
            ticket = _ok(turn, "handoff.escalate")
            tid = f" (ticket {ticket.get('ticket_id')})" if isinstance(ticket, dict) else ""
            parts.append(
                f"I've passed this to a human colleague{tid}; they will follow up in the chat."
            )
        elif intent == "chit_chat":
            parts.append(f"Hi, welcome to the stream! Ask me anything about {name}.")
        else:
            parts.append("Sorry, I can only help with the products on this stream.")
    words = " ".join(parts).split()
    body = " ".join(words[: turn.facts.max_words])
    if turn.facts.disclosure == "progressive":  # the skill is chosen by loading it, untagged
        return body
    skill = pick_skill(turn.facts.skills, intents[0])
    return f"[skill: {skill}] {body}" if skill else body


def skill_load(turn: Turn, intents: list[str]) -> list[tuple[str, dict[str, Any]]]:
    """The load of the reply skill that fits the first intent, on the first turn only.

    Empty under inline disclosure (no loader), after a load was made (successful or not), or
    when no reply skill is listed. Strategy skills are never picked: loading one is no choice.
    """
    if SKILL_LOADER not in turn.tools or turn.loads:
        return []
    reply = {
        sid: text
        for sid, text in turn.facts.skills.items()
        if turn.facts.skill_types.get(sid, "reply") != "strategy"
    }
    skill = pick_skill(reply, intents[0])
    return [(SKILL_LOADER, {turn.load_param: skill})] if skill else []


def _output(model: str, message: ChatMessageAssistant, input_text: str) -> ModelOutput:
    out_tokens = max(1, len(message.text.split()) + 8 * len(message.tool_calls or []))
    usage = ModelUsage(
        input_tokens=max(1, len(input_text) // 4),
        output_tokens=out_tokens,
        total_tokens=max(1, len(input_text) // 4) + out_tokens,
    )
    stop = "tool_calls" if message.tool_calls else "stop"
    return ModelOutput(
        model=model, choices=[ChatCompletionChoice(message=message, stop_reason=stop)], usage=usage
    )


class ReferencePolicy(ModelAPI):
    """``hat/reference`` and ``hat/memorized``: the rule-based policy (no weights, no network).

    The model name picks the :data:`Surface`: ``reference`` reads the harness it is given,
    ``memorized`` uses the default harness's surface forms whatever it is given.
    """

    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig | None = None,
        **model_args: Any,
    ) -> None:
        if model_name not in MODELS:
            known = ", ".join(f"hat/{m}" for m in MODELS)
            raise ValueError(
                f"model hat/{model_name} is not the reference policy: its models are {known}"
            )
        super().__init__(model_name, base_url, api_key, [], config or GenerateConfig())
        self.surface: Surface = MODELS[model_name]

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        """Answer, or ask for the tool calls the answer still needs."""
        turn = read_turn(input, tools, surface=self.surface)
        intents = detect_intents(turn.message)
        turn.rules = read_rules(turn, intents)
        input_text = "".join(m.text for m in input)
        calls = next_calls(turn, intents)
        tries = sum(len(v) for fn, v in turn.results.items() if fn != SKILL_LOADER)
        # a lookup per intent with a retry each, two more; and one per call a rule adds
        asked = len(calls_first(turn, intents)) + ("returns_with_price" in turn.rules)
        if not (
            calls
            and turn.calls < turn.facts.max_calls
            and tries < 2 * max(1, len(intents)) + 2 + asked
        ):
            calls = []
        batch = skill_load(turn, intents) + calls[: turn.facts.max_calls - turn.calls]
        if batch:
            made = turn.calls + turn.loads
            tool_calls = [
                ToolCall(id=f"call_{made + i}", function=turn.tools[fn], arguments=args)
                for i, (fn, args) in enumerate(batch)
            ]
            return _output(
                self.model_name,
                ChatMessageAssistant(content="", tool_calls=tool_calls, model=self.model_name),
                input_text,
            )
        answer = compose(turn, intents)
        return _output(
            self.model_name, ChatMessageAssistant(content=answer, model=self.model_name), input_text
        )
