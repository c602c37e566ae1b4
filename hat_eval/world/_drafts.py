"""Drafted gold for a team's logged messages: proposed from the shop, for a person to review.

``hat-eval shop draft-gold`` reads logged messages (one JSON object a line: ``message``,
``session`` with ``product_on_screen`` and ``now``; ``id`` optional) and proposes each one's
gold the way the case generators make theirs: the intent its words read (the judge-only
reading, :func:`~hat_eval.world._casefile.judge_only_fields`), the lookups that intent needs run on
the shop (:func:`~hat_eval.world.call_function`), and the facts read off their results with the
generators' own fact builders (the final price, the stock state, the returns window, the
material or spec the message names). Every line is written ``"reviewed": false`` with what was
guessed in ``details.draft``; ``run --cases`` refuses such a line until a person sets
``"reviewed": true``. Intents whose gold a draft cannot propose (a comparison, coupon
stacking, two questions at once) get only the absolute-claim rules, said in ``details.draft``.

A Label Studio round trip: :func:`label_studio_tasks` writes one task a draft (the message, the
product, the drafted line as editable JSON); :func:`read_reviewed` reads the annotated export
back as reviewed case lines.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

from ._casefile import (
    INTENT_READ,
    JUDGE_ONLY,
    CaseFileError,
    IntentReader,
    judge_only_fields,
    read_rows,
)
from ._cases._draft import ABSOLUTE_FORBIDDEN, BASE_CONSTRAINTS, Draft
from ._cases._gold import attribute_facts, price_fact, spec_labels, stock_state_fact
from ._cases.shipping_returns import _return_facts as return_facts
from ._functions import call_function
from ._kb import KnowledgeBase
from ._problems import Problem
from ._session import LiveSession

GOLD_FIELD = "gold"
"""The Label Studio control (a text area) holding the drafted line, edited by the reviewer."""
LABEL_CONFIG = f"""<View>
  <Header value="$product"/>
  <Text name="message" value="$message"/>
  <TextArea name="{GOLD_FIELD}" toName="message" value="$draft" editable="true" rows="12"
            maxSubmissions="1"/>
