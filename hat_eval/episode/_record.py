"""What one sample is: a viewer case, the harness in force for it, its fault plan and its world.

An :class:`Episode` is the typed record every consumer reads: the suites put it in an Inspect
sample and their solver and scorer read it back from there; the trainers, the judge and the load
harness read the same record. The harness travels as a :class:`HarnessRef` (the base file, by
path and content hash, plus the HSA variant's seed and dimensions), so the harness the agent runs
under and the harness the gold was computed for cannot differ: both come from the record, and a
base file whose content changed since the record was made is an error, not a silent mismatch.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar

from hat_eval.harness import Harness
from hat_eval.world import Case, FaultPlan

HOOK_FAULT = "hook_rejection"
"""The fault a checking hook can suffer, beside the tool faults of :data:`FAULT_KINDS`: it
rejects a reply that breaks nothing (a risk or format classifier misfiring). The agent is sent
back with the hook's message and must answer again."""

HOOK_FAULT_TRIGGERS = ("factual_risk", "reply_format")
"""The reply hooks a :class:`HookFault` can misfire as."""


@dataclass(frozen=True)
class HookFault:
    """A hook that rejects the first ``times`` replies, whatever they say.

    The robustness suite's ``hook_rejection`` fault. It needs no hook in the harness: the fault
    is the hook layer's, as a tool fault is the backend's.
    """

    trigger: str = "factual_risk"
    times: int = 1

    def __post_init__(self) -> None:
        if self.trigger not in HOOK_FAULT_TRIGGERS:
            raise ValueError(
                f"hook fault trigger {self.trigger!r} is unknown, expected one of "
                f"{', '.join(HOOK_FAULT_TRIGGERS)}"
            )
        if self.times < 1:
            raise ValueError(f"hook fault times {self.times} must be at least 1")

    kind: ClassVar[str] = HOOK_FAULT

    def to_dict(self) -> dict[str, Any]:
        """Plain data (a sample's ``hook_fault``)."""
        return {"kind": HOOK_FAULT, "trigger": self.trigger, "times": self.times}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HookFault:
        """Inverse of :meth:`to_dict`."""
        return cls(str(data.get("trigger", "factual_risk")), int(data.get("times", 1)))


class HarnessMismatchError(ValueError):
    """A sample's recorded harness hash does not match the harness file it names."""


@dataclass(frozen=True)
class HarnessRef:
    """Which harness an episode runs under: a base file and, optionally, an HSA variant of it.

    Attributes:
        path: the base harness file (None: the default live-commerce harness).
        sha256: sha256 of the base harness as :func:`hat_eval.harness.dump_harness` writes it.
        seed: the variant's HSA seed (None: the base harness itself).
        dims: the HSA dimensions the variant applies.
        protect: skill ids the variant may not mask (the case's expected skill).
    """

    path: str | None
    sha256: str
    seed: int | None = None
    dims: tuple[str, ...] = ()
    protect: tuple[str, ...] = ()

    def variant_dict(self) -> dict[str, Any] | None:
        """The ``variant`` field of a dataset row: seed, dimensions and protected skills."""
        if self.seed is None:
            return None
        return {"seed": self.seed, "dims": list(self.dims), "protect": list(self.protect)}

    def base_dict(self) -> dict[str, Any]:
        """The base file's reference, as a sample's metadata carries it."""
        return {"path": self.path, "sha256": self.sha256}

    @classmethod
    def from_parts(cls, base: dict[str, Any], variant: dict[str, Any] | None) -> HarnessRef:
        """Inverse of :meth:`base_dict` and :meth:`variant_dict`."""
        v = variant or {}
        seed = v.get("seed")
        return cls(
            path=base.get("path"),
            sha256=str(base["sha256"]),
            seed=None if seed is None else int(seed),
            dims=tuple(v.get("dims", ())),
            protect=tuple(v.get("protect", ())),
        )


@dataclass(frozen=True)
class EditRequirement:
    """What one edit of a harness changelog asks of this case's answer (the evolution suite).

    Resolved from the edit's own version (its limits, its skill id), so it can be checked on an
    answer given under any version: before the edit (did the agent already do it?), where it
    lands, and after later edits.

    Attributes:
        edit: the version that made the edit (``v2``).
        kind: the edit's kind (:data:`hat_eval.harness._changelog.EDIT_KINDS`).
        check: the requirement's check (:data:`hat_eval.harness._changelog.REQUIREMENT_CHECKS`).
        target: the fact, constraint, skill id, function id or hook the check is about.
        in_force: whether the episode's harness already has the edit.
        limits: constraint name -> value the check holds the answer to (``constraint``, and a
            ``reply_format`` hook's word and emoji limits).
    """

    edit: str
    kind: str
    check: str
    target: str = ""
    in_force: bool = False
    limits: dict[str, float] = field(default_factory=dict)

    @property
    def key(self) -> str:
        """The score key of this requirement's verdict (``requirement_v2``)."""
        return f"requirement_{self.edit}"

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> EditRequirement:
        """Inverse of :meth:`to_dict`."""
        return cls(
            edit=str(data["edit"]),
            kind=str(data["kind"]),
            check=str(data["check"]),
            target=str(data.get("target", "")),
            in_force=bool(data.get("in_force", False)),
            limits={str(k): float(v) for k, v in (data.get("limits") or {}).items()},
        )


