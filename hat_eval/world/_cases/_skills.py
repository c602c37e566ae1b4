"""Each intent's gold skill, read from the default harness.

The harness file owns the skill ids: each skill of ``hat_eval/harness/live_commerce.yaml`` lists
the viewer intents it answers (``Skill.intents``). :data:`SKILL_OF` reads them on first use, once,
and checks that every single intent has exactly one skill.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from hat_eval._cache import LazyMapping
from hat_eval.harness import Harness, HarnessError, default_harness_path, load_harness

from ._intents import SINGLE_INTENTS


def skill_of(harness: Harness, source: str = "<harness>") -> dict[str, str]:
    """Intent -> id of the skill of ``harness`` that lists it, for every single intent.

    Raises:
        HarnessError: a skill lists an intent that is not a single intent, two skills list the
            same intent, or an intent is listed by no skill (``source`` names the file).
    """
    found: dict[str, str] = {}
    for i, skill in enumerate(harness.skills):
        for j, intent in enumerate(skill.intents):
            where = f"skills.{i}.intents.{j}"
            if intent not in SINGLE_INTENTS:
                raise HarnessError(
                    source,
                    where,
                    f"intent {intent!r} is unknown, expected one of {', '.join(SINGLE_INTENTS)}",
                )
            if intent in found:
                raise HarnessError(
                    source,
                    where,
                    f"intent {intent!r} is also listed by skill {found[intent]!r}, expected "
                    "each intent under one skill",
                )
            found[intent] = skill.id
    missing = [i for i in SINGLE_INTENTS if i not in found]
    if missing:
        raise HarnessError(
            source,
            "skills",
            f"no skill lists the intent(s) {', '.join(missing)}, expected each intent under "
            "the intents of one skill",
        )
    return {i: found[i] for i in SINGLE_INTENTS}


@cache
def default_skill_of() -> dict[str, str]:
    """:func:`skill_of` the default harness (read once)."""
    return skill_of(load_harness(None), str(default_harness_path()))


SKILL_OF: Mapping[str, str] = LazyMapping(default_skill_of)
"""The default harness's skill for each single intent, in intent order (a multi-intent case's
gold skills are those of its two parts)."""


RULE_SOURCE = "skill:"
"""The prefix of a fact's source that names a harness skill's rule (advice the answer gives), not a
field of the knowledge base."""


def rule_source(intent: str, rule_id: str) -> str:
    """The fact source ``skill:<id>.<rule id>`` of a rule of the skill that answers ``intent``."""
    return f"{RULE_SOURCE}{SKILL_OF[intent]}.{rule_id}"
