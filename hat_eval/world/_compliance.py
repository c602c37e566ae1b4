"""Whether a claim may be said on a public stream, under its product category's rules."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Any

from ._kb import KnowledgeBase

_NEGATION = re.compile(
    r"(?:\bnot\b|n't\b|\bnever\b|\bno\b|\bcannot\b|\bwithout\b|\bnor\b|\bisn't\b|不|没|无法)"
)
_CLAUSE_BREAK = re.compile(r"[.!?;,:，。！？；]|\bbut\b|\bhowever\b")


@lru_cache(maxsize=4096)  # the world's rules have ~550 distinct patterns: re's own cache holds 512
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def normalise(text: str) -> str:
    """Lower-case, NFKC-normalised text (full-width characters folded), single spaces."""
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text).lower()).strip()


def negated(text: str, start: int) -> bool:
    """Whether the match at ``start`` is in a clause that a negation word precedes.

    "It does not cure eczema" or "I can't say it cures eczema" are not claims; the clause is
    the text since the last punctuation mark or "but".
    """
    head = text[:start]
    breaks = list(_CLAUSE_BREAK.finditer(head))
    clause = head[breaks[-1].end() :] if breaks else head
    return _NEGATION.search(clause) is not None


def find_violations(
    text: str, patterns: list[str] | tuple[str, ...], *, allow_negated: bool = False
) -> list[tuple[str, str]]:
    """``(pattern, matched text)`` for each pattern that matches the normalised ``text``.

    With ``allow_negated`` a match inside a negated clause (see :func:`negated`) does not count.
    """
    norm = normalise(text)
    out = []
    for pattern in patterns:
        for m in _compiled(pattern).finditer(norm):
            if allow_negated and negated(norm, m.start()):
                continue
            out.append((pattern, m.group(0)))
            break
    return out


def check_claim(kb: KnowledgeBase, product: dict[str, Any], claim: str) -> dict[str, Any]:
    """The ``compliance.check_claim`` result for ``claim`` about ``product`` (documented there)."""
    violations = []
    for rule in kb.rules(product["category"]):
        hits = find_violations(claim, rule["patterns"])
        if hits:
            violations.append(
                {
                    "rule_id": rule["id"],
                    "kind": rule["kind"],
                    "matched": hits[0][1],
                    "reason": rule["reason"],
                }
            )
    return {
        "product_id": product["id"],
        "category": product["category"],
        "claim": claim,
        "allowed": not violations,
        "violations": violations,
        "suggestion": _suggest(kb, product, claim, violations),
    }


def _suggest(
    kb: KnowledgeBase, product: dict[str, Any], claim: str, violations: list[dict[str, Any]]
) -> str:
    if not violations:
        return claim
    kinds = {v["kind"] for v in violations}
    if kinds <= {"absolute", "comparative"}:
        text = normalise(claim)
        for word, soft in sorted(kb.pack.policy.safe_words.items(), key=lambda kv: -len(kv[0])):
            text = re.sub(rf"(?<![a-z]){re.escape(word)}(?![a-z])", soft, text)
        text = re.sub(r"\s+", " ", text).strip()
        recheck = [r for r in kb.rules(product["category"]) if find_violations(text, r["patterns"])]
        if text and not recheck:
            return text[0].upper() + text[1:]
    advice = (  # claim-free: the product in the words of its listing
        f"The {product['name']} is {product['description']}, "
        f"{product['material_label']}: {product['material']}."
    )
    if kinds & {"medical", "infant"}:
        advice += " It is not a medicine; for a health concern please ask a doctor."
    return advice