@dataclass(frozen=True)
class Gold:
    """What is in force for a case under its harness: the ids and values the checks expect.

    Attributes:
        skill: the id in force of the expected skill (None: masked by the variant).
        skills: ids in force of every skill that fits (the expected one first).
        constraints: numeric constraint name -> value in force.
        tools: function id -> the name of the tool bound to it.
        requirements: under a harness changelog, what each of its edits that applies to the
            case asks of the answer (in force or not yet); empty elsewhere.
    """

    skill: str | None
    skills: tuple[str, ...]
    constraints: dict[str, int | float] = field(default_factory=dict)
    tools: dict[str, str] = field(default_factory=dict)
    requirements: tuple[EditRequirement, ...] = ()

    @classmethod
    def in_force(
        cls,
        harness: Harness,
        skills: Sequence[str | None],
        requirements: Sequence[EditRequirement] = (),
    ) -> Gold:
        """The gold under ``harness`` (its limits and tools) with ``skills`` in force.

        ``skills``: the ids there of every skill that fits, the expected one first (None: masked).
        """
        return cls(
            skill=skills[0] if skills else None,
            skills=tuple(s for s in skills if s is not None),
            constraints={name: c.value for name, c in harness.constraints().items()},
            tools={t.function: t.name for t in harness.tools},
            requirements=tuple(requirements),
        )

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data (the dataset row's ``gold``; ``requirements`` only when there are)."""
        out: dict[str, Any] = {
            "skill": self.skill,
            "skills": list(self.skills),
            "constraints": dict(self.constraints),
            "tools": dict(self.tools),
        }
        if self.requirements:
            out["requirements"] = [r.to_dict() for r in self.requirements]
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Gold:
        """Inverse of :meth:`to_dict`."""
        return cls(
            skill=data.get("skill"),
            skills=tuple(data.get("skills", ())),
            constraints=dict(data.get("constraints", {})),
            tools=dict(data.get("tools", {})),
            requirements=tuple(EditRequirement.from_dict(r) for r in data.get("requirements", ())),
        )


@dataclass(frozen=True)
class Episode:
    """One sample of a suite (or of a training split): everything needed to run and score it.

    Attributes:
        id: the sample id (``<suite>-<case id>``).
        suite: the episode set it belongs to (its :class:`Recipe`'s name: a suite's name).
        case: the viewer case with its gold facts, calls and forbidden claims.
        harness: the harness in force.
        fault: the injected tool fault, if any.
        kb_seed: seed of the knowledge base the case was generated from.
        gold: what is in force under :attr:`harness` (computed from it when the episode is made).
        labels: grouping labels for metrics (``dims``, ``held_out``, ``perturbation``, ``fault``;
            ``version``, the changelog version, in the evolution suite).
        hook_fault: a checking hook's injected misfire (the robustness suite's
            ``hook_rejection`` fault), instead of a tool fault.
        shop: the shop folder (a data pack) the case was generated from and runs against,
            instead of the knowledge base of ``kb_seed`` (None: the built-in shop's).
    """

    id: str
    suite: str
    case: Case
    harness: HarnessRef
    fault: FaultPlan | None
    kb_seed: int
    gold: Gold
    labels: dict[str, Any] = field(default_factory=dict)
    hook_fault: HookFault | None = None
    shop: str | None = None

    def metadata(self) -> dict[str, Any]:
        """The row metadata without case and gold (what an Inspect sample's metadata holds).

        ``hook_fault`` and ``shop`` are there only when the episode has one, so other rows keep
        their bytes.
        """
        out = {
            "suite": self.suite,
            "intent": self.case.intent,
            "style": self.case.style,
            **self.labels,
            "fault_plan": _fault_dict(self.fault),
            "variant": self.harness.variant_dict(),
            "kb_seed": self.kb_seed,
        }
        if self.hook_fault is not None:
            out["hook_fault"] = self.hook_fault.to_dict()
        if self.shop is not None:
            out["shop"] = self.shop
        return out

    def to_row(self) -> dict[str, Any]:
        """The dataset row: plain JSON whose canonical bytes :func:`dataset_sha256` hashes.

        The base harness's path and hash are not part of the row: the gold already depends on
        the harness, and the hash of a dataset names its cases and gold, not where a file lay.
        """
        return {
            "id": self.id,
            "input": self.case.message,
            "metadata": {
                **self.metadata(),
                "gold": self.gold.to_dict(),
                "case": self.case.to_dict(),
            },
        }

    @classmethod
    def from_row(cls, row: dict[str, Any], base: dict[str, Any]) -> Episode:
        """Inverse of :meth:`to_row`, with the base harness reference ``{"path", "sha256"}``."""
        md = row["metadata"]
        return cls.from_parts(str(row["id"]), md, md["case"], md["gold"], base)

    @classmethod
    def from_parts(
        cls,
        id: str,
        metadata: dict[str, Any],
        case: dict[str, Any],
        gold: dict[str, Any],
        base: dict[str, Any],
    ) -> Episode:
        """An episode from its metadata, case, gold and base harness reference (plain JSON)."""
        fault = metadata.get("fault_plan")
        hook_fault = metadata.get("hook_fault")
        return cls(
            id=id,
            suite=str(metadata["suite"]),
            case=Case.from_dict(case),
            harness=HarnessRef.from_parts(base, metadata.get("variant")),
            fault=FaultPlan.from_dict(fault) if fault else None,
            kb_seed=int(metadata.get("kb_seed", 0)),
            gold=Gold.from_dict(gold),
            labels={k: metadata[k] for k in LABELS if k in metadata},
            hook_fault=HookFault.from_dict(hook_fault) if hook_fault else None,
            shop=metadata.get("shop"),
        )


LABELS = ("dims", "held_out", "perturbation", "fault", "version")
"""Metadata labels an episode carries for per-group metrics."""


def _fault_dict(fault: FaultPlan | None) -> dict[str, Any] | None:
    # the rows' form: ``after`` only when a fault starts late
    if fault is None:
        return None
    data = fault.to_dict()
    if not data.get("after"):
        data.pop("after", None)
    return data
