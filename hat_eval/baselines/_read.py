"""The reference policy reads what a model is given: tools, system prompt, viewer, tool results.

Tools are known by the words of their descriptions (names change under HSA), skills and limits
by the rendered prompt's sections, the viewer's intents by keywords, and tool results in whatever
format the hooks wrap them. The keyword tables are data (``baselines/vocab/``,
:func:`~hat_eval.baselines._vocab.policy_vocab`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Literal

from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageTool,
    ChatMessageUser,
)
from inspect_ai.tool import ToolInfo

from hat_eval.harness import SKILL_LOADER

from ._vocab import policy_vocab

# -- reading tools from their descriptions -------------------------------------------------------


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
        for fn, words in policy_vocab().tool_words.items():
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
    if screen := re.search(r"On screen: (.*) \(product id ([^)\s]+)\)", system):
        facts.product_name, facts.product_id = screen.group(1), screen.group(2)
    return facts


def pick_skill(skills: dict[str, str], intent: str) -> str | None:
    """The skill whose text best matches the intent's words (None without skills).

    The text is what the prompt gives: a skill whole under inline disclosure, its id and
    description under progressive disclosure (:attr:`PromptFacts.skills`).
    """
    words = policy_vocab().skill_words.get(intent, ())
    best = max(skills.items(), key=lambda kv: sum(kv[1].count(w) for w in words), default=None)
    return best[0] if best else None


# -- reading the viewer ------------------------------------------------------------------------


def detect_intents(message: str) -> list[str]:
    """Intents whose words occur in the message, most specific first; out_of_scope if none."""
    text = f" {message.casefold()} "
    found = [intent for intent, words in policy_vocab().intents if any(w in text for w in words)]
    if "promotion_stacking" in found and "price" in found:
        found.remove("price")
    return found[:2] or ["out_of_scope"]


def read_intent(message: str) -> str:
    """The one intent a viewer message's words read (a world intent; out_of_scope if none).

    What ``hat-eval run --cases`` and ``shop draft-gold`` use for a logged message that does
    not give its intent (:data:`hat_eval.world.IntentReader`).
    """
    from hat_eval.world import INTENTS

    return next((i for i in detect_intents(message) if i in INTENTS), "out_of_scope")


_COUPON = re.compile(r"\b[A-Z]{2,}[0-9]{0,4}\b")


def coupon_codes(message: str) -> list[str]:
    """Upper-case codes such as LIVE20 in the message (not sizes or plain words)."""
    return [
        c
        for c in _COUPON.findall(message)
        if any(ch.isdigit() for ch in c) or c.startswith(policy_vocab().coupon_prefixes)
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


def find_value(value: Any, *keys: str) -> Any:
    """The first value under any of ``keys`` (or a key starting with one), depth first."""
    if isinstance(value, dict):
        for k, v in value.items():
            if any(k == key or k.startswith(key + "_") for key in keys):
                return v
    inner = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    for v in inner:
        found = find_value(v, *keys)
        if found is not None:
            return found
    return None


def money_text(value: Any) -> str:
    """A price as an answer writes it (``¥12.50``, ``¥30``); other values as they are."""
    try:
        return f"¥{float(value):.2f}".replace(".00", "")
    except (TypeError, ValueError):
        return str(value)


# -- the policy ----------------------------------------------------------------------------------


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
    for said, written in policy_vocab().colours:
        text = text.replace(said, f" {written} ")
    scored = []
    for s in skus:
        option = str(s.get("option") or "").casefold()
        colour = str(s.get("colour") or "").casefold()
        score = (bool(option) and _names(option, text)) + (bool(colour) and _names(colour, text))
        scored.append((score, s))
    best = max((score for score, _ in scored), default=0)
    return [s for score, s in scored if score == best], best > 0


def sku_label(sku: dict[str, Any]) -> str:
    """How an answer names a SKU: its option and colour (else its id)."""
    return ", ".join(str(sku[k]) for k in ("option", "colour") if sku.get(k)) or str(sku["sku"])


# -- the turn ----------------------------------------------------------------------------------


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
disclosure form the prompt has: see :mod:`hat_eval.baselines._reference_policy`)."""


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
        if m and any(m.group(1) in policy_vocab().skill_words.get(i, ()) for i in intents):
            out.append(fn)
    return out


def ok_result(turn: Turn, fn: str) -> Any:
    """The last usable result of ``fn`` (a dict or list that is not an error), or None."""
    for r in reversed(turn.results.get(fn, [])):
        if (
            isinstance(r, dict | list)
            and r
            and not (isinstance(r, dict) and "kind" in r and "message" in r)
        ):
            return r
    return None
