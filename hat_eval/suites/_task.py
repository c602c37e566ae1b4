"""The one builder behind the case suites' ``@task`` functions (livestream, variant, robustness)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from inspect_ai import Epochs, Task
from inspect_ai.dataset import MemoryDataset
from inspect_ai.model import GenerateConfig
from inspect_ai.scorer import Scorer

from hat_eval.episode import (
    DATASET_VERSION,
    Episode,
    Recipe,
    base_harness,
    dataset_sha256,
    harness_sha256,
    knowledge_base,
)
from hat_eval.harness import default_harness_path, load_changelog
from hat_eval.world import Split, read_case_file

from ._agent import harness_agent, react_baseline
from ._catalog import disclosure_harness
from ._recipes import suite_episodes, suite_recipe
from ._samples import to_sample
from ._scorers import part_mean

Agent = Literal["harness", "react"]
AGENTS: tuple[Agent, ...] = ("harness", "react")


def check_harness_functions(episodes: list[Episode]) -> None:
    """Raise ``ValueError`` naming a function an episode's gold calls that its harness lacks.

    The functions needed are read off the episodes themselves (every expected call, required
    or optional), so no list of them is kept here.
    """
    needed: dict[str | None, set[str]] = {}
    for e in episodes:
        needed.setdefault(e.harness.path, set()).update(c.function for c in e.case.expected_calls)
    for path, functions in needed.items():
        bound = {t.function for t in base_harness(path).tools}
        for fn in sorted(functions - bound):
            raise ValueError(
                f"{path or default_harness_path()}: tools: no tool is bound to function "
                f"{fn!r}, which the suite's cases call; expected a tool with `function: {fn}`"
            )


ANSWER_LIMIT = "max_words"
"""The harness constraint that bounds an answer's length (its ``max``: the most a variant asks)."""
TOKENS_PER_WORD = 2
"""Tokens a word of an answer may take (English words, numbers and CJK characters each take one
or two in the tokenizers the suites run on; an emoji takes two or three, and there are few)."""
TURN_OVERHEAD_TOKENS = 64
"""Tokens beyond the words: the skill tag, the end of turn, or a whole tool call in JSON."""
DEFAULT_TURN_TOKENS = 512
"""The cap of a harness without an answer limit."""


def turn_token_cap(harnesses: list[str | None]) -> int:
    """The most tokens a model turn of a case suite needs under ``harnesses`` (harness files).

    Derived from each harness's answer limit (:data:`ANSWER_LIMIT`, at its ``max``: the most any
    HSA variant of that harness may ask): ``max * TOKENS_PER_WORD + TURN_OVERHEAD_TOKENS``, the
    largest over the harnesses; :data:`DEFAULT_TURN_TOKENS` for a harness without the limit.
    Without a cap Inspect's ``hf/`` provider lets a local model write 2,048 tokens a turn, which
    on a CPU is minutes per sample; ``--max-tokens`` (Inspect's ``max_tokens``) overrides it.
    """
    limits = [base_harness(p).constraints().get(ANSWER_LIMIT) for p in dict.fromkeys(harnesses)]
    caps = [
        DEFAULT_TURN_TOKENS if c is None else int(c.max) * TOKENS_PER_WORD + TURN_OVERHEAD_TOKENS
        for c in limits
    ]
    return max(caps, default=DEFAULT_TURN_TOKENS)


