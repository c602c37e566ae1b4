"""Strict and loose instruction following, exactly as the reference's ``evaluation_lib``.

The 25 checkers are the reference's own (``if_verifiable.ifeval``: a verbatim copy of
google-research ``instruction_following_eval/instructions*.py``); this module is only the
reference's driver loop. Strict: the response as it is. Loose: the instruction counts as
followed if any of eight variants passes: the response, and the response without its first
line, without its last line, without both, each of these four also with every ``*`` removed.
A response that is empty or only whitespace follows nothing.
"""

from __future__ import annotations

import functools
import multiprocessing
import random
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from ._data import IFEvalError, IFEvalExample
from ._punkt import ensure_punkt

BUILD_SEED = 0
"""Seed of the draws a checker makes while it is built (see :func:`_checker`)."""


@dataclass(frozen=True)
class Verdict:
    """Which instructions of one prompt a response follows, strictly and loosely."""

    example: IFEvalExample
    strict: tuple[bool, ...]
    loose: tuple[bool, ...]

    @property
    def all_strict(self) -> bool:
        """Prompt-level strict: every instruction followed."""
        return all(self.strict)

    @property
    def all_loose(self) -> bool:
        """Prompt-level loose: every instruction followed by some loose variant."""
        return all(self.loose)

    def to_row(self) -> dict[str, Any]:
        """The per-prompt result line (the reference's ``eval_results_*.jsonl`` fields)."""
        return {
            **self.example.ident,
            "follow_all_instructions_strict": self.all_strict,
            "follow_instruction_list_strict": list(self.strict),
            "follow_all_instructions_loose": self.all_loose,
            "follow_instruction_list_loose": list(self.loose),
        }


@functools.cache
def instruction_registry() -> Mapping[str, Any]:
    """The reference's ``INSTRUCTION_DICT`` (id -> checker class), ready to run offline.

    First use makes NLTK's English punkt tables available (:func:`ensure_punkt`) and seeds
    ``langdetect`` (``DetectorFactory.seed = 0``): the reference leaves it unseeded, so its
    language checks can flip between runs on ambiguous text; seeded, every run agrees.
    """
    ensure_punkt()
    from langdetect import DetectorFactory
    from langdetect.detector_factory import init_factory

    DetectorFactory.seed = 0
    init_factory()  # load the language profiles now, once, before any worker is forked
    import nltk
    from if_verifiable.ifeval import instructions_util
    from if_verifiable.ifeval.instructions_registry import INSTRUCTION_DICT

    instructions_util.count_sentences("Warm up. Load punkt.")  # the checkers' sentence splitter
    nltk.word_tokenize("Warm up. Load punkt.")  # and the word tokenizer's own
    return dict(INSTRUCTION_DICT)


def instruction_ids() -> list[str]:
    """Every instruction id the checkers know, sorted."""
    return sorted(instruction_registry())


def validate_examples(examples: Sequence[IFEvalExample]) -> None:
    """Refuse an example whose instruction id no checker knows, naming where it was read."""
    known = instruction_registry()
    for ex in examples:
        for iid in ex.instruction_id_list:
            if iid not in known:
                raise IFEvalError(
                    f"{ex.where or ex.ident}: unknown instruction id {iid!r}; expected one of "
                    f"the {len(known)} reference ids (e.g. punctuation:no_comma)"
                )


def loose_variants(response: str) -> list[str]:
    """The reference's eight loose variants of a response, in its order."""
    lines = response.split("\n")
    remove_first = "\n".join(lines[1:]).strip()
    remove_last = "\n".join(lines[:-1]).strip()
    remove_both = "\n".join(lines[1:-1]).strip()
    return [
        response,
        response.replace("*", ""),
        remove_first,
        remove_last,
        remove_both,
        remove_first.replace("*", ""),
        remove_last.replace("*", ""),
        remove_both.replace("*", ""),
    ]


def _checker(example: IFEvalExample, index: int) -> Any:
    iid = example.instruction_id_list[index]
    checker = instruction_registry()[iid](iid)  # the id is known (check_response validated it)
    # A checker given an argument it cannot use draws a random one from the global
    # ``random`` (the reference's keywords:letter_frequency with letter "#" picks a random
    # ASCII letter). Seeded here, and the caller's random state restored, the draw is the
    # same in every run, process and mode, so loose never contradicts strict.
    state = random.getstate()
    random.seed(BUILD_SEED)
    try:
        checker.build_description(**example.kwargs[index])
        args = checker.get_instruction_args()
        if args and "prompt" in args:
            checker.build_description(prompt=example.prompt)
    except TypeError as err:
        raise IFEvalError(
            f"{example.where or example.ident}: arguments {example.kwargs[index]} do not fit "
            f"instruction {iid!r} ({err})"
        ) from err
    finally:
        random.setstate(state)
    return checker


def check_response(example: IFEvalExample, response: str) -> Verdict:
    """Score one response against one prompt's instructions, strict and loose.

    The same booleans as the reference, with less work: a checker's verdict depends only
    on the text (``langdetect`` and the build's draws are seeded), so loose reuses the strict
    checker and its verdict for the unchanged response, and checks each distinct variant once.
    """
    validate_examples([example])
    variants = loose_variants(response)
    strict: list[bool] = []
    loose: list[bool] = []
    for index in range(len(example.instruction_id_list)):
        # The reference builds a second checker for loose; with the build's draws seeded it
        # would be identical to this one.
        checker = _checker(example, index)
        followed = bool(response.strip() and checker.check_following(response))
        strict.append(followed)
        if not followed:
            seen = {response}
            for variant in variants[1:]:
                if variant in seen:
                    continue
                seen.add(variant)
                if variant.strip() and checker.check_following(variant):
                    followed = True
                    break
        loose.append(followed)
    return Verdict(example, tuple(strict), tuple(loose))


def check_all(pairs: Sequence[tuple[IFEvalExample, str]], workers: int = 1) -> list[Verdict]:
    """:func:`check_response` over many (example, response) pairs, in order.

    ``workers > 1`` spreads the pairs over that many processes (forked where the platform
    allows, after the checkers are loaded, so workers start warm); the verdicts are the same
    as serially, since every checker is a pure function of its text.
    """
    if workers <= 1 or len(pairs) < 4 * workers:
        return [check_response(e, r) for e, r in pairs]
    instruction_registry()
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
    chunk = max(1, len(pairs) // (8 * workers))
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
        return list(pool.map(check_response, *zip(*pairs, strict=True), chunksize=chunk))