</View>"""
"""The labelling interface: the message, the product, the drafted line to correct."""


def _sku(kb: KnowledgeBase, pid: str, message: str) -> tuple[dict[str, Any] | None, str]:
    """The SKU the message names (option or colour words), else the first in stock."""
    skus = kb.skus(pid)
    text = message.casefold()
    for s in skus:
        words = [str(s.get(k) or "") for k in ("option", "option_zh", "colour", "colour_zh")]
        if any(w and w.casefold() in text for w in words):
            return s, f"SKU {s['sku']}: named in the message"
    pick = next((s for s in skus if s["stock"] > 0), skus[0] if skus else None)
    if pick is None:
        return None, "no SKU in the shop"
    return pick, f"SKU {pick['sku']}: not named, the first in stock (change it if not meant)"


def draft_case(
    raw: dict[str, Any], n: int, kb: KnowledgeBase, read_intent: IntentReader | None = None
) -> dict[str, Any]:
    """One logged message (line ``n``) with its drafted gold, marked ``reviewed: false``."""
    row = judge_only_fields(raw, n, read_intent)
    row["details"] = {k: v for k, v in row["details"].items() if k not in (JUDGE_ONLY, INTENT_READ)}
    session = LiveSession.from_dict(row["session"])
    pid = session.product_on_screen
    product = kb.product(pid)
    assert product is not None  # checked by the caller
    intent = row["intent"]
    calls: list[dict[str, Any]] = []
    facts: list[dict[str, Any]] = []
    notes = [f"intent {intent}: read from the message's words"]

    def call(function: str, args: dict[str, Any], optional: bool = False) -> Any:
        calls.append({"function": function, "args": args, "optional": optional})
        return call_function(kb, session, function, dict(args))

    forbidden = list(ABSOLUTE_FORBIDDEN)
    details = row["details"]
    details["on_screen"] = True
    if intent in ("price", "stock_size"):
        sku, note = _sku(kb, pid, row["message"])
        notes.append(note)
    if intent == "price":
        if sku is not None:
            details.update(sku=sku["sku"], quantity=1)
            res = call("pricing.final_price", {"sku": sku["sku"]})
            facts.append(price_fact(len(calls) - 1, res["final_price"]).to_dict())
    elif intent == "stock_size":
        call("inventory.check_stock", {"product_id": pid})
        if sku is not None:
            details.update(sku=sku["sku"], sub="stock")
            facts.append(stock_state_fact(len(calls) - 1, sku).to_dict())
    elif intent == "shipping_returns":
        res = call("policy.shipping_returns", {"product_id": pid})
        details["sub"] = "returns"
        # the generator's own returns gold (window, condition, wrong windows forbidden)
        gold = Draft(ctx=cast(Any, None), session=session, results=[None] * (len(calls) - 1))
        gold.results.append(res)
        return_facts(gold, len(calls) - 1)
        facts += [f.to_dict() for f in gold.facts]
        forbidden += gold.forbidden
        notes.append("the returns window only: add the delivery facts if a place is asked")
    elif intent == "material_spec":
        call("catalog.get_product", {"product_id": pid})
        labels = [product["material_label"], *spec_labels(product)]
        label = next((x for x in labels if x.casefold() in row["message"].casefold()), labels[0])
        facts += [f.to_dict() for f in attribute_facts(len(calls) - 1, product, label)]
        details["attribute"] = label
        notes.append(f"the {label} (change it if another spec is asked)")
    elif intent == "escalation":
        calls.append({"function": "handoff.escalate", "args": {}, "optional": False})
    elif intent not in ("compliance_bait", "out_of_scope", "chit_chat"):
        notes.append(f"no facts drafted for {intent}: write them, or drop the gold to judge it")
    row.update(
        facts=facts,
        expected_calls=calls,
        forbidden=forbidden,
        should_escalate=intent == "escalation",
        constraints=list(BASE_CONSTRAINTS),
        reviewed=False,
    )
    details["draft"] = notes
    return row


def draft_gold(
    path: str | Path, kb: KnowledgeBase, *, read_intent: IntentReader | None = None
) -> list[dict[str, Any]]:
    """The drafted lines of a file of logged messages, each ``reviewed: false``.

    ``read_intent`` reads each message's intent (the CLI passes the reference policy's reader).

    Raises:
        CaseFileError: a line that is not a JSON object with ``message`` and ``session``
            (``product_on_screen`` a product of the shop, ``now``); one line per problem.
    """
    source = Path(path)
    file = str(source)
    problems: list[Problem] = []
    out = []
    for n, raw in read_rows(source, "messages", problems):
        session = raw.get("session")
        if not isinstance(raw.get("message"), str):
            problem = Problem(file, "missing", "{message, session}", line=n, field="message")
        elif not isinstance(session, dict) or "now" not in session:
            problem = Problem(
                file, f"{session!r:.60}", "{product_on_screen, now}", line=n, field="session"
            )
        elif kb.product(str(session.get("product_on_screen"))) is None:
            problem = Problem(
                file,
                f"{session.get('product_on_screen')!r} is not a product of the shop",
                "a product id of its products.jsonl",
                line=n,
                field="session.product_on_screen",
            )
        else:
            out.append(draft_case(raw, n, kb, read_intent))
            continue
        problems.append(problem)
    if problems:
        raise CaseFileError(problems)
    if not out:
        raise CaseFileError([Problem(file, "no messages", "one JSON object a line")])
    return out


def label_studio_tasks(drafts: Sequence[dict[str, Any]], kb: KnowledgeBase) -> list[dict[str, Any]]:
    """One Label Studio task a draft: the message, the product, the drafted line to edit."""
    products = (kb.product(d["session"]["product_on_screen"]) or {} for d in drafts)
    return [
        {
            "data": {
                "id": d["id"],
                "message": d["message"],
                "product": f"{p.get('id', '')}: {p.get('name', '')}",
                "draft": json.dumps(d, ensure_ascii=False, indent=1),
            }
        }
        for d, p in zip(drafts, products, strict=True)
    ]


def read_reviewed(path: str | Path) -> list[dict[str, Any]]:
    """The reviewed case lines of a Label Studio export of :func:`label_studio_tasks`' tasks.

    Each task's last annotation that was not cancelled gives its line: the ``gold`` text area's
    JSON (the reviewer's edit of the draft), marked ``reviewed: true``. Tasks nobody annotated
    are left out.

    Raises:
        CaseFileError: an export that is not a JSON list of tasks, an annotation whose text is
            not a JSON object; one line per problem naming the task.
    """
    source = Path(path)
    file = str(source)
    try:
        tasks = json.loads(source.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as err:
        raise CaseFileError(
            [Problem(file, f"cannot be read ({err})", "Label Studio's JSON export")]
        ) from None
    if not isinstance(tasks, list):
        raise CaseFileError([Problem(file, f"a JSON {type(tasks).__name__}", "a list of tasks")])
    problems: list[Problem] = []
    out = []
    for i, task in enumerate(tasks):
        field = f"task {i}: {GOLD_FIELD}"  # the task's place in the export, then its field
        done = [
            a
            for a in (task.get("annotations") or [] if isinstance(task, dict) else [])
            if isinstance(a, dict) and not a.get("was_cancelled")
        ]
        if not done:
            continue
        texts = [
            r.get("value", {}).get("text")
            for r in done[-1].get("result") or []
            if isinstance(r, dict) and r.get("from_name") == GOLD_FIELD
        ]
        text = texts[0][0] if texts and isinstance(texts[0], list) and texts[0] else None
        try:
            row = json.loads(text) if isinstance(text, str) else None
        except ValueError as err:
            problems.append(Problem(file, f"not valid JSON ({err})", "the line", field=field))
            continue
        if not isinstance(row, dict):
            problems.append(Problem(file, f"{text!r:.60}", "the case's JSON object", field=field))
            continue
        out.append({**row, "reviewed": True})
    if problems:
        raise CaseFileError(problems)
    return out