@dataclass(frozen=True)
class CaseTaskSpec:
    """What one case suite's task runs and records; :meth:`task` builds it.

    The harness goes into the episodes only: each sample carries a reference to it (path,
    content hash, variant), and the agent and the scorer both read it from the sample.

    Attributes:
        suite: ``livestream``, ``variant``, ``robustness`` or ``evolution``.
        split: the product split the cases come from (``test`` for evaluation).
        harness: harness file to run under (the default live-commerce harness if None);
            resolved with ``disclosure`` when made.
        agent: ``harness`` (the harness-driven agent) or ``react`` (Inspect's ReAct baseline).
        n: number of cases (the suite's size by default; a larger ``n`` is the whole suite).
        seed: case seed (the suite's fixed seed by default).
        kb_seed: seed of the product knowledge base.
        max_turns: most model calls per viewer message for the harness agent.
        disclosure: ``inline`` or ``progressive`` skills: without ``harness``, the default
            harness of that form (None: inline); with it, the file's own form, repeated
            (:func:`~hat_eval.suites.disclosure_harness`).
        harness_version: a suite over a harness changelog (its recipe names one): the version
            to run, ``vK``, or a range ``vA..vB`` (all if None).
        changelog: a suite over a harness changelog: another changelog file to run.
        shop: a shop folder (data pack) to draw the cases from; the tools, checks and judge
            read it too (the built-in shop if None).
        cases: a cases file (a team's viewer messages with gold, the case schema, about
            ``shop``'s products) to run instead of generated cases.
    """

    suite: str
    split: Split = "test"
    harness: str | None = None
    agent: Agent = "harness"
    n: int | None = None
    seed: int | None = None
    kb_seed: int = 0
    max_turns: int = 5
    disclosure: str | None = None
    harness_version: str | None = None
    changelog: str | None = None
    shop: str | None = None
    cases: str | None = None

    def __post_init__(self) -> None:
        if self.agent not in AGENTS:
            raise ValueError(
                f"agent {self.agent!r} is unknown, expected one of {', '.join(AGENTS)}"
            )
        object.__setattr__(self, "harness", disclosure_harness(self.harness, self.disclosure))

    def task(self, scorer: Scorer) -> Task:
        """The Inspect task: the episodes as samples, the agent, ``scorer`` and the metadata.

        Raises:
            HarnessError: the changelog or a version's harness is invalid, or
                ``harness_version`` names a version it does not have.
            CaseFileError: the cases file does not read (one line per problem).
        """
        recipe = suite_recipe(self.suite)
        episodes = self.episodes(recipe)
        return Task(
            name=self.suite,
            dataset=MemoryDataset(
                [to_sample(e) for e in episodes], name=f"hat-eval-{self.suite}-{self.split}"
            ),
            solver=(
                harness_agent(max_turns=self.max_turns)
                if self.agent == "harness"
                else react_baseline()
            ),
            scorer=scorer,
            epochs=Epochs(1, part_mean()),
            config=GenerateConfig(max_tokens=turn_token_cap([e.harness.path for e in episodes])),
            version=DATASET_VERSION,
            metadata=self.metadata(recipe, episodes),
        )

    def episodes(self, recipe: Recipe) -> list[Episode]:
        """The suite's episodes, checked against their harnesses' tools."""
        cases = None
        if self.cases is not None:
            cases = tuple(read_case_file(self.cases, knowledge_base(self.kb_seed, self.shop)))
        n = self.n
        if self.split == "test" and n is not None and n >= recipe.cases:
            n = None  # the whole suite: its pinned dataset, never more cases drawn past its size
        episodes = suite_episodes(
            self.suite,
            split=self.split,
            n=n,
            harness=self.harness,
            kb_seed=self.kb_seed,
            seed=self.seed,
            versions=self.harness_version,
            changelog=self.changelog,
            shop=self.shop,
            cases=cases,
        )
        check_harness_functions(episodes)
        return episodes

    def metadata(self, recipe: Recipe, episodes: list[Episode]) -> dict[str, Any]:
        """What the log records of the run: dataset, seeds, shop, cases, agent, harness."""
        extra: dict[str, Any] = {}
        if recipe.changelog is not None:
            log = load_changelog(self.changelog or recipe.changelog)
            run = {str(e.labels["version"]) for e in episodes}
            extra["changelog"] = {  # the file, its versions and edits, the versions run
                "path": str(log.path),
                "versions": list(log.ids()),
                "edits": [
                    {
                        "edit": v.version,
                        "kind": v.edit.kind,
                        "check": v.edit.requires.check,
                        "target": v.edit.requires.target,
                        "reason": v.reason,
                    }
                    for v in log.versions
                    if v.edit is not None and v.edit.requires is not None
                ],
                "run": [v for v in log.ids() if v in run],
            }
        return {
            "suite": self.suite,
            "split": self.split,
            "cases": len(episodes),
            "dataset_sha256": dataset_sha256([e.to_row() for e in episodes]),
            "dataset_version": DATASET_VERSION,
            "case_seed": recipe.seed if self.seed is None else self.seed,
            "kb_seed": self.kb_seed,
            **({"shop": self.shop} if self.shop is not None else {}),
            **({"cases": self.cases} if self.cases is not None else {}),
            "agent": self.agent,
            "harness": self.harness or str(default_harness_path()),
            "harness_sha256": harness_sha256(self.harness),
            "disclosure": base_harness(self.harness).skill_disclosure,
            **extra,
        }
